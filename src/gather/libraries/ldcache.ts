// /etc/ld.so.cache, read directly (no ldconfig needed), and `ldconfig -p` output as the fallback.
// Formats (glibc sysdeps/generic/dl-cache.h):
//  - new: "glibc-ld.so.cache" "1.1", 48-byte header, 24-byte entries {flags, key, value, osversion, hwcap};
//    string offsets are relative to the start of this header; an extension area holds the generator
//    ("ldconfig (GNU libc) 2.39") and the glibc-hwcaps subfolder names.
//  - old: "ld.so-1.7.0", 12-byte entries {flags, key, value}, offsets relative to the end of the entries.
//  - compat: an old cache with the new one hidden in its string table (8-byte aligned after the old entries).
// glibc prefers the new part when present, and so do we.

export interface LdCacheEntry {
  /** the name looked up: a soname such as "libcudnn.so.9" */
  name: string;
  path: string;
  flags: number;
  /** "libc6,x86-64" as ldconfig -p prints it */
  flagsText: string;
  /** the glibc-hwcaps subfolder the entry belongs to ("x86-64-v3"), null for the base folder */
  hwcap: string | null;
}

export interface LdCache {
  format: 'new' | 'old' | 'compat' | 'ldconfig-p';
  entries: LdCacheEntry[];
  /** "ldconfig (GNU libc) 2.39": tells the glibc version */
  generator: string | null;
}

export class LdCacheError extends Error {
  override name = 'LdCacheError';
}

const OLD_MAGIC = 'ld.so-1.7.0';
const NEW_MAGIC = 'glibc-ld.so.cache1.1';
const EXT_MAGIC = 0xeaa42174;
/** bit 62 of the hwcap field, in its upper 32-bit half */
const HWCAP_EXTENSION_HI = 1 << 30;

export function parseLdCache(buf: Buffer): LdCache {
  if (buf.subarray(0, NEW_MAGIC.length).toString('latin1') === NEW_MAGIC) return parseNew(buf, 0, 'new');
  if (buf.subarray(0, OLD_MAGIC.length).toString('latin1') === OLD_MAGIC) {
    if (buf.length < 16) throw new LdCacheError('truncated ld.so.cache header');
    const nlibs = buf.readUInt32LE(12);
    const oldEnd = 16 + nlibs * 12;
    if (oldEnd > buf.length) throw new LdCacheError('ld.so.cache: old-format entries run past the end of the file');
    const newStart = (oldEnd + 7) & ~7;
    if (
      buf.length >= newStart + 48 &&
      buf.subarray(newStart, newStart + NEW_MAGIC.length).toString('latin1') === NEW_MAGIC
    ) {
      return parseNew(buf, newStart, 'compat');
    }
    const entries: LdCacheEntry[] = [];
    for (let i = 0; i < nlibs; i++) {
      const o = 16 + i * 12;
      const flags = buf.readInt32LE(o);
      entries.push({
        name: cstr(buf, oldEnd + buf.readUInt32LE(o + 4)),
        path: cstr(buf, oldEnd + buf.readUInt32LE(o + 8)),
        flags,
        flagsText: flagsText(flags),
        hwcap: null,
      });
    }
    return { format: 'old', entries, generator: null };
  }
  throw new LdCacheError('not an ld.so.cache file (unknown magic)');
}

