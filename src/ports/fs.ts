// The filesystem port: every read of the machine goes through here, rooted at `--root` (default "/").
// Paths given to it are machine paths ("/proc/1/status"); it maps them under the root, and resolves
// symbolic links itself so that an absolute link target stays inside the root (as a chroot would).
// Synchronous on purpose: probes read many tiny files, where sync calls are faster than the thread pool.
import * as nfs from 'node:fs';
import * as nodePath from 'node:path';

export type FsErrorCode = 'ENOENT' | 'EACCES' | 'ENOTDIR' | 'ELOOP' | 'EISDIR' | 'EIO' | 'OTHER';

export class FsError extends Error {
  override name = 'FsError';
  constructor(
    readonly code: FsErrorCode,
    readonly path: string,
    message?: string,
  ) {
    // Probes meet thousands of missing files (the loader emulation tries every search folder); a stack
    // trace per miss cost 0.3 s in all. These errors are results, not bugs: no stack.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message ?? `${path}: ${code}`);
    Error.stackTraceLimit = limit;
  }
}

export interface FileStat {
  type: 'file' | 'dir' | 'symlink' | 'other';
  size: number;
  mtimeMs: number;
  mode: number;
  uid: number;
  /** device and inode: identify a file behind different paths */
  dev: number;
  ino: number;
}

export interface FileReader {
  readonly size: number;
  /** up to `length` bytes at `offset` (short at the end of the file) */
  read(offset: number, length: number): Buffer;
  /** fills `target` from `offset` (fewer bytes at the end of the file); returns how many were read. Reading a big
   *  file through one reused buffer spares a page fault per page of every new buffer. */
  readInto(target: Buffer, offset: number): number;
  close(): void;
}

/**
 * What says a path has not changed since it was last looked at: its kind, device, inode, size and its change times
 * in nanoseconds ("-" when nothing is there, "!CODE" when it cannot be looked at). `changedMs`: the later of its
 * modification and status-change times (0 when absent), to tell a file changed while it was being read.
 */
export interface FileIdentity {
  id: string;
  changedMs: number;
}

export interface DirEntry {
  name: string;
  type: 'file' | 'dir' | 'symlink' | 'other';
}

export interface FileSystem {
  /** the directory that stands for "/" */
  readonly root: string;
  readText(path: string, maxBytes?: number): string;
  /** up to `length` bytes from `offset` (a short read at the end of the file) */
  readBytes(path: string, offset?: number, length?: number): Buffer;
  readdir(path: string): DirEntry[];
  stat(path: string): FileStat;
  /** stat, or null when nothing is there (ENOENT, ENOTDIR): the cheap question for hot paths */
  tryStat(path: string): FileStat | null;
  lstat(path: string): FileStat;
  readlink(path: string): string;
  /** the canonical machine path, links resolved inside the root; throws ELOOP on a loop */
  realpath(path: string): string;
  /** one open file for many small reads (walking a large file's headers without reopening it) */
  openReader(path: string): FileReader;
  exists(path: string): boolean;
  /** the path's identity, following links (`follow`) or not; never throws */
  identity?(path: string, follow: boolean): FileIdentity;
  /**
   * A view for one collection of facts (a `check`, a `libs`): the answers about files and folders (stat,
   * lstat, readdir, readlink, realpath) are remembered, outside /proc, /sys and /dev, which change while we
   * look. The loader emulation asks the same questions for every framework (the same names in the same
   * folders); the second time costs a map lookup. Long-lived commands (`serve`, `procs --watch`) keep using
   * the plain port, so they see files that change. File contents are never remembered.
   */
  session?(): FileSystem;
}

const MAX_LINKS = 40; // what Linux allows (MAXSYMLINKS)
/** Paths whose metadata changes while we look (/proc, /sys, /dev): never remembered by a session. */
export const isVolatile = (p: string): boolean => p.startsWith('/proc') || p.startsWith('/sys') || p.startsWith('/dev');

