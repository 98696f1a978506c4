// The facts that can change how a GPU job behaves, as a table: each one a function snapshot → values, with an
// impact rank. `diff` compares two machines fact by fact and ranks what differs; `fleet` groups machines by the
// key facts and names the machines whose value differs from the fleet's usual one.
//
// A fact reads zero or more keyed values ('' for a single value, the GPU index, the variable or package name):
// `gpu.model[3]`, `env[LD_PRELOAD]`, `wheel[nvidia-cudnn-cu12]`. A missing key means "absent" (unset, not
// installed); `read` returning undefined means "not collected" (an older snapshot, a probe that did not run),
// which is not the same thing and is never reported as a difference of every package.
import type { Snapshot } from '../snapshot/schema.js';
import { PYTHON_FACTS } from './python-facts.js';
import { LIBRARY_FACTS } from './library-facts.js';

export type Impact = 'critical' | 'high' | 'medium' | 'low' | 'noise';
export const IMPACTS: readonly Impact[] = ['critical', 'high', 'medium', 'low', 'noise'];
export const IMPACT_RANK: Record<Impact, number> = { critical: 4, high: 3, medium: 2, low: 1, noise: 0 };

export type FactValues = Record<string, string>;

export interface FactDef {
  /** stable id, e.g. "driver", "gpu.model", "env" */
  id: string;
  /** for people: "NVIDIA driver" */
  label: string;
  impact: Impact;
  /** why a difference here changes GPU behaviour (one line, shown by diff) */
  why: string;
  /** part of the fleet's configuration key: machines with equal key facts are one group */
  key?: boolean;
  read(s: Snapshot): FactValues | undefined;
  /** impact of one keyed value when it differs from the fact's (environment variables) */
  impactOf?(sub: string): Impact;
}

/** The id of one keyed value: "driver", "gpu.model[0]", "env[LD_PRELOAD]". */
export function instanceId(factId: string, sub: string): string {
  return sub === '' ? factId : `${factId}[${sub}]`;
}

const one = (v: string | null | undefined): FactValues => (v === null || v === undefined ? {} : { '': v });
const nv = (s: Snapshot) => (s.nvidia.ok ? s.nvidia : undefined);
const perGpu = (s: Snapshot, f: (g: Extract<Snapshot['nvidia'], { ok: true }>['gpus'][number]) => string | null): FactValues | undefined => {
  const n = nv(s);
  if (!n) return undefined;
  const out: FactValues = {};
  for (const g of n.gpus) {
    const v = f(g);
    if (v !== null) out[String(g.index)] = v;
  }
  return out;
};

/** Environment variables by how much a difference in them changes what a job does. */
const ENV_IMPACT: Record<string, Impact> = {
  LD_PRELOAD: 'critical',
  LD_LIBRARY_PATH: 'critical',
  CUDA_VISIBLE_DEVICES: 'critical',
  NVIDIA_VISIBLE_DEVICES: 'high',
  NVIDIA_DRIVER_CAPABILITIES: 'high',
  CUDA_DEVICE_ORDER: 'high',
  TF_FORCE_GPU_ALLOW_GROWTH: 'high',
  TF_GPU_ALLOCATOR: 'high',
  XLA_PYTHON_CLIENT_PREALLOCATE: 'high',
  XLA_PYTHON_CLIENT_MEM_FRACTION: 'high',
  XLA_CLIENT_MEM_FRACTION: 'high',
  XLA_PYTHON_CLIENT_ALLOCATOR: 'high',
  XLA_FLAGS: 'high',
  JAX_PLATFORMS: 'high',
  PYTORCH_CUDA_ALLOC_CONF: 'high',
  PYTORCH_ALLOC_CONF: 'high',
  CUDA_MODULE_LOADING: 'high',
  CUDA_FORCE_PTX_JIT: 'high',
  CUBLAS_WORKSPACE_CONFIG: 'medium',
  PYTORCH_NVML_BASED_CUDA_CHECK: 'medium',
  CUDA_HOME: 'medium',
  CUDA_PATH: 'medium',
  CUDA_ROOT: 'medium',
  CUDNN_PATH: 'medium',
  CONDA_PREFIX: 'medium',
  VIRTUAL_ENV: 'medium',
  PATH: 'medium',
  PYTHONPATH: 'medium',
  CUDA_CACHE_DISABLE: 'low',
  CUDA_LAUNCH_BLOCKING: 'low',
  TF_CPP_MIN_LOG_LEVEL: 'low',
  NCCL_DEBUG: 'low',
  CONDA_DEFAULT_ENV: 'low',
  // Set per job by the scheduler: they differ between any two jobs and say nothing about the machine.
  SLURM_JOB_ID: 'noise',
  SLURM_STEP_GPUS: 'noise',
  SLURM_JOB_GPUS: 'noise',
  GPU_DEVICE_ORDINAL: 'noise',
};

