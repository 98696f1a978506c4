import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFatbinTargets } from '../../src/gather/libraries/fatbin.js';
import { createFileSystem } from '../../src/ports/fs.js';
import { tempDir } from '../helpers/fake-bin.js';

const FIX = path.resolve(__dirname, '../fixtures/cuda');
const fsys = createFileSystem('/');

describe("GPU architectures in a library's fatbinary", () => {
  it('reads sm_75 and sm_90 machine code and compute_90 PTX from a library nvcc built', () => {
    expect(readFatbinTargets(fsys, path.join(FIX, 'libk-sm75-sm90-ptx90.so'))).toEqual({
      sass: ['sm_75', 'sm_90'],
      ptx: ['compute_90'],
      entries: 5,
    });
  });

  it('no fatbinary, not ELF, truncated, missing: null, never a throw', () => {
    const dir = tempDir();
    const lib = path.join(FIX, 'libk-sm75-sm90-ptx90.so');
    fs.writeFileSync(path.join(dir, 'text.so'), 'not an ELF file');
    fs.writeFileSync(path.join(dir, 'cut.so'), fs.readFileSync(lib).subarray(0, 9000)); // header and part of the fatbin
    expect(readFatbinTargets(fsys, '/bin/sh')).toBeNull();
    expect(readFatbinTargets(fsys, path.join(dir, 'text.so'))).toBeNull();
    expect(readFatbinTargets(fsys, path.join(dir, 'cut.so'))).toBeNull();
    expect(readFatbinTargets(fsys, path.join(dir, 'missing.so'))).toBeNull();
  });

  const nvcc = spawnSync('nvcc', ['--version'], { encoding: 'utf8' });
  it.skipIf(nvcc.status !== 0)('a library built now with nvcc for other targets (sm_80 + PTX compute_86)', () => {
    const dir = tempDir();
    const out = path.join(dir, 'libk.so');
    const r = spawnSync(
      'nvcc',
      [
        '-shared',
        '-Xcompiler',
        '-fPIC',
        '-cudart',
        'shared',
        '-gencode',
        'arch=compute_80,code=sm_80',
        '-gencode',
        'arch=compute_86,code=compute_86',
        '-o',
        out,
        path.join(FIX, 'k.cu'),
      ],
      { encoding: 'utf8', timeout: 120000 },
    );
    expect(r.status, r.stderr).toBe(0);
    const t = readFatbinTargets(fsys, out)!;
    expect(t.sass).toEqual(['sm_80']);
    expect(t.ptx).toEqual(['compute_86']);
  });
});

describe('fatbinary with compressed and arch-specific entries', () => {
  const nvcc = spawnSync('nvcc', ['--version'], { encoding: 'utf8' });
  it.skipIf(nvcc.status !== 0)(
    'reads the headers of compressed entries (-Xfatbin -compress-all, as the PyTorch wheels are built) and sm_90a as sm_90',
    () => {
      const dir = tempDir();
      const out = path.join(dir, 'libkc.so');
      const r = spawnSync(
        'nvcc',
        [
          '-shared',
          '-Xcompiler',
          '-fPIC',
          '-cudart',
          'shared',
          '-Xfatbin',
          '-compress-all',
          '-gencode',
          'arch=compute_75,code=sm_75',
          '-gencode',
          'arch=compute_90a,code=sm_90a',
          '-gencode',
          'arch=compute_100,code=sm_100',
          '-gencode',
          'arch=compute_120,code=compute_120',
          '-o',
          out,
          path.join(FIX, 'k.cu'),
        ],
        { encoding: 'utf8', timeout: 120000 },
      );
      expect(r.status, r.stderr).toBe(0);
      expect(readFatbinTargets(fsys, out)).toMatchObject({ sass: ['sm_75', 'sm_90', 'sm_100'], ptx: ['compute_120'] });
    },
  );
  it('gives up (null, not a partial list) when the time budget is spent', () => {
    expect(readFatbinTargets(fsys, path.join(FIX, 'libk-sm75-sm90-ptx90.so'), -1)).toBeNull();
  });
});
