// `libs --elf FILE` against the real loader of this machine (LD_TRACE_LOADED_OBJECTS, what ldd does): programs
// and libraries built with gcc, CUDA-named or not, found through RPATH, RUNPATH, LD_LIBRARY_PATH, $ORIGIN and
// the ld cache, and a missing one. Every library the loader resolves must be in the answer with the same file,
// and run-time loading (dlopen) is claimed only for files known to do it.
import * as fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';
import { buildLib, buildProgram, realTrace } from './build.js';

let B = '';
interface Resolved {
  name: string;
  path: string | null;
  realPath: string | null;
  via: string;
  how: string;
  requestedBy: string | null;
  family: string | null;
}
interface Json {
  consumers: { path: string; framework: string | null; resolved: Resolved[]; notes: string[] }[];
  findings: { check: string; status: string; message: string }[];
}

function elf(
  file: string,
  env: Record<string, string> = {},
): { code: number | null; c: Json['consumers'][number]; json: Json } {
  const r = runCli(['libs', '--json', '--elf', file], { env: { PATH: '/usr/bin:/bin', ...env }, timeoutMs: 60000 });
  let json: Json;
  try {
    json = JSON.parse(r.stdout) as Json;
  } catch {
    throw new Error(`not JSON (exit ${r.code}): ${r.stdout.slice(0, 300)} ${r.stderr.slice(0, 500)}`);
  }
  return { code: r.code, c: json.consumers.find((x) => x.path === file)!, json };
}

/** Every name ldd resolves (its "=>" lines) resolves to the same real file in our answer, and nothing more is needed. */
function expectSameAsLdd(file: string, env: Record<string, string> = {}): Resolved[] {
  const real = realTrace(file, env);
  const { c } = elf(file, env);
  expect(real.lines.length).toBeGreaterThan(0);
  const needed = c.resolved.filter((r) => r.how === 'needed');
  for (const line of real.lines) {
    if (line.name.startsWith('linux-vdso')) continue;
    const r = needed.find((x) => x.name === line.name);
    expect(r, `no answer for ${line.name}`).toBeDefined();
    expect({ name: line.name, file: r!.realPath }).toEqual({ name: line.name, file: line.path });
  }
  // and no library ldd does not load (the dynamic loader itself is ldd's line without "=>")
  for (const r of needed)
    if (!/^ld-linux/.test(r.name))
      expect(
        real.lines.map((l) => l.name),
        r.name,
      ).toContain(r.name);
  return c.resolved;
}

beforeAll(() => {
  B = tempDir('ged-elfcli-');
  buildLib(B, { file: 'a/libplain.so.1.0', soname: 'libplain.so.1', links: ['a/libplain.so.1'] });
  buildLib(B, { file: 'b/libplain.so.1.5', soname: 'libplain.so.1', value: 2, links: ['b/libplain.so.1'] });
  buildLib(B, { file: 'm/libmid.so', soname: 'libmid.so', needed: [`${B}/a/libplain.so.1`] });
  buildLib(B, { file: 'gone/libgone.so.2', soname: 'libgone.so.2' });
  const plain = `${B}/a/libplain.so.1`;
  buildProgram(B, 'p_rpath', { libs: [plain, '-lm'], rpath: `${B}/a` });
  buildProgram(B, 'p_runpath', { libs: [plain], runpath: `${B}/a` });
  buildProgram(B, 'bin/p_origin', { libs: [plain], runpath: '$ORIGIN/../b' });
  buildProgram(B, 'p_chain', { libs: [`${B}/m/libmid.so`], rpath: `${B}/m:${B}/b` });
  buildProgram(B, 'p_missing', { libs: [plain, `${B}/gone/libgone.so.2`], runpath: `${B}/a:${B}/gone` });
  fs.rmSync(`${B}/gone/libgone.so.2`);
  const z = ['/lib/x86_64-linux-gnu/libz.so.1', '/usr/lib/x86_64-linux-gnu/libz.so.1'].find((f) => fs.existsSync(f));
  if (z) buildProgram(B, 'p_zlib', { libs: [z] });
  // A CUDA runtime stand-in (libcudart.so.13) and a driver stand-in (libcuda.so.1): the runtime dlopens the driver.
  buildLib(B, { file: 'cuda/libcudart.so.13', soname: 'libcudart.so.13' });
  buildLib(B, { file: 'drv/libcuda.so.1', soname: 'libcuda.so.1' });
  buildProgram(B, 'p_cudart', { libs: [`${B}/cuda/libcudart.so.13`], runpath: `${B}/cuda` });
  // A CUDA runtime linked in statically leaves the driver's name in the program.
  buildProgram(B, 'p_static', {
    libs: [],
    source: '#include <stdio.h>\nint main(void){ puts("libcuda.so.1"); return 0; }\n',
  });
}, 120000);
afterAll(() => fs.rmSync(B, { recursive: true, force: true }));

