// The library scan's cheaper readers give the answers of the plain ones: RECORD searched as bytes, 64-bit ELF
// fields read as two 32-bit halves.
import * as fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseElf } from '../../src/gather/libraries/elf.js';
import { recordLibraries, recordLibrariesInBytes } from '../../src/gather/libraries/packages.js';
import { loaderConfig, x86HwcapsFromCpuinfo } from '../../src/gather/libraries/platform.js';
import { createFileSystem, type FileSystem } from '../../src/ports/fs.js';
import { tempDir } from '../helpers/fake-bin.js';
import { buildLib } from './build.js';

const T = tempDir('ged-scan-bytes-');
afterAll(() => fs.rmSync(T, { recursive: true, force: true }));

describe('recordLibrariesInBytes', () => {
  it('finds the libraries recordLibraries finds in the decoded text', () => {
    const lines = [
      '.so-at-start/libz.so.1,sha256=a,1',
      'torch/__init__.py,sha256=b,2',
      'torch/lib/libtorch_cuda.so,sha256=c,3',
      '"odd,name/libq.so.2",sha256=d,4',
      'docs/x.sources.txt,sha256=e,5',
      'nvidia/cudnn/lib/libcudnn.so.9,sha256=f,6\r',
      'ünïcode/libü.so.3,sha256=g,7',
      'noext/libnothing,sha256=h,8',
      'deep/.so,,',
      'last/libend.so',
    ];
    const text = lines.join('\n');
    const bytes = Buffer.from(text, 'utf8');
    const want = recordLibraries(text);
    expect(want).toContain('ünïcode/libü.so.3');
    expect(want).toContain('.so-at-start/libz.so.1');
    expect(recordLibrariesInBytes(bytes)).toEqual(want);
    // invalid UTF-8 next to a hit: decoded alike, line by line or whole
    const bad = Buffer.concat([
      Buffer.from('a/lib\xff', 'latin1'),
      Buffer.from('x.so.1,h,1\n\xc3\nb/liby.so,h,1', 'latin1'),
    ]);
    expect(recordLibrariesInBytes(bad)).toEqual(recordLibraries(bad.toString('utf8')));
    expect(recordLibrariesInBytes(bad)).toHaveLength(2);
  });

  it('matches on a large generated RECORD', () => {
    const lines: string[] = [];
    for (let i = 0; i < 5000; i++)
      lines.push(i % 97 === 0 ? `torch/lib/libc${i}.so.${i % 3},sha256=x,${i}` : `torch/m${i}.py,sha256=y,${i}`);
    const text = `${lines.join('\n')}\n`;
    const got = recordLibrariesInBytes(Buffer.from(text));
    expect(got).toEqual(recordLibraries(text));
    expect(got).toHaveLength(52);
  });
});

describe('64-bit ELF fields', () => {
  it('reads values past 2^32 exactly and clamps those past 2^53', () => {
    const lib = fs.readFileSync(buildLib(T, { file: 'big/libbig.so.1', soname: 'libbig.so.1' }));
    const phoff = Number(lib.readBigUInt64LE(32));
    const phentsize = lib.readUInt16LE(54);
    const phnum = lib.readUInt16LE(56);
    let load = -1;
    for (let i = 0; i < phnum; i++) if (lib.readUInt32LE(phoff + i * phentsize) === 1) load = phoff + i * phentsize;
    expect(load).toBeGreaterThan(0);
    const offset = Number(lib.readBigUInt64LE(load + 8));
    const grow = (filesz: bigint) => {
      const b = Buffer.from(lib);
      b.writeBigUInt64LE(filesz, load + 32);
      return parseElf((o, l) => b.subarray(o, o + l), 'libbig', b.length);
    };
    const far = 2n ** 40n + 5n;
    expect(grow(far)).toMatchObject({ ok: false, reason: 'truncated' });
    expect((grow(far) as { message: string }).message).toContain(`${offset + Number(far)}`);
    // past 2^53: the field reads as Number.MAX_SAFE_INTEGER, as before
    const huge = grow(2n ** 60n) as { message: string };
    expect(huge.message).toContain(`${offset + Number.MAX_SAFE_INTEGER}`);
  });
});

describe('hwcaps from the head of /proc/cpuinfo', () => {
  const block = (i: number, flags: string, pad = 0) =>
    `processor\t: ${i}\nmodel name\t: Some CPU${'x'.repeat(pad)}\nflags\t\t: ${flags}\nbogomips\t: 4000\n\n`;
  const V3 = 'fpu cx16 lahf_lm popcnt sse4_1 sse4_2 ssse3 avx avx2 bmi1 bmi2 f16c fma abm movbe xsave';
  const V4 = `${V3} avx512f avx512bw avx512cd avx512dq avx512vl`;
  function config(cpuinfo: string): { hwcaps: string[]; bytes: number } {
    const root = `${T}/cpu-${Math.random().toString(36).slice(2)}`;
    fs.mkdirSync(`${root}/proc`, { recursive: true });
    fs.writeFileSync(`${root}/proc/cpuinfo`, cpuinfo);
    const real = createFileSystem(root);
    let bytes = 0;
    const counting: FileSystem = {
      ...real,
      readText: (p, max) => {
        const text = real.readText(p, max);
        if (p === '/proc/cpuinfo') bytes += Buffer.byteLength(text);
        return text;
      },
    };
    return { hwcaps: loaderConfig(counting, {}, null, 'x64').hwcaps, bytes };
  }

  it('reads the first CPU only on a many-CPU host, with the answer of the whole file', () => {
    const many = Array.from({ length: 300 }, (_, i) => block(i, i === 0 ? V3 : V4)).join('');
    const got = config(many);
    expect(got.hwcaps).toEqual(x86HwcapsFromCpuinfo(many));
    expect(got.hwcaps).toEqual(['x86-64-v3', 'x86-64-v2']);
    expect(got.bytes).toBeLessThanOrEqual(16 * 1024);
  });

  it('reads the whole file when the first flags line is cut by the 16 KiB head', () => {
    for (const pad of [16 * 1024 - 60, 16 * 1024 - 30, 17 * 1024]) {
      const text = block(0, V4, pad) + block(1, V3);
      const got = config(text);
      expect(got.hwcaps).toEqual(x86HwcapsFromCpuinfo(text));
      expect(got.hwcaps[0]).toBe('x86-64-v4');
    }
  });
});
