import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileSystem } from '../../src/ports/fs.js';
import { probeToolkit } from '../../src/gather/toolkit.js';
import { makeRoot } from '../helpers/fixture-root.js';

// The layout of the H200's toolkit (test/fixtures/h200/idle/usr-local.txt): /usr/local/cuda → cuda-13.0.
function toolkitRoot(versionFile: 'json' | 'txt' | 'none'): string {
  const root = makeRoot();
  const tk = path.join(root, 'usr/local/cuda-13.0');
  fs.mkdirSync(path.join(tk, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(tk, 'bin/nvcc'), '#!/bin/false\n', { mode: 0o755 });
  fs.symlinkSync('/usr/local/cuda-13.0', path.join(root, 'usr/local/cuda'));
  if (versionFile === 'json')
    fs.writeFileSync(
      path.join(tk, 'version.json'),
      JSON.stringify({
        cuda: { name: 'CUDA SDK', version: '13.0.2' },
        cuda_nvcc: { name: 'CUDA NVCC', version: '13.0.88' },
      }),
    );
  if (versionFile === 'txt') fs.writeFileSync(path.join(tk, 'version.txt'), 'CUDA Version 11.8.89\n');
  return root;
}

describe('CUDA toolkit probe (files only)', () => {
  it('finds nvcc on PATH through the /usr/local/cuda link and reads version.json', () => {
    const r = probeToolkit(createFileSystem(toolkitRoot('json')), { PATH: '/usr/local/cuda/bin:/usr/bin' });
    expect(r.nvcc).toEqual({
      path: '/usr/local/cuda/bin/nvcc',
      root: '/usr/local/cuda-13.0',
      version: '13.0.88',
      source: '/usr/local/cuda-13.0/version.json',
    });
  });
  it('falls back to /usr/local/cuda and to version.txt (CUDA 11)', () => {
    const r = probeToolkit(createFileSystem(toolkitRoot('txt')), { PATH: '/usr/bin' });
    expect(r.nvcc?.version).toBe('11.8.89');
  });
  it('no version file: nvcc found, version unknown; no toolkit: null', () => {
    expect(probeToolkit(createFileSystem(toolkitRoot('none')), {}).nvcc?.version).toBeNull();
    expect(probeToolkit(createFileSystem(makeRoot()), { PATH: '/usr/bin' }).nvcc).toBeNull();
  });
});