function parseNew(buf: Buffer, base: number, format: 'new' | 'compat'): LdCache {
  if (buf.length < base + 48) throw new LdCacheError('truncated ld.so.cache header');
  const nlibs = buf.readUInt32LE(base + 20);
  const extOffset = buf.readUInt32LE(base + 32);
  if (base + 48 + nlibs * 24 > buf.length) throw new LdCacheError('ld.so.cache: entries run past the end of the file');
  let generator: string | null = null;
  let hwcaps: string[] = [];
  // The extension area and its sections are addressed from the start of the file (in a compat cache too),
  // while the strings they point at, like the entries' strings, are relative to the new-format header.
  // (ldconfig -p of glibc 2.36 gets the hwcap names of a compat cache wrong; the loader does not.)
  if (extOffset !== 0 && extOffset + 8 <= buf.length && buf.readUInt32LE(extOffset) === EXT_MAGIC) {
    const count = buf.readUInt32LE(extOffset + 4);
    for (let i = 0; i < count && i < 64; i++) {
      const s = extOffset + 8 + i * 16;
      if (s + 16 > buf.length) break;
      const tag = buf.readUInt32LE(s);
      const off = buf.readUInt32LE(s + 8);
      const size = buf.readUInt32LE(s + 12);
      if (off + size > buf.length) continue;
      if (tag === 0)
        generator = buf
          .subarray(off, off + size)
          .toString('utf8')
          .replace(/\0+$/, '');
      else if (tag === 1) {
        hwcaps = [];
        for (let k = 0; k + 4 <= size; k += 4) hwcaps.push(cstr(buf, base + buf.readUInt32LE(off + k)));
      }
    }
  }
  const entries: LdCacheEntry[] = [];
  for (let i = 0; i < nlibs; i++) {
    const o = base + 48 + i * 24;
    const flags = buf.readInt32LE(o);
    // the 64-bit hwcap field as two halves (no BigInt per entry): bit 62 marks an index into the hwcap names
    const hwcap =
      (buf.readUInt32LE(o + 20) & HWCAP_EXTENSION_HI) !== 0 ? (hwcaps[buf.readUInt32LE(o + 16)] ?? null) : null;
    entries.push({
      name: cstr(buf, base + buf.readUInt32LE(o + 4)),
      path: cstr(buf, base + buf.readUInt32LE(o + 8)),
      flags,
      flagsText: flagsText(flags),
      hwcap,
    });
  }
  return { format, entries, generator };
}

function cstr(buf: Buffer, at: number): string {
  if (at >= buf.length) throw new LdCacheError('ld.so.cache: string offset outside the file');
  const end = buf.indexOf(0, at);
  return buf.toString('utf8', at, end < 0 ? buf.length : end);
}

/** glibc's FLAG_* values (sysdeps/generic/ldconfig.h): the ABI a cached library is for. */
const REQUIRED: Record<number, string> = {
  0x0100: 'sparc64',
  0x0200: 'IA-64',
  0x0300: 'x86-64',
  0x0400: '64bit',
  0x0500: '64bit',
  0x0600: 'N32',
  0x0700: '64bit',
  0x0800: 'x32',
  0x0900: 'hard-float',
  0x0a00: 'AArch64',
  0x0b00: 'soft-float',
};

export function flagsText(flags: number): string {
  const type = flags & 0xff;
  const t = type === 3 ? 'libc6' : type === 2 ? 'libc5' : type === 1 ? 'ELF' : 'libc4';
  const req = REQUIRED[flags & 0xff00];
  return req ? `${t},${req}` : t;
}

/** The cache flags glibc accepts for an object of this ELF machine and class (_dl_cache_check_flags). */
export function expectedCacheFlags(machine: number, cls: 32 | 64): number[] {
  const id =
    machine === 62
      ? cls === 64
        ? 0x0303
        : 0x0803
      : machine === 183
        ? 0x0a03
        : machine === 21
          ? 0x0503
          : machine === 3 || machine === 40
            ? 0x0003
            : 0x0003;
  return [1, id];
}

/**
 * The glibc version from the cache's generator string ("ldconfig (GNU libc) 2.39", "ldconfig (Ubuntu GLIBC
 * 2.39-0ubuntu8) 2.39").
 */
export function glibcVersion(cache: LdCache | null): string | null {
  const m = cache?.generator ? /(\d+\.\d+)\s*$/.exec(cache.generator) : null;
  return m?.[1] ?? null;
}

/**
 * `ldconfig -p`: "\tlibcudnn.so.9 (libc6,x86-64) => /lib/x86_64-linux-gnu/libcudnn.so.9" (hwcap and OS ABI notes after
 * the flags).
 */
export function parseLdconfigP(text: string): LdCache {
  const entries: LdCacheEntry[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s+(\S+) \(([^)]*)\) => (.+)$/.exec(line);
    if (!m) continue;
    const parts = m[2]!.split(', ');
    const ft = parts[0]!;
    const hw = parts.find((p) => p.startsWith('hwcap: '));
    entries.push({
      name: m[1]!,
      path: m[3]!.trim(),
      flags: flagsFromText(ft),
      flagsText: ft,
      hwcap: hw ? hw.slice(7).replace(/^"|"$/g, '') : null,
    });
  }
  return { format: 'ldconfig-p', entries, generator: null };
}

function flagsFromText(t: string): number {
  const [type, req] = t.split(',');
  const base = type === 'libc6' ? 3 : type === 'libc5' ? 2 : type === 'ELF' ? 1 : 0;
  const r = Object.entries(REQUIRED).find(([, v]) => v === req)?.[0];
  return base | (r ? Number(r) : 0);
}
