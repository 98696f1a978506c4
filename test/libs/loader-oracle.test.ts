// The loader emulation against the real loader of this machine: real libraries and programs built with gcc,
// resolved by glibc (LD_TRACE_LOADED_OBJECTS, and a dlopen program printing /proc/self/maps) and by us.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileSystem } from '../../src/ports/fs.js';
import { LoaderProcess, type Resolution } from '../../src/gather/libraries/loader.js';
import { loaderConfig } from '../../src/gather/libraries/platform.js';
import { parseLdCache } from '../../src/gather/libraries/ldcache.js';
import { tempDir } from '../helpers/fake-bin.js';
import { buildLib, buildProgram, DLOPEN_PROGRAM, OPENER_SOURCE, realMaps, realTrace } from './build.js';

let B = '';
const realFs = createFileSystem('/');
const cache = parseLdCache(fs.readFileSync('/etc/ld.so.cache'));

function emulate(program: string, env: Record<string, string> = {}): Map<string, Resolution> {
  const p = new LoaderProcess(loaderConfig(realFs, env, cache));
  const out = new Map<string, Resolution>();
  for (const r of p.exec(program)) if (!out.has(r.name)) out.set(r.name, r);
  return out;
}

/** Every name the real loader resolved must resolve to the same real file in the emulation. */
function expectSameAsRealLoader(program: string, env: Record<string, string> = {}): Map<string, Resolution> {
  const real = realTrace(program, env);
  const ours = emulate(program, env);
  expect(real.lines.length).toBeGreaterThan(0);
  for (const line of real.lines) {
    if (line.name.startsWith('linux-vdso') || line.name.startsWith('/')) continue;
    const r = ours.get(line.name);
    expect(r, `emulation has no answer for ${line.name}`).toBeDefined();
    expect({ name: line.name, path: r!.realPath }).toEqual({ name: line.name, path: line.path });
  }
  return ours;
}

const real = (p: string) => fs.realpathSync(p);

beforeAll(() => {
  B = tempDir('ged-loader-');
  buildLib(B, { file: 'a/libv.so.1.0.0', soname: 'libv.so.1', value: 1, links: ['a/libv.so.1'] });
  buildLib(B, { file: 'b/libv.so.1.2.0', soname: 'libv.so.1', value: 2, links: ['b/libv.so.1'] });
  buildLib(B, { file: 'm/libmid.so', soname: 'libmid.so', needed: [`${B}/a/libv.so.1`] });
  buildLib(B, { file: 'm2/libmidrun.so', soname: 'libmidrun.so', needed: [`${B}/a/libv.so.1`], runpath: `${B}/b` });
  buildLib(B, { file: 'gone/libgone.so.3', soname: 'libgone.so.3' });
  buildLib(B, {
    file: 'o/libopener.so',
    soname: 'libopener.so',
    source: OPENER_SOURCE,
    runpath: `${B}/b`,
    needed: ['-ldl'],
  });
  const v = `${B}/a/libv.so.1`;
  buildProgram(B, 'p_rpath', { libs: [v], rpath: `${B}/a` });
  buildProgram(B, 'p_runpath', { libs: [v], runpath: `${B}/a` });
  buildProgram(B, 'p_bare', { libs: [v] });
  buildProgram(B, 'p_inherit', { libs: [`${B}/m/libmid.so`], rpath: `${B}/b:${B}/m` });
  buildProgram(B, 'p_inherit_runpath', { libs: [`${B}/m/libmid.so`], runpath: `${B}/b:${B}/m` });
  buildProgram(B, 'p_midrun', { libs: [`${B}/m2/libmidrun.so`], rpath: `${B}/a:${B}/m2` });
  buildProgram(B, 'bin/p_origin', { libs: [v], runpath: '$ORIGIN/../b' });
  buildProgram(B, 'p_missing', { libs: [v, `${B}/gone/libgone.so.3`], runpath: `${B}/a:${B}/gone` });
  fs.rmSync(`${B}/gone/libgone.so.3`);
  const z = ['/lib/x86_64-linux-gnu/libz.so.1', '/usr/lib/x86_64-linux-gnu/libz.so.1'].find((f) => fs.existsSync(f));
  if (z) buildProgram(B, 'p_cache', { libs: [z, v], runpath: `${B}/a` });
  // A copy of libv for another machine (e_machine patched to AArch64): glibc skips it silently.
  fs.mkdirSync(`${B}/w`);
  const other = fs.readFileSync(`${B}/a/libv.so.1.0.0`);
  other.writeUInt16LE(183, 18);
  fs.writeFileSync(`${B}/w/libv.so.1`, other);
  // A text file where a library is expected: glibc stops with "invalid ELF header".
  fs.mkdirSync(`${B}/n`);
  fs.writeFileSync(
    `${B}/n/libv.so.1`,
    'INPUT(this is a linker script, not a library, and it is long enough to be read as a header)\n',
  );
  // A symbolic link loop where a library is expected.
  fs.mkdirSync(`${B}/l`);
  fs.symlinkSync('libv.so.1', `${B}/l/libv.so.1`);
  // glibc-hwcaps: the x86-64-v2 subfolder is preferred over its parent on any x86-64-v2 CPU.
  buildLib(B, { file: 'h/glibc-hwcaps/x86-64-v2/libv.so.1', soname: 'libv.so.1', value: 3 });
  buildLib(B, { file: 'h/libv.so.1', soname: 'libv.so.1', value: 4 });
  buildProgram(B, 'p_hwcaps', { libs: [v], runpath: `${B}/h` });
  buildProgram(B, 'dl', { libs: [], source: DLOPEN_PROGRAM });
}, 120000);
afterAll(() => fs.rmSync(B, { recursive: true, force: true }));

