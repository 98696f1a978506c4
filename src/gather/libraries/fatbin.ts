// The GPU code inside a CUDA library: the .nv_fatbin section lists, per compilation unit, a cubin (SASS) for
// each real architecture and PTX for each virtual one. Reading only the entry headers tells which GPUs a build
// runs on without importing the framework (torch.cuda.get_arch_list() needs `import torch`, seconds).
//
// Layout (NVIDIA's fatbinary format, as nvcc writes it and cuobjdump reads it; checked against libraries built
// with nvcc 13.0 here and PyTorch 2.11's libtorch_cuda.so):
//   blob header, 16 bytes: u32 magic 0xBA55ED50, u16 version, u16 header size, u64 size of the entries
//   entry header: u16 kind (1 = PTX, 2 = cubin), u16 version, u32 header size, u64 payload size, ...,
//                 u32 architecture at byte 28 (75 = sm_75; "90a" is 90 with a flag)
// Payloads (possibly compressed) are skipped, never read.
import type { FileSystem, FileReader } from '../../ports/fs.js';
import { runWorker } from '../../ports/worker.js';

/** Defined (true) by scripts/build.mjs: the bundle has dist/fatbin-worker.cjs next to its chunks folder. */
declare const __GED_BUNDLE__: boolean | undefined;

const FATBIN_MAGIC = 0xba55ed50;
const SHT_NOBITS = 8;
/** libtorch_cuda.so has tens of thousands of entries; a bound keeps a corrupt file from looping for long. */
const MAX_ENTRIES = 500_000;
/** `check` must stay fast: past this, the answer is "unknown" (null), never a partial list, which would
 *  wrongly say a GPU has no code. */
export const DEFAULT_BUDGET_MS = 300;

export interface FatbinTargets {
  /** real architectures with machine code: "sm_90" */
  sass: string[];
  /** virtual architectures with PTX that the driver can JIT: "compute_90" */
  ptx: string[];
  entries: number;
}

export type FatbinResults = Map<string, FatbinTargets | null>;

/**
 * The targets of several libraries, read in a worker thread: the walk is tens of thousands of small reads
 * (libtorch_cuda.so), and `check` has other files to read meanwhile. Where no worker can run (the tests run the
 * sources, which have no bundled worker file), the same walk runs here.
 */
export async function readFatbinTargetsInParallel(
  fs: FileSystem,
  paths: readonly string[],
  budgetMs = DEFAULT_BUDGET_MS,
): Promise<{ results: FatbinResults; thread: 'worker' | 'main' }> {
  const sync = () => ({
    results: new Map(paths.map((p) => [p, readFatbinTargets(fs, p, budgetMs)])),
    thread: 'main' as const,
  });
  if (paths.length === 0 || typeof __GED_BUNDLE__ === 'undefined') return sync();
  // The worker needs its own thread start (~10-20 ms) and the budget; past that, the answer is unknown anyway.
  const posted = await runWorker<[string, FatbinTargets | null][]>(
    new URL('../fatbin-worker.cjs', import.meta.url),
    { root: fs.root, paths, budgetMs },
    budgetMs + 5000,
  );
  return posted ? { results: new Map(posted), thread: 'worker' } : sync();
}

/** The architectures in a library's fatbinary, or null when it has none (or is not a readable ELF file). */
export function readFatbinTargets(fs: FileSystem, path: string, budgetMs = DEFAULT_BUDGET_MS): FatbinTargets | null {
  let r: FileReader;
  try {
    r = fs.openReader(path);
  } catch {
    return null;
  }
  try {
    const sec = findSection(r, '.nv_fatbin');
    return sec ? walk(r, sec.offset, sec.size, performance.now() + budgetMs) : null;
  } catch {
    return null; // truncated or malformed: no facts rather than wrong ones
  } finally {
    r.close();
  }
}

/**
 * The headers are read through a small window: one read of WINDOW bytes serves every header that falls inside
 * it (the entries of a blob whose payloads are small sit close together), and a header past it costs one read
 * into the same buffer. No allocation per header: libtorch_cuda.so has tens of thousands of them.
 */
const WINDOW = 512;