function gpuHealth(g: Extract<Snapshot['nvidia'], { ok: true }>['gpus'][number]): string {
  const issues: string[] = [];
  if ((g.ecc.volatileUncorrected ?? 0) > 0) issues.push(`${g.ecc.volatileUncorrected} uncorrected ECC errors since boot`);
  if (g.remappedRows.pending === 'Yes') issues.push('row remapping pending (reset the GPU)');
  if (g.remappedRows.failure === 'Yes') issues.push('row remapping failed');
  if (g.retiredPages.pendingRetirement === 'Yes') issues.push('page retirement pending');
  return issues.length === 0 ? 'ok' : issues.join('; ');
}

/** The machine facts every snapshot has (nvidia-smi, /proc, the environment). */
const CORE_FACTS: FactDef[] = [
  {
    id: 'driver',
    label: 'NVIDIA driver',
    impact: 'critical',
    key: true,
    why: 'the driver sets the highest CUDA version a job can use, and its bugs and fixes',
    read: (s) => one(s.nvidia.ok ? s.nvidia.driverVersion : `nvidia-smi failed (${s.nvidia.failure.reason})`),
  },
  {
    id: 'kernel-module',
    label: 'loaded kernel module',
    impact: 'critical',
    why: 'a kernel module that differs from the driver libraries means an upgrade without a reboot: NVML and CUDA fail',
    read: (s) => one(s.system.kernelModule ? (s.system.kernelModule.version ?? s.system.kernelModule.line) : null),
  },
  {
    id: 'gpu.count',
    label: 'GPUs visible',
    impact: 'critical',
    key: true,
    why: 'jobs asking for more devices than are visible fail, and data-parallel jobs change their batch split',
    read: (s) => (s.nvidia.ok ? one(String(s.nvidia.gpus.length)) : undefined),
  },
  {
    id: 'gpu.model',
    label: 'GPU model',
    impact: 'critical',
    key: true,
    why: 'another GPU has another architecture (kernels built for it or not), memory and speed',
    read: (s) => perGpu(s, (g) => g.name),
  },
  {
    id: 'gpu.memory',
    label: 'GPU memory (total)',
    impact: 'high',
    key: true,
    why: 'a batch that fits in the larger card runs out of memory on the smaller one',
    read: (s) => perGpu(s, (g) => `${g.memory.totalMiB} MiB`),
  },
  {
    id: 'gpu.cc',
    label: 'compute capability',
    impact: 'high',
    why: 'frameworks ship kernels for a list of architectures; a capability outside it fails or JIT-compiles',
    read: (s) => perGpu(s, (g) => g.computeCapability),
  },
  {
    id: 'cuda.driver-max',
    label: 'highest CUDA the driver supports',
    impact: 'high',
    why: 'a framework built for a newer CUDA than this fails with "driver too old"',
    read: (s) => (s.nvidia.ok ? one(s.nvidia.cudaVersion) : undefined),
  },
  {
    id: 'gpu.health',
    label: 'GPU health (ECC, row remapping)',
    impact: 'high',
    why: 'uncorrected memory errors and pending remaps crash jobs until the GPU is reset',
    read: (s) => perGpu(s, gpuHealth),
  },
  {
    id: 'gpu.mig',
    label: 'MIG mode',
    impact: 'high',
    why: 'with MIG on, a job sees only its slice of the GPU (memory and compute)',
    read: (s) => perGpu(s, (g) => g.migMode),
  },
  {
    id: 'gpu.compute-mode',
    label: 'compute mode',
    impact: 'high',
    why: 'Exclusive_Process lets one process use the GPU; a second one fails with "busy or unavailable"',
    read: (s) => perGpu(s, (g) => g.computeMode),
  },
  {
    id: 'arch',
    label: 'CPU architecture',
    impact: 'high',
    key: true,
    why: 'x86_64 and aarch64 machines need different wheels and libraries',
    read: (s) => one(s.system.arch),
  },
  {
    id: 'container',
    label: 'container',
    impact: 'high',
    why: 'inside a container the GPUs, driver libraries and other processes visible depend on the runtime',
    read: (s) => one(s.system.container.kind),
  },
  {
    id: 'wsl',
    label: 'WSL',
    impact: 'high',
    why: 'under WSL the driver is the Windows one and memory reporting differs',
    read: (s) => one(s.system.wsl ? 'yes' : 'no'),
  },
  {
    id: 'env',
    label: 'environment variable',
    impact: 'medium',
    why: 'these variables change which libraries load, which GPUs are visible and how memory is allocated',
    read: (s) => ({ ...s.env }),
    impactOf: (name) => ENV_IMPACT[name] ?? 'medium',
  },
  {
    id: 'gpu.ecc',
    label: 'ECC mode',
    impact: 'medium',
    why: 'ECC on reserves some memory and reports memory errors; off hides them',
    read: (s) => perGpu(s, (g) => g.ecc.mode),
  },
  {
    id: 'os',
    label: 'operating system',
    impact: 'medium',
    why: 'the system libraries (glibc, libstdc++) frameworks link against come with it',
    read: (s) => one(s.system.os),
  },
  {
    id: 'kernel',
    label: 'Linux kernel',
    impact: 'medium',
    why: 'the driver kernel module is built for one kernel: an update without a DKMS rebuild leaves no driver',
    read: (s) => one(s.system.kernel),
  },
  {
    id: 'gpu.persistence',
    label: 'persistence mode',
    impact: 'low',
    why: 'without persistence mode every first CUDA call on an idle headless GPU pays the driver start-up',
    read: (s) => perGpu(s, (g) => g.persistenceMode),
  },
  {
    id: 'tool',
    label: 'gpu-env-doctor version',
    impact: 'low',
    why: 'snapshots from another version may have collected other facts',
    read: (s) => one(s.tool.version),
  },
  // Noise: the moment's state. Shown by diff --all only; never a fleet outlier.
  {
    id: 'gpu.memory-used',
    label: 'GPU memory in use',
    impact: 'noise',
    why: 'what other processes hold at the moment of the snapshot',
    read: (s) => perGpu(s, (g) => `${g.memory.usedMiB} MiB`),
  },
  {
    id: 'gpu.processes',
    label: 'GPU processes',
    impact: 'noise',
    why: 'the processes at the moment of the snapshot',
    read: (s) => one(s.processes.list.map((p) => `${p.pid} ${p.name ?? '?'}`).join(', ') || 'none'),
  },
  { id: 'collected-at', label: 'collected at', impact: 'noise', why: 'when the snapshot was taken', read: (s) => one(s.collectedAt) },
  { id: 'uptime', label: 'uptime', impact: 'noise', why: 'time since boot', read: (s) => one(s.system.uptimeSeconds === null ? null : `${Math.round(s.system.uptimeSeconds)} s`) },
];

