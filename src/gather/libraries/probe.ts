// The libraries probe: the ld cache, the inventory of copies, the emulated resolution for every framework
// found, and the libraries running GPU processes mapped (with the emulation redone under each process's
// own LD_LIBRARY_PATH, so that a difference means the emulation missed something, not that the shells differ).
import * as nodePath from 'node:path';
import type { ProbeEnv } from '../probe-env.js';
import type { PythonEnvironment } from '../python/environments.js';
import type { ElfResult } from './elf.js';
import {
  discoverConsumers,
  emulateConsumer,
  emulateElf,
  type ConsumerTarget,
  type EmulationContext,
  type Framework,
} from './frameworks.js';
import { buildInventory, type Inventory } from './inventory.js';
import { glibcVersion } from './ldcache.js';
import type { LoaderConfig } from './loader.js';
import { readMaps } from './maps.js';
import { loaderConfig, preloadList, readLdCache, type LdCacheRead } from './platform.js';
import { discoverDetailed, discoverEnvironments } from '../python/discover.js';
import type { FileSystem } from '../../ports/fs.js';
import type { ProcessRunner } from '../../ports/runner.js';
import type { LibrariesJob, LibrariesPosted } from './libraries-job.js';
import { record } from './scan-record.js';
import type { Consumer, LibrariesSection, LoadedLibrary } from '../snapshot/schema-libraries.js';
import { libraryFamily } from '../../base/versions.js';

export interface LibrariesProbeInput {
  penv: ProbeEnv;
  /** PIDs of GPU processes (from the process probe); libs --pid adds its own */
  gpuPids: number[];
  /** Python environments from the Python probe, when it ran; else the visible ones are used */
  environments?: PythonEnvironment[];
}

export async function probeLibraries(input: LibrariesProbeInput): Promise<LibrariesSection> {
  const scan = await scanLibraries(input.penv, input.environments);
  return addProcesses(scan, input.gpuPids);
}

