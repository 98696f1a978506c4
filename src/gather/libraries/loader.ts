// Emulation of glibc's dynamic loader (elf/dl-load.c _dl_map_object, elf/dl-deps.c): which file a name
// resolves to, from which object, and why. The order, per name that has no "/":
//   1. an object already loaded whose SONAME (or the name it was loaded by) matches;
//   2. DT_RPATH of the requesting object, then of the object that loaded it, and up the chain — only when
//      the requesting object has no DT_RUNPATH (an object with both has its RPATH ignored altogether),
//      then the main program's DT_RPATH;
//   3. LD_LIBRARY_PATH;  4. DT_RUNPATH of the requesting object (not inherited);
//   5. /etc/ld.so.cache;  6. the default folders (skipped for DF_1_NODEFLIB).
// Each folder is tried with its glibc-hwcaps subfolders first. A candidate of the wrong ELF class or machine
// is skipped silently (as glibc does); a candidate that is not ELF at all, or too short for its headers, stops
// the load with an error; a candidate whose headers are whole but whose body is cut short is mapped, and the
// process dies (SIGBUS) when the loader touches the missing part (seen: exit 135 importing PyTorch's cuDNN).
// LD_PRELOAD, then /etc/ld.so.preload, load right after the program and before its NEEDED entries (rtld.c);
// a preload that cannot be loaded is ignored with a message. Every later request for a loaded soname, by
// NEEDED or by dlopen, gets the first object loaded with it: a preloaded libcudnn.so.9 is the one that runs.
// Dependencies are loaded breadth-first, each searched from the object that lists it (dl-deps.c).
import * as nodePath from 'node:path';
import { FsError, type FileSystem } from '../../ports/fs.js';
import { readElf, type ElfInfo, type ElfResult } from './elf.js';
import { expectedCacheFlags, type LdCache, type LdCacheEntry } from './ldcache.js';

export type Via =
  | 'rpath'
  | 'ld_library_path'
  | 'runpath'
  | 'ld_cache'
  | 'default'
  | 'preloaded'
  | 'ld_preload'
  | 'already_loaded'
  | 'not_found'
  | 'path';

/** Where a preload of the loader itself comes from (not a framework's own preloading by path). */
export type PreloadSource = 'LD_PRELOAD' | '/etc/ld.so.preload';

export interface PreloadEntry {
  /** a path, or a name searched as a NEEDED entry of the program is */
  name: string;
  from: PreloadSource;
}

/**
 * How a library that cannot be used breaks the process: the load fails with an error, or it maps and the process dies.
 */
export type Unloadable = 'error' | 'crash';

export interface LoaderConfig {
  fs: FileSystem;
  /** LD_LIBRARY_PATH split into folders (empty entries dropped) */
  ldLibraryPath: string[];
  cache: LdCache | null;
  /** glibc's system folders, e.g. /lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib:/usr/lib */
  defaultDirs: string[];
  /** glibc-hwcaps subfolders this CPU supports, best first ("x86-64-v4", …); [] before glibc 2.33 */
  hwcaps: string[];
  /** $LIB and $PLATFORM expansions */
  lib: string;
  platform: string;
  /** LD_PRELOAD then /etc/ld.so.preload, in load order */
  preload?: PreloadEntry[];
}

export interface LoadedObject {
  /** the path it was opened by (normalised), as /proc/PID/maps would not show it: links unresolved */
  path: string;
  /** links resolved: what /proc/PID/maps shows */
  realPath: string;
  elf: ElfInfo;
  /** names it answers to: the name it was requested by, its SONAME */
  names: Set<string>;
  /** the object whose load brought it in (for RPATH inheritance), null for dlopen by path or the program */
  loader: LoadedObject | null;
  /** how it was first found */
  via: Via;
  /** for via ld_preload: LD_PRELOAD or /etc/ld.so.preload */
  preloadFrom?: PreloadSource;
  /** a cut-short file the loader mapped: the process died loading it (its NEEDED were never read) */
  crashed?: string;
  isMain: boolean;
  dev: number;
  ino: number;
}

export interface Candidate {
  path: string;
  via: Via;
  /** set for a cut-short file that ld.so maps anyway (the message): choosing it kills the process */
  broken?: string;
}

