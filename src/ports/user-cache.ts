// The user's cache folder: $XDG_CACHE_HOME/gpu-env-doctor, else ~/.cache/gpu-env-doctor (as pip and other tools
// keep theirs). It holds facts the tool can check again cheaply (src/gather/libraries/scan-cache.ts), never a
// setting. GPU_ENV_DOCTOR_NO_CACHE=1 turns it off. A file is trusted only when this user owns it and its folder and
// no one else may write either (on a shared server another user must not plant answers); writes are atomic.
import * as nfs from 'node:fs';
import * as nodePath from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFull } from './fs.js';
import { euid } from './user-files.js';

type Env = Record<string, string | undefined>;

/** The cache folder for this user, or null where there is none to use (turned off, no home). */
export function userCacheDir(env: Env): string | null {
  return cacheBase(env)?.dir ?? null;
}

/** The folder the cache folder goes in (the cache home, else the home), and the cache folder. */
function cacheBase(env: Env): { base: string; dir: string; mustExist: boolean } | null {
  const off = env.GPU_ENV_DOCTOR_NO_CACHE;
  if (off !== undefined && off !== '' && off !== '0') return null;
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && nodePath.isAbsolute(xdg))
    return { base: xdg, dir: nodePath.join(xdg, 'gpu-env-doctor'), mustExist: false };
  const home = env.HOME;
  return home && nodePath.isAbsolute(home)
    ? { base: home, dir: nodePath.join(home, '.cache', 'gpu-env-doctor'), mustExist: true }
    : null;
}

/**
 * The cache folder, only where its base is this user's own: `sudo` keeping the caller's HOME would otherwise leave
 * root's files in the caller's home, which the caller could then neither read nor replace.
 */
function ownCacheDir(env: Env): string | null {
  const b = cacheBase(env);
  if (b === null) return null;
  // a cache home not made yet (made when written, as the XDG spec says): the folder it would be made in; a home
  // folder that is not there is not made
  for (let at = b.base; ; at = nodePath.dirname(at)) {
    try {
      return nfs.statSync(at).uid === euid() ? b.dir : null;
    } catch {
      if (b.mustExist || at === nodePath.dirname(at)) return null;
    }
  }
}

/** Only this user may have written it: owned by us, not writable by group or others. */
function ownedAndPrivate(st: nfs.Stats): boolean {
  return st.uid === euid() && (st.mode & 0o022) === 0;
}

/** A cache file's text, or null when it is missing, too big, or not trusted (see above). Never throws. */
export function readUserCache(env: Env, name: string, maxBytes: number): string | null {
  const dir = ownCacheDir(env);
  if (dir === null) return null;
  try {
    if (!ownedAndPrivate(nfs.statSync(dir))) return null;
    const fd = nfs.openSync(nodePath.join(dir, name), nfs.constants.O_RDONLY | nfs.constants.O_NOFOLLOW);
    try {
      const st = nfs.fstatSync(fd);
      if (!st.isFile() || !ownedAndPrivate(st) || st.size > maxBytes) return null;
      const buf = Buffer.allocUnsafe(st.size);
      return buf.subarray(0, readFull(fd, buf, st.size, 0)).toString('utf8');
    } finally {
      nfs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

/**
 * Writes a cache file: the folder made private (0700) when new, the text into a private temp file (0600, O_EXCL)
 * renamed over the old one, so that a reader never sees half a file. False when it cannot (read-only home).
 */
export function writeUserCache(env: Env, name: string, text: string): boolean {
  const dir = ownCacheDir(env);
  if (dir === null) return false;
  const tmp = nodePath.join(dir, `.${name}.${process.pid}.tmp`);
  try {
    nfs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!ownedAndPrivate(nfs.statSync(dir))) return false;
    const fd = nfs.openSync(tmp, nfs.constants.O_WRONLY | nfs.constants.O_CREAT | nfs.constants.O_EXCL, 0o600);
    try {
      nfs.writeSync(fd, text);
    } finally {
      nfs.closeSync(fd);
    }
    nfs.renameSync(tmp, nodePath.join(dir, name));
    return true;
  } catch {
    try {
      nfs.unlinkSync(tmp);
    } catch {
      /* not made */
    }
    return false;
  }
}

/**
 * What identifies this build of the tool's code: a bundled file's device, inode, size and modification time (a
 * new install or build writes it anew). Null where it cannot be read: then nothing is cached.
 */
export function codeIdentity(url: URL): string | null {
  try {
    const st = nfs.statSync(fileURLToPath(url), { bigint: true });
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    return null;
  }
}
