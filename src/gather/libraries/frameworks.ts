// Which file each framework would load for every CUDA library, emulated as the framework's process does it:
// torch preloads pip's nvidia libraries by path from Python, then loads libtorch_cuda.so; JAX's CUDA plugin
// preloads from nvidia/*/lib; TensorFlow dlopens by soname; then cuDNN 9 dlopens its sub-libraries and the
// CUDA runtime dlopens libcuda.so.1. Nothing is imported or executed: files and the loader's rules only.
import * as nodePath from 'node:path';
import type { FileSystem } from '../../ports/fs.js';
import { isFile, listNames } from '../../ports/fs.js';
import type { PythonEnvironment } from '../python/environments.js';
import data from '../../knowledge/libraries/frameworks.json' with { type: 'json' };
import type { ElfResult } from './elf.js';
import type { Inventory } from './inventory.js';
import { LoaderProcess, type LoadedObject, type LoaderConfig, type Resolution } from './loader.js';
import type { Consumer, ResolvedLibrary } from '../snapshot/schema-libraries.js';
import { CUDNN8_SUBLIBRARIES, CUDNN9_SUBLIBRARIES, libraryFamily } from '../../base/versions.js';

export type Framework = 'torch' | 'tensorflow' | 'jax' | 'cupy';

export interface ConsumerTarget {
  path: string;
  framework: Framework | null;
  environment: PythonEnvironment | null;
}

/** The CUDA-facing library of each framework installed in each environment. */
export function discoverConsumers(fs: FileSystem, envs: readonly PythonEnvironment[]): ConsumerTarget[] {
  const out: ConsumerTarget[] = [];
  const add = (path: string, framework: Framework, environment: PythonEnvironment) => {
    if (!out.some((c) => c.path === path) && isFile(fs, path)) out.push({ path, framework, environment });
  };
  for (const env of envs) {
    for (const sp of env.sitePackages) {
      add(`${sp}/torch/lib/libtorch_cuda.so`, 'torch', env);
      add(`${sp}/tensorflow/libtensorflow_framework.so.2`, 'tensorflow', env);
      add(`${sp}/tensorflow/python/_pywrap_tensorflow_internal.so`, 'tensorflow', env);
      for (const d of listNames(fs, `${sp}/jax_plugins`))
        if (/^xla_cuda\d+$/.test(d)) add(`${sp}/jax_plugins/${d}/xla_cuda_plugin.so`, 'jax', env);
      const rt = listNames(fs, `${sp}/cupy_backends/cuda/api`).find((n) => /^runtime\..*\.so$/.test(n));
      if (rt) add(`${sp}/cupy_backends/cuda/api/${rt}`, 'cupy', env);
    }
  }
  return out;
}

export interface EmulationContext {
  fs: FileSystem;
  cfg: LoaderConfig;
  inventory: Inventory;
  /** ELF facts by path, shared by every emulated process of one probe run */
  elfCache?: Map<string, ElfResult>;
}

export function emulateConsumer(ctx: EmulationContext, target: ConsumerTarget): Consumer {
  const p = new LoaderProcess(ctx.cfg, ctx.elfCache);
  const notes: string[] = [];
  const steps: { rs: Resolution[]; how: ResolvedLibrary['how'] }[] = [];
  const sps = target.environment?.sitePackages ?? [];
  // LD_PRELOAD and /etc/ld.so.preload come before anything the interpreter or the framework loads.
  const pre = p.preload();
  if (pre.length > 0) {
    steps.push({ rs: pre, how: 'preload' });
    notes.push('LD_PRELOAD and /etc/ld.so.preload load first: a preloaded soname answers every later request for it');
  }

  if (target.framework === 'torch') {
    const global = nodePath.posix.normalize(`${nodePath.posix.dirname(target.path)}/libtorch_global_deps.so`);
    if (isFile(ctx.fs, global)) steps.push({ rs: p.loadPath(global), how: 'needed' });
    for (const row of data.torchPreload.rows) {
      const file = findPipLibrary(ctx.fs, sps, row.folder, globToRegExp(row.pattern));
      if (file) steps.push({ rs: p.loadPath(file, 'preloaded'), how: 'preload' });
    }
    notes.push('torch/__init__.py preloads pip nvidia libraries by path before libtorch_cuda.so loads');
  } else if (target.framework === 'jax') {
    for (const row of data.jaxPreload.rows) {
      for (const sp of sps) {
        const dir = `${sp}/nvidia/${row.folder}/lib`;
        for (const n of row.names)
          if (isFile(ctx.fs, `${dir}/${n}`)) steps.push({ rs: p.loadPath(`${dir}/${n}`, 'preloaded'), how: 'preload' });
      }
    }
    notes.push("the JAX CUDA plugin preloads the nvidia.* pip packages' libraries by path");
  }

  const main = p.loadPath(target.path);
  steps.push({ rs: main, how: 'needed' });
  const self = p.findObject((o) => o.path === nodePath.posix.normalize(target.path)) ?? null;

  if (target.framework === 'tensorflow' && self) {
    for (const family of data.tensorflowDlopen.families) {
      for (const soname of sonamesFor(ctx, family, sps)) steps.push({ rs: p.dlopen(soname, self), how: 'dlopen' });
    }
    notes.push(
      'TensorFlow dlopens the CUDA libraries by soname; the sonames are taken from the copies installed next to it',
    );
  }
  runtimeLoads(ctx, p, self, steps, notes);
  return {
    path: target.path,
    framework: target.framework,
    environment: target.environment?.prefix ?? null,
    resolved: collect(ctx, steps, target.path),
    notes,
  };
}