describe('libs --elf agrees with the real loader on any ELF file', () => {
  it('DT_RPATH beats LD_LIBRARY_PATH; non-CUDA libraries (libm, libc) are listed with how they were found', () => {
    const rs = expectSameAsLdd(`${B}/p_rpath`, { LD_LIBRARY_PATH: `${B}/b` });
    expect(rs.find((r) => r.name === 'libplain.so.1')).toMatchObject({
      via: 'rpath',
      realPath: fs.realpathSync(`${B}/a/libplain.so.1.0`),
    });
    expect(rs.find((r) => r.name === 'libm.so.6')).toMatchObject({ via: 'ld_cache', family: null });
    expect(rs.find((r) => r.name === 'libc.so.6')).toMatchObject({ via: 'ld_cache' });
  });

  it('LD_LIBRARY_PATH beats DT_RUNPATH', () => {
    expect(
      expectSameAsLdd(`${B}/p_runpath`, { LD_LIBRARY_PATH: `${B}/b` }).find((r) => r.name === 'libplain.so.1'),
    ).toMatchObject({ via: 'ld_library_path' });
    expect(expectSameAsLdd(`${B}/p_runpath`).find((r) => r.name === 'libplain.so.1')).toMatchObject({ via: 'runpath' });
  });

  it('$ORIGIN is the folder of the file', () => {
    expect(expectSameAsLdd(`${B}/bin/p_origin`).find((r) => r.name === 'libplain.so.1')).toMatchObject({
      via: 'runpath',
      realPath: fs.realpathSync(`${B}/b/libplain.so.1.5`),
    });
  });

  it('a library of a library is searched with the inherited RPATH (the whole closure)', () => {
    const rs = expectSameAsLdd(`${B}/p_chain`);
    expect(rs.find((r) => r.name === 'libplain.so.1')).toMatchObject({ requestedBy: `${B}/m/libmid.so`, via: 'rpath' });
  });

  it('a missing library is "not found", the rest still resolves, and the missing check says so', () => {
    const rs = expectSameAsLdd(`${B}/p_missing`);
    expect(rs.find((r) => r.name === 'libgone.so.2')).toMatchObject({ via: 'not_found', path: null });
    const { json } = elf(`${B}/p_missing`);
    expect(
      json.findings.some((f) => f.check === 'libs.missing' && f.status !== 'ok' && /libgone\.so\.2/.test(f.message)),
    ).toBe(true);
  });

  it('system libraries come from the ld cache', () => {
    if (!fs.existsSync(`${B}/p_zlib`)) return;
    expect(expectSameAsLdd(`${B}/p_zlib`).find((r) => r.name === 'libz.so.1')).toMatchObject({ via: 'ld_cache' });
  });
});

describe('run-time loading is claimed only when known', () => {
  it('a plain program dlopens nothing (it used to be said to dlopen libcuda.so.1 and libnvidia-ml.so.1)', () => {
    for (const p of ['p_rpath', 'p_runpath', 'p_missing']) {
      const { c } = elf(`${B}/${p}`);
      expect(c.resolved.filter((r) => r.how === 'dlopen')).toEqual([]);
      expect(c.notes).toEqual([]);
    }
  });

  it('a program linked with the CUDA runtime: libcudart dlopens libcuda.so.1 (not NVML)', () => {
    const { c } = elf(`${B}/p_cudart`, { LD_LIBRARY_PATH: `${B}/drv` });
    expect(c.resolved.filter((r) => r.how === 'dlopen').map((r) => [r.name, r.requestedBy, r.via])).toEqual([
      ['libcuda.so.1', `${B}/cuda/libcudart.so.13`, 'ld_library_path'],
    ]);
  });

  it('a program that names libcuda.so.1 (a statically linked CUDA runtime) dlopens it', () => {
    const { c } = elf(`${B}/p_static`, { LD_LIBRARY_PATH: `${B}/drv` });
    expect(c.resolved.filter((r) => r.how === 'dlopen').map((r) => r.name)).toEqual(['libcuda.so.1']);
    expect(c.notes[0]).toMatch(/names libcuda\.so\.1/);
  });

  it('the terminal view lists every library of the file', () => {
    const r = runCli(['libs', '--elf', `${B}/p_rpath`], { env: { PATH: '/usr/bin:/bin' }, timeoutMs: 60000 });
    expect(r.stdout).toMatch(/libm\.so\.6\s+\/\S+.*\?\s+ld cache/);
    expect(r.stdout).toMatch(/libplain\.so\.1\s+\S+libplain\.so\.1.*rpath/);
  });
});
