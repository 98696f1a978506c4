// Reading a file that someone else may swap while we look (a shared snapshot folder): opened once, without
// blocking and without following a last-component link, checked on the open descriptor, read only when it is a
// regular file. A path check followed by a second open by name is a race: a FIFO swapped in between blocks
// open(2) until a writer comes, and a link swapped in is followed to whatever it names.
import * as nfs from 'node:fs';
import * as nodePath from 'node:path';

/** Why a file was not read. */
type Refused =
  | { kind: 'notFile' }
  | { kind: 'link' }
  | { kind: 'outside' }
  | { kind: 'tooLarge' }
  | { kind: 'error'; code: string };

export interface SafeReadOptions {
  /** read at most this many bytes; a larger file is `tooLarge` (the extra byte read tells) */
  maxBytes: number;
  /** refuse a link as the last component (O_NOFOLLOW) */
  noFollow: boolean;
  /**
   * when set, the opened file must lie inside this folder (a real path): a folder swapped for a link on the way is
   * caught on the descriptor
   */
  inside?: string;
  /**
   * the file a walk of `inside` found at this path (device, inode, birth time): a descriptor on that very file is
   * inside without asking the kernel for its name; any other file (replaced since) is checked by its name
   */
  found?: FileId;
}

/** Which file: what fstat and stat say of it, compared whole. */
export interface FileId {
  dev: number;
  ino: number;
  /** 0 where the file system does not keep it */
  birthtimeMs: number;
}

const FLAGS = nfs.constants.O_RDONLY | nfs.constants.O_NONBLOCK;

export type SafeText = { kind: 'file'; text: string; bytes: number; size: number; mtimeMs: number } | Refused;

/**
 * Opens `abs` once and, when on the descriptor it is a regular file, reads it and decodes it as UTF-8 (`bytes`: how
 * many were read). Never throws, never blocks on a FIFO. The bytes go into one buffer that the next file reuses: a
 * fresh one per file cost as much as its read (a 10 kB snapshot is past Buffer's pool, each was its own allocation).
 */
export function readRegularText(abs: string, o: SafeReadOptions): SafeText {
  let fd: number;
  try {
    fd = nfs.openSync(abs, FLAGS | (o.noFollow ? nfs.constants.O_NOFOLLOW : 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'OTHER';
    // O_NOFOLLOW on a link fails with ELOOP (Linux); that is the link, not a loop
    if (o.noFollow && code === 'ELOOP') return { kind: 'link' };
    return { kind: 'error', code };
  }
  try {
    const st = nfs.fstatSync(fd);
    if (!st.isFile()) return { kind: 'notFile' };
    if (o.inside !== undefined && !sameFile(st, o.found) && !openedInside(fd, abs, o.inside))
      return { kind: 'outside' };
    const want = Math.min(o.maxBytes + 1, Math.max(st.size, 0) + 1);
    const buf = scratchOf(want);
    let got = 0;
    // a regular file that grows while read (a node writing its snapshot in place) is read to the limit only
    while (got < want) {
      const ask = want - got;
      const n = nfs.readSync(fd, buf, got, ask, got);
      if (n === 0) break;
      got += n;
      // A short read that reached fstat's size is the end, without the read of 0 bytes after it: the outcome of a
      // file that grew just after this read. Short before that size (a network file system): read on.
      if (n < ask && got >= st.size) break;
    }
    if (got > o.maxBytes) return { kind: 'tooLarge' };
    const text = buf.toString('utf8', 0, got);
    return { kind: 'file', text, bytes: got, size: st.size, mtimeMs: st.mtimeMs };
  } catch (err) {
    return { kind: 'error', code: (err as NodeJS.ErrnoException).code ?? 'OTHER' };
  } finally {
    nfs.closeSync(fd);
  }
}

/** Reads up to this size share one buffer; a larger one gets its own, not kept (a 64 MiB file read once). */
const SCRATCH_KEEP = 1024 * 1024;
let scratch: Buffer | undefined;

function scratchOf(want: number): Buffer {
  if (want > SCRATCH_KEEP) return Buffer.allocUnsafe(want);
  if (scratch === undefined || scratch.length < want) scratch = Buffer.allocUnsafe(Math.max(want, 64 * 1024));
  return scratch;
}

function sameFile(st: nfs.Stats, found: FileId | undefined): boolean {
  return found !== undefined && st.ino === found.ino && st.dev === found.dev && st.birthtimeMs === found.birthtimeMs;
}

/** Is the file open on `fd` inside `folder`? The kernel's name for the descriptor, where /proc gives it. */
function openedInside(fd: number, abs: string, folder: string): boolean {
  let real: string;
  try {
    real = nfs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    try {
      real = nfs.realpathSync.native(abs); // no /proc: the name now, a smaller window than none
    } catch {
      return false;
    }
  }
  return isInside(real, folder);
}

/** Is `p` `folder` itself or below it (both real, absolute paths)? */
export function isInside(p: string, folder: string): boolean {
  const rel = nodePath.relative(folder, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${nodePath.sep}`) && !nodePath.isAbsolute(rel));
}

/** The real path of a folder or file, or null when it cannot be resolved. */
export function realPathOf(abs: string): string | null {
  try {
    return nfs.realpathSync.native(abs);
  } catch {
    return null;
  }
}

export interface RealEntry {
  name: string;
  type: 'file' | 'dir' | 'symlink' | 'other';
}

/** The entries of a folder given by its path on this machine (throws the errno error). */
export function listRealDir(abs: string): RealEntry[] {
  return nfs.readdirSync(abs, { withFileTypes: true }).map((d) => ({
    name: d.name,
    type: d.isFile() ? 'file' : d.isDirectory() ? 'dir' : d.isSymbolicLink() ? 'symlink' : 'other',
  }));
}

/** stat (links followed) of a path on this machine, or null when it cannot be had. */
export function statReal(abs: string): ({ type: 'file' | 'dir' | 'other' } & FileId) | null {
  try {
    const st = nfs.statSync(abs);
    const type = st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other';
    return { type, dev: st.dev, ino: st.ino, birthtimeMs: st.birthtimeMs };
  } catch {
    return null;
  }
}