/**
 * `libs --elf FILE`: the file's whole NEEDED closure, every library as the loader finds it (CUDA or not), then
 * only the run-time loads the file is known to make: the CUDA runtime dlopens libcuda.so.1 (a shared
 * libcudart in the closure, or one linked in statically, which leaves the name "libcuda.so.1" in the file),
 * and cuDNN 9 dlopens its sub-libraries. Nothing is claimed for a file that shows neither.
 */
export function emulateElf(ctx: EmulationContext, path: string): Consumer {
  const p = new LoaderProcess(ctx.cfg, ctx.elfCache);
  const steps: { rs: Resolution[]; how: ResolvedLibrary['how'] }[] = [];
  const notes: string[] = [];
  steps.push({ rs: p.exec(path), how: 'needed' });
  const self = p.findObject((o) => o.isMain) ?? null;
  const cudart = p.findObject((o) => /^libcudart\.so/.test(o.elf.soname ?? ''));
  const driver = data.driverLibraries.names[0]!;
  if (cudart) {
    steps.push({ rs: p.dlopen(driver, cudart), how: 'dlopen' });
    notes.push(`${cudart.elf.soname} (the CUDA runtime) dlopens ${driver} at its first call`);
  } else if (self && namesInFile(ctx.fs, path, driver)) {
    steps.push({ rs: p.dlopen(driver, self), how: 'dlopen' });
    notes.push(`the file names ${driver} (a CUDA runtime linked in statically dlopens it at its first call)`);
  }
  cudnnSubLibraries(ctx, p, steps, notes);
  return { path, framework: null, environment: null, resolved: collect(ctx, steps, path, true), notes };
}

/** Whether the file holds `name` as a NUL-terminated string, read in chunks. */
function namesInFile(fs: FileSystem, path: string, name: string): boolean {
  const needle = Buffer.from(`\0${name}\0`);
  let r;
  try {
    r = fs.openReader(path);
  } catch {
    return false;
  }
  try {
    const chunk = 4 * 1024 * 1024;
    for (let off = 0; off < r.size; off += chunk - needle.length) {
      const b = r.read(off, chunk);
      if (b.indexOf(needle) >= 0) return true;
      if (b.length < chunk) break;
    }
    return false;
  } finally {
    r.close();
  }
}

/** What a framework's process loads by name at run time: libcuda.so.1 (the CUDA runtime) and NVML (PyTorch and JAX
 *  query it), and cuDNN's sub-libraries. */
function runtimeLoads(
  ctx: EmulationContext,
  p: LoaderProcess,
  self: LoadedObject | null,
  steps: { rs: Resolution[]; how: ResolvedLibrary['how'] }[],
  notes: string[],
): void {
  const cudart = p.findObject((o) => /^libcudart\.so/.test(o.elf.soname ?? ''));
  if (cudart || self) {
    for (const n of data.driverLibraries.names) steps.push({ rs: p.dlopen(n, cudart ?? self), how: 'dlopen' });
  }
  cudnnSubLibraries(ctx, p, steps, notes);
}

/** cuDNN dlopens its sub-libraries with its own RUNPATH, once it is in the process. */
function cudnnSubLibraries(
  ctx: EmulationContext,
  p: LoaderProcess,
  steps: { rs: Resolution[]; how: ResolvedLibrary['how'] }[],
  notes: string[],
): void {
  const cudnn = p.findObject((o) => /^libcudnn\.so\.\d+$/.test(o.elf.soname ?? ''));
  if (!cudnn) return;
  const major = /\.so\.(\d+)$/.exec(cudnn.elf.soname ?? '')?.[1] ?? '9';
  const version = ctx.inventory.describe(cudnn.path).version;
  const subs = major === '8' ? CUDNN8_SUBLIBRARIES : [...CUDNN9_SUBLIBRARIES];
  for (const sub of subs) {
    // cuDNN 9 asks for the exact version first, then major.minor, then the major (an LD_DEBUG capture).
    const names =
      major !== '8' && version
        ? [`${sub}.so.${version}`, `${sub}.so.${version.split('.').slice(0, 2).join('.')}`, `${sub}.so.${major}`]
        : [`${sub}.so.${major}`];
    let last: Resolution[] = [];
    for (const n of [...new Set(names)]) {
      last = p.dlopen(n, cudnn);
      if (last[0] && last[0].via !== 'not_found') break;
    }
    steps.push({ rs: last, how: 'dlopen' });
  }
  notes.push(`libcudnn.so.${major} (${version ?? 'version unknown'}) dlopens its sub-libraries with its own RUNPATH`);
}