function walk(r: FileReader, start: number, size: number, deadline: number): FatbinTargets | null {
  const sass = new Set<number>();
  const ptx = new Set<number>();
  let entries = 0;
  let p = start;
  let misses = 0;
  const end = start + size;
  const win = Buffer.allocUnsafe(WINDOW);
  let winAt = -1;
  let winLen = 0;
  /** offset in `win` of the `len` bytes at file position `at`, or -1 when the file ends before them */
  const at = (pos: number, len: number): number => {
    if (winAt < 0 || pos < winAt || pos + len > winAt + winLen) {
      winAt = pos;
      winLen = r.readInto(win, pos);
    }
    return pos + len <= winAt + winLen ? pos - winAt : -1;
  };
  while (p + 16 <= end) {
    const h = at(p, 16);
    if (h < 0 || win.readUInt32LE(h) !== FATBIN_MAGIC) {
      // Blobs are 8-byte aligned with a little zero padding between them; far from any blob, give up.
      if (++misses > 512) break;
      p += 8;
      continue;
    }
    misses = 0;
    if (performance.now() > deadline) return null;
    const headerSize = win.readUInt16LE(h + 6);
    const blobEnd = p + headerSize + Number(win.readBigUInt64LE(h + 8));
    let q = p + headerSize;
    while (q + 32 <= blobEnd && q + 32 <= end) {
      const e = at(q, 32);
      if (e < 0) break;
      const kind = win.readUInt16LE(e);
      const eh = win.readUInt32LE(e + 4);
      const payload = Number(win.readBigUInt64LE(e + 8));
      const arch = win.readUInt32LE(e + 28);
      if (eh < 32 || eh > 4096) break; // not an entry header: stop this blob
      if (arch >= 10 && arch < 1000) {
        if (kind === 2) sass.add(arch);
        else if (kind === 1) ptx.add(arch);
      }
      if (++entries > MAX_ENTRIES || (entries % 1024 === 0 && performance.now() > deadline)) return null;
      q += eh + payload;
    }
    p = Math.max(blobEnd, p + 16);
  }
  if (entries === 0) return null;
  const names = (set: Set<number>, prefix: string) => [...set].sort((a, b) => a - b).map((a) => `${prefix}_${a}`);
  return { sass: names(sass, 'sm'), ptx: names(ptx, 'compute'), entries };
}

/** The file range of a named section (ELF32/ELF64, little-endian: every CUDA platform). */
function findSection(r: FileReader, name: string): { offset: number; size: number } | null {
  const id = r.read(0, 64);
  if (id.length < 52 || id.readUInt32BE(0) !== 0x7f454c46 || id[5] !== 1) return null;
  const is64 = id[4] === 2;
  const shoff = is64 ? Number(id.readBigUInt64LE(0x28)) : id.readUInt32LE(0x20);
  const shentsize = id.readUInt16LE(is64 ? 0x3a : 0x2e);
  const shnum = id.readUInt16LE(is64 ? 0x3c : 0x30);
  const shstrndx = id.readUInt16LE(is64 ? 0x3e : 0x32);
  if (shoff === 0 || shnum === 0 || shnum > 65535 || shentsize < (is64 ? 64 : 40) || shstrndx >= shnum) return null;
  const table = r.read(shoff, shnum * shentsize);
  const sec = (i: number) => {
    const o = i * shentsize;
    return is64
      ? {
          name: table.readUInt32LE(o),
          type: table.readUInt32LE(o + 4),
          offset: Number(table.readBigUInt64LE(o + 24)),
          size: Number(table.readBigUInt64LE(o + 32)),
        }
      : {
          name: table.readUInt32LE(o),
          type: table.readUInt32LE(o + 4),
          offset: table.readUInt32LE(o + 16),
          size: table.readUInt32LE(o + 20),
        };
  };
  const strtab = sec(shstrndx);
  const names = r.read(strtab.offset, Math.min(strtab.size, 1 << 20));
  const want = Buffer.from(`${name}\0`);
  for (let i = 0; i < shnum; i++) {
    const s = sec(i);
    if (s.type === SHT_NOBITS || s.size === 0) continue;
    if (names.subarray(s.name, s.name + want.length).equals(want)) return { offset: s.offset, size: s.size };
  }
  return null;
}
