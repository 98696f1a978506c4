// readElf reads the first 4 KiB once (the ELF header and, as linkers write them, the program headers) and
// anything past it with reads of its own: the same facts for a library whose program headers lie past the first
// read, for one cut inside it, and with fewer reads than one per header.
import * as fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileSystem, type FileSystem } from '../../src/ports/fs.js';
import { readElf } from '../../src/gather/libraries/elf.js';
import { tempDir } from '../helpers/fake-bin.js';
import { buildLib } from './build.js';

let T = '';
let lib = '';
const realFs = createFileSystem('/');

/** The real filesystem with the reads through its readers counted. */
function counting(): { fsys: FileSystem; reads: number[] } {
  const reads: number[] = [];
  return {
    fsys: {
      ...realFs,
      openReader(p) {
        const r = realFs.openReader(p);
        return {
          ...r,
          size: r.size,
          read: (offset, length) => {
            reads.push(offset);
            return r.read(offset, length);
          },
        };
      },
    },
    reads,
  };
}

beforeAll(() => {
  T = tempDir('ged-elfhead-');
  lib = buildLib(T, {
    file: 'libhead.so.1',
    soname: 'libhead.so.1',
    needed: [],
    runpath: '$ORIGIN/../lib:/opt/x',
  });
}, 60_000);
afterAll(() => fs.rmSync(T, { recursive: true, force: true }));

describe('readElf and its first read', () => {
  it('the program headers moved past the first 4 KiB: the same facts', () => {
    const before = readElf(realFs, lib);
    expect(before).toMatchObject({ ok: true, info: { soname: 'libhead.so.1', runpath: '$ORIGIN/../lib:/opt/x' } });
    const b = fs.readFileSync(lib);
    const phoff = Number(b.readBigUInt64LE(32));
    const phsize = b.readUInt16LE(54) * b.readUInt16LE(56);
    const at = Math.max(8192, b.length + ((8 - (b.length % 8)) % 8));
    const moved = Buffer.alloc(at + phsize);
    b.copy(moved);
    b.copy(moved, at, phoff, phoff + phsize);
    moved.writeBigUInt64LE(BigInt(at), 32);
    fs.writeFileSync(`${T}/moved.so`, moved);
    const c = counting();
    expect(readElf(c.fsys, `${T}/moved.so`)).toEqual(before);
    expect(c.reads).toContain(at);
  });

  it('a file cut inside the first read: the same failure as reading header by header', () => {
    const b = fs.readFileSync(lib);
    fs.writeFileSync(`${T}/cut.so`, b.subarray(0, 100));
    expect(readElf(realFs, `${T}/cut.so`)).toMatchObject({ ok: false, reason: 'truncated', class: 64 });
  });

  it('the header and the program headers come from one read', () => {
    const c = counting();
    readElf(c.fsys, lib);
    expect(c.reads[0]).toBe(0);
    // no read of its own for the program headers (right after the header), nor for anything else in the first 4 KiB
    const phoff = Number(fs.readFileSync(lib).readBigUInt64LE(32));
    expect(phoff).toBeLessThan(4096);
    expect(c.reads.slice(1).every((o) => o >= 4096)).toBe(true);
  });
});
