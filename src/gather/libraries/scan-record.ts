// What a library scan read, so that its answer can be reused while none of it changed (./scan-cache.ts). The scan
// is a function of the files and folders it looked at and the environment variables it asked for: a recording view
// of both notes every question, and a fingerprint keeps, for each, what says it has not changed since.
//   - a file read, a folder listed, a path looked at: its identity (inode, size, change times: ../../ports/fs.ts);
//     a folder's times change when an entry is added, removed or renamed in it;
//   - a path that was not there: the identity of the nearest folder above it that is (creating the path changes it);
//   - a link resolved: the answer itself, resolved again to compare;
//   - /proc, /sys, /dev (whose times say nothing): the text read, read again to compare;
//   - an environment variable: its value.
// A scan that ran a program, or read what cannot be compared, gets no fingerprint; nor does one that read a file
// changed in the last seconds (it may have changed while being read, after the scan saw it), nor one that saw a path
// which is gone when the fingerprint is taken.
import * as nodePath from 'node:path';
import { FsError, isVolatile, type FileIdentity, type FileSystem } from '../../ports/fs.js';
import type { ProcessRunner } from '../../ports/runner.js';

type Env = Record<string, string | undefined>;

/** Files changed this recently before the scan began are not trusted to be the ones it read. */
export const RACY_MS = 2000;
/**
 * Absent paths under one folder up to this many are checked one by one, more by their folder's identity: a home
 * folder is asked for a dozen conventional names (conda roots, .pyenv) and its times change all day (a shell's
 * history written anew); the loader asks a search folder for every library name.
 */
export const ABSENT_EACH = 32;
/** A /proc text longer than this is not kept for comparison (the scan reads /proc/cpuinfo's head). */
const MAX_VOLATILE_TEXT = 64 * 1024;

export interface ScanFingerprint {
  /** [path, 'f' (links followed) or 'l' (not), identity] */
  paths: [string, 'f' | 'l', string][];
  /** [path, its resolved path, or "!" when resolving failed] */
  resolved: [string, string][];
  /** [path, the byte limit it was read with (null: none), the text, or null when the read failed] */
  texts: [string, number | null, string | null][];
  /** /proc, /sys, /dev paths looked at: [path, their kind, "-" when absent, "!" when they could not be looked at] */
  kinds: [string, string][];
  /** [variable, its value, or null when unset] */
  env: [string, string | null][];
}

export interface Recording {
  fs: FileSystem;
  env: Env;
  runner: ProcessRunner;
  /** The fingerprint of everything read so far, or why there is none. */
  fingerprint(startedAtMs: number): ScanFingerprint | { refused: string };
}