describe('loader emulation agrees with the real loader (LD_TRACE_LOADED_OBJECTS)', () => {
  it('DT_RPATH wins over LD_LIBRARY_PATH', () => {
    const r = expectSameAsRealLoader(`${B}/p_rpath`, { LD_LIBRARY_PATH: `${B}/b` });
    expect(r.get('libv.so.1')).toMatchObject({ via: 'rpath', realPath: real(`${B}/a/libv.so.1.0.0`) });
    expect(r.get('libv.so.1')!.shadowed).toContainEqual({ path: `${B}/b/libv.so.1`, via: 'ld_library_path' });
  });
  it('LD_LIBRARY_PATH wins over DT_RUNPATH', () => {
    const r = expectSameAsRealLoader(`${B}/p_runpath`, { LD_LIBRARY_PATH: `${B}/b` });
    expect(r.get('libv.so.1')).toMatchObject({ via: 'ld_library_path', realPath: real(`${B}/b/libv.so.1.2.0`) });
  });
  it('DT_RUNPATH is used without LD_LIBRARY_PATH', () => {
    expect(expectSameAsRealLoader(`${B}/p_runpath`).get('libv.so.1')).toMatchObject({ via: 'runpath' });
  });
  it('a dependency inherits the program’s DT_RPATH', () => {
    const r = expectSameAsRealLoader(`${B}/p_inherit`, { LD_LIBRARY_PATH: `${B}/a` });
    expect(r.get('libv.so.1')).toMatchObject({
      via: 'rpath',
      realPath: real(`${B}/b/libv.so.1.2.0`),
      requestedBy: `${B}/m/libmid.so`,
    });
  });
  it('DT_RUNPATH is not inherited by dependencies', () => {
    const r = expectSameAsRealLoader(`${B}/p_inherit_runpath`, { LD_LIBRARY_PATH: `${B}/a` });
    expect(r.get('libv.so.1')).toMatchObject({ via: 'ld_library_path', realPath: real(`${B}/a/libv.so.1.0.0`) });
    expect(emulate(`${B}/p_inherit_runpath`).get('libv.so.1')!.via).toBe('not_found');
    expect(realTrace(`${B}/p_inherit_runpath`).lines.find((l) => l.name === 'libv.so.1')!.path).toBeNull();
  });
  it('an object with DT_RUNPATH does not use the inherited DT_RPATH', () => {
    const r = expectSameAsRealLoader(`${B}/p_midrun`);
    expect(r.get('libv.so.1')).toMatchObject({ via: 'runpath', realPath: real(`${B}/b/libv.so.1.2.0`) });
  });
  it('$ORIGIN expands to the folder of the object', () => {
    expect(expectSameAsRealLoader(`${B}/bin/p_origin`).get('libv.so.1')).toMatchObject({
      via: 'runpath',
      realPath: real(`${B}/b/libv.so.1.2.0`),
    });
  });
  it('a missing dependency is not found, the rest still resolves', () => {
    const r = expectSameAsRealLoader(`${B}/p_missing`);
    expect(r.get('libgone.so.3')).toMatchObject({ via: 'not_found', path: null });
  });
  it('system libraries come from the ld cache', () => {
    if (!fs.existsSync(`${B}/p_cache`)) return;
    expect(expectSameAsRealLoader(`${B}/p_cache`).get('libz.so.1')!.via).toBe('ld_cache');
  });
  it('a library built for another machine is skipped, as glibc does', () => {
    const r = expectSameAsRealLoader(`${B}/p_runpath`, { LD_LIBRARY_PATH: `${B}/w:${B}/b` });
    expect(r.get('libv.so.1')).toMatchObject({
      via: 'ld_library_path',
      realPath: real(`${B}/b/libv.so.1.2.0`),
      skipped: [`${B}/w/libv.so.1`],
    });
  });
  it('a non-ELF file in the way stops the load with an error', () => {
    const realRun = realTrace(`${B}/p_runpath`, { LD_LIBRARY_PATH: `${B}/n:${B}/b` });
    expect(realRun.stderr).toMatch(/invalid ELF header|file too short/);
    const r = emulate(`${B}/p_runpath`, { LD_LIBRARY_PATH: `${B}/n:${B}/b` }).get('libv.so.1')!;
    expect(r.via).toBe('not_found');
    expect(r.error).toMatch(/not an ELF file/);
  });
  it('a symbolic link loop ends that route (LD_LIBRARY_PATH), the next route (RUNPATH) answers', () => {
    const r = expectSameAsRealLoader(`${B}/p_runpath`, { LD_LIBRARY_PATH: `${B}/l:${B}/b` });
    expect(r.get('libv.so.1')).toMatchObject({ via: 'runpath', realPath: real(`${B}/a/libv.so.1.0.0`) });
  });
  it('glibc-hwcaps subfolders come first', () => {
    expectSameAsRealLoader(`${B}/p_hwcaps`);
  });
});