export interface Resolution {
  /** the name asked for: "libcudnn.so.9" */
  name: string;
  /** the object whose NEEDED list (or dlopen call) asked for it; null for a dlopen by path */
  requestedBy: string | null;
  /** the chosen file (as opened), null when not found */
  path: string | null;
  realPath: string | null;
  via: Via;
  /** for already_loaded / preloaded: how the object was first found */
  firstVia?: Via;
  /** other files the same search would have reached later (the losers), in search order */
  shadowed: Candidate[];
  /** why it was not found, or a candidate that stopped the load */
  error?: string;
  /** files skipped for being another ELF class or machine */
  skipped?: string[];
  /** how the request was made */
  how: 'needed' | 'dlopen' | 'path';
  /** for ld_preload: which list asked for it */
  preloadFrom?: PreloadSource;
  /**
   * the file cannot be used: 'error' (the load fails: not ELF, too short for its headers) or 'crash' (mapped, then
   * SIGBUS)
   */
  unloadable?: Unloadable;
  /**
   * the unusable file that ended the search (for 'error'; for 'crash' it is `path` itself) and the route that reached
   * it
   */
  blocker?: Candidate;
}

/**
 * posix.normalize, skipped for an absolute path it returns unchanged (no "//", no "." or ".." part, no trailing
 * "/"): the emulation builds thousands of candidate paths, nearly all of them already clean.
 */
function normalizePath(p: string): string {
  const clean = p.startsWith('/') && !p.endsWith('/') && !p.includes('//') && !p.includes('/.');
  return clean ? p : nodePath.posix.normalize(p);
}

/** The cache's entries by name, in cache order: every search asks for one name, every process the same ones. */
const byNameOf = new WeakMap<LdCache, Map<string, LdCacheEntry[]>>();
function entriesByName(cache: LdCache): Map<string, LdCacheEntry[]> {
  let m = byNameOf.get(cache);
  if (!m) {
    m = new Map();
    for (const e of cache.entries) {
      const list = m.get(e.name);
      if (list) list.push(e);
      else m.set(e.name, [e]);
    }
    byNameOf.set(cache, m);
  }
  return m;
}

export class LoaderProcess {
  readonly objects: LoadedObject[] = [];
  readonly resolutions: Resolution[] = [];
  private main: LoadedObject | null = null;
  /** ELF class and machine of the process: set by the first object (the program, or the first library loaded) */
  private cls: 32 | 64 | null = null;
  private machine: number | null = null;

  /** `elfCache`: ELF facts by path, shared with other emulated processes of the same probe run */
  constructor(
    readonly cfg: LoaderConfig,
    private readonly elfCache: Map<string, ElfResult> = new Map(),
  ) {}

  /**
   * Starts the process with a program (its RPATH becomes the last resort of RPATH searches): the program,
   * then LD_PRELOAD and /etc/ld.so.preload, then everyone's NEEDED entries breadth-first.
   */
  exec(path: string): Resolution[] {
    const start = this.resolutions.length;
    const roots = this.loadPath(path, 'path', true, false);
    const main = this.main;
    if (!main) return roots;
    const pre = this.preloadObjects();
    this.loadDeps([main, ...pre]);
    return this.resolutions.slice(start);
  }

  /**
   * A process whose program is not emulated (python): LD_PRELOAD and /etc/ld.so.preload with their NEEDED
   * closure, before anything the program's code loads.
   */
  preload(): Resolution[] {
    const start = this.resolutions.length;
    this.loadDeps(this.preloadObjects());
    return this.resolutions.slice(start);
  }

  /** Maps each preload (not its dependencies): a name is searched as the program's NEEDED would be. */
  private preloadObjects(): LoadedObject[] {
    const out: LoadedObject[] = [];
    for (const e of this.cfg.preload ?? []) {
      const before = this.resolutions.length;
      const obj = e.name.includes('/')
        ? this.mapPath(e.name, 'ld_preload', false, e.from)
        : this.mapObject(e.name, this.main, 'needed', e.from);
      for (const r of this.resolutions.slice(before)) {
        r.preloadFrom = e.from;
        // ld.so: "object 'X' from LD_PRELOAD cannot be preloaded (…): ignored." The process goes on without it.
        if (r.via === 'not_found')
          r.error =
            `object '${e.name}' from ${e.from} cannot be preloaded ` +
            `(${r.error ?? 'cannot open shared object file'}): ignored`;
      }
      if (obj && !out.includes(obj) && !obj.crashed) out.push(obj);
    }
    return out;
  }

