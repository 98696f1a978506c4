// Every copy of the CUDA libraries on the machine: the ld cache, LD_LIBRARY_PATH, the default folders,
// CUDA toolkits (/usr/local/cuda*: targets/*/lib, lib64, compat), conda environments, and the Python
// site-packages (nvidia/*/lib, torch/lib, tensorflow, jaxlib, jax_plugins, cupy, *.libs). Each copy is one
// real file (the symbolic links that lead to it are listed with it), with its version, origin and package.
import * as nodePath from 'node:path';
import type { DirEntry, FileSystem } from '../../ports/fs.js';
import type { PythonEnvironment } from '../python/environments.js';
import { localeOrder } from './collate.js';
import { readElf, type ElfResult } from './elf.js';
import type { LdCache } from './ldcache.js';
import { emptyOwnerIndex, indexCondaOwners, indexPipOwners, type OwnerIndex } from './packages.js';
import type { LibraryCopy } from '../snapshot/schema-libraries.js';
import {
  libraryFamily,
  majorFromFileName,
  parseCudnnHeader,
  versionFromFileName,
  versionFromPackage,
} from '../../base/versions.js';

export interface InventoryInput {
  fs: FileSystem;
  cache: LdCache | null;
  ldLibraryPath: string[];
  defaultDirs: string[];
  environments: PythonEnvironment[];
  /** conda prefixes besides the Python environments of kind conda (CONDA_PREFIX) */
  condaPrefixes?: string[];
  /** ELF facts already read (shared with the loader emulation), by path */
  elfCache?: Map<string, ElfResult>;
  /** the process environment: the locale that orders the copies (as localeCompare would); absent: localeCompare */
  env?: Record<string, string | undefined>;
}

export interface Inventory {
  copies: LibraryCopy[];
  owners: OwnerIndex;
  /** real path → copy */
  byRealPath: Map<string, LibraryCopy>;
  /** version facts for any file, cached (also for files the emulation reaches outside the scanned folders) */
  describe(path: string): {
    family: string | null;
    version: string | null;
    versionSource: string | null;
    realPath: string | null;
  };
}

/** Folders of a site-packages that hold CUDA libraries, and how deep to look inside each. */
const SITE_FOLDERS: [string, number][] = [
  ['nvidia', 3],
  ['torch/lib', 1],
  ['tensorflow', 3],
  ['jaxlib', 3],
  ['jax_plugins', 3],
  ['cupy', 3],
  ['cupy_backends', 3],
];
const MAX_ENTRIES_PER_DIR = 20000;
/** Links followed inside one folder's listing before the path is resolved the long way (Linux: 40 in all). */
const MAX_LINKS_IN_FOLDER = 8;