describe('dlopen by name from inside a library, and preloading (the real loader via /proc/self/maps)', () => {
  const libvIn = (files: string[]) => files.filter((f) => /\/libv\.so/.test(f));
  it("dlopen from a library uses that library's DT_RUNPATH, after LD_LIBRARY_PATH", () => {
    for (const env of [{}, { LD_LIBRARY_PATH: `${B}/a` }] as Record<string, string>[]) {
      const realRun = realMaps(`${B}/dl`, [`@${B}/o/libopener.so:libv.so.1`], env);
      const p = new LoaderProcess(loaderConfig(realFs, env, cache));
      p.loadPath(`${B}/o/libopener.so`);
      const caller = p.findObject((o) => o.elf.soname === 'libopener.so')!;
      const [r] = p.dlopen('libv.so.1', caller);
      expect(libvIn(realRun.files)).toEqual([r!.realPath]);
    }
  });
  it('a library loaded by path first answers every later request for its soname', () => {
    const env = { LD_LIBRARY_PATH: `${B}/a` };
    const realRun = realMaps(`${B}/dl`, [`${B}/b/libv.so.1`, `@${B}/o/libopener.so:libv.so.1`], env);
    const p = new LoaderProcess(loaderConfig(realFs, env, cache));
    p.loadPath(`${B}/b/libv.so.1`, 'preloaded');
    p.loadPath(`${B}/o/libopener.so`);
    const [r] = p.dlopen('libv.so.1', p.findObject((o) => o.elf.soname === 'libopener.so')!);
    expect(r).toMatchObject({ via: 'preloaded', realPath: real(`${B}/b/libv.so.1.2.0`) });
    expect(libvIn(realRun.files)).toEqual([r!.realPath]);
  });
});

describe('emulation details', () => {
  it('expands $LIB and $PLATFORM as configured', () => {
    const p = new LoaderProcess({ ...loaderConfig(realFs, {}, cache), lib: 'lib64', platform: 'x86_64' });
    expect(p.expand('/opt/$LIB/${PLATFORM}/x', null)).toBe('/opt/lib64/x86_64/x');
    expect(p.expand('$ORIGIN/x', null)).toBeNull();
  });
  it('reports the libraries a search passes over (same soname, other copies)', () => {
    const r = emulate(`${B}/p_runpath`, { LD_LIBRARY_PATH: `${B}/b:${B}/h` }).get('libv.so.1')!;
    expect(r.path).toBe(`${B}/b/libv.so.1`);
    expect(r.shadowed.map((c) => c.path)).toEqual([
      `${B}/h/glibc-hwcaps/x86-64-v2/libv.so.1`,
      `${B}/h/libv.so.1`,
      `${B}/a/libv.so.1`,
    ]);
    expect(path.basename(real(r.path!))).toBe('libv.so.1.2.0');
  });
});
