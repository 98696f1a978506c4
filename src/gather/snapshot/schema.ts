// The Snapshot: every fact the probes gathered, as one versioned, validated, JSON-serialisable document.
// `snapshot` prints it, `--from` replays it; checks see nothing else of the machine.
// Versions stay strings ("12.10" is not 12.1). Memory is in MiB, as nvidia-smi reports it.
import { z } from 'zod';
import { PythonSection } from './schema-python.js';
import { LibrariesSection } from './schema-libraries.js';
import { SmokeSection } from './schema-smoke.js';

import { SNAPSHOT_SCHEMA_VERSION } from './schema-version.js';

export { SNAPSHOT_SCHEMA_VERSION };

/** Why a probe could not answer. */
export const ProbeFailure = z.object({
  reason: z.enum([
    'not-installed',
    'not-supported',
    'permission',
    'timeout',
    'unparseable',
    'failed',
    'driver-not-loaded',
    'nvml-mismatch',
  ]),
  message: z.string(),
});
export type ProbeFailure = z.infer<typeof ProbeFailure>;

export const ProbeTiming = z.object({
  id: z.string(),
  ok: z.boolean(),
  durationMs: z.number(),
  message: z.string().optional(),
});

export const GpuProcess = z.object({
  pid: z.number().int(),
  name: z.string(),
  usedMiB: z.number().nullable(),
  type: z.string().optional(),
});

/** One MIG device (a compute instance of a GPU instance): what a CUDA process given it sees as its GPU. */
export const MigDevice = z.object({
  index: z.number().int(),
  gpuInstanceId: z.number().int().nullable(),
  computeInstanceId: z.number().int().nullable(),
  /** "1g.10gb", from nvidia-smi -L (drivers before 470 print no profile) */
  profile: z.string().nullable(),
  /** "MIG-<uuid>" (driver 470 and later) or "MIG-GPU-<uuid>/<gi>/<ci>" (before), from nvidia-smi -L */
  uuid: z.string().nullable(),
  memory: z.object({ totalMiB: z.number().nullable(), usedMiB: z.number().nullable(), freeMiB: z.number().nullable() }),
});
export type MigDevice = z.infer<typeof MigDevice>;

export const Gpu = z.object({
  index: z.number().int(),
  name: z.string(),
  uuid: z.string(),
  busId: z.string(),
  serial: z.string().nullable(),
  architecture: z.string().nullable(),
  /** "9.0", from --query-gpu compute_cap (the XML lacks it) */
  computeCapability: z.string().nullable(),
  memory: z.object({
    totalMiB: z.number(),
    usedMiB: z.number(),
    freeMiB: z.number(),
    reservedMiB: z.number().nullable(),
  }),
  persistenceMode: z.string().nullable(),
  computeMode: z.string().nullable(),
  migMode: z.string().nullable(),
  ecc: z.object({
    mode: z.string().nullable(),
    volatileUncorrected: z.number().nullable(),
    aggregateUncorrected: z.number().nullable(),
    volatileCorrected: z.number().nullable(),
  }),
  retiredPages: z.object({
    pendingRetirement: z.string().nullable(),
    doubleBit: z.number().nullable(),
    singleBit: z.number().nullable(),
  }),
  remappedRows: z.object({
    pending: z.string().nullable(),
    failure: z.string().nullable(),
    uncorrectable: z.number().nullable(),
  }),
  processes: z.array(GpuProcess),
  /** PCIe link of the GPU now and at most (nvidia-smi -q -x pci_gpu_link_info); null fields where it says N/A */
  pcie: z
    .object({
      genCurrent: z.number().nullable(),
      genMax: z.number().nullable(),
      widthCurrent: z.number().nullable(),
      widthMax: z.number().nullable(),
    })
    .nullable()
    .optional(),
  /**
   * the clock event (throttle) reasons nvidia-smi reports Active: "sw_power_cap", "hw_thermal_slowdown", "gpu_idle", …
   */
  clockEventReasons: z.array(z.string()).nullable().optional(),
  /** nvidia-smi's minor_number: the N of this GPU's /dev/nvidiaN (not always its index) */
  minorNumber: z.number().int().nullable().optional(),
  /** MIG devices when MIG is on (nvidia-smi -q -x mig_devices; UUID and profile from nvidia-smi -L) */
  migDevices: z.array(MigDevice).optional(),
});
export type Gpu = z.infer<typeof Gpu>;

export const Nvidia = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    driverVersion: z.string(),
    /** the highest CUDA version this driver supports: not what is installed */
    cudaVersion: z.string().nullable(),
    gpus: z.array(Gpu),
  }),
  z.object({ ok: z.literal(false), failure: ProbeFailure }),
]);
export type Nvidia = z.infer<typeof Nvidia>;

export const ProcState = z.enum([
  'running',
  'sleeping',
  'disk-sleep',
  'stopped',
  'tracing-stop',
  'zombie',
  'dead',
  'idle',
  'unknown',
]);
export type ProcState = z.infer<typeof ProcState>;