/** Every fact, most impact first within the table's order (ranking sorts by impact, then by this order). */
export const FACTS: readonly FactDef[] = [...CORE_FACTS, ...LIBRARY_FACTS, ...PYTHON_FACTS];

export function impactOf(def: FactDef, sub: string): Impact {
  return def.impactOf ? def.impactOf(sub) : def.impact;
}

/** A snapshot's facts: instance id → value, and the facts it did not collect (or whose reader failed). */
export interface ExtractedFacts {
  values: Map<string, string>;
  /** fact id → its instance ids, in reading order */
  byFact: Map<string, string[]>;
  notCollected: Set<string>;
}

export function extractFacts(s: Snapshot, defs: readonly FactDef[] = FACTS): ExtractedFacts {
  const values = new Map<string, string>();
  const byFact = new Map<string, string[]>();
  const notCollected = new Set<string>();
  for (const def of defs) {
    let read: FactValues | undefined;
    try {
      read = def.read(s);
    } catch {
      // A reader must never take a whole diff or fleet down: a malformed section is "not collected".
      read = undefined;
    }
    if (read === undefined) {
      notCollected.add(def.id);
      continue;
    }
    const ids: string[] = [];
    for (const [sub, v] of Object.entries(read)) {
      const id = instanceId(def.id, sub);
      values.set(id, v);
      ids.push(id);
    }
    byFact.set(def.id, ids);
  }
  return { values, byFact, notCollected };
}
