// The facts that can change how a GPU job behaves, as a table: each one a function snapshot → values, with an
// impact rank. `diff` compares two machines fact by fact and ranks what differs; `fleet` groups machines by the
// key facts and names the machines whose value differs from the fleet's usual one.
//
// A fact reads zero or more keyed values ('' for a single value, the GPU index, the variable or package name):
// `gpu.model[3]`, `env[LD_PRELOAD]`, `wheel[nvidia-cudnn-cu12]`. A missing key means "absent" (unset, not
// installed); `read` returning undefined means "not collected" (an older snapshot, a probe that did not run),
// which is not the same thing and is never reported as a difference of every package.
import { fmtMiB } from '../../base/format.js';
import { t } from '../../base/i18n/index.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';
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
const perGpu = (
  s: Snapshot,
  f: (g: Extract<Snapshot['nvidia'], { ok: true }>['gpus'][number]) => string | null,
): FactValues | undefined => {
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
  if ((g.ecc.volatileUncorrected ?? 0) > 0)
    issues.push(`${g.ecc.volatileUncorrected} uncorrected ECC errors since boot`);
  if (g.remappedRows.pending === 'Yes') issues.push('row remapping pending (reset the GPU)');
  if (g.remappedRows.failure === 'Yes') issues.push('row remapping failed');
  if (g.retiredPages.pendingRetirement === 'Yes') issues.push('page retirement pending');
  return issues.length === 0 ? 'ok' : issues.join('; ');
}

