// A small ELF reader: what the dynamic loader looks at (class, machine, SONAME, NEEDED, RPATH, RUNPATH),
// read with bounded reads through the FileSystem port. libtorch_cuda.so is over 1 GB; we read the 64-byte
// header, the program headers, the dynamic section and the few strings it points at — a few KiB in all.
import { FsError, type FileSystem } from '../../ports/fs.js';

export type ElfClass = 32 | 64;

export interface ElfInfo {
  class: ElfClass;
  /** e_machine: 62 x86-64, 183 aarch64, 3 i386, 21 ppc64 */
  machine: number;
  /** e_type: 2 executable, 3 shared object (or PIE) */
  type: number;
  littleEndian: boolean;
  soname: string | null;
  needed: string[];
  /** DT_RPATH as written (colon-separated, $ORIGIN unexpanded); null when absent */
  rpath: string | null;
  runpath: string | null;
  /** DF_1_NODEFLIB: the default folders are not searched for this object's dependencies */
  nodeflib: boolean;
}

export type ElfFailureReason = 'not-found' | 'unreadable' | 'loop' | 'not-elf' | 'truncated' | 'directory';

/**
 * A file that is not a usable ELF. `class`/`machine`: read from the header when it was long enough (ld.so
 * skips a file of another class or machine before anything else). `mappable`: the ELF header and program
 * headers are whole, so ld.so maps the file and only then touches what is missing: the process dies (SIGBUS).
 */
export type ElfFailure = {
  ok: false;
  reason: ElfFailureReason;
  message: string;
  class?: ElfClass | null;
  machine?: number;
  mappable?: boolean;
};
export type ElfResult = { ok: true; info: ElfInfo } | ElfFailure;

export const EM_NAMES: Record<number, string> = {
  3: 'i386',
  8: 'mips',
  20: 'ppc',
  21: 'ppc64',
  40: 'arm',
  62: 'x86-64',
  183: 'aarch64',
  243: 'riscv',
};

const PT_LOAD = 1;
const PT_DYNAMIC = 2;
const SHT_DYNAMIC = 6;
const DT_NEEDED = 1;
const DT_STRTAB = 5;
const DT_STRSZ = 10;
const DT_SONAME = 14;
const DT_RPATH = 15;
const DT_RUNPATH = 29;
const DT_FLAGS_1 = 0x6ffffffb;
const DF_1_NODEFLIB = 0x800;

/** Bounds on what we read: a dynamic section has tens of entries; 64 Ki entries is already absurd. */
const MAX_PHNUM = 4096;
const MAX_DYN_BYTES = 1024 * 1024;
const MAX_STRING = 64 * 1024;

/** The first read of a file: the ELF header and, in any linked file, the program headers. */
const HEAD_BYTES = 4096;

