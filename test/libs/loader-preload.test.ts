// The loader emulation against the real loader for what ld.so does before and around the NEEDED search:
// LD_PRELOAD (by path and by name, a missing one ignored), /etc/ld.so.preload (under --root: writing the real
// one would change every process here), a soname already loaded answering later requests, symbols bound in the
// global scope (the preload wins over a handle's own file), and the files that cannot be used: cut short after
// the headers (mapped, then SIGBUS), too short for a header (an error), another ELF class (skipped).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileSystem } from '../../src/ports/fs.js';
import { LoaderProcess, type Resolution } from '../../src/gather/libraries/loader.js';
import { loaderConfig, preloadList } from '../../src/gather/libraries/platform.js';
import { parseLdCache } from '../../src/gather/libraries/ldcache.js';
import { readElf } from '../../src/gather/libraries/elf.js';
import { tempDir } from '../helpers/fake-bin.js';
import { buildLib, buildProgram } from './build.js';

let B = '';
const realFs = createFileSystem('/');
const cache = parseLdCache(fs.readFileSync('/etc/ld.so.cache'));
const real = (p: string) => fs.realpathSync(p);

/** A program that calls which() from libw.so.1, prints "VALUE n" and the libw files in its maps. */
const CALLER = `
#include <stdio.h>
#include <string.h>
int which(void);
int main(void) {
  printf("VALUE %d\\n", which());
  FILE *f = fopen("/proc/self/maps", "r"); char line[8192];
  while (fgets(line, sizeof line, f)) { char *p = strchr(line, '/'); if (p && strstr(p, "libw.so")) { p[strcspn(p, "\\n")] = 0; printf("MAP %s\\n", p); } }
  return 0;
}
`;

/** dlopen(argv[1]) by path, then which() through the handle and through the global scope (what a framework's code binds to). */
const BINDER = `
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  void *h = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
  if (!h) { printf("ERR %s\\n", dlerror()); return 3; }
  int (*own)(void) = (int (*)(void))dlsym(h, "which");
  int (*global)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "which");
  printf("OWN %d\\nGLOBAL %d\\n", own(), global());
  void *byname = dlopen("libw.so.1", RTLD_NOW);
  Dl_info i; dladdr(dlsym(byname, "which"), &i); printf("BYNAME %s\\n", i.dli_fname);
  FILE *f = fopen("/proc/self/maps", "r"); char line[8192];
  while (fgets(line, sizeof line, f)) { char *p = strchr(line, '/'); if (p && strstr(p, "libw.so")) { p[strcspn(p, "\\n")] = 0; printf("MAP %s\\n", p); } }
  return 0;
}
`;

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  value: number | null;
  maps: string[];
  out: string;
  err: string;
}

function run(program: string, args: string[], env: Record<string, string>): Run {
  const r = spawnSync(program, args, { env: { PATH: '/usr/bin:/bin', ...env }, encoding: 'utf8' });
  const value = /VALUE (\d+)/.exec(r.stdout)?.[1];
  const maps = [
    ...new Set(
      r.stdout
        .split('\n')
        .filter((l) => l.startsWith('MAP '))
        .map((l) => l.slice(4)),
    ),
  ];
  return {
    status: r.status,
    signal: r.signal,
    value: value === undefined ? null : Number(value),
    maps,
    out: r.stdout,
    err: r.stderr,
  };
}

function emulate(program: string, env: Record<string, string>): Map<string, Resolution> {
  const p = new LoaderProcess(loaderConfig(realFs, env, cache));
  const out = new Map<string, Resolution>();
  for (const r of p.exec(program)) if (!out.has(r.name)) out.set(r.name, r);
  return out;
}

beforeAll(() => {
  B = tempDir('ged-preload-');
  buildLib(B, { file: 'pa/libw.so.1', soname: 'libw.so.1', source: 'int which(void){return 1;}' });
  buildLib(B, { file: 'pb/libw.so.1', soname: 'libw.so.1', source: 'int which(void){return 2;}' });
  buildProgram(B, 'caller', { libs: [`${B}/pa/libw.so.1`], runpath: `${B}/pa`, source: CALLER });
  buildProgram(B, 'binder', { libs: [], source: BINDER });
  const whole = fs.readFileSync(`${B}/pb/libw.so.1`);
  // Cut short after its headers: ld.so maps it and dies touching the dynamic section (SIGBUS).
  fs.mkdirSync(`${B}/cut`);
  fs.writeFileSync(`${B}/cut/libw.so.1`, whole.subarray(0, 1024));
  // Too short for an ELF header: "file too short", the load fails.
  fs.mkdirSync(`${B}/short`);
  fs.writeFileSync(`${B}/short/libw.so.1`, whole.subarray(0, 40));
  // Another ELF class in the header (ELFCLASS32 on a 64-bit layout), cut short too: skipped before anything is read.
  fs.mkdirSync(`${B}/cls`);
  const other = Buffer.from(whole.subarray(0, 1024));
  other[4] = 1;
  fs.writeFileSync(`${B}/cls/libw.so.1`, other);
}, 120000);
afterAll(() => fs.rmSync(B, { recursive: true, force: true }));