/** The part that reads only library files (no process): it runs while nvidia-smi is still busy. */
export interface LibraryScan {
  penv: ProbeEnv;
  cacheRead: LdCacheRead;
  cfg: LoaderConfig;
  environments: PythonEnvironment[];
  inventory: Inventory;
  ctx: EmulationContext;
  targets: ConsumerTarget[];
  consumers: Consumer[];
  durationMs: number;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function scanLibraries(penv: ProbeEnv, environments?: PythonEnvironment[]): Promise<LibraryScan> {
  const t0 = performance.now();
  const { fs } = penv;
  const cacheRead = await readLdCache(fs, penv.runner, penv.options.timeoutMs);
  const cfg = loaderConfig(fs, penv.env, cacheRead.cache);
  const envs = environments ?? safeDiscover(penv);
  const condaPrefixes = penv.env.CONDA_PREFIX ? [penv.env.CONDA_PREFIX] : [];
  // One ELF cache for the inventory and every emulated process: torch, JAX and CuPy read the same files.
  const elfCache = new Map<string, ElfResult>();
  const inventory = buildInventory({
    fs,
    cache: cacheRead.cache,
    ldLibraryPath: cfg.ldLibraryPath,
    defaultDirs: cfg.defaultDirs,
    environments: envs,
    condaPrefixes,
    elfCache,
    env: penv.env,
  });
  const ctx: EmulationContext = { fs, cfg, inventory, elfCache };

  const targets = discoverConsumers(fs, envs);
  const consumers: Consumer[] = [];
  // Between consumers the event loop runs: a child process's output (nvidia-smi's XML) is read as it comes,
  // instead of filling the pipe and stopping the child until we are done.
  for (const t of targets) {
    await yieldToLoop();
    consumers.push(emulateConsumer(ctx, t));
  }
  for (const f of penv.options.elfFiles) consumers.push(emulateElf(ctx, f));
  return {
    penv,
    cacheRead,
    cfg,
    environments: envs,
    inventory,
    ctx,
    targets,
    consumers,
    durationMs: performance.now() - t0,
  };
}

/**
 * The worker's job (./libraries-worker.ts), callable here with any ports: the environments as collect discovers
 * them, the scan, the section with no process. Discovery that fails gives none, as in collect.
 */
export async function runLibrariesJob(
  job: LibrariesJob,
  fs: FileSystem,
  runner: ProcessRunner,
): Promise<LibrariesPosted> {
  const startedAtMs = Date.now();
  const session = fs.session?.() ?? fs;
  // with `record`, everything the discovery and the scan ask goes through a view that notes it (./scan-record.ts)
  const rec = job.record ? record(session, job.env, runner) : null;
  const penv: ProbeEnv = {
    fs: rec?.fs ?? session,
    runner: rec?.runner ?? runner,
    env: rec?.env ?? job.env,
    now: () => Date.now(),
    pid: process.pid,
    options: job.options,
  };
  let discovered: ReturnType<typeof discoverDetailed>;
  try {
    discovered = discoverDetailed(penv);
  } catch {
    discovered = [];
  }
  const section = addProcesses(await scanLibraries(penv, discovered), []);
  return {
    environments: JSON.stringify(discovered),
    section,
    doneAt: performance.timeOrigin + performance.now(),
    ...(rec ? { fingerprint: rec.fingerprint(startedAtMs) } : {}),
  };
}

/** What the GPU processes (and --pid) mapped, and the emulation redone with each one's own LD_LIBRARY_PATH. */
export function addProcesses(scan: LibraryScan, gpuPids: readonly number[]): LibrariesSection {
  const t0 = performance.now();
  const { penv, cacheRead, cfg, inventory, ctx, targets, consumers } = scan;
  const { fs } = penv;
  const environments = scan.environments;
  const input = { gpuPids };

  const loaded: LoadedLibrary[] = [];
  const processes: LibrariesSection['processes'] = [];
  for (const pid of [...new Set([...input.gpuPids, ...penv.options.pids])]) {
    const maps = readMaps(fs, pid);
    if (!maps.ok) {
      processes.push({ pid, ok: false, message: maps.message, framework: null, consumer: null, differences: [] });
      continue;
    }
    const cuda = maps.files.filter((f) => libraryFamily(nodePath.posix.basename(f)));
    for (const f of cuda) {
      const d = inventory.describe(f);
      loaded.push({ pid, path: f, family: d.family, version: d.version });
    }
    const target = targetFromMaps(maps.files, targets, environments);
    if (!target) {
      processes.push({ pid, ok: true, framework: null, consumer: null, differences: [] });
      continue;
    }
    // Emulate again with the process's own LD_LIBRARY_PATH and LD_PRELOAD (from /proc/PID/environ when readable).
    const penvVars = processLoaderEnv(penv, pid);
    const pctx: EmulationContext =
      penvVars === null
        ? ctx
        : {
            ...ctx,
            cfg: { ...cfg, ldLibraryPath: penvVars.llp, preload: preloadList(fs, { LD_PRELOAD: penvVars.preload }) },
          };
    const emulated = emulateConsumer(pctx, target);
    const differences: LibrariesSection['processes'][number]['differences'] = [];
    const loadedByFamily = new Map<string, string[]>();
    for (const f of cuda) {
      const fam = libraryFamily(nodePath.posix.basename(f))!;
      loadedByFamily.set(fam, [...(loadedByFamily.get(fam) ?? []), f]);
    }
    for (const r of emulated.resolved) {
      if (!r.family) continue;
      const got = loadedByFamily.get(r.family);
      if (!got) continue; // not loaded (yet): cuDNN's sub-libraries load at first use
      if (r.realPath === null || !got.includes(r.realPath))
        differences.push({ family: r.family, loaded: got[0] ?? null, expected: r.realPath });
    }
    processes.push({ pid, ok: true, framework: target.framework, consumer: target.path, differences });
  }

  return {
    ok: true,
    ...(cacheRead.cache ? {} : { message: `no ld cache: ${cacheRead.error ?? 'unreadable'}` }),
    ldCache: {
      source: cacheRead.source,
      format: cacheRead.cache?.format ?? null,
      entries: cacheRead.cache?.entries.length ?? 0,
      glibc: glibcVersion(cacheRead.cache),
      ...(cacheRead.error ? { error: cacheRead.error } : {}),
    },
    ldLibraryPath: cfg.ldLibraryPath,
    defaultDirs: cfg.defaultDirs,
    hwcaps: cfg.hwcaps,
    environments: environments.map((e) => ({ prefix: e.prefix, kind: e.kind, sitePackages: e.sitePackages })),
    copies: inventory.copies,
    consumers,
    loaded,
    processes,
    packages: inventory.owners.packages,
    durationMs: Math.round((scan.durationMs + performance.now() - t0) * 10) / 10,
  };
}

const MARKERS: [RegExp, Framework][] = [
  [/\/torch\/lib\/libtorch_cuda\.so$/, 'torch'],
  [/\/jax_plugins\/xla_cuda\d+\/xla_cuda_plugin\.so$/, 'jax'],
  [/\/tensorflow\/libtensorflow_framework\.so\.2$/, 'tensorflow'],
  [/\/cupy_backends\/cuda\/api\/runtime\..*\.so$/, 'cupy'],
];

/** The framework a process runs, from the files it mapped, as a consumer to emulate. */
function targetFromMaps(
  files: readonly string[],
  targets: readonly ConsumerTarget[],
  envs: readonly PythonEnvironment[],
): ConsumerTarget | null {
  for (const [re, framework] of MARKERS) {
    const f = files.find((x) => re.test(x));
    if (!f) continue;
    const known = targets.find(
      (t) =>
        t.framework === framework &&
        (t.path === f || f.startsWith(nodePath.posix.dirname(nodePath.posix.dirname(t.path)))),
    );
    if (known) return known;
    const sp = /^(.*\/(?:site|dist)-packages)\//.exec(f)?.[1];
    const env =
      envs.find((e) => sp && e.sitePackages.includes(sp)) ??
      (sp
        ? {
            prefix: sp,
            kind: 'explicit' as const,
            interpreter: null,
            pythonVersion: null,
            sitePackages: [sp],
            active: false,
          }
        : null);
    return { path: f, framework, environment: env };
  }
  return null;
}

function processLoaderEnv(penv: ProbeEnv, pid: number): { llp: string[]; preload: string | undefined } | null {
  try {
    const environ = penv.fs.readText(`/proc/${pid}/environ`, 1024 * 1024).split('\0');
    const get = (k: string) => environ.find((kv) => kv.startsWith(`${k}=`))?.slice(k.length + 1);
    return { llp: (get('LD_LIBRARY_PATH') ?? '').split(/[:;]/).filter(Boolean), preload: get('LD_PRELOAD') };
  } catch {
    return null;
  }
}

/** The Python probe's discovery, never throwing through: a failure there must not lose the library facts. */
function safeDiscover(penv: ProbeEnv): PythonEnvironment[] {
  try {
    return discoverEnvironments(penv);
  } catch {
    return [];
  }
}