/** Reads the dynamic-loading facts of one file. Never throws: a file that is not a usable ELF is a result. */
export function readElf(fs: FileSystem, path: string): ElfResult {
  try {
    const st = fs.stat(path);
    if (st.type === 'dir') return { ok: false, reason: 'directory', message: `${path} is a directory` };
    // One open for the four or five reads of the headers (the loader emulation reads hundreds of files), and one
    // read for the ELF header and the program headers, which a linker writes at the start of the file.
    const r = fs.openReader(path);
    try {
      const head = r.read(0, HEAD_BYTES);
      const read = (offset: number, length: number) =>
        offset + length <= head.length ? head.subarray(offset, offset + length) : r.read(offset, length);
      return parseElf(read, path, r.size);
    } finally {
      r.close();
    }
  } catch (err) {
    if (err instanceof ElfError) return { ok: false, reason: err.reason, message: err.message };
    if (err instanceof FsError) {
      const reason: ElfFailureReason =
        err.code === 'ENOENT' || err.code === 'ENOTDIR'
          ? 'not-found'
          : err.code === 'ELOOP'
            ? 'loop'
            : err.code === 'EISDIR'
              ? 'directory'
              : 'unreadable';
      return { ok: false, reason, message: err.message };
    }
    return { ok: false, reason: 'unreadable', message: `${path}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

class ElfError extends Error {
  constructor(
    readonly reason: 'not-elf' | 'truncated',
    message: string,
  ) {
    super(message);
  }
}

/** What the header said before the failure: the loader's class/machine test and whether ld.so maps the file. */
interface HeaderFacts {
  class: ElfClass | null;
  machine?: number;
  mappable: boolean;
  /** where the last loadable segment ends in the file */
  loadEnd?: number;
}

type Read = (offset: number, length: number) => Buffer;

/**
 * The parser over a read function, so tests can feed it byte buffers directly. `size`: the file's length, to
 * tell a file whose loadable segments end past its end (ld.so maps it, then the process dies on first touch).
 */
export function parseElf(read: Read, label = 'file', size?: number): ElfResult {
  const part: HeaderFacts = { class: null, mappable: false };
  try {
    const info = parse(read, label, part);
    if (size !== undefined && part.loadEnd !== undefined && part.loadEnd > size) {
      return {
        ok: false,
        reason: 'truncated',
        message: `${label}: truncated (its segments end at byte ${part.loadEnd}, the file has ${size})`,
        class: info.class,
        machine: info.machine,
        mappable: true,
      };
    }
    return { ok: true, info };
  } catch (err) {
    if (err instanceof ElfError) {
      return {
        ok: false,
        reason: err.reason,
        message: err.message,
        ...(part.class !== null ? { class: part.class, machine: part.machine } : {}),
        ...(part.mappable ? { mappable: true } : {}),
      };
    }
    throw err;
  }
}

function parse(read: Read, label: string, part: HeaderFacts): ElfInfo {
  const ident = read(0, 64);
  if (ident.length < 16 || ident[0] !== 0x7f || ident[1] !== 0x45 || ident[2] !== 0x4c || ident[3] !== 0x46) {
    throw new ElfError('not-elf', `${label}: not an ELF file (invalid ELF header)`);
  }
  const cls = ident[4] === 1 ? 32 : ident[4] === 2 ? 64 : null;
  const le = ident[5] === 1 ? true : ident[5] === 2 ? false : null;
  if (cls === null || le === null) throw new ElfError('not-elf', `${label}: unknown ELF class or byte order`);
  const hdrSize = cls === 64 ? 64 : 52;
  // ld.so's first test is the length of the ELF header ("file too short"): no class is known before it.
  if (ident.length < hdrSize) throw new ElfError('truncated', `${label}: truncated ELF header (file too short)`);
  const r = new Reader(le, cls);
  const type = r.u16(ident, 16);
  const machine = r.u16(ident, 18);
  part.class = cls;
  part.machine = machine;
  const phoff = cls === 64 ? r.addr(ident, 32) : r.u32(ident, 28);
  const shoff = cls === 64 ? r.addr(ident, 40) : r.u32(ident, 32);
  const phentsize = r.u16(ident, cls === 64 ? 54 : 42);
  const phnum = r.u16(ident, cls === 64 ? 56 : 44);
  const shentsize = r.u16(ident, cls === 64 ? 58 : 46);
  const shnum = r.u16(ident, cls === 64 ? 60 : 48);

  // Program headers: PT_DYNAMIC (where the dynamic section is) and PT_LOAD (to map its addresses to offsets).
  const loads: { vaddr: number; offset: number; filesz: number }[] = [];
  let dyn: { offset: number; size: number } | null = null;
  if (phnum > 0 && phnum <= MAX_PHNUM && phentsize >= (cls === 64 ? 56 : 32)) {
    const ph = read(phoff, phnum * phentsize);
    if (ph.length < phnum * phentsize) throw new ElfError('truncated', `${label}: truncated program headers`);
    for (let i = 0; i < phnum; i++) {
      const o = i * phentsize;
      const ptype = r.u32(ph, o);
      const offset = cls === 64 ? r.addr(ph, o + 8) : r.u32(ph, o + 4);
      const vaddr = cls === 64 ? r.addr(ph, o + 16) : r.u32(ph, o + 8);
      const filesz = cls === 64 ? r.addr(ph, o + 32) : r.u32(ph, o + 16);
      if (ptype === PT_LOAD) loads.push({ vaddr, offset, filesz });
      else if (ptype === PT_DYNAMIC) dyn = { offset, size: filesz };
    }
    // Header and program headers are whole: from here on ld.so maps the file; what is missing is touched later.
    part.mappable = loads.length > 0;
    if (loads.length > 0) part.loadEnd = Math.max(...loads.map((l) => l.offset + l.filesz));
  }
  // No program headers (an object file, or a stripped oddity): fall back to the section headers.
  let strtabFromSection: { offset: number; size: number } | null = null;
  if (!dyn && shnum > 0 && shnum <= 65535 && shentsize >= (cls === 64 ? 64 : 40)) {
    const sh = read(shoff, shnum * shentsize);
    if (sh.length < shnum * shentsize) throw new ElfError('truncated', `${label}: truncated section headers`);
    const secOff = (i: number) => (cls === 64 ? r.addr(sh, i * shentsize + 24) : r.u32(sh, i * shentsize + 16));
    const secSize = (i: number) => (cls === 64 ? r.addr(sh, i * shentsize + 32) : r.u32(sh, i * shentsize + 20));
    for (let i = 0; i < shnum; i++) {
      if (r.u32(sh, i * shentsize + 4) !== SHT_DYNAMIC) continue;
      dyn = { offset: secOff(i), size: secSize(i) };
      const link = r.u32(sh, i * shentsize + (cls === 64 ? 40 : 24));
      if (link < shnum) strtabFromSection = { offset: secOff(link), size: secSize(link) };
      break;
    }
  }

  const info: ElfInfo = {
    class: cls,
    machine,
    type,
    littleEndian: le,
    soname: null,
    needed: [],
    rpath: null,
    runpath: null,
    nodeflib: false,
  };
  if (!dyn) return info; // a static executable or an object file: nothing to load

  const entSize = cls === 64 ? 16 : 8;
  const dynBytes = read(dyn.offset, Math.min(dyn.size, MAX_DYN_BYTES));
  if (dynBytes.length < Math.min(dyn.size, MAX_DYN_BYTES))
    throw new ElfError('truncated', `${label}: truncated dynamic section`);
  const needed: number[] = [];
  let soname: number | null = null;
  let rpath: number | null = null;
  let runpath: number | null = null;
  let strtabAddr: number | null = null;
  let strsz: number | null = null;
  for (let o = 0; o + entSize <= dynBytes.length; o += entSize) {
    const tag = cls === 64 ? r.addr(dynBytes, o) : r.u32(dynBytes, o);
    const val = cls === 64 ? r.addr(dynBytes, o + 8) : r.u32(dynBytes, o + 4);
    if (tag === 0) break;
    if (tag === DT_NEEDED) needed.push(val);
    else if (tag === DT_SONAME) soname = val;
    else if (tag === DT_RPATH) rpath = val;
    else if (tag === DT_RUNPATH) runpath = val;
    else if (tag === DT_STRTAB) strtabAddr = val;
    else if (tag === DT_STRSZ) strsz = val;
    else if (tag === DT_FLAGS_1) info.nodeflib = (val & DF_1_NODEFLIB) !== 0;
  }
  // DT_STRTAB holds an address: the file offset is found through the PT_LOAD segment that contains it.
  let strOffset: number | null = null;
  let strLimit = Number.MAX_SAFE_INTEGER;
  if (strtabAddr !== null) {
    const seg = loads.find((l) => strtabAddr! >= l.vaddr && strtabAddr! < l.vaddr + l.filesz);
    if (seg) {
      strOffset = seg.offset + (strtabAddr - seg.vaddr);
      strLimit = seg.offset + seg.filesz;
    } else if (loads.length === 0) strOffset = strtabAddr; // unlinked objects: addresses are offsets
  }
  if (strOffset === null && strtabFromSection) {
    strOffset = strtabFromSection.offset;
    strLimit = strtabFromSection.offset + strtabFromSection.size;
  }
  if (strOffset === null) {
    if (needed.length + (soname !== null ? 1 : 0) + (rpath !== null ? 1 : 0) + (runpath !== null ? 1 : 0) === 0)
      return info;
    throw new ElfError('truncated', `${label}: dynamic string table not found`);
  }
  if (strsz !== null) strLimit = Math.min(strLimit, strOffset + strsz);
  // The linker writes the NEEDED, SONAME and RPATH strings close together: one 4 KiB window usually serves them all.
  let win: { at: number; bytes: Buffer } | null = null;
  const str = (idx: number): string => {
    const at = strOffset! + idx;
    if (at >= strLimit) throw new ElfError('truncated', `${label}: string offset outside the string table`);
    if (win === null || at < win.at || at >= win.at + win.bytes.length)
      win = { at, bytes: read(at, Math.min(4096, strLimit - at)) };
    const nulInWindow = win.bytes.indexOf(0, at - win.at);
    if (nulInWindow >= 0) return win.bytes.subarray(at - win.at, nulInWindow).toString('utf8');
    // Read in small chunks until the terminating NUL: dynamic strings are short.
    let out = '';
    for (let pos = at, chunk = 256; out.length < MAX_STRING; pos += chunk, chunk = Math.min(chunk * 4, 16384)) {
      const b = read(pos, Math.min(chunk, strLimit - pos));
      if (b.length === 0) throw new ElfError('truncated', `${label}: truncated string table`);
      const nul = b.indexOf(0);
      if (nul >= 0) return out + b.subarray(0, nul).toString('utf8');
      out += b.toString('utf8');
      if (pos + b.length >= strLimit)
        throw new ElfError('truncated', `${label}: unterminated string in the string table`);
    }
    throw new ElfError('truncated', `${label}: string too long in the string table`);
  };
  info.needed = needed.map(str);
  info.soname = soname === null ? null : str(soname);
  info.rpath = rpath === null ? null : str(rpath);
  info.runpath = runpath === null ? null : str(runpath);
  return info;
}

class Reader {
  constructor(
    readonly le: boolean,
    readonly cls: ElfClass,
  ) {}
  u16(b: Buffer, o: number): number {
    if (o + 2 > b.length) throw new ElfError('truncated', 'truncated ELF data');
    return this.le ? b.readUInt16LE(o) : b.readUInt16BE(o);
  }
  u32(b: Buffer, o: number): number {
    if (o + 4 > b.length) throw new ElfError('truncated', 'truncated ELF data');
    return this.le ? b.readUInt32LE(o) : b.readUInt32BE(o);
  }
  /** 64-bit fields as numbers: offsets and addresses in real files stay far below 2^53; tags like 0x6ffffffb too. */
  addr(b: Buffer, o: number): number {
    if (o + 8 > b.length) throw new ElfError('truncated', 'truncated ELF data');
    // two 32-bit halves: no BigInt per field (the loader emulation reads thousands of them)
    const hi = this.le ? b.readUInt32LE(o + 4) : b.readUInt32BE(o);
    const lo = this.le ? b.readUInt32LE(o) : b.readUInt32BE(o + 4);
    return hi > 0x1fffff ? Number.MAX_SAFE_INTEGER : hi * 0x100000000 + lo;
  }
}