  /** dlopen("/abs/path") (or a preload by path): the object and its NEEDED closure. */
  loadPath(path: string, via: 'path' | 'preloaded' = 'path', isMain = false, deps = true): Resolution[] {
    const start = this.resolutions.length;
    const obj = this.mapPath(path, via, isMain);
    if (obj && deps && !obj.crashed) this.loadDeps([obj]);
    return this.resolutions.slice(start);
  }

  private mapPath(
    path: string,
    via: 'path' | 'preloaded' | 'ld_preload',
    isMain: boolean,
    preloadFrom?: PreloadSource,
  ): LoadedObject | null {
    const norm = normalizePath(path);
    const existing = this.findLoadedByFile(norm) ?? this.objects.find((o) => o.path === norm);
    if (existing) {
      this.resolutions.push({
        name: norm,
        requestedBy: null,
        path: existing.path,
        realPath: existing.realPath,
        via: 'already_loaded',
        firstVia: existing.via,
        shadowed: [],
        how: 'path',
      });
      return existing;
    }
    const r = this.openFile(norm);
    if (!r.ok) {
      if (r.mappable && this.classFits(r)) {
        const obj = this.addBroken(norm, r, null, via, isMain, preloadFrom);
        this.resolutions.push({
          name: norm,
          requestedBy: null,
          path: obj.path,
          realPath: obj.realPath,
          via,
          shadowed: [],
          error: r.message,
          unloadable: 'crash',
          how: 'path',
        });
        return obj;
      }
      const unloadable =
        r.reason === 'not-elf' || r.reason === 'truncated'
          ? { unloadable: 'error' as const, blocker: { path: norm, via } }
          : {};
      this.resolutions.push({
        name: norm,
        requestedBy: null,
        path: null,
        realPath: null,
        via: 'not_found',
        shadowed: [],
        error: r.message,
        how: 'path',
        ...unloadable,
      });
      return null;
    }
    const obj = this.addObject(norm, r.info, null, via, isMain);
    if (preloadFrom) obj.preloadFrom = preloadFrom;
    obj.names.add(norm);
    // For a library loaded by path, the copies a search by its soname would reach instead.
    const shadowed = r.info.soname
      ? this.search(r.info.soname, null).shadowedAll.filter((c) => c.path !== obj.path)
      : [];
    this.resolutions.push({
      name: norm,
      requestedBy: null,
      path: obj.path,
      realPath: obj.realPath,
      via,
      shadowed,
      how: 'path',
    });
    return obj;
  }

  /** dlopen("libname.so.N") called from code inside `caller` (its RUNPATH applies, as for cuDNN's sub-libraries). */
  dlopen(name: string, caller: LoadedObject | null): Resolution[] {
    const start = this.resolutions.length;
    const obj = this.mapObject(name, caller, 'dlopen');
    if (obj && !obj.crashed) this.loadDeps([obj]);
    return this.resolutions.slice(start);
  }

  findObject(pred: (o: LoadedObject) => boolean): LoadedObject | undefined {
    return this.objects.find(pred);
  }

  private loadDeps(roots: LoadedObject[]): void {
    const queue = [...roots];
    while (queue.length > 0) {
      const l = queue.shift()!;
      for (const dep of l.elf.needed) {
        const before = this.objects.length;
        const o = this.mapObject(dep, l, 'needed');
        // A mapped file that killed the process: nothing after it loads.
        if (o?.crashed) return;
        if (o && this.objects.length > before) queue.push(o);
      }
    }
  }