export function createFileSystem(root = '/'): FileSystem {
  return makeFileSystem(nodePath.resolve(root), false);
}

type Memo<T> = Map<string, { v: T } | { e: unknown }>;
function memo<T>(cache: Memo<T> | null, p: string, f: () => T): T {
  return cache === null || isVolatile(p) ? f() : memoAlways(cache, p, f);
}

/** /proc files that two probes of one collection read: remembered by a session although /proc is volatile. */
const PROC_TWICE = /^\/proc\/\d+\/(?:maps|environ)$/;

/** memo() without the volatile-path exception. */
function memoAlways<T>(cache: Memo<T>, key: string, f: () => T): T {
  const hit = cache.get(key);
  if (hit) {
    if ('e' in hit) throw hit.e;
    return hit.v;
  }
  try {
    const v = f();
    cache.set(key, { v });
    return v;
  } catch (e) {
    cache.set(key, { e });
    throw e;
  }
}

function makeFileSystem(absRoot: string, remember: boolean): FileSystem {
  const caches = remember
    ? {
        stat: new Map() as Memo<FileStat | null>,
        lstat: new Map() as Memo<FileStat>,
        readdir: new Map() as Memo<DirEntry[]>,
        readlink: new Map() as Memo<string>,
        resolve: new Map() as Memo<string>,
        procText: new Map() as Memo<string>,
      }
    : null;
  const host = (p: string): string => {
    // The loader emulation asks about thousands of paths that are already clean: normalise only when needed.
    const clean = p.startsWith('/') && !p.includes('//') && !p.includes('/.');
    const norm = clean ? p : nodePath.posix.normalize(p.startsWith('/') ? p : `/${p}`);
    // norm is absolute and normalised: joining it to the root is concatenation (join would normalise it again)
    return absRoot === '/' ? norm : absRoot + norm;
  };
  // Under the real root the kernel resolves links correctly: no need to walk them ourselves first.
  const resolve =
    absRoot === '/' ? (p: string) => p : (p: string) => memo(caches?.resolve ?? null, p, () => resolveIn(fsys, p));
  const wrap = <T>(p: string, f: () => T): T => {
    try {
      return f();
    } catch (err) {
      throw toFsError(err, p);
    }
  };
  const toStat = (s: nfs.Stats): FileStat => ({
    type: s.isFile() ? 'file' : s.isDirectory() ? 'dir' : s.isSymbolicLink() ? 'symlink' : 'other',
    size: s.size,
    mtimeMs: s.mtimeMs,
    mode: s.mode,
    uid: s.uid,
    dev: s.dev,
    ino: s.ino,
  });

  const readText = (p: string, maxBytes: number | undefined): string => {
    if (maxBytes === undefined) return wrap(p, () => nfs.readFileSync(host(resolve(p)), 'utf8'));
    return fsys.readBytes(p, 0, maxBytes).toString('utf8');
  };
  const fsys: FileSystem = {
    root: absRoot,
    readText(p, maxBytes) {
      // A GPU process's maps and environment are read by two probes (the holder's framework, the libraries it
      // mapped): once per collection, which also gives both the same view of the process.
      if (caches && PROC_TWICE.test(p))
        return memoAlways(caches.procText, `${p}\0${maxBytes ?? ''}`, () => readText(p, maxBytes));
      return readText(p, maxBytes);
    },
    readBytes(p, offset = 0, length) {
      return wrap(p, () => {
        const fd = nfs.openSync(host(resolve(p)), 'r');
        try {
          return readRange(fd, nfs.fstatSync(fd).size, offset, length);
        } finally {
          nfs.closeSync(fd);
        }
      });
    },
    readdir(p) {
      const list = memo(caches?.readdir ?? null, p, () =>
        wrap(p, () =>
          nfs.readdirSync(host(resolve(p)), { withFileTypes: true }).map(
            (d): DirEntry => ({
              name: d.name,
              type: d.isFile() ? 'file' : d.isDirectory() ? 'dir' : d.isSymbolicLink() ? 'symlink' : 'other',
            }),
          ),
        ),
      );
      return caches ? [...list] : list; // callers may sort or filter in place
    },
    stat(p) {
      const st = fsys.tryStat(p);
      if (st === null) throw new FsError('ENOENT', p, `${p}: no such file or directory`);
      return st;
    },
    tryStat(p) {
      return memo(caches?.stat ?? null, p, () =>
        wrap(p, () => {
          try {
            const st = nfs.statSync(host(resolve(p)), { throwIfNoEntry: false });
            return st === undefined ? null : toStat(st);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
            throw err;
          }
        }),
      );
    },
    lstat(p) {
      return memo(caches?.lstat ?? null, p, () => wrap(p, () => toStat(nfs.lstatSync(host(p)))));
    },
    readlink(p) {
      return memo(caches?.readlink ?? null, p, () => wrap(p, () => nfs.readlinkSync(host(p))));
    },
    realpath(p) {
      return memo(caches?.resolve ?? null, p, () => resolveIn(fsys, p));
    },
    openReader(p) {
      const fd = wrap(p, () => nfs.openSync(host(resolve(p)), 'r'));
      let st: nfs.Stats;
      try {
        st = wrap(p, () => nfs.fstatSync(fd));
      } catch (err) {
        nfs.closeSync(fd);
        throw err;
      }
      const size = st.size;
      // a pipe or a terminal cannot seek: it is read in order, the offset only counts
      const seekable = st.isFile() || st.isBlockDevice();
      // One open and one fstat for the whole walk: a reader over libtorch_cuda.so's fatbinary makes tens of
      // thousands of small reads, where a stat per read doubled the cost.
      return {
        size,
        read: (offset, length) => wrap(p, () => readRange(fd, size, offset, length)),
        readInto: (buf, offset) =>
          wrap(p, () =>
            seekable ? readFull(fd, buf, buf.length, offset) : nfs.readSync(fd, buf, 0, buf.length, null),
          ),
        close: () => nfs.closeSync(fd),
      };
    },
    exists(p) {
      try {
        fsys.stat(p);
        return true;
      } catch {
        return false;
      }
    },
    identity(p, follow) {
      try {
        const target = host(follow ? resolve(p) : p);
        const st = follow
          ? nfs.statSync(target, { bigint: true, throwIfNoEntry: false })
          : nfs.lstatSync(target, { bigint: true, throwIfNoEntry: false });
        if (st === undefined) return { id: '-', changedMs: 0 };
        const kind = st.isFile() ? 'f' : st.isDirectory() ? 'd' : st.isSymbolicLink() ? 'l' : 'o';
        return {
          id: `${kind}:${st.dev}:${st.ino}:${st.size}:${st.mode}:${st.mtimeNs}:${st.ctimeNs}`,
          changedMs: Math.max(Number(st.mtimeMs), Number(st.ctimeMs)),
        };
      } catch (err) {
        const code = toFsError(err, p).code;
        return { id: code === 'ENOENT' || code === 'ENOTDIR' ? '-' : `!${code}`, changedMs: 0 };
      }
    },
    session() {
      return makeFileSystem(absRoot, true);
    },
  };
  return fsys;
}

