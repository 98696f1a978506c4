// The ELF reader against readelf on this machine's real libraries, and against broken input; the ld.so.cache
// parser against `ldconfig -p` for the real cache and the old and compat formats ldconfig writes.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readElf, parseElf } from '../../src/gather/libraries/elf.js';
import { parseLdCache, parseLdconfigP, LdCacheError } from '../../src/gather/libraries/ldcache.js';
import { createFileSystem } from '../../src/ports/fs.js';
import { FIXTURES, tempDir } from '../helpers/fake-bin.js';
import { buildLib } from './build.js';

const realFs = createFileSystem('/');
let T = '';
beforeAll(() => {
  T = tempDir('ged-elf-');
});
afterAll(() => fs.rmSync(T, { recursive: true, force: true }));

function readelfDynamic(file: string): {
  soname: string | null;
  needed: string[];
  rpath: string | null;
  runpath: string | null;
} {
  const out = execFileSync('readelf', ['-d', '-W', file], { encoding: 'utf8' });
  const grab = (tag: string) => [...out.matchAll(new RegExp(`\\(${tag}\\)\\s+.*?\\[(.*)\\]`, 'g'))].map((m) => m[1]!);
  return {
    soname: grab('SONAME')[0] ?? null,
    needed: grab('NEEDED'),
    rpath: grab('RPATH')[0] ?? null,
    runpath: grab('RUNPATH')[0] ?? null,
  };
}

describe('ELF reader', () => {
  it('agrees with readelf -d on real libraries of this machine', () => {
    const dir = fs.existsSync('/lib/x86_64-linux-gnu') ? '/lib/x86_64-linux-gnu' : '/usr/lib64';
    const files = fs
      .readdirSync(dir)
      .filter((f) => /\.so\.\d+$/.test(f))
      .map((f) => path.join(dir, f))
      .filter((f) => fs.statSync(f).isFile())
      .slice(0, 40);
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      const r = readElf(realFs, f);
      expect(r.ok, f).toBe(true);
      if (!r.ok) continue;
      const { soname, needed, rpath, runpath } = r.info;
      expect({ f, soname, needed, rpath, runpath }).toEqual({ f, ...readelfDynamic(f) });
      expect(r.info.class).toBe(64);
    }
  });

  it('reads torch-like RPATH and pip-like RUNPATH ($ORIGIN kept as written) from gcc-built files', () => {
    // The RPATH string of torch 2.11's libtorch_cuda.so on the H200 (fixtures h200/idle/readelf.txt).
    const readelf = fs.readFileSync(path.join(FIXTURES, 'h200/idle/readelf.txt'), 'utf8');
    const torchRpath = /Library rpath: \[(.*)\]/.exec(readelf)![1]!;
    const a = buildLib(T, { file: 'torch/libtorch_cuda.so', soname: 'libtorch_cuda.so', rpath: torchRpath });
    const b = buildLib(T, { file: 'cudnn/libcudnn.so.9', soname: 'libcudnn.so.9', runpath: '$ORIGIN' });
    expect(readElf(realFs, a)).toMatchObject({
      ok: true,
      info: { soname: 'libtorch_cuda.so', rpath: torchRpath, runpath: null },
    });
    expect(readElf(realFs, b)).toMatchObject({
      ok: true,
      info: { soname: 'libcudnn.so.9', rpath: null, runpath: '$ORIGIN' },
    });
  });

  it('a text file, an empty file, a truncated ELF, a directory, a missing file and a symlink loop are results, not exceptions', () => {
    const good = buildLib(T, { file: 'x/libx.so.1', soname: 'libx.so.1' });
    fs.writeFileSync(`${T}/text.so`, 'INPUT(-lfoo)\n');
    fs.writeFileSync(`${T}/empty.so`, '');
    fs.writeFileSync(`${T}/trunc.so`, fs.readFileSync(good).subarray(0, 200));
    fs.symlinkSync('loop-b.so', `${T}/loop-a.so`);
    fs.symlinkSync('loop-a.so', `${T}/loop-b.so`);
    expect(readElf(realFs, `${T}/text.so`)).toMatchObject({ ok: false, reason: 'not-elf' });
    expect(readElf(realFs, `${T}/empty.so`)).toMatchObject({ ok: false, reason: 'not-elf' });
    expect(readElf(realFs, `${T}/trunc.so`)).toMatchObject({ ok: false, reason: 'truncated' });
    expect(readElf(realFs, T)).toMatchObject({ ok: false, reason: 'directory' });
    expect(readElf(realFs, `${T}/nope.so`)).toMatchObject({ ok: false, reason: 'not-found' });
    expect(readElf(realFs, `${T}/loop-a.so`)).toMatchObject({ ok: false, reason: 'loop' });
    // The same loop under --root, where the port resolves links itself.
    const rooted = createFileSystem(T);
    expect(readElf(rooted, '/loop-a.so')).toMatchObject({ ok: false, reason: 'loop' });
  });

  it('every truncation of a real library is rejected cleanly or read correctly', () => {
    const good = fs.readFileSync(buildLib(T, { file: 'y/liby.so.1', soname: 'liby.so.1', runpath: '$ORIGIN/../z' }));
    for (let len = 0; len < good.length; len += 97) {
      const buf = good.subarray(0, len);
      const r = parseElf((o, l) => buf.subarray(o, o + l));
      if (r.ok) expect(r.info.soname === null || r.info.soname === 'liby.so.1').toBe(true);
      else expect(['not-elf', 'truncated']).toContain(r.reason);
    }
  });

  it('reads only a few KiB of a large library', () => {
    const big = `${T}/big.so`;
    fs.copyFileSync(buildLib(T, { file: 'w/libw.so.1', soname: 'libw.so.1' }), big);
    fs.appendFileSync(big, Buffer.alloc(8 * 1024 * 1024));
    let bytes = 0;
    const counting = {
      ...realFs,
      readBytes: (p: string, o?: number, l?: number) => {
        const b = realFs.readBytes(p, o, l);
        bytes += b.length;
        return b;
      },
    };
    expect(readElf(counting, big)).toMatchObject({ ok: true, info: { soname: 'libw.so.1' } });
    expect(bytes).toBeLessThan(64 * 1024);
  });
});