/**
 * The resolutions as the consumer's library list: CUDA families only for a framework, every library for `all` (--elf).
 */
function collect(
  ctx: EmulationContext,
  steps: { rs: Resolution[]; how: ResolvedLibrary['how'] }[],
  consumerPath: string,
  all = false,
): ResolvedLibrary[] {
  const out = new Map<string, ResolvedLibrary>();
  for (const { rs, how } of steps) {
    for (const r of rs) {
      const baseName = r.how === 'path' ? nodePath.posix.basename(r.name) : r.name;
      const family =
        libraryFamily(baseName) ?? (r.path ? libraryFamily(nodePath.posix.basename(r.realPath ?? r.path)) : null);
      if (family === null && r.via !== 'not_found' && !all) continue;
      if (r.name === nodePath.posix.normalize(consumerPath)) continue;
      // A preload names a file: report it under its soname, as the consumer's NEEDED entries name it.
      const obj = r.how === 'path' && r.path ? soname(ctx, r.path) : null;
      const name = obj ?? baseName;
      const first = out.get(name);
      if (first) {
        // A second file of the same soname (torch's own preload of pip's copy after an LD_PRELOAD): it is mapped,
        // but every request for the soname, and every symbol, goes to the first one. It loses like a shadowed copy.
        if (
          r.path &&
          r.realPath &&
          r.realPath !== first.realPath &&
          !first.shadowed.some((x) => x.realPath === r.realPath)
        ) {
          const cd = ctx.inventory.describe(r.path);
          first.shadowed.push({ path: r.path, realPath: cd.realPath ?? r.realPath, version: cd.version, via: r.via });
        }
        continue;
      }
      const d = r.path ? ctx.inventory.describe(r.path) : null;
      const seen = new Set<string>([r.realPath ?? '']);
      const shadowed: ResolvedLibrary['shadowed'] = [];
      for (const c of r.shadowed) {
        const cd = ctx.inventory.describe(c.path);
        const key = cd.realPath ?? c.path;
        if (seen.has(key)) continue;
        seen.add(key);
        shadowed.push({ path: c.path, realPath: cd.realPath, version: cd.version, via: c.via });
      }
      out.set(name, {
        name,
        family,
        path: r.path,
        realPath: r.realPath,
        version: d?.version ?? null,
        via: r.via,
        ...(r.firstVia && r.firstVia !== r.via ? { firstVia: r.firstVia } : {}),
        how: r.how === 'path' ? (how === 'preload' || r.via === 'ld_preload' ? 'preload' : 'needed') : r.how,
        requestedBy: r.requestedBy,
        shadowed,
        ...(r.error ? { error: r.error } : {}),
        ...(r.preloadFrom ? { preloadFrom: r.preloadFrom } : {}),
        ...(r.unloadable ? { unloadable: r.unloadable } : {}),
        ...(r.blocker ? { blocker: { path: r.blocker.path, via: r.blocker.via } } : {}),
      });
    }
  }
  return [...out.values()];
}

function soname(ctx: EmulationContext, path: string): string | null {
  const copy = ctx.inventory.byRealPath.get(ctx.inventory.describe(path).realPath ?? '');
  if (copy?.soname) return copy.soname;
  // A file outside the inventory (a preload from anywhere): its own DT_SONAME, as the emulation read it.
  const e = ctx.elfCache?.get(nodePath.posix.normalize(path));
  return e?.ok ? e.info.soname : null;
}

/** Sonames of a family offered next to the framework (its site-packages), else by the ld cache. */
function sonamesFor(ctx: EmulationContext, family: string, sps: readonly string[]): string[] {
  const local = ctx.inventory.copies
    .filter((c) => c.name === family && c.soname && sps.some((sp) => c.path.startsWith(`${sp}/`)))
    .map((c) => c.soname!);
  if (local.length > 0) return [...new Set(local)];
  const cached = (ctx.cfg.cache?.entries ?? [])
    .filter((e) => libraryFamily(e.name) === family && /\.so\.\d+$/.test(e.name))
    .map((e) => e.name);
  return [...new Set(cached)].slice(0, 1);
}

/**
 * torch's glob: <site-packages>/nvidia/<folder>/lib/<pattern>, the named folder first (CUDA 13 wheels use nvidia/cu13).
 */
function findPipLibrary(fs: FileSystem, sps: readonly string[], folder: string, re: RegExp): string | null {
  for (const sp of sps) {
    const folders = [
      folder,
      ...listNames(fs, `${sp}/nvidia`)
        .filter((f) => f !== folder)
        .sort(),
    ];
    for (const f of folders) {
      const hit = listNames(fs, `${sp}/nvidia/${f}/lib`)
        .filter((n) => re.test(n))
        .sort()[0];
      if (hit) return `${sp}/nvidia/${f}/lib/${hit}`;
    }
  }
  return null;
}

export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') re += '.*';
    else if (ch === '?') re += '.';
    else if (ch === '[') {
      const end = glob.indexOf(']', i);
      re += glob.slice(i, end + 1);
      i = end;
    } else re += ch.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