  /** _dl_map_object: one name requested by one object. */
  private mapObject(
    name: string,
    loader: LoadedObject | null,
    how: 'needed' | 'dlopen',
    preloadFrom?: PreloadSource,
  ): LoadedObject | null {
    const requestedBy = loader?.path ?? null;
    const loaded = this.objects.find((o) => o.names.has(name) || o.elf.soname === name);
    if (loaded) {
      loaded.names.add(name);
      const via: Via = loaded.via === 'preloaded' || loaded.via === 'ld_preload' ? loaded.via : 'already_loaded';
      // What a search would have found instead: the copies that lose because this one is already in the process.
      const shadowed = this.search(name, loader).shadowedAll.filter((c) => c.path !== loaded.path);
      this.resolutions.push({
        name,
        requestedBy,
        path: loaded.path,
        realPath: loaded.realPath,
        via,
        firstVia: loaded.via,
        shadowed,
        how,
        ...(loaded.preloadFrom ? { preloadFrom: loaded.preloadFrom } : {}),
        ...(loaded.crashed ? { error: loaded.crashed, unloadable: 'crash' as const } : {}),
      });
      return loaded;
    }
    if (name.includes('/')) {
      const p = this.expand(name, loader);
      if (p === null) {
        this.resolutions.push({
          name,
          requestedBy,
          path: null,
          realPath: null,
          via: 'not_found',
          shadowed: [],
          error: 'unknown $-token in the name',
          how,
        });
        return null;
      }
      const r = this.openFile(p);
      if (!r.ok) {
        this.resolutions.push({
          name,
          requestedBy,
          path: null,
          realPath: null,
          via: 'not_found',
          shadowed: [],
          error: r.message,
          how,
        });
        return null;
      }
      const obj = this.addObject(p, r.info, loader, 'path', false);
      obj.names.add(name);
      this.resolutions.push({
        name,
        requestedBy,
        path: obj.path,
        realPath: obj.realPath,
        via: 'path',
        shadowed: [],
        how,
      });
      return obj;
    }
    const { chosen, shadowed, error, skipped, blocker } = this.search(name, loader);
    if (!chosen) {
      this.resolutions.push({
        name,
        requestedBy,
        path: null,
        realPath: null,
        via: 'not_found',
        shadowed,
        ...(error ? { error } : {}),
        ...(skipped.length ? { skipped } : {}),
        ...(blocker ? { unloadable: 'error' as const, blocker } : {}),
        how,
      });
      return null;
    }
    const via: Via = preloadFrom ? 'ld_preload' : chosen.via;
    if (chosen.broken) {
      const obj = this.addBroken(chosen.path, null, loader, via, false, preloadFrom);
      obj.names.add(name);
      obj.crashed = chosen.broken;
      this.resolutions.push({
        name,
        requestedBy,
        path: obj.path,
        realPath: obj.realPath,
        via,
        ...(preloadFrom ? { firstVia: chosen.via } : {}),
        shadowed,
        error: chosen.broken,
        unloadable: 'crash',
        blocker: chosen,
        how,
      });
      return obj;
    }
    // The same file under another path is the same object (glibc compares device and inode).
    const same = this.findLoadedByFile(chosen.path);
    if (same) {
      same.names.add(name);
      this.resolutions.push({
        name,
        requestedBy,
        path: same.path,
        realPath: same.realPath,
        via: 'already_loaded',
        firstVia: same.via,
        shadowed,
        how,
      });
      return same;
    }
    const info = (this.openFile(chosen.path) as { ok: true; info: ElfInfo }).info;
    const obj = this.addObject(chosen.path, info, loader, via, false);
    if (preloadFrom) obj.preloadFrom = preloadFrom;
    obj.names.add(name);
    this.resolutions.push({
      name,
      requestedBy,
      path: obj.path,
      realPath: obj.realPath,
      via,
      ...(preloadFrom ? { firstVia: chosen.via } : {}),
      shadowed,
      ...(skipped.length ? { skipped } : {}),
      how,
    });
    return obj;
  }

