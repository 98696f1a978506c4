// The `python` section of the Snapshot: every Python environment found, what the ones we looked into have
// installed (read from dist-info / egg-info / conda-meta, never by running pip or conda), the frameworks'
// build facts (read from their version files, never by importing), and, with --deep, what the shipped
// probe saw inside the interpreter. All optional fields, so older snapshots stay valid.
import { z } from 'zod';

export const PythonPackage = z.object({
  /** normalised name (PEP 503: lower case, runs of -_. become -), e.g. "nvidia-cudnn-cu12" */
  name: z.string(),
  version: z.string(),
  /** where it was read */
  source: z.enum(['dist-info', 'egg-info', 'conda-meta']),
  /** the dist-info / egg-info folder or the conda-meta JSON file */
  path: z.string(),
  /** the INSTALLER file ("pip", "uv", "conda"), or "conda" for conda-meta; null when absent */
  installer: z.string().nullable(),
  /** requirements on CUDA-related packages (Requires-Dist, or conda "depends"), verbatim */
  requires: z.array(z.string()).optional(),
  /** conda records: channel and build string ("cuda120_py311h...") */
  channel: z.string().nullable().optional(),
  build: z.string().nullable().optional(),
});
export type PythonPackage = z.infer<typeof PythonPackage>;

/** Two or more metadata folders for one distribution in the same environment. */
export const DuplicateDist = z.object({
  name: z.string(),
  entries: z.array(z.object({ path: z.string(), version: z.string().nullable() })),
});
export type DuplicateDist = z.infer<typeof DuplicateDist>;

/** What a framework's files say about how it was built, read without importing it. */
export const FrameworkBuild = z.object({
  framework: z.enum(['torch', 'tensorflow', 'jax']),
  version: z.string().nullable(),
  /** CUDA the build targets ("13.0"), null for a CPU or ROCm build */
  cuda: z.string().nullable(),
  /** cuDNN the build was compiled against, when the files say ("9" for TensorFlow) */
  cudnn: z.string().nullable(),
  /** ROCm/HIP version for ROCm builds */
  hip: z.string().nullable(),
  /** true: built for NVIDIA GPUs; false: CPU-only (or ROCm); null: cannot tell */
  gpuBuild: z.boolean().nullable(),
  /** "sm_90", "compute_90" ... when the files list them (TensorFlow) */
  computeCapabilities: z.array(z.string()).nullable(),
  /** the files read, e.g. ".../torch/version.py" */
  sources: z.array(z.string()),
  /** other facts: git version, the JAX CUDA plugin and PJRT versions */
  details: z.record(z.string(), z.union([z.string(), z.boolean(), z.null()])),
});
export type FrameworkBuild = z.infer<typeof FrameworkBuild>;

export const ConvAttempt = z.object({
  /** "configured": as the user's environment is; "memory-growth": TF_FORCE_GPU_ALLOW_GROWTH / XLA no prealloc;
   *  "no-cache": torch after empty_cache() with cudnn.benchmark off */
  mode: z.enum(['configured', 'memory-growth', 'no-cache']),
  ok: z.boolean(),
  /** exception type and message (exact text), and the end of its traceback */
  error: z.object({ type: z.string(), message: z.string(), traceback: z.string().optional() }).nullable(),
  /** it ran alone (no other framework probe at the same time) */
  alone: z.boolean(),
  durationMs: z.number().nullable(),
  /** free/total device memory the framework saw before the attempt, MiB, when it could ask */
  freeMiB: z.number().nullable().optional(),
  totalMiB: z.number().nullable().optional(),
});
export type ConvAttempt = z.infer<typeof ConvAttempt>;

/**
 * One run of src/gather/python/assets/probe.py for one framework under one interpreter (only with --deep=frameworks).
 */
export const FrameworkProbe = z.object({
  framework: z.enum(['torch', 'tensorflow', 'jax']),
  interpreter: z.string(),
  /** how the subprocess ended */
  exit: z.enum(['ok', 'non-zero', 'signal', 'timeout', 'not-found', 'permission']),
  exitDetail: z.string().nullable(),
  durationMs: z.number(),
  /** import worked (null when the process died before saying) */
  imported: z.boolean().nullable(),
  importError: z.object({ type: z.string(), message: z.string(), traceback: z.string() }).nullable(),
  /** what the framework reported about itself (versions, devices, cuDNN, arch list, allocator) */
  info: z.record(z.string(), z.unknown()).nullable(),
  /** the convolution attempts, in order */
  conv: z.array(ConvAttempt),
  /** shared libraries the process had mapped after the convolution (libcudnn*, libcudart*, ...) */
  loadedLibraries: z.array(z.string()),
  /** the end of stderr: frameworks print the decisive lines above the exception */
  stderrTail: z.string(),
});
export type FrameworkProbe = z.infer<typeof FrameworkProbe>;

export const PythonEnvironmentFacts = z.object({
  prefix: z.string(),
  kind: z.enum(['venv', 'conda', 'pyenv', 'system', 'explicit']),
  interpreter: z.string().nullable(),
  pythonVersion: z.string().nullable(),
  sitePackages: z.array(z.string()),
  active: z.boolean(),
  name: z.string().optional(),
  /** false: only found, not looked into (pass --all-envs) */
  scanned: z.boolean(),
  /** why it was found: "VIRTUAL_ENV", "PATH", "--python", "conda envs", "pyenv", "pyvenv.cfg home" */
  foundVia: z.array(z.string()),
  /** the packages that matter for the GPU (frameworks, nvidia-* wheels, conda CUDA packages) */
  packages: z.array(PythonPackage),
  /** how many distributions in all (every folder name was read) */
  distributionCount: z.number().int(),
  duplicates: z.array(DuplicateDist),
  frameworks: z.array(FrameworkBuild),
  probes: z.array(FrameworkProbe),
  /** what could not be read, one line each */
  problems: z.array(z.string()),
});
export type PythonEnvironmentFacts = z.infer<typeof PythonEnvironmentFacts>;

export const PythonSection = z.object({
  environments: z.array(PythonEnvironmentFacts),
  /** --deep was asked (the import probes ran, or were skipped with a reason) */
  deep: z.boolean(),
  /** why the import probes did not run, when --deep was given but they could not */
  deepSkipped: z.string().nullable(),
});
export type PythonSection = z.infer<typeof PythonSection>;