/** Which framework a holder runs (from /proc/PID/maps), and its memory-policy variables (/proc/PID/environ). */
export const HolderFramework = z.object({
  /** "jax" | "tensorflow" | "torch" | "cupy" */
  name: z.string(),
  /** the mapped files that show it, after site-packages: "jax_plugins/xla_cuda13/xla_cuda_plugin.so" */
  evidence: z.array(z.string()),
  /** other frameworks mapped in the same process */
  also: z.array(z.string()).optional(),
  /** the memory-policy variables set in its environment (only those are kept); null when not readable here */
  env: z.record(z.string(), z.string()).nullable().optional(),
});
export type HolderFramework = z.infer<typeof HolderFramework>;

/** A process that holds GPU memory (listed by nvidia-smi) or /dev/nvidia* open, joined with /proc. */
export const HolderProcess = z.object({
  pid: z.number().int(),
  /** GPU indexes it uses memory on (from nvidia-smi); empty for device-file-only holders */
  gpus: z.array(z.number().int()),
  usedMiB: z.number().nullable(),
  listedByNvidiaSmi: z.boolean(),
  /** the PID nvidia-smi reported, when it differs from the PID here (NVML reports host PIDs; inside a
   *  container we pair it with the local process that has the GPU open, see probes/procfs/processes.ts) */
  nvidiaSmiPid: z.number().int().optional(),
  /** false when the PID is not in this /proc (another container or PID namespace, or already gone) */
  visible: z.boolean(),
  name: z.string().nullable(),
  cmdline: z.array(z.string()).nullable(),
  uid: z.number().int().nullable(),
  user: z.string().nullable(),
  state: ProcState.nullable(),
  ppid: z.number().int().nullable(),
  /** true: positive evidence that the process that started it has exited and it was adopted (see
   *  src/judge/procs/adoption.ts); false: its parent is alive and an ordinary process; null: cannot tell (its parent
   *  is PID 1, a supervisor or init that may have started it, or is not visible) */
  orphaned: z.boolean().nullable(),
  parentName: z.string().nullable(),
  /** process group and session ids (/proc/PID/stat fields 5 and 6; 0: outside this PID namespace) */
  pgid: z.number().int().nullable().optional(),
  sid: z.number().int().nullable().optional(),
  /** controlling terminal (stat field 7); 0: none */
  ttyNr: z.number().int().nullable().optional(),
  /** the parent's start (clock ticks after boot) and session: a parent that started after the child, or
   *  lives in another session than the child's, did not start it */
  parentStartTicks: z.number().nullable().optional(),
  parentSid: z.number().int().nullable().optional(),
  /** a kernel thread (PF_KTHREAD) */
  kernelThread: z.boolean().optional(),
  /** the systemd service it runs in (from /proc/PID/cgroup), e.g. "ollama.service": a service manager keeps it */
  serviceUnit: z.string().nullable().optional(),
  /** some process of the same user has a controlling terminal (a login shell, ssh, tmux): the user is
   *  around. Read only for processes old enough to count as idle; null/absent when not read */
  ownerHasTerminal: z.boolean().nullable().optional(),
  /** nvidia-smi lists this PID, but a complete scan of /proc shows the process with this PID here has no
   *  /dev/nvidia<N> open: the number names another PID namespace's process (NVML reports host PIDs) */
  gpuNotOpenHere: z.boolean().optional(),
  /** SIGHUP is ignored (SigIgn in /proc/PID/status), as `nohup` leaves it: started to outlive its terminal */
  sigHupIgnored: z.boolean().nullable().optional(),
  /** its working folder is / (daemon(3) and the classic double fork move there); null: not readable */
  cwdIsRoot: z.boolean().nullable().optional(),
  /**
   * what its fds 0, 1 and 2 are: "null" (/dev/null), "closed", "tty", "file", "pipe", "socket", "other"; absent: not
   * read
   */
  stdio: z.array(z.string()).optional(),
  /** the latest modification time (ms since epoch) of the regular files on its fds 1 and 2; null: neither is one */
  outputWrittenAt: z.number().nullable().optional(),
  /** sockets it listens on ("tcp 127.0.0.1:8000", "unix /run/x.sock"); absent when its open files are not readable */
  listening: z.array(z.string()).optional(),
  /** its established TCP connections; absent when its open files are not readable */
  connections: z.number().int().optional(),
  /** its ancestors, from its parent up to (not including) PID 1; absent when not read */
  ancestors: z.array(z.object({ pid: z.number().int(), name: z.string() })).optional(),
  /** the leader of its session (the process whose PID is its sid) is still alive; null: cannot tell (sid 0) */
  sessionLeaderAlive: z.boolean().nullable().optional(),
  /**
   * a Jupyter kernel's server (JPY_PARENT_PID in its environment) is still running; absent: not a kernel, or unreadable
   */
  jupyterServerAlive: z.boolean().optional(),
  /** listed by nvidia-smi and seen in this /proc a moment before, gone when read: it exited meanwhile */
  exited: z.boolean().optional(),
  /** ms since epoch */
  startedAt: z.number().nullable(),
  ageSeconds: z.number().nullable(),
  /** CPU time used (user+system), seconds: to tell a busy process from an idle one */
  cpuSeconds: z.number().nullable(),
  /** /proc/PID/stat's starttime (clock ticks after boot): with the PID, identifies the process exactly */
  startTicks: z.number().nullable().optional(),
  /** % of one CPU used while the probes ran (~0.1 s sample); null when not sampled */
  recentCpuPercent: z.number().nullable().optional(),
  /** its PID namespace differs from ours: it lives in another container */
  otherPidNamespace: z.boolean().nullable(),
  holdsDeviceFiles: z.boolean(),
  /** the process running this tool, or its ancestor */
  isSelfOrAncestor: z.boolean(),
  /** the framework it runs, read from /proc/PID/maps; null when none is recognised or maps are unreadable
   *  (optional: snapshots from before it was read load without it) */
  framework: HolderFramework.nullable().optional(),
});
export type HolderProcess = z.infer<typeof HolderProcess>;

