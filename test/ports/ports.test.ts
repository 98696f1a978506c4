import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileSystem, FsError } from '../../src/ports/fs.js';
import { realRunner } from '../../src/ports/runner.js';
import { readAssetBytes } from '../../src/ports/assets.js';
import { pathToFileURL } from 'node:url';
import { fakeBin, tempDir } from '../helpers/fake-bin.js';

describe('process runner', () => {
  it('runs argv without a shell: metacharacters reach the program as text', async () => {
    const r = await realRunner.run('printf', ['%s', '$(echo hacked); rm -rf /'], {});
    expect(r).toMatchObject({ kind: 'ok', stdout: '$(echo hacked); rm -rf /' });
  });
  it('not found, non-zero, signal', async () => {
    expect((await realRunner.run('/nonexistent/prog', [])).kind).toBe('not-found');
    expect(await realRunner.run('sh', ['-c', 'echo oops >&2; exit 3'])).toMatchObject({
      kind: 'non-zero',
      code: 3,
      stderr: 'oops\n',
    });
    expect(await realRunner.run('sh', ['-c', 'kill -TERM $$'])).toMatchObject({ kind: 'signal', signal: 'SIGTERM' });
  });
  it('kills a hanging program and its children at the timeout', async () => {
    const dir = tempDir();
    const marker = path.join(dir, 'child-alive');
    const t0 = Date.now();
    const r = await realRunner.run('sh', ['-c', `(sleep 2; touch ${marker}) & sleep 30`], { timeoutMs: 300 });
    expect(r.kind).toBe('timeout');
    expect(Date.now() - t0).toBeLessThan(5000);
    await new Promise((res) => setTimeout(res, 2500));
    expect(fs.existsSync(marker)).toBe(false); // the grandchild died with the group
  });
  it('closes stdin: a program that reads it sees end of file instead of hanging', async () => {
    const r = await realRunner.run('cat', [], { timeoutMs: 2000 });
    expect(r).toMatchObject({ kind: 'ok', stdout: '' });
  });
  it('permission denied on a file that is not executable', async () => {
    const dir = tempDir();
    const p = path.join(dir, 'noexec');
    fs.writeFileSync(p, '#!/bin/sh\necho hi\n', { mode: 0o644 });
    expect((await realRunner.run(p, [])).kind).toBe('permission');
  });
  it('bounds the output it keeps', async () => {
    const bin = tempDir();
    fakeBin(bin, 'big', 'head -c 3000000 /dev/zero');
    const r = await realRunner.run(path.join(bin, 'big'), [], { maxBytes: 100000 });
    expect(r.kind).toBe('ok');
    if (r.kind === 'ok') expect(r.stdout.length).toBeLessThan(200000);
  });
});

describe('filesystem rooted at --root', () => {
  const root = tempDir('ged-fs-');
  fs.mkdirSync(path.join(root, 'usr/lib'), { recursive: true });
  fs.writeFileSync(path.join(root, 'usr/lib/libx.so.1.2'), 'ELF?');
  fs.symlinkSync('libx.so.1.2', path.join(root, 'usr/lib/libx.so.1'));
  fs.symlinkSync('/usr/lib/libx.so.1', path.join(root, 'usr/lib/abs-link')); // absolute: must stay in the root
  fs.symlinkSync('loop-b', path.join(root, 'usr/lib/loop-a'));
  fs.symlinkSync('loop-a', path.join(root, 'usr/lib/loop-b'));
  const f = createFileSystem(root);

  it('maps machine paths under the root and resolves links inside it', () => {
    expect(f.readText('/usr/lib/libx.so.1')).toBe('ELF?');
    expect(f.realpath('/usr/lib/abs-link')).toBe('/usr/lib/libx.so.1.2');
    expect(f.readText('/usr/lib/abs-link')).toBe('ELF?');
  });
  it('reports a symlink loop as ELOOP, not a hang or a crash', () => {
    expect(() => f.realpath('/usr/lib/loop-a')).toThrow(FsError);
    try {
      f.readText('/usr/lib/loop-a');
    } catch (e) {
      expect((e as FsError).code).toBe('ELOOP');
    }
  });
  it('a missing file is ENOENT; `..` cannot climb out of the root', () => {
    expect(() => f.readText('/etc/passwd')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(f.exists('/../../../../usr/lib/libx.so.1.2')).toBe(true);
  });
  it('reads byte ranges, short at the end of the file', () => {
    expect(f.readBytes('/usr/lib/libx.so.1.2', 2, 100).toString()).toBe('F?');
  });
});

describe("a part of the tool's own files", () => {
  it('reads bytes [start, end) as Latin-1 text, fewer past the end, none from past the end', () => {
    const dir = tempDir('ged-asset-');
    const file = path.join(dir, 'a.json');
    fs.writeFileSync(file, Buffer.from([0x61, 0x62, 0x0a, 0x63, 0xe9, 0x64]));
    const url = pathToFileURL(file);
    expect(readAssetBytes(url, 0, 2)).toBe('ab');
    expect(readAssetBytes(url, 3, 6)).toBe('c\u00e9d');
    expect(readAssetBytes(url, 4, 100)).toBe('\u00e9d');
    expect(readAssetBytes(url, 10, 20)).toBe('');
    expect(readAssetBytes(url, 2, 2)).toBe('');
    expect(() => readAssetBytes(pathToFileURL(path.join(dir, 'none.json')), 0, 1)).toThrow(/ENOENT/);
  });
});
