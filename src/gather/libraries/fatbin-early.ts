// torch's GPU architectures read from the start: which libtorch_cuda.so files collect reads (one rule, here, for
// collect and for the worker started with nvidia-smi), and that worker's job — its own discovery of the Python
// environments, then the fatbinary walk — so that the Python section does not wait for a walk begun only once
// collect's code has loaded and found the environments.
import { discoverDetailed } from '../python/discover.js';
import { torchCudaLibrary } from '../python/build-info.js';
import { isScanned } from '../python/probe.js';
import type { ProbeEnv } from '../probe-env.js';
import { isFile, type FileSystem } from '../../ports/fs.js';
import type { ProcessRunner } from '../../ports/runner.js';
import { DEFAULT_BUDGET_MS, readFatbinTargets, type FatbinTargets } from './fatbin.js';
import type { FatbinPosted, LibrariesJob } from './libraries-job.js';

type Discovered = ReturnType<typeof discoverDetailed>;

/** The libtorch_cuda.so of each scanned environment that has one. */
export function torchLibrariesToRead(penv: ProbeEnv, discovered: Discovered): string[] {
  return discovered
    .filter((e) => isScanned(e, penv.options.allEnvs))
    .flatMap((e) => e.sitePackages.map(torchCudaLibrary))
    .filter((p) => isFile(penv.fs, p));
}

/** The worker's job, callable here with any ports: the files as collect would choose them, and their targets. */
export function runFatbinJob(job: LibrariesJob, fs: FileSystem, runner: ProcessRunner): FatbinPosted {
  const penv: ProbeEnv = { fs, runner, env: job.env, now: () => Date.now(), pid: process.pid, options: job.options };
  let discovered: Discovered;
  try {
    discovered = discoverDetailed(penv);
  } catch {
    discovered = [];
  }
  const paths = torchLibrariesToRead(penv, discovered);
  const results: [string, FatbinTargets | null][] = paths.map((p) => [p, readFatbinTargets(fs, p, DEFAULT_BUDGET_MS)]);
  return { paths, results };
}