export const System = z.object({
  os: z.string().nullable(),
  kernel: z.string().nullable(),
  arch: z.string(),
  container: z.object({
    kind: z.enum(['none', 'docker', 'podman', 'kubernetes', 'singularity', 'lxc', 'other']),
    evidence: z.array(z.string()),
  }),
  wsl: z.boolean(),
  /** /proc/driver/nvidia/version: the kernel module that is loaded */
  kernelModule: z.object({ version: z.string().nullable(), line: z.string() }).nullable(),
  nvidiaDevices: z.array(z.string()),
  /**
   * /dev/shm as mounted (/proc/mounts): its size in bytes (null: no size= option, the kernel's default of half the RAM)
   */
  shm: z.object({ sizeBytes: z.number().nullable(), line: z.string() }).nullable().optional(),
  uptimeSeconds: z.number().nullable(),
  clockTicks: z.number(),
});
export type System = z.infer<typeof System>;

/** The CUDA toolkit compiler found on this machine (information: pip frameworks bring their own runtime). */
export const Toolkit = z.object({
  nvcc: z
    .object({ path: z.string(), root: z.string(), version: z.string().nullable(), source: z.string().nullable() })
    .nullable(),
});
export type Toolkit = z.infer<typeof Toolkit>;

/** The kernel log's NVIDIA facts (src/gather/kernel-log.ts); not readable is a fact too, with why. */
export const KernelLog = z.object({
  readable: z.boolean(),
  reason: z.enum(['permission', 'not-found', 'failed']).optional(),
  detail: z.string().optional(),
  /** /proc/sys/kernel/dmesg_restrict ("1": only root or CAP_SYSLOG may read the log) */
  dmesgRestrict: z.string().nullable().optional(),
  nvrmLines: z.number().int(),
  /** Xid events, the most recent last; seconds since boot when the line says */
  xid: z.array(z.object({ bus: z.string(), code: z.number().int(), text: z.string(), seconds: z.number().nullable() })),
  /** `run`: the job's start and end in the log's seconds since boot, to tell the Xid lines that fell inside it */
  jobWindow: z.object({ fromSeconds: z.number(), toSeconds: z.number() }).optional(),
});
export type KernelLog = z.infer<typeof KernelLog>;

export const Self = z.object({
  pid: z.number().int(),
  uid: z.number().int().nullable(),
  user: z.string().nullable(),
  pidNamespace: z.string().nullable(),
});

export const Snapshot = z.looseObject({
  schemaVersion: z.literal(SNAPSHOT_SCHEMA_VERSION),
  tool: z.object({ name: z.string(), version: z.string() }),
  collectedAt: z.string(),
  host: z.object({ name: z.string() }),
  self: Self,
  system: System,
  nvidia: Nvidia,
  processes: z.object({
    ok: z.boolean(),
    message: z.string().optional(),
    /** every process's open files could be read: a PID without /dev/nvidia* open is known not to hold a GPU */
    deviceScanComplete: z.boolean().optional(),
    list: z.array(HolderProcess),
  }),
  /** the environment variables that change GPU behaviour (the rest is not kept: it may hold secrets) */
  env: z.record(z.string(), z.string()),
  probes: z.array(ProbeTiming),
  toolkit: Toolkit.optional(),
  /** Python environments, their GPU packages and framework builds (src/gather/snapshot/schema-python.ts) */
  python: PythonSection.optional(),
  /** which copy of each CUDA library the frameworks load, and why (src/gather/snapshot/schema-libraries.ts) */
  libraries: LibrariesSection.optional(),
  /** the native cuDNN smoke test of `check --deep` (src/gather/snapshot/schema-smoke.ts) */
  smoke: SmokeSection.optional(),
  /** NVIDIA lines of the kernel log (Xid), or why it could not be read */
  kernelLog: KernelLog.optional(),
});
export type Snapshot = z.infer<typeof Snapshot>;
