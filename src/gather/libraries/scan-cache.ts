// The library scan's answers kept between runs (in the user's cache folder: ../../ports/user-cache.ts), each with
// the fingerprint of what it read (./scan-record.ts): an answer is reused only after every file, folder, link and
// variable it depended on has been checked unchanged, which costs a few hundred stats instead of the scan's
// thousands of reads and a worker thread's start. Also torch's fatbinary architectures, by the library's identity.
// Never trusted blindly: another build of the tool, another option, any difference, and the scan runs again.
import type { FileSystem } from '../../ports/fs.js';
import { readUserCache, writeUserCache } from '../../ports/user-cache.js';
import type { LibrariesSection } from '../snapshot/schema-libraries.js';
import type { FatbinTargets } from './fatbin.js';
import { RACY_MS, unchanged, type ScanFingerprint } from './scan-record.js';

type Env = Record<string, string | undefined>;

const FILE = 'library-scan.json';
/** A few machines' worth of answers is ~1 MB; a bigger file was not written by us. */
const MAX_BYTES = 16 * 1024 * 1024;
/** answers kept per file: a user switching between a few environments */
const MAX_SCANS = 4;
const MAX_FATBINS = 8;
const RENEW_MS = 3600_000;

export interface CachedScan {
  /** what the scan was asked (the root, the probe options): only an answer to the same question is reused */
  key: string;
  fingerprint: ScanFingerprint;
  /** the discovered environments (JSON) and the libraries section, as the scan's worker posts them */
  environments: string;
  section: LibrariesSection;
  usedAt: number;
}

interface CachedFatbin {
  path: string;
  /** the library's identity when it was read */
  id: string;
  targets: FatbinTargets;
  usedAt: number;
}

interface CacheFile {
  version: 1;
  /** the tool's build that wrote it (./libraries-job.ts): another build may read files differently */
  build: string;
  scans: CachedScan[];
  fatbins: CachedFatbin[];
}

export class ScanCache {
  private dirty = false;
  private constructor(
    private readonly env: Env,
    private readonly file: CacheFile,
    private readonly now: () => number,
  ) {}

  /** The cache as this user's file holds it for this build (empty when there is none or it is not ours). */
  static open(env: Env, build: string, now: () => number = Date.now): ScanCache {
    const text = readUserCache(env, FILE, MAX_BYTES);
    let file: CacheFile = { version: 1, build, scans: [], fatbins: [] };
    if (text !== null) {
      try {
        const parsed = JSON.parse(text) as Partial<CacheFile>;
        if (
          parsed.version === 1 &&
          parsed.build === build &&
          Array.isArray(parsed.scans) &&
          Array.isArray(parsed.fatbins)
        )
          file = parsed as CacheFile;
      } catch {
        /* a damaged file is an empty cache: it is written anew */
      }
    }
    return new ScanCache(env, file, now);
  }

  /** The answer to `key` whose every read is unchanged, checked through `fs` (the plain port), and how many. */
  scan(key: string, fs: FileSystem, env: Env): { hit: CachedScan; checked: number } | null {
    for (const s of this.file.scans) {
      if (s.key !== key || !wellFormed(s)) continue;
      if (safelyUnchanged(s.fingerprint, fs, env)) {
        this.used(s);
        const f = s.fingerprint;
        return { hit: s, checked: f.paths.length + f.resolved.length + f.texts.length + f.kinds.length };
      }
    }
    return null;
  }

  rememberScan(entry: Omit<CachedScan, 'usedAt'>): void {
    const scans = this.file.scans.filter(
      (s) => !(s.key === entry.key && sameVariables(s.fingerprint, entry.fingerprint)),
    );
    scans.push({ ...entry, usedAt: this.now() });
    this.file.scans = newest(scans, MAX_SCANS);
    this.dirty = true;
  }

  /** torch's architectures for a library whose identity is unchanged, else undefined. */
  fatbin(path: string, fs: FileSystem): FatbinTargets | undefined {
    const e = this.file.fatbins.find((f) => f.path === path);
    if (!e || !fs.identity || fs.identity(path, true).id !== e.id) return undefined;
    this.used(e);
    return e.targets;
  }

  /** Keeps what a walk read, where the library had not changed shortly before (it may have been read mid-change). */
  rememberFatbin(path: string, fs: FileSystem, targets: FatbinTargets, startedAtMs: number): void {
    if (!fs.identity) return;
    const id = fs.identity(path, true);
    if (id.id.startsWith('-') || id.id.startsWith('!') || id.changedMs >= startedAtMs - RACY_MS) return;
    const fatbins = this.file.fatbins.filter((f) => f.path !== path);
    fatbins.push({ path, id: id.id, targets, usedAt: this.now() });
    this.file.fatbins = newest(fatbins, MAX_FATBINS);
    this.dirty = true;
  }

  /** An answer used: its time renewed (for which to drop first) once an hour, not a write at every run. */
  private used(e: { usedAt: number }): void {
    const now = this.now();
    if (now - e.usedAt < RENEW_MS) return;
    e.usedAt = now;
    this.dirty = true;
  }

  /** Writes the file when something changed; false when it could not be written (the answers are then only lost). */
  save(): boolean {
    if (!this.dirty) return true;
    this.dirty = false;
    return writeUserCache(this.env, FILE, JSON.stringify(this.file));
  }
}

function safelyUnchanged(fp: ScanFingerprint, fs: FileSystem, env: Env): boolean {
  try {
    return unchanged(fp, fs, env);
  } catch {
    return false; // an entry of another shape
  }
}

function newest<T extends { usedAt: number }>(list: T[], n: number): T[] {
  return list.sort((a, b) => b.usedAt - a.usedAt).slice(0, n);
}

/** One answer per set of variables: a new scan with the same values replaces the old one. */
function sameVariables(a: ScanFingerprint, b: ScanFingerprint): boolean {
  return JSON.stringify(a.env) === JSON.stringify(b.env);
}

/** The shape unchanged() walks: a file we did not write could hold anything. */
function wellFormed(s: CachedScan): boolean {
  const f = s.fingerprint as Partial<ScanFingerprint> | undefined;
  return (
    typeof s.environments === 'string' &&
    typeof s.section === 'object' &&
    s.section !== null &&
    f !== undefined &&
    [f.paths, f.resolved, f.texts, f.kinds, f.env].every(Array.isArray)
  );
}