export function buildInventory(input: InventoryInput): Inventory {
  const { fs } = input;
  const owners = emptyOwnerIndex();
  const condaPrefixes = new Set<string>([
    ...(input.condaPrefixes ?? []),
    ...input.environments.filter((e) => e.kind === 'conda').map((e) => e.prefix),
  ]);
  for (const env of input.environments) for (const sp of env.sitePackages) indexPipOwners(fs, sp, owners);
  for (const p of condaPrefixes) indexCondaOwners(fs, p, owners);

  const found = new Map<string, { links: Set<string>; foundBy: Set<string> }>();
  // `known`: the file's real path, read from its folder's listing (scanDir); else its path is resolved here.
  const note = (path: string, how: string, known?: string) => {
    const base = nodePath.posix.basename(path);
    if (!libraryFamily(base)) return;
    let real: string;
    if (known !== undefined) real = known;
    else {
      try {
        real = fs.realpath(path);
        if (fs.tryStat(real)?.type !== 'file') return;
      } catch {
        return; // a loop or an unreadable link: not a copy anyone can load
      }
    }
    if (!libraryFamily(nodePath.posix.basename(real)) && !libraryFamily(base)) return;
    const entry = found.get(real) ?? { links: new Set<string>(), foundBy: new Set<string>() };
    entry.links.add(path);
    entry.foundBy.add(how);
    found.set(real, entry);
  };
  // The same folder under two names (/usr/local/cuda/lib64 and /usr/local/cuda-13.0/lib64) is listed once per
  // name, as before, but a folder that does not exist costs one stat, not an exception.
  const scanDir = (dir: string, how: string, depth = 0) => {
    let entries;
    try {
      if (fs.tryStat(dir)?.type !== 'dir') return;
      entries = fs.readdir(dir);
    } catch {
      return;
    }
    if (entries.length > MAX_ENTRIES_PER_DIR) entries = entries.slice(0, MAX_ENTRIES_PER_DIR);
    const list = entries;
    // A copy's real path from the listing: a regular file's is the folder's real path and its name; a link whose
    // target is a name in the same folder leads there (one readlink, no walk of the path). Anything else (a target
    // with a "/", a dangling link, a loop, another type): undefined, and note resolves the path itself.
    let realDir: string | null | undefined; // resolved when a copy first needs it (null: it cannot be)
    let types: Map<string, DirEntry['type']> | undefined;
    const known = (name: string): string | undefined => {
      if (realDir === undefined) {
        try {
          realDir = fs.realpath(dir);
        } catch {
          realDir = null;
        }
      }
      if (realDir === null) return undefined;
      types ??= new Map(list.map((e) => [e.name, e.type]));
      let n = name;
      for (let hops = 0; hops < MAX_LINKS_IN_FOLDER; hops++) {
        const type = types.get(n);
        if (type === 'file') return realDir === '/' ? `/${n}` : `${realDir}/${n}`;
        if (type !== 'symlink') return undefined;
        let target: string;
        try {
          // through the folder's real path: under --root, a link in the path as given may point outside the root
          target = fs.readlink(realDir === '/' ? `/${n}` : `${realDir}/${n}`);
        } catch {
          return undefined;
        }
        if (target.includes('/') || target === '.' || target === '..' || target === '') return undefined;
        n = target;
      }
      return undefined;
    };
    for (const e of entries) {
      const p = `${dir}/${e.name}`;
      if (e.type === 'dir') {
        if (depth > 0 && e.name !== 'stubs' && !e.name.startsWith('__')) scanDir(p, how, depth - 1);
      } else if (e.name.includes('.so')) {
        const direct = (e.type === 'file' || e.type === 'symlink') && libraryFamily(e.name);
        note(p, how, direct ? known(e.name) : undefined);
      }
    }
  };

  for (const e of input.cache?.entries ?? []) note(e.path, 'ld_cache');
  for (const d of input.ldLibraryPath) scanDir(d, 'ld_library_path');
  for (const d of input.defaultDirs) scanDir(d, 'default');
  for (const t of toolkitDirs(fs)) scanDir(t, 'toolkit');
  for (const p of condaPrefixes) scanDir(`${p}/lib`, 'conda');
  for (const env of input.environments) {
    for (const sp of env.sitePackages) {
      for (const [sub, depth] of SITE_FOLDERS) scanDir(`${sp}/${sub}`, 'site-packages', depth);
      // auditwheel's vendored copies: torchvision.libs/libcudart.faf08d9a.so.13
      try {
        for (const e of fs.readdir(sp))
          if (e.type === 'dir' && e.name.endsWith('.libs')) scanDir(`${sp}/${e.name}`, 'site-packages');
      } catch {
        /* unreadable site-packages: nothing there for us */
      }
    }
  }

  const sitePackages = input.environments.flatMap((e) => e.sitePackages);
  const describeCache = new Map<string, ReturnType<Inventory['describe']>>();
  const headerCache = new Map<string, { version: string; file: string } | null>();

  const ownerOf = (real: string, links: Iterable<string>) => {
    for (const p of [real, ...links]) {
      const o = owners.byPath.get(p);
      if (o) return o;
    }
    return null;
  };

  const versionOf = (
    real: string,
    family: string,
    links: Iterable<string>,
  ): { version: string | null; source: string | null } => {
    const fromName = versionFromFileName(nodePath.posix.basename(real));
    if (fromName) return { version: fromName, source: 'file name' };
    for (const l of links) {
      const v = versionFromFileName(nodePath.posix.basename(l));
      if (v) return { version: v, source: `link name ${nodePath.posix.basename(l)}` };
    }
    if (family.startsWith('libcudnn')) {
      const h = cudnnHeaderFor(fs, real, headerCache);
      const major = majorFromFileName(nodePath.posix.basename(real));
      if (h && (major === null || h.version.split('.')[0] === major)) return { version: h.version, source: h.file };
    }
    const owner = ownerOf(real, links);
    if (owner?.version) {
      const v = versionFromPackage(family, owner.version);
      if (v) return { version: v, source: `${owner.manager} package ${owner.name} ${owner.version}` };
    }
    return { version: null, source: null };
  };

  const copies: LibraryCopy[] = [];
  const byRealPath = new Map<string, LibraryCopy>();
  const order = input.env ? localeOrder(input.env, [...found.keys()]) : (a: string, b: string) => a.localeCompare(b);
  for (const [real, { links, foundBy }] of [...found.entries()].sort(([a], [b]) => order(a, b))) {
    const family =
      libraryFamily(nodePath.posix.basename(real)) ??
      [...links].map((l) => libraryFamily(nodePath.posix.basename(l))).find((f) => f) ??
      null;
    if (!family) continue;
    const v = versionOf(real, family, links);
    const owner = ownerOf(real, links);
    const elf = cachedElf(fs, real, input.elfCache);
    const copy: LibraryCopy = {
      name: family,
      path: real,
      version: v.version,
      versionSource: v.source,
      origin: originOf(real, sitePackages, [...condaPrefixes]),
      soname: elf.ok ? elf.info.soname : null,
      links: [...links].sort(),
      package: owner,
      foundBy: [...foundBy].sort(),
    };
    copies.push(copy);
    byRealPath.set(real, copy);
  }

  return {
    copies,
    owners,
    byRealPath,
    describe(path) {
      const hit = describeCache.get(path);
      if (hit) return hit;
      let real: string | null = null;
      try {
        real = fs.realpath(path);
      } catch {
        real = null;
      }
      const known = real ? byRealPath.get(real) : undefined;
      let out: ReturnType<Inventory['describe']>;
      if (known)
        out = { family: known.name, version: known.version, versionSource: known.versionSource, realPath: real };
      else {
        const family =
          libraryFamily(nodePath.posix.basename(real ?? path)) ?? libraryFamily(nodePath.posix.basename(path));
        const v = family && real ? versionOf(real, family, [path]) : { version: null, source: null };
        out = { family, version: v.version, versionSource: v.source, realPath: real };
      }
      describeCache.set(path, out);
      return out;
    },
  };
}