  /** Every folder in glibc's order; the first acceptable file wins, the later ones are recorded as shadowed. */
  search(
    name: string,
    loader: LoadedObject | null,
  ): {
    chosen: Candidate | null;
    shadowed: Candidate[];
    shadowedAll: Candidate[];
    error?: string;
    skipped: string[];
    blocker?: Candidate;
  } {
    const found: Candidate[] = [];
    const skipped: string[] = [];
    let error: string | undefined;
    const seen = new Set<string>();
    // glibc's open_path: an error other than "no such file" or "permission denied" (a symlink loop, say)
    // ends the search of that route (RPATH, LD_LIBRARY_PATH, ...), and the loader goes on with the next route.
    const tryDirs = (dirs: string[], via: Via) => {
      for (const d of dirs) {
        // A folder that does not exist holds nothing: one (remembered) look instead of one per name, as glibc
        // itself remembers the search folders it found missing. Same for the glibc-hwcaps subfolders.
        if (!this.isDir(d)) continue;
        const subs =
          this.cfg.hwcaps.length > 0 && this.isDir(`${d}/glibc-hwcaps`)
            ? [...this.cfg.hwcaps.map((h) => `${d}/glibc-hwcaps/${h}`), d]
            : [d];
        for (const sub of subs) {
          const p = normalizePath(`${sub}/${name}`);
          if (seen.has(p)) continue;
          seen.add(p);
          if (this.consider(p, via, found, skipped, (e) => (error ??= e)) === 'end-route') return;
        }
      }
    };
    if (loader === null || loader.elf.runpath === null) {
      for (let l = loader; l; l = l.loader)
        if (l.elf.rpath !== null && l.elf.runpath === null) tryDirs(this.expandList(l.elf.rpath, l), 'rpath');
      const main = this.main;
      if (
        main &&
        main !== loader &&
        main.elf.rpath !== null &&
        main.elf.runpath === null &&
        !this.inChain(main, loader)
      )
        tryDirs(this.expandList(main.elf.rpath, main), 'rpath');
    }
    tryDirs(
      this.cfg.ldLibraryPath.map((d) => this.expand(d, null) ?? d),
      'ld_library_path',
    );
    if (loader && loader.elf.runpath !== null) tryDirs(this.expandList(loader.elf.runpath, loader), 'runpath');
    const nodeflib = (loader ?? this.main)?.elf.nodeflib ?? false;
    if (!nodeflib) {
      for (const e of this.cacheLookup(name)) {
        const p = normalizePath(e.path);
        if (seen.has(`cache:${p}`)) continue;
        seen.add(`cache:${p}`);
        this.consider(p, 'ld_cache', found, skipped, (er) => (error ??= er));
      }
      tryDirs(this.cfg.defaultDirs, 'default');
    }
    // glibc stops at the first candidate that is not a valid ELF file: everything after it is unreachable.
    const chosen = found.find((c) => !c.path.startsWith('!')) ?? null;
    const firstBad = found.findIndex((c) => c.path.startsWith('!'));
    if (firstBad >= 0 && (chosen === null || found.indexOf(chosen) > firstBad)) {
      const bad = found[firstBad]!;
      const good = found.filter((c) => !c.path.startsWith('!') && !c.broken);
      return {
        chosen: null,
        shadowed: good,
        shadowedAll: good,
        error: bad.broken ?? error ?? `${bad.path.slice(1)}: invalid ELF file`,
        skipped,
        blocker: { path: bad.path.slice(1), via: bad.via },
      };
    }
    const good = found.filter((c) => !c.path.startsWith('!'));
    return {
      chosen,
      shadowed: good.filter((c) => c !== chosen && !c.broken),
      shadowedAll: good.filter((c) => !c.broken),
      skipped,
      ...(chosen ? {} : { error: `${name}: cannot open shared object file: No such file or directory` }),
    };
  }

  private readonly dirs = new Map<string, boolean>();
  /** true for an existing folder, and for anything that cannot be looked at (then the search tries, as before) */
  private isDir(d: string): boolean {
    let v = this.dirs.get(d);
    if (v === undefined) {
      try {
        const st = this.cfg.fs.tryStat(d);
        v = st !== null && st.type === 'dir';
      } catch {
        v = true;
      }
      this.dirs.set(d, v);
    }
    return v;
  }

  private consider(
    p: string,
    via: Via,
    found: Candidate[],
    skipped: string[],
    onError: (e: string) => void,
  ): 'ok' | 'end-route' {
    try {
      if (this.cfg.fs.tryStat(p) === null) return 'ok'; // not there: the common case, kept cheap
    } catch (err) {
      const code = err instanceof FsError ? err.code : 'OTHER';
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') return 'ok';
      onError(`${p}: ${code === 'ELOOP' ? 'too many levels of symbolic links' : code}`);
      return 'end-route';
    }
    const r = this.openFile(p);
    if (r.ok) {
      if (this.acceptable(r.info)) found.push({ path: p, via });
      else skipped.push(p);
    } else if (r.reason === 'loop' || r.reason === 'unreadable') {
      onError(r.message);
      return 'end-route';
    } else if (r.reason === 'not-elf' || r.reason === 'truncated') {
      // open_verify: a header of another class or machine is skipped before anything else is read.
      if (r.class !== undefined && !this.classFits(r)) skipped.push(p);
      else if (r.mappable) found.push({ path: p, via, broken: r.message });
      else {
        found.push({ path: `!${p}`, via });
        onError(r.message);
      }
    }
    return 'ok';
  }

  /** For a file that failed to parse: does its header (when read) name this process's class and machine? */
  private classFits(r: { class?: 32 | 64 | null; machine?: number }): boolean {
    if (this.cls === null || r.class === undefined || r.class === null) return true;
    return r.class === this.cls && r.machine === this.machine;
  }

