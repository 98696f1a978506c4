// The loader emulation answers "is NAME in this folder?" from one listing of the folder rather than a lookup per
// (folder, name): the same resolutions as the lookups give, and as the real loader gives, for what a listing could
// get wrong — links (to files, dangling, in a loop), folders reached through a link, glibc-hwcaps subfolders,
// folders that cannot be listed (each name looked up), a folder whose lookups ignore case.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileSystem, FsError, type FileSystem } from '../../src/ports/fs.js';
import { LoaderProcess, type Resolution } from '../../src/gather/libraries/loader.js';
import { loaderConfig } from '../../src/gather/libraries/platform.js';
import { parseLdCache } from '../../src/gather/libraries/ldcache.js';
import { tempDir } from '../helpers/fake-bin.js';
import { buildLib, buildProgram, realTrace } from './build.js';

let B = '';
const cache = parseLdCache(fs.readFileSync('/etc/ld.so.cache'));

/** The real filesystem with its questions counted; `unlistable` folders refuse to be listed (EACCES). */
function counting(unlistable: (dir: string) => boolean = () => false) {
  const real = createFileSystem('/');
  const n = { readdir: 0, tryStat: 0 };
  const fsys: FileSystem = {
    ...real,
    readdir(p) {
      n.readdir++;
      if (unlistable(p)) throw new FsError('EACCES', p, `${p}: permission denied`);
      return real.readdir(p);
    },
    tryStat(p) {
      n.tryStat++;
      return real.tryStat(p);
    },
  };
  return { fsys, n };
}

function emulate(fsys: FileSystem, program: string, env: Record<string, string>): Resolution[] {
  return new LoaderProcess(loaderConfig(fsys, env, cache)).exec(program);
}

/** Listed, not listed at all, and the real loader: the same answers. */
function expectSameEveryWay(program: string, env: Record<string, string>): Resolution[] {
  const listed = counting();
  const looked = counting(() => true);
  const a = emulate(listed.fsys, program, env);
  const b = emulate(looked.fsys, program, env);
  expect(a).toEqual(b);
  // fewer lookups for it: the folders searched in vain are listed once
  expect(listed.n.tryStat).toBeLessThan(looked.n.tryStat);
  const real = realTrace(program, env);
  for (const line of real.lines) {
    if (line.name.startsWith('linux-vdso') || line.name.startsWith('/')) continue;
    const r = a.find((x) => x.name === line.name);
    expect({ name: line.name, path: r?.realPath ?? null }).toEqual({ name: line.name, path: line.path });
  }
  return a;
}

const libv = (r: Resolution[]) => r.find((x) => x.name === 'libv.so.1')!;

beforeAll(() => {
  B = tempDir('ged-listing-');
  buildLib(B, { file: 'a/libv.so.1.0.0', soname: 'libv.so.1', value: 1, links: ['a/libv.so.1'] });
  buildLib(B, { file: 'b/libv.so.1.2.0', soname: 'libv.so.1', value: 2, links: ['b/libv.so.1'] });
  buildProgram(B, 'p_runpath', { libs: [`${B}/a/libv.so.1`], runpath: `${B}/a` });
  // a dangling link where the library is expected: not there
  fs.mkdirSync(`${B}/dangling`);
  fs.symlinkSync('libv.so.1.9', `${B}/dangling/libv.so.1`);
  // a link to a file in another folder: there
  fs.mkdirSync(`${B}/linked`);
  fs.symlinkSync('../b/libv.so.1.2.0', `${B}/linked/libv.so.1`);
  // a folder reached through a link
  fs.symlinkSync('b', `${B}/via-link`);
  // a link loop: ends that route
  fs.mkdirSync(`${B}/loop`);
  fs.symlinkSync('libv.so.1', `${B}/loop/libv.so.1`);
  // glibc-hwcaps: the x86-64-v2 subfolder before its parent
  buildLib(B, { file: 'h/glibc-hwcaps/x86-64-v2/libv.so.1', soname: 'libv.so.1', value: 3 });
  buildLib(B, { file: 'h/libv.so.1', soname: 'libv.so.1', value: 4 });
  // a file where a folder is expected
  fs.writeFileSync(`${B}/notdir`, '');
}, 120_000);
afterAll(() => fs.rmSync(B, { recursive: true, force: true }));