/** The machine facts every snapshot has (nvidia-smi, /proc, the environment). */
const CORE_FACTS: FactDef[] = [
  {
    id: 'driver',
    get label() {
      return t('diff.fact.driver.label');
    },
    impact: 'critical',
    key: true,
    get why() {
      return t('diff.fact.driver.why');
    },
    read: (s) => one(s.nvidia.ok ? s.nvidia.driverVersion : `nvidia-smi failed (${s.nvidia.failure.reason})`),
  },
  {
    id: 'kernel-module',
    get label() {
      return t('diff.fact.kernel-module.label');
    },
    impact: 'critical',
    get why() {
      return t('diff.fact.kernel-module.why');
    },
    read: (s) => one(s.system.kernelModule ? (s.system.kernelModule.version ?? s.system.kernelModule.line) : null),
  },
  {
    id: 'gpu.count',
    get label() {
      return t('diff.fact.gpu.count.label');
    },
    impact: 'critical',
    key: true,
    get why() {
      return t('diff.fact.gpu.count.why');
    },
    read: (s) => (s.nvidia.ok ? one(String(s.nvidia.gpus.length)) : undefined),
  },
  {
    id: 'gpu.model',
    get label() {
      return t('diff.fact.gpu.model.label');
    },
    impact: 'critical',
    key: true,
    get why() {
      return t('diff.fact.gpu.model.why');
    },
    read: (s) => perGpu(s, (g) => g.name),
  },
  {
    id: 'gpu.memory',
    get label() {
      return t('diff.fact.gpu.memory.label');
    },
    impact: 'high',
    key: true,
    get why() {
      return t('diff.fact.gpu.memory.why');
    },
    read: (s) => perGpu(s, (g) => fmtMiB(g.memory.totalMiB)),
  },
  {
    id: 'gpu.cc',
    get label() {
      return t('diff.fact.gpu.cc.label');
    },
    impact: 'high',
    get why() {
      return t('diff.fact.gpu.cc.why');
    },
    read: (s) => perGpu(s, (g) => g.computeCapability),
  },
  {
    id: 'cuda.driver-max',
    get label() {
      return t('diff.fact.cuda.driver-max.label');
    },
    impact: 'high',
    get why() {
      return t('diff.fact.cuda.driver-max.why');
    },
    read: (s) => (s.nvidia.ok ? one(s.nvidia.cudaVersion) : undefined),
  },
  {
    id: 'gpu.health',
    get label() {
      return t('diff.fact.gpu.health.label');
    },
    impact: 'high',
    get why() {
      return t('diff.fact.gpu.health.why');
    },
    read: (s) => perGpu(s, gpuHealth),
  },
  {
    id: 'gpu.mig',
    get label() {
      return t('diff.fact.gpu.mig.label');
    },
    impact: 'high',
    get why() {
      return t('diff.fact.gpu.mig.why');
    },
    read: (s) => perGpu(s, (g) => g.migMode),
  },
  {
    id: 'gpu.compute-mode',
    get label() {
      return t('diff.fact.gpu.compute-mode.label');
    },
    impact: 'high',
    get why() {
      return t('diff.fact.gpu.compute-mode.why');
    },
    read: (s) => perGpu(s, (g) => g.computeMode),
  },
  {
    id: 'arch',
    get label() {
      return t('diff.fact.arch.label');
    },
    impact: 'high',
    key: true,
    get why() {
      return t('diff.fact.arch.why');
    },
    read: (s) => one(s.system.arch),
  },
  {
    id: 'container',
    get label() {
      return t('diff.fact.container.label');
    },
    impact: 'high',
    get why() {
      return t('diff.fact.container.why');
    },
    read: (s) => one(s.system.container.kind),
  },
  {
    id: 'wsl',
    get label() {
      return t('diff.fact.wsl.label');
    },
    impact: 'high',
    get why() {
      return t('diff.fact.wsl.why');
    },
    read: (s) => one(s.system.wsl ? 'yes' : 'no'),
  },
  {
    id: 'env',
    get label() {
      return t('diff.fact.env.label');
    },
    impact: 'medium',
    get why() {
      return t('diff.fact.env.why');
    },
    read: (s) => ({ ...s.env }),
    impactOf: (name) => ENV_IMPACT[name] ?? 'medium',
  },
  {
    id: 'gpu.ecc',
    get label() {
      return t('diff.fact.gpu.ecc.label');
    },
    impact: 'medium',
    get why() {
      return t('diff.fact.gpu.ecc.why');
    },
    read: (s) => perGpu(s, (g) => g.ecc.mode),
  },
  {
    id: 'os',
    get label() {
      return t('diff.fact.os.label');
    },
    impact: 'medium',
    get why() {
      return t('diff.fact.os.why');
    },
    read: (s) => one(s.system.os),
  },
  {
    id: 'kernel',
    get label() {
      return t('diff.fact.kernel.label');
    },
    impact: 'medium',
    get why() {
      return t('diff.fact.kernel.why');
    },
    read: (s) => one(s.system.kernel),
  },
  {
    id: 'gpu.persistence',
    get label() {
      return t('diff.fact.gpu.persistence.label');
    },
    impact: 'low',
    get why() {
      return t('diff.fact.gpu.persistence.why');
    },
    read: (s) => perGpu(s, (g) => g.persistenceMode),
  },
  {
    id: 'tool',
    get label() {
      return t('diff.fact.tool.label');
    },
    impact: 'low',
    get why() {
      return t('diff.fact.tool.why');
    },
    read: (s) => one(s.tool.version),
  },
  // Noise: the moment's state. Shown by diff --all only; never a fleet outlier.
  {
    id: 'gpu.memory-used',
    get label() {
      return t('diff.fact.gpu.memory-used.label');
    },
    impact: 'noise',
    get why() {
      return t('diff.fact.gpu.memory-used.why');
    },
    read: (s) => perGpu(s, (g) => fmtMiB(g.memory.usedMiB)),
  },
  {
    id: 'gpu.processes',
    get label() {
      return t('diff.fact.gpu.processes.label');
    },
    impact: 'noise',
    get why() {
      return t('diff.fact.gpu.processes.why');
    },
    read: (s) => one(s.processes.list.map((p) => `${p.pid} ${p.name ?? '?'}`).join(', ') || 'none'),
  },
  {
    id: 'collected-at',
    get label() {
      return t('diff.fact.collected-at.label');
    },
    impact: 'noise',
    get why() {
      return t('diff.fact.collected-at.why');
    },
    read: (s) => one(s.collectedAt),
  },
  {
    id: 'uptime',
    get label() {
      return t('diff.fact.uptime.label');
    },
    impact: 'noise',
    get why() {
      return t('diff.fact.uptime.why');
    },
    read: (s) => one(s.system.uptimeSeconds === null ? null : `${Math.round(s.system.uptimeSeconds)} s`),
  },
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
