// The filesystem port: every read of the machine goes through here, rooted at `--root` (default "/").
// Paths given to it are machine paths ("/proc/1/status"); it maps them under the root, and resolves
// symbolic links itself so that an absolute link target stays inside the root (as a chroot would).
// Synchronous on purpose: probes read many tiny files, where sync calls are faster than the thread pool.
import * as nfs from 'node:fs';
import * as nodePath from 'node:path';

export type FsErrorCode = 'ENOENT' | 'EACCES' | 'ENOTDIR' | 'ELOOP' | 'EISDIR' | 'EIO' | 'OTHER';

export class FsError extends Error {
  override name = 'FsError';
  constructor(readonly code: FsErrorCode, readonly path: string, message?: string) {
    // Probes meet thousands of missing files (the loader emulation tries every search folder); a stack
    // trace per miss cost 0.3 s on the H200. These errors are results, not bugs: no stack.
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
}

const MAX_LINKS = 40; // what Linux allows (MAXSYMLINKS)

export function createFileSystem(root = '/'): FileSystem {
  const absRoot = nodePath.resolve(root);
  const host = (p: string): string => {
    const norm = nodePath.posix.normalize(p.startsWith('/') ? p : `/${p}`);
    return absRoot === '/' ? norm : nodePath.join(absRoot, norm);
  };
  // Under the real root the kernel resolves links correctly: no need to walk them ourselves first.
  const resolve = absRoot === '/' ? (p: string) => p : (p: string) => resolveIn(fsys, p);
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

  const fsys: FileSystem = {
    root: absRoot,
    readText(p, maxBytes) {
      if (maxBytes === undefined) return wrap(p, () => nfs.readFileSync(host(resolve(p)), 'utf8'));
      return fsys.readBytes(p, 0, maxBytes).toString('utf8');
    },
    readBytes(p, offset = 0, length) {
      return wrap(p, () => {
        const fd = nfs.openSync(host(resolve(p)), 'r');
        try {
          return readRange(fd, offset, length);
        } finally {
          nfs.closeSync(fd);
        }
      });
    },
    readdir(p) {
      return wrap(p, () =>
        nfs.readdirSync(host(resolve(p)), { withFileTypes: true }).map((d) => ({
          name: d.name,
          type: d.isFile() ? 'file' : d.isDirectory() ? 'dir' : d.isSymbolicLink() ? 'symlink' : 'other',
        })),
      );
    },
    stat(p) {
      const st = fsys.tryStat(p);
      if (st === null) throw new FsError('ENOENT', p, `${p}: no such file or directory`);
      return st;
    },
    tryStat(p) {
      return wrap(p, () => {
        try {
          const st = nfs.statSync(host(resolve(p)), { throwIfNoEntry: false });
          return st === undefined ? null : toStat(st);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
          throw err;
        }
      });
    },
    lstat(p) {
      return wrap(p, () => toStat(nfs.lstatSync(host(p))));
    },
    readlink(p) {
      return wrap(p, () => nfs.readlinkSync(host(p)));
    },
    realpath(p) {
      return resolveIn(fsys, p);
    },
    openReader(p) {
      const fd = wrap(p, () => nfs.openSync(host(resolve(p)), 'r'));
      const st = wrap(p, () => nfs.fstatSync(fd));
      const size = st.size;
      // a pipe or a terminal cannot seek: it is read in order, the offset only counts
      const seekable = st.isFile() || st.isBlockDevice();
      return {
        size,
        read: (offset, length) => wrap(p, () => readRange(fd, offset, length)),
        readInto: (target, offset) => wrap(p, () => nfs.readSync(fd, target, 0, target.length, seekable ? offset : null)),
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
  };
  return fsys;
}

/**
 * Reads up to `length` bytes at `offset`. Allocates only what the file holds: callers pass generous limits
 * (16 MiB for a RECORD file) and most files are small. /proc and /sys files report size 0, so those are
 * read in chunks until the end.
 */
function readRange(fd: number, offset: number, length: number | undefined): Buffer {
  const size = nfs.fstatSync(fd).size;
  if (size > 0) {
    const len = Math.max(0, Math.min(length ?? Infinity, size - offset));
    const buf = Buffer.allocUnsafe(len);
    let got = 0;
    while (got < len) {
      const n = nfs.readSync(fd, buf, got, len - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
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

/**
 * Resolve every symbolic link in `p` component by component, inside the root.
 * /proc's magic links (/proc/PID/exe, fd/N) point at paths that may not exist; those are returned as-is.
 */
function resolveIn(fsys: FileSystem, p: string): string {
  if (fsys.root === '/' ) {
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
  const parts = nodePath.posix.normalize(p.startsWith('/') ? p : `/${p}`).split('/').filter(Boolean);
  let resolved: string[] = [];
  let links = 0;
  while (parts.length > 0) {
    const part = parts.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      resolved.pop();
      continue;
    }
    const candidate = `/${[...resolved, part].join('/')}`;
    let st: FileStat;
    try {
      st = fsys.lstat(candidate);
    } catch {
      // Missing component: keep the rest unresolved; the read that follows reports ENOENT.
      return `/${[...resolved, part, ...parts].join('/')}`;
    }
    if (st.type !== 'symlink') {
      resolved.push(part);
      continue;
    }
    if (++links > MAX_LINKS) throw new FsError('ELOOP', p, `${p}: too many levels of symbolic links`);
    const target = fsys.readlink(candidate);
    if (target.startsWith('/')) resolved = [];
    parts.unshift(...target.split('/').filter(Boolean));
  }
  return `/${resolved.join('/')}`;
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