describe('LD_PRELOAD as ld.so does it (the real loader: the value called and /proc/self/maps)', () => {
  it('a preloaded file answers the program’s NEEDED entry: its RUNPATH copy is never mapped', () => {
    const env = { LD_PRELOAD: `${B}/pb/libw.so.1` };
    const r = run(`${B}/caller`, [], env);
    expect(r.value).toBe(2);
    expect(r.maps).toEqual([`${B}/pb/libw.so.1`]);
    const e = emulate(`${B}/caller`, env).get('libw.so.1')!;
    expect(e).toMatchObject({ via: 'ld_preload', preloadFrom: 'LD_PRELOAD', realPath: real(`${B}/pb/libw.so.1`) });
    // the copy its RUNPATH names is what it would have been without the preload
    expect(e.shadowed.map((c) => c.path)).toContain(`${B}/pa/libw.so.1`);
  });
  it('a preload by name is searched (LD_LIBRARY_PATH here) and wins the same way', () => {
    const env = { LD_PRELOAD: 'libw.so.1', LD_LIBRARY_PATH: `${B}/pb` };
    const r = run(`${B}/caller`, [], env);
    expect(r.value).toBe(2);
    const e = emulate(`${B}/caller`, env).get('libw.so.1')!;
    expect(e).toMatchObject({ via: 'ld_preload', firstVia: 'ld_library_path', realPath: real(`${B}/pb/libw.so.1`) });
  });
  it('a preload that is not there is ignored with ld.so’s message; the program loads as usual', () => {
    const env = { LD_PRELOAD: `${B}/nowhere/libw.so.1` };
    const r = run(`${B}/caller`, [], env);
    expect(r.value).toBe(1);
    expect(r.err).toMatch(/from LD_PRELOAD cannot be preloaded .*: ignored/);
    const e = emulate(`${B}/caller`, env);
    expect(e.get(`${B}/nowhere/libw.so.1`)).toMatchObject({
      via: 'not_found',
      error: expect.stringMatching(/from LD_PRELOAD cannot be preloaded .*: ignored/),
    });
    expect(e.get('libw.so.1')).toMatchObject({ via: 'runpath', realPath: real(`${B}/pa/libw.so.1`) });
  });
  it('a file loaded by path after a preload of its soname is mapped too, but requests by soname and global symbols go to the preload', () => {
    const env = { LD_PRELOAD: `${B}/pb/libw.so.1` };
    const r = run(`${B}/binder`, [`${B}/pa/libw.so.1`], env);
    expect(r.maps.sort()).toEqual([`${B}/pa/libw.so.1`, `${B}/pb/libw.so.1`]);
    expect(r.out).toMatch(/OWN 1\n/); // the handle's own file…
    expect(r.out).toMatch(/GLOBAL 2\n/); // …is not what code linked against the soname runs
    expect(r.out).toContain(`BYNAME ${B}/pb/libw.so.1`);
    const p = new LoaderProcess(loaderConfig(realFs, env, cache));
    p.preload();
    const [byPath] = p.loadPath(`${B}/pa/libw.so.1`, 'preloaded');
    expect(byPath).toMatchObject({ via: 'preloaded', realPath: real(`${B}/pa/libw.so.1`) });
    const [byName] = p.dlopen('libw.so.1', null);
    expect(byName).toMatchObject({ via: 'ld_preload', realPath: real(`${B}/pb/libw.so.1`) });
  });
  it('/etc/ld.so.preload comes after LD_PRELOAD (a --root tree: entries split at white space and colons)', () => {
    const R = tempDir('ged-etcpreload-');
    try {
      fs.mkdirSync(`${R}/etc`);
      fs.mkdirSync(`${R}/l`);
      fs.copyFileSync(`${B}/pa/libw.so.1`, `${R}/l/libw-a.so`);
      fs.copyFileSync(`${B}/pb/libw.so.1`, `${R}/l/libw-b.so`);
      fs.writeFileSync(`${R}/etc/ld.so.preload`, '# not a comment to ld.so\n/l/libw-a.so:/l/none.so\n');
      const rfs = createFileSystem(R);
      expect(preloadList(rfs, { LD_PRELOAD: '/l/libw-b.so' })).toEqual([
        { name: '/l/libw-b.so', from: 'LD_PRELOAD' },
        { name: '#', from: '/etc/ld.so.preload' },
        { name: 'not', from: '/etc/ld.so.preload' },
        { name: 'a', from: '/etc/ld.so.preload' },
        { name: 'comment', from: '/etc/ld.so.preload' },
        { name: 'to', from: '/etc/ld.so.preload' },
        { name: 'ld.so', from: '/etc/ld.so.preload' },
        { name: '/l/libw-a.so', from: '/etc/ld.so.preload' },
        { name: '/l/none.so', from: '/etc/ld.so.preload' },
      ]);
      fs.writeFileSync(`${R}/etc/ld.so.preload`, '/l/libw-a.so\n');
      const only = new LoaderProcess(loaderConfig(rfs, {}, null));
      only.preload();
      expect(only.dlopen('libw.so.1', null)[0]).toMatchObject({
        via: 'ld_preload',
        preloadFrom: '/etc/ld.so.preload',
        path: '/l/libw-a.so',
      });
      const both = new LoaderProcess(loaderConfig(rfs, { LD_PRELOAD: '/l/libw-b.so' }, null));
      both.preload();
      expect(both.dlopen('libw.so.1', null)[0]).toMatchObject({
        via: 'ld_preload',
        preloadFrom: 'LD_PRELOAD',
        path: '/l/libw-b.so',
      });
    } finally {
      fs.rmSync(R, { recursive: true, force: true });
    }
  });
});