/** /usr/local/cuda, /usr/local/cuda-13.0 (and /opt/cuda*): lib64, targets/<arch>/lib, compat. */
export function toolkitDirs(fs: FileSystem): string[] {
  const roots: string[] = [];
  for (const base of ['/usr/local', '/opt']) {
    try {
      for (const e of fs.readdir(base)) if (/^cuda(-[\d.]+)?$/.test(e.name)) roots.push(`${base}/${e.name}`);
    } catch {
      /* no such folder */
    }
  }
  const out: string[] = [];
  for (const r of roots) {
    out.push(`${r}/lib64`, `${r}/lib`, `${r}/compat`);
    try {
      for (const t of fs.readdir(`${r}/targets`)) out.push(`${r}/targets/${t.name}/lib`);
    } catch {
      /* no targets folder */
    }
  }
  return out;
}

export function originOf(
  real: string,
  sitePackages: readonly string[],
  condaPrefixes: readonly string[],
): LibraryCopy['origin'] {
  if (sitePackages.some((sp) => real.startsWith(`${sp}/`)) || /\/(site|dist)-packages\//.test(real)) return 'pip';
  if (/\/cuda[^/]*\/compat\//.test(real) || /\/compat\/libcuda\.so/.test(real)) return 'compat';
  if (
    condaPrefixes.some((p) => real.startsWith(`${p}/`)) ||
    /\/(ana|mini)conda\d*\/|\/miniforge\d*\/|\/mambaforge\/|\/conda\/envs\//.test(real)
  )
    return 'conda';
  if (/^\/(usr\/local|opt)\/cuda[^/]*\//.test(real)) return 'toolkit';
  if (
    /^\/(usr\/)?lib(32|64|x32)?\//.test(real) ||
    real.startsWith('/usr/local/nvidia/') ||
    real.startsWith('/usr/lib/wsl/')
  )
    return 'system';
  return 'other';
}

/** cudnn_version*.h next to the library, in ../include, or in the system include folders (Debian multiarch). */
function cudnnHeaderFor(
  fs: FileSystem,
  real: string,
  cache: Map<string, { version: string; file: string } | null>,
): { version: string; file: string } | null {
  const dir = nodePath.posix.dirname(real);
  if (cache.has(dir)) return cache.get(dir)!;
  const dirs = [dir, nodePath.posix.normalize(`${dir}/../include`)];
  const multiarch = /^\/(?:usr\/)?lib\/([^/]+-linux-gnu)$/.exec(dir);
  if (multiarch) dirs.push(`/usr/include/${multiarch[1]}`, '/usr/include');
  else if (/^\/(usr\/)?lib(64)?$/.test(dir)) dirs.push('/usr/include');
  let result: { version: string; file: string } | null = null;
  outer: for (const d of dirs) {
    for (const name of ['cudnn_version_v9.h', 'cudnn_version_v8.h', 'cudnn_version.h', 'cudnn.h']) {
      let text: string;
      try {
        text = fs.readText(`${d}/${name}`, 256 * 1024);
      } catch {
        continue;
      }
      const v = parseCudnnHeader(text);
      if (v) {
        result = { version: v, file: `${d}/${name}` };
        break outer;
      }
    }
  }
  cache.set(dir, result);
  return result;
}

/** readElf through a cache of results by path, when there is one. */
export function cachedElf(fs: FileSystem, path: string, cache: Map<string, ElfResult> | undefined): ElfResult {
  let r = cache?.get(path);
  if (!r) {
    r = readElf(fs, path);
    cache?.set(path, r);
  }
  return r;
}