describe('the candidate search from folder listings', () => {
  it('a dangling link is not there: the next folder answers', () => {
    const r = expectSameEveryWay(`${B}/p_runpath`, { LD_LIBRARY_PATH: `${B}/dangling:${B}/missing:${B}/b` });
    expect(libv(r)).toMatchObject({ via: 'ld_library_path', path: `${B}/b/libv.so.1` });
  });

  it('a link to a file elsewhere, and a folder reached through a link, are there', () => {
    const r = expectSameEveryWay(`${B}/p_runpath`, { LD_LIBRARY_PATH: `${B}/linked:${B}/via-link` });
    expect(libv(r)).toMatchObject({ via: 'ld_library_path', path: `${B}/linked/libv.so.1` });
    expect(libv(r).shadowed.map((c) => c.path)).toContain(`${B}/via-link/libv.so.1`);
    const through = expectSameEveryWay(`${B}/p_runpath`, { LD_LIBRARY_PATH: `${B}/notdir:${B}/via-link` });
    expect(libv(through)).toMatchObject({ path: `${B}/via-link/libv.so.1` });
  });

  it('a link loop ends its route with the error; the next route answers', () => {
    const r = expectSameEveryWay(`${B}/p_runpath`, { LD_LIBRARY_PATH: `${B}/loop:${B}/b` });
    expect(libv(r)).toMatchObject({ via: 'runpath', path: `${B}/a/libv.so.1` });
  });

  it('glibc-hwcaps subfolders come first', () => {
    const r = expectSameEveryWay(`${B}/p_runpath`, { LD_LIBRARY_PATH: `${B}/h` });
    if (loaderConfig(createFileSystem('/'), {}, cache).hwcaps.includes('x86-64-v2'))
      expect(libv(r).path).toBe(`${B}/h/glibc-hwcaps/x86-64-v2/libv.so.1`);
  });

  it('a folder that cannot be listed is searched name by name', () => {
    const env = { LD_LIBRARY_PATH: `${B}/linked:${B}/b` };
    const some = counting((d) => d === `${B}/linked`);
    const all = counting(() => true);
    const a = emulate(some.fsys, `${B}/p_runpath`, env);
    expect(a).toEqual(emulate(all.fsys, `${B}/p_runpath`, env));
    expect(libv(a)).toMatchObject({ via: 'ld_library_path', path: `${B}/linked/libv.so.1` });
  });

  it('a folder whose lookups ignore case: a name listed in another case is looked up', () => {
    // what a casefolded folder does: LIBV.SO.1 listed, libv.so.1 found by the lookup
    fs.mkdirSync(`${B}/folded`);
    fs.copyFileSync(`${B}/b/libv.so.1.2.0`, `${B}/folded/LIBV.SO.1`);
    const real = createFileSystem('/');
    const folded = (p: string) => (p.startsWith(`${B}/folded/`) ? `${B}/folded/${path.basename(p).toUpperCase()}` : p);
    const fsys: FileSystem = {
      ...real,
      tryStat: (p) => real.tryStat(folded(p)),
      stat: (p) => real.stat(folded(p)),
      realpath: (p) => real.realpath(folded(p)),
      readBytes: (p, o, l) => real.readBytes(folded(p), o, l),
      openReader: (p) => real.openReader(folded(p)),
    };
    const r = emulate(fsys, `${B}/p_runpath`, { LD_LIBRARY_PATH: `${B}/folded` });
    expect(libv(r)).toMatchObject({ via: 'ld_library_path', path: `${B}/folded/libv.so.1` });
  });
});