  /** A cut-short file the loader maps: an object with no dependencies, marked as having killed the process. */
  private addBroken(
    path: string,
    r: { message: string; class?: 32 | 64 | null; machine?: number } | null,
    loader: LoadedObject | null,
    via: Via,
    isMain: boolean,
    preloadFrom?: PreloadSource,
  ): LoadedObject {
    const res = r ?? (this.openFile(path) as { message: string; class?: 32 | 64 | null; machine?: number });
    const info: ElfInfo = {
      class: res.class ?? this.cls ?? 64,
      machine: res.machine ?? this.machine ?? 62,
      type: 3,
      littleEndian: true,
      soname: null,
      needed: [],
      rpath: null,
      runpath: null,
      nodeflib: false,
    };
    const obj = this.addObject(path, info, loader, via, isMain);
    obj.crashed = res.message;
    if (preloadFrom) obj.preloadFrom = preloadFrom;
    return obj;
  }

  /** The cache entries for a name that this process accepts, best glibc-hwcaps subfolder first. */
  cacheLookup(name: string): LdCacheEntry[] {
    if (!this.cfg.cache) return [];
    const flags = expectedCacheFlags(this.machine ?? 62, this.cls ?? 64);
    const rank = (e: LdCacheEntry) => (e.hwcap === null ? this.cfg.hwcaps.length : this.cfg.hwcaps.indexOf(e.hwcap));
    return (entriesByName(this.cfg.cache).get(name) ?? [])
      .filter((e) => flags.includes(e.flags) && (e.hwcap === null || this.cfg.hwcaps.includes(e.hwcap)))
      .sort((a, b) => rank(a) - rank(b));
  }

  private acceptable(info: ElfInfo): boolean {
    if (this.cls === null) return true;
    return info.class === this.cls && info.machine === this.machine;
  }

  private inChain(o: LoadedObject, from: LoadedObject | null): boolean {
    for (let l = from; l; l = l.loader) if (l === o) return true;
    return false;
  }

  private openFile(p: string): ElfResult {
    let r = this.elfCache.get(p);
    if (!r) {
      r = readElf(this.cfg.fs, p);
      this.elfCache.set(p, r);
    }
    return r;
  }

  private findLoadedByFile(p: string): LoadedObject | undefined {
    try {
      const st = this.cfg.fs.stat(p);
      return this.objects.find((o) => o.dev === st.dev && o.ino === st.ino);
    } catch {
      return undefined;
    }
  }

  private addObject(path: string, elf: ElfInfo, loader: LoadedObject | null, via: Via, isMain: boolean): LoadedObject {
    let realPath = path;
    let dev = -1;
    let ino = -1;
    try {
      realPath = this.cfg.fs.realpath(path);
      const st = this.cfg.fs.stat(path);
      dev = st.dev;
      ino = st.ino;
    } catch {
      /* a loop or a race: keep the path as opened */
    }
    if (this.cls === null) {
      this.cls = elf.class;
      this.machine = elf.machine;
    }
    const obj: LoadedObject = {
      path,
      realPath,
      elf,
      names: new Set(elf.soname ? [elf.soname] : []),
      loader,
      via,
      isMain,
      dev,
      ino,
    };
    this.objects.push(obj);
    if (isMain) this.main = obj;
    return obj;
  }

  private expandList(list: string, origin: LoadedObject): string[] {
    return list
      .split(':')
      .filter((d) => d !== '')
      .map((d) => this.expand(d, origin))
      .filter((d): d is string => d !== null);
  }

  /** $ORIGIN, $LIB, $PLATFORM (and their ${…} forms). $ORIGIN is the folder of the object as it was opened. */
  expand(s: string, origin: LoadedObject | null): string | null {
    if (!s.includes('$')) return s; // nothing to expand: the common case, asked on every search
    let bad = false;
    const out = s.replace(
      /\$(\{(ORIGIN|LIB|PLATFORM)\}|ORIGIN|LIB|PLATFORM)/g,
      (_m, _a, braced: string | undefined) => {
        const tok = braced ?? _a;
        if (tok === 'ORIGIN') {
          if (!origin) {
            bad = true;
            return '';
          }
          return nodePath.posix.dirname(origin.path);
        }
        return tok === 'LIB' ? this.cfg.lib : this.cfg.platform;
      },
    );
    return bad ? null : out;
  }
}