/** A view of `fs`, `env` and `runner` that notes every question asked of them. */
export function record(fs: FileSystem, env: Env, runner: ProcessRunner): Recording {
  const follow = new Set<string>();
  const nofollow = new Set<string>();
  const resolved = new Map<string, string>();
  const texts = new Map<string, [string, number | null, string | null]>();
  const kinds = new Set<string>();
  const asked = new Set<string>();
  let refused: string | null = null;
  const refuse = (why: string) => {
    refused ??= why;
  };
  // what each question was answered: a path seen there and gone when the fingerprint is taken was removed while
  // the scan ran (its answer may hold it); one seen absent and still absent needs nothing more
  const seenThere = new Set<string>();
  const noted = <T>(key: string, f: () => T, absent: (v: T) => boolean = () => false): T => {
    try {
      const v = f();
      if (!absent(v)) seenThere.add(key);
      return v;
    } catch (err) {
      const code = err instanceof FsError ? err.code : (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') seenThere.add(key);
      throw err;
    }
  };
  const followed = <T>(p: string, f: () => T, absent?: (v: T) => boolean): T => {
    if (isVolatile(p)) return f();
    follow.add(p);
    return noted(`f${p}`, f, absent);
  };
  const content = (p: string) => {
    if (isVolatile(p)) refuse(`read ${p}`);
  };
  const unfollowed = <T>(p: string, what: string, f: () => T): T => {
    if (isVolatile(p)) {
      refuse(`${what} ${p}`);
      return f();
    }
    nofollow.add(p);
    return noted(`l${p}`, f);
  };

  const view: FileSystem = {
    root: fs.root,
    readText(p, maxBytes) {
      if (!isVolatile(p)) return followed(p, () => fs.readText(p, maxBytes));
      const key = `${p}\0${maxBytes ?? ''}`;
      try {
        const text = fs.readText(p, maxBytes);
        if (text.length > MAX_VOLATILE_TEXT) refuse(`read ${p} (${text.length} characters)`);
        else texts.set(key, [p, maxBytes ?? null, text]);
        return text;
      } catch (err) {
        texts.set(key, [p, maxBytes ?? null, null]);
        throw err;
      }
    },
    readBytes(p, offset, length) {
      content(p);
      return followed(p, () => fs.readBytes(p, offset, length));
    },
    readdir(p) {
      content(p);
      return followed(p, () => fs.readdir(p));
    },
    stat(p) {
      if (isVolatile(p)) kinds.add(p);
      return followed(p, () => fs.stat(p));
    },
    tryStat(p) {
      if (isVolatile(p)) kinds.add(p);
      return followed(
        p,
        () => fs.tryStat(p),
        (v) => v === null,
      );
    },
    lstat(p) {
      return unfollowed(p, 'looked at', () => fs.lstat(p));
    },
    readlink(p) {
      return unfollowed(p, 'read the link', () => fs.readlink(p));
    },
    realpath(p) {
      if (isVolatile(p)) refuse(`resolved ${p}`);
      try {
        const r = fs.realpath(p);
        resolved.set(p, r);
        return r;
      } catch (err) {
        resolved.set(p, '!');
        throw err;
      }
    },
    openReader(p) {
      content(p);
      return followed(p, () => fs.openReader(p));
    },
    exists(p) {
      if (isVolatile(p)) kinds.add(p);
      return followed(
        p,
        () => fs.exists(p),
        (v) => !v,
      );
    },
    identity: fs.identity ? (p, f) => fs.identity!(p, f) : undefined,
    session() {
      return view;
    },
  };
  // Every variable asked for is noted; a scan that lists them all depends on all of them.
  const envView = new Proxy(env, {
    get(target, key) {
      if (typeof key === 'string') asked.add(key);
      return Reflect.get(target, key);
    },
    has(target, key) {
      if (typeof key === 'string') asked.add(key);
      return Reflect.has(target, key);
    },
    ownKeys(target) {
      for (const k of Object.keys(target)) asked.add(k);
      refuse('listed every environment variable');
      return Reflect.ownKeys(target);
    },
  });
  const runnerView: ProcessRunner = {
    ...runner,
    run(...args) {
      refuse(`ran ${args[0]}`);
      return runner.run(...args);
    },
  };

  return {
    fs: view,
    env: envView,
    runner: runnerView,
    fingerprint(startedAtMs) {
      if (refused !== null) return { refused };
      if (!fs.identity) return { refused: 'this filesystem cannot tell identities' };
      const idOf = memoIdentity(fs);
      const paths = new Map<string, [string, 'f' | 'l', string]>();
      let newest = 0;
      // absent paths by the nearest folder above them that exists: what says they are still absent
      const absent = new Map<string, [string, 'f' | 'l'][]>();
      let vanished: string | null = null;
      const add = (p: string, mode: 'f' | 'l') => {
        const id = idOf(p, mode === 'f');
        if (id.id !== '-') {
          newest = Math.max(newest, id.changedMs);
          paths.set(`${mode}${p}`, [p, mode, id.id]);
          return;
        }
        if (seenThere.has(`${mode}${p}`)) vanished ??= p;
        let at = p;
        do at = nodePath.posix.dirname(at);
        while (idOf(at, true).id === '-' && at !== '/');
        const list = absent.get(at) ?? [];
        list.push([p, mode]);
        absent.set(at, list);
      };
      for (const p of follow) add(p, 'f');
      for (const p of nofollow) add(p, 'l');
      if (vanished !== null) return { refused: `${vanished} was removed while the scan ran` };
      for (const [at, list] of absent) {
        // a few absent paths are each looked at again; many by their folder (see ABSENT_EACH), which then must not
        // have changed while the scan ran
        if (list.length <= ABSENT_EACH) for (const [p, mode] of list) paths.set(`${mode}${p}`, [p, mode, '-']);
        else {
          const id = idOf(at, true);
          newest = Math.max(newest, id.changedMs);
          paths.set(`f${at}`, [at, 'f', id.id]);
        }
      }
      if (newest >= startedAtMs - RACY_MS) return { refused: 'a file it read changed in the last seconds' };
      return {
        paths: [...paths.values()],
        resolved: [...resolved],
        texts: [...texts.values()],
        kinds: [...kinds].map((p) => [p, kindOf(fs, p)]),
        env: [...asked].sort().map((k) => [k, env[k] ?? null]),
      };
    },
  };
}

function memoIdentity(fs: FileSystem): (p: string, follow: boolean) => FileIdentity {
  const seen = new Map<string, FileIdentity>();
  return (p, follow) => {
    const key = `${follow ? 'f' : 'l'}${p}`;
    let id = seen.get(key);
    if (id === undefined) {
      id = fs.identity!(p, follow);
      seen.set(key, id);
    }
    return id;
  };
}

function kindOf(fs: FileSystem, p: string): string {
  try {
    return fs.tryStat(p)?.type ?? '-';
  } catch {
    return '!';
  }
}

/**
 * Is everything the fingerprint kept as it was? Stops at the first difference. `fs`: the plain port (not a
 * session: the answers must be fresh).
 */
export function unchanged(fp: ScanFingerprint, fs: FileSystem, env: Env): boolean {
  if (!fs.identity) return false;
  for (const [k, v] of fp.env) if ((env[k] ?? null) !== v) return false;
  for (const [p, mode, id] of fp.paths) if (fs.identity(p, mode === 'f').id !== id) return false;
  for (const [p, kind] of fp.kinds) if (kindOf(fs, p) !== kind) return false;
  for (const [p, answer] of fp.resolved) {
    let now: string;
    try {
      now = fs.realpath(p);
    } catch {
      now = '!';
    }
    if (now !== answer) return false;
  }
  for (const [p, max, text] of fp.texts) {
    let now: string | null;
    try {
      now = fs.readText(p, max ?? undefined);
    } catch {
      now = null;
    }
    if (now !== text) return false;
  }
  return true;
}