describe('a file that cannot be used, as ld.so treats it', () => {
  it('cut short after its headers: taken, mapped, and the process dies with SIGBUS', () => {
    const env = { LD_LIBRARY_PATH: `${B}/cut` };
    const r = run(`${B}/caller`, [], env);
    expect(r.signal).toBe('SIGBUS');
    expect(readElf(realFs, `${B}/cut/libw.so.1`)).toMatchObject({
      ok: false,
      reason: 'truncated',
      mappable: true,
      class: 64,
    });
    const e = emulate(`${B}/caller`, env).get('libw.so.1')!;
    expect(e).toMatchObject({
      via: 'ld_library_path',
      path: `${B}/cut/libw.so.1`,
      unloadable: 'crash',
      blocker: { path: `${B}/cut/libw.so.1`, via: 'ld_library_path' },
    });
    // the good copy behind it, which the process never reaches
    expect(e.shadowed.map((c) => c.path)).toEqual([`${B}/pa/libw.so.1`]);
  });
  it('too short for an ELF header: the load fails ("file too short"), the good copy behind is not tried', () => {
    const env = { LD_LIBRARY_PATH: `${B}/short` };
    const r = run(`${B}/caller`, [], env);
    expect(r.status).toBe(127);
    expect(r.err).toMatch(/libw\.so\.1: file too short/);
    const e = emulate(`${B}/caller`, env).get('libw.so.1')!;
    expect(e).toMatchObject({
      via: 'not_found',
      path: null,
      unloadable: 'error',
      blocker: { path: `${B}/short/libw.so.1`, via: 'ld_library_path' },
      error: expect.stringMatching(/file too short/),
    });
  });
  it('another ELF class is skipped silently, even cut short: the next copy loads', () => {
    const env = { LD_LIBRARY_PATH: `${B}/cls` };
    const r = run(`${B}/caller`, [], env);
    expect(r.status).toBe(0);
    expect(r.value).toBe(1);
    const e = emulate(`${B}/caller`, env).get('libw.so.1')!;
    expect(e).toMatchObject({ via: 'runpath', realPath: real(`${B}/pa/libw.so.1`), skipped: [`${B}/cls/libw.so.1`] });
  });
  it('an LD_PRELOAD cut short after its headers kills the process before main', () => {
    const env = { LD_PRELOAD: `${B}/cut/libw.so.1` };
    const r = run(`${B}/caller`, [], env);
    expect(r.signal).toBe('SIGBUS');
    expect(r.value).toBeNull();
    const e = emulate(`${B}/caller`, env);
    expect(e.get(`${B}/cut/libw.so.1`)).toMatchObject({ via: 'ld_preload', unloadable: 'crash' });
  });
});
