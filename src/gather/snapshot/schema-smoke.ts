// The `smoke` section of the Snapshot: the native cuDNN smoke test (`check --deep`). Per distinct set of library files
// the frameworks here would load, one Python process (ctypes only, src/gather/python/assets/cudnn_smoke.py) loaded
// exactly those files and, on every visible GPU, created the CUDA context and the cuDNN handle and ran a convolution.
// Facts only: CUDA's and cuDNN's own status codes and names, memory in MiB, times in ms.
import { z } from 'zod';

/** A status as the library itself named it (cudaGetErrorName / cudnnGetErrorString / cublasGetStatusName). */
export const SmokeStatus = z.object({
  api: z.enum(['cuda', 'cudnn', 'cublas']),
  /** the call that returned it: "cudaGetDeviceCount", "cudnnCreate", "cudaMalloc" */
  call: z.string(),
  code: z.number().int(),
  name: z.string(),
  /** cudaGetErrorString's sentence, for CUDA */
  text: z.string().optional(),
  /** for a failed allocation: how many bytes were asked, in MiB */
  requestedMiB: z.number().optional(),
});
export type SmokeStatus = z.infer<typeof SmokeStatus>;

export const SmokeConv = z.object({
  /** N, C, H, W, K of the convolution (3x3 filters, float32) */
  shape: z.array(z.number().int()),
  /** "largest": the workspace cuDNN asks for to try every algorithm it offers; "smallest": the least it offers */
  workspace: z.enum(['largest', 'smallest']),
  algo: z.number().int().nullable(),
  workspaceMiB: z.number().nullable(),
  tensorsMiB: z.number().nullable(),
  ok: z.boolean(),
  error: SmokeStatus.nullable(),
  /** free memory right after a failure for memory */
  freeAtFailureMiB: z.number().nullable(),
});
export type SmokeConv = z.infer<typeof SmokeConv>;

export const SmokeGpu = z.object({
  /** the CUDA device index (CUDA_VISIBLE_DEVICES order) */
  device: z.number().int(),
  /** "0000:00:06.0", as CUDA writes it */
  busId: z.string().nullable(),
  /** ms from the process start to a ready CUDA context */
  contextMs: z.number().nullable(),
  freeBeforeMiB: z.number().nullable(),
  totalMiB: z.number().nullable(),
  handle: z.boolean(),
  cublas: z.object({ code: z.number().int(), name: z.string().nullable() }).nullable(),
  conv: z.array(SmokeConv),
  freeAfterMiB: z.number().nullable(),
  /** the first failing call before the convolution (context, cudnnCreate) */
  error: SmokeStatus.nullable(),
  /** the test itself stopped on this GPU (a missing symbol in an unusual cuDNN build): Python's message */
  crash: z.string().optional(),
  ms: z.number().nullable(),
});
export type SmokeGpu = z.infer<typeof SmokeGpu>;

export const SmokeRun = z.object({
  /** the frameworks whose emulated files these are */
  consumers: z.array(
    z.object({ framework: z.string().nullable(), path: z.string(), environment: z.string().nullable() }),
  ),
  interpreter: z.string(),
  /** the files loaded by path, in order, with their role */
  files: z.array(z.object({ role: z.string(), path: z.string(), version: z.string().nullable() })),
  /** how the process ended */
  exit: z.enum(['ok', 'non-zero', 'signal', 'timeout', 'not-found', 'permission']),
  exitDetail: z.string().nullable(),
  /** loading the files: the dynamic loader's own message when it refused */
  load: z.object({ ok: z.boolean(), error: z.string().nullable(), file: z.string().nullable() }).nullable(),
  /** cudnnGetVersion (91900), cudnnGetCudartVersion, cudaRuntimeGetVersion, cudaDriverGetVersion */
  versions: z.record(z.string(), z.number()).nullable(),
  /** cudaGetDeviceCount */
  devices: z.object({ ok: z.boolean(), count: z.number().int().nullable(), error: SmokeStatus.nullable() }).nullable(),
  gpus: z.array(SmokeGpu),
  /** the CUDA libraries the process had mapped at the end (/proc/self/maps): what really loaded */
  mapped: z.array(z.string()),
  durationMs: z.number(),
  stderrTail: z.string(),
});
export type SmokeRun = z.infer<typeof SmokeRun>;

/** An environment whose files the smoke test would have loaded, not run because the caller did not name it. */
export const SmokeNotRun = z.object({
  environment: z.string(),
  interpreter: z.string().nullable(),
  /** "not named: found through conda envs …", "the environment … belongs to another user (uid 1002, bob) …" */
  reason: z.string(),
});
export type SmokeNotRun = z.infer<typeof SmokeNotRun>;

export const SmokeSection = z.object({
  /** why it did not run (no cuDNN found for any framework, --root, no Python), or null */
  skipped: z.string().nullable(),
  runs: z.array(SmokeRun),
  /** environments left out on purpose: their interpreter and libraries were not run (absent when none) */
  notRun: z.array(SmokeNotRun).optional(),
});
export type SmokeSection = z.infer<typeof SmokeSection>;