/**
 * Reads up to `length` bytes at `offset` of a file of `size` bytes (its fstat size). Allocates only what the
 * file holds: callers pass generous limits (16 MiB for a RECORD file) and most files are small. /proc and
 * /sys files report size 0, so those are read in chunks until the end.
 */
function readRange(fd: number, size: number, offset: number, length: number | undefined): Buffer {
  if (size > 0) {
    const len = Math.max(0, Math.min(length ?? Infinity, size - offset));
    const buf = Buffer.allocUnsafe(len);
    return buf.subarray(0, readFull(fd, buf, len, offset));
  }
  const chunks: Buffer[] = [];
  let total = 0;
  const limit = length ?? Infinity;
  while (total < limit) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, limit - total));
    const n = nfs.readSync(fd, chunk, 0, chunk.length, offset + total);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
  }
  return Buffer.concat(chunks, total);
}

/** Fills buf[0, len) from the file at `offset`; returns the bytes read (fewer at the end of the file). */
export function readFull(fd: number, buf: Buffer, len: number, offset: number): number {
  let got = 0;
  while (got < len) {
    const n = nfs.readSync(fd, buf, got, len - got, offset + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

/**
 * Resolve every symbolic link in `p` component by component, inside the root.
 * /proc's magic links (/proc/PID/exe, fd/N) point at paths that may not exist; those are returned as-is.
 */
function resolveIn(fsys: FileSystem, p: string): string {
  if (fsys.root === '/') {
    // Fast path: the kernel resolves links correctly when the root is the real root.
    try {
      // A missing file is common here (candidate paths); answering it without an exception is much cheaper.
      if (nfs.statSync(p, { throwIfNoEntry: false }) === undefined) return p;
      return nfs.realpathSync.native(p);
    } catch (err) {
      const e = toFsError(err, p);
      if (e.code !== 'ENOENT') throw e;
      return p; // let the caller's own read report ENOENT with the path it asked for
    }
  }
  // normalize changes a path only where it has "//", "." or "..": most asked are already clean
  const clean = p.startsWith('/') && !p.includes('//') && !p.includes('/.');
  const parts = (clean ? p : nodePath.posix.normalize(p.startsWith('/') ? p : `/${p}`)).split('/').filter(Boolean);
  // `at`: the resolved components joined ("" for the root), kept with them so that each step costs one concatenation
  let resolved: string[] = [];
  let at = '';
  let links = 0;
  while (parts.length > 0) {
    const part = parts.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      if (resolved.length > 0) {
        resolved.pop();
        at = at.slice(0, at.lastIndexOf('/'));
      }
      continue;
    }
    const candidate = `${at}/${part}`;
    let st: FileStat;
    try {
      st = fsys.lstat(candidate);
    } catch {
      // Missing component: keep the rest unresolved; the read that follows reports ENOENT.
      return `/${[...resolved, part, ...parts].join('/')}`;
    }
    if (st.type !== 'symlink') {
      resolved.push(part);
      at = candidate;
      continue;
    }
    if (++links > MAX_LINKS) throw new FsError('ELOOP', p, `${p}: too many levels of symbolic links`);
    const target = fsys.readlink(candidate);
    if (target.startsWith('/')) {
      resolved = [];
      at = '';
    }
    parts.unshift(...target.split('/').filter(Boolean));
  }
  return at === '' ? '/' : at;
}

function toFsError(err: unknown, p: string): FsError {
  if (err instanceof FsError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  const known: FsErrorCode[] = ['ENOENT', 'EACCES', 'ENOTDIR', 'ELOOP', 'EISDIR', 'EIO'];
  const c = known.includes(code as FsErrorCode) ? (code as FsErrorCode) : code === 'EPERM' ? 'EACCES' : 'OTHER';
  return new FsError(c, p, `${p}: ${(err as Error).message ?? c}`);
}

/** Read a small text file, or undefined when it is missing or unreadable (a probe records why elsewhere). */
export function readTextOr(fsys: FileSystem, p: string, maxBytes?: number): string | undefined {
  try {
    return fsys.readText(p, maxBytes);
  } catch {
    return undefined;
  }
}

/** Is there a regular file (after links) at the path? False for anything missing or unreadable. */
export function isFile(fsys: FileSystem, p: string): boolean {
  try {
    return fsys.tryStat(p)?.type === 'file';
  } catch {
    return false;
  }
}

/** Is there a folder (after links) at the path? */
export function isDir(fsys: FileSystem, p: string): boolean {
  try {
    return fsys.tryStat(p)?.type === 'dir';
  } catch {
    return false;
  }
}

/** The names in a folder, or none when it cannot be read. */
export function listNames(fsys: FileSystem, dir: string): string[] {
  try {
    return fsys.readdir(dir).map((e) => e.name);
  } catch {
    return [];
  }
}