describe('ld.so.cache parser', () => {
  const viaLdconfig = (file: string, hw = true) =>
    parseLdconfigP(execFileSync('ldconfig', ['-p', '-C', file], { encoding: 'utf8' })).entries.map(
      (e) => `${e.name} (${e.flagsText}) ${hw ? (e.hwcap ?? '') : ''} => ${e.path}`,
    );
  const ours = (file: string, hw = true) =>
    parseLdCache(fs.readFileSync(file)).entries.map(
      (e) => `${e.name} (${e.flagsText}) ${hw ? (e.hwcap ?? '') : ''} => ${e.path}`,
    );

  it("reads this machine's /etc/ld.so.cache exactly as ldconfig -p lists it", () => {
    const c = parseLdCache(fs.readFileSync('/etc/ld.so.cache'));
    expect(c.format).toBe('new');
    expect(c.generator).toMatch(/^ldconfig .*\d+\.\d+/);
    expect(ours('/etc/ld.so.cache')).toEqual(viaLdconfig('/etc/ld.so.cache'));
  });

  it('reads the old format and the compat format (old with the new one inside), as ldconfig writes them', () => {
    fs.mkdirSync(`${T}/cachelib/glibc-hwcaps/x86-64-v2`, { recursive: true });
    buildLib(T, { file: 'cachelib/libcachetest.so.1', soname: 'libcachetest.so.1' });
    buildLib(T, { file: 'cachelib/glibc-hwcaps/x86-64-v2/libcachetest.so.1', soname: 'libcachetest.so.1' });
    fs.writeFileSync(`${T}/ld.conf`, `${T}/cachelib\n`);
    for (const format of ['old', 'compat', 'new']) {
      const file = `${T}/${format}.cache`;
      execFileSync('ldconfig', ['-c', format, '-C', file, '-f', `${T}/ld.conf`], { stdio: 'ignore' });
      const c = parseLdCache(fs.readFileSync(file));
      expect(c.format).toBe(format);
      // ldconfig -p prints a wrong hwcap name for compat caches (it reads the hwcap string offsets from the
      // old string table); the entries and paths must agree, the hwcap is checked against the folder below.
      expect(ours(file, format !== 'compat')).toEqual(viaLdconfig(file, format !== 'compat'));
      expect(
        c.entries.some((e) => e.name === 'libcachetest.so.1' && e.path === `${T}/cachelib/libcachetest.so.1`),
      ).toBe(true);
      if (format !== 'old')
        expect(c.entries.find((e) => e.hwcap === 'x86-64-v2')?.path).toBe(
          `${T}/cachelib/glibc-hwcaps/x86-64-v2/libcachetest.so.1`,
        );
    }
  });

  it('rejects what is not a cache, and truncated caches, with a typed error', () => {
    expect(() => parseLdCache(Buffer.from('hello'))).toThrow(LdCacheError);
    const real = fs.readFileSync('/etc/ld.so.cache');
    expect(() => parseLdCache(real.subarray(0, 100))).toThrow(LdCacheError);
  });

  it('parses the H200 `ldconfig -p` capture (fallback path): both libcuda.so.1 entries, container driver first', () => {
    const c = parseLdconfigP(fs.readFileSync(path.join(FIXTURES, 'h200/idle/ldconfig.txt'), 'utf8'));
    expect(c.entries.length).toBe(520);
    expect(c.entries.filter((e) => e.name === 'libcuda.so.1').map((e) => e.path)).toEqual([
      '/usr/local/nvidia/lib64/libcuda.so.1',
      '/lib/libcuda.so.1',
    ]);
    expect(c.entries.find((e) => e.name === 'libcudnn.so.9')).toMatchObject({
      path: '/lib/x86_64-linux-gnu/libcudnn.so.9',
      flags: 0x0303,
    });
  });
});
