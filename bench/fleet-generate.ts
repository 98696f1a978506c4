// Generates a fleet of node snapshots from a real one (the H200's), with a few planted outliers. Used by the
// fleet tests and by bench/fleet-scale.mjs. Every node gets its own host name, GPU UUIDs, clock and memory in
// use (noise that must not make outliers); the planted nodes differ in the facts that matter.
import type { Snapshot } from '../src/gather/snapshot/schema.js';

type Loose = Snapshot & Record<string, unknown>;

/** The planted outliers: node index → what differs there and the fact ids that must show it. */
export const PLANTED = {
  /** not upgraded: old driver (and its kernel module, its CUDA ceiling) */
  oldDriver: { index: 17, facts: ['driver', 'kernel-module', 'cuda.driver-max'] },
  /** torch loads the system cuDNN 9.14 through LD_LIBRARY_PATH instead of its pip 9.19 */
  cudnnShadowed: { index: 42, facts: ['env[LD_LIBRARY_PATH]', 'loads[torch libcudnn.so.9]'] },
  /** uncorrected ECC errors since boot */
  eccErrors: { index: 99, facts: ['gpu.health[0]'] },
  /** the nvidia-cudnn wheel is missing from the venv */
  wheelMissing: { index: 123, facts: ['wheel[nvidia-cudnn-cu13]'] },
} as const;

export function nodeName(i: number): string {
  return `node-${String(i).padStart(5, '0')}`;
}

function hex(i: number, width: number): string {
  return (i >>> 0).toString(16).padStart(width, '0').slice(-width);
}

/**
 * The snapshot of node i: a copy of `idle` (or of `held`, a node where a leftover process holds the memory,
 * every `heldEvery` nodes), renamed, with per-node noise and the planted differences.
 */
export function nodeSnapshot(
  i: number,
  base: { idle: Snapshot; held: Snapshot },
  o: { heldEvery?: number; plant?: boolean } = {},
): Snapshot {
  const heldEvery = o.heldEvery ?? 50;
  const src = heldEvery > 0 && i % heldEvery === heldEvery - 1 ? base.held : base.idle;
  const s = JSON.parse(JSON.stringify(src)) as Loose;
  s.host = { name: nodeName(i) };
  s.collectedAt = new Date(Date.UTC(2026, 11, 2, 12, 0, 0) + i * 1000).toISOString();
  s.system.uptimeSeconds = 3600 + (i % 977) * 61;
  s.self.pid = 1000 + (i % 30000);
  if (s.nvidia.ok) {
    for (const g of s.nvidia.gpus) {
      g.uuid = `GPU-${hex(i, 8)}-${hex(g.index, 4)}-4a5b-8c9d-${hex(i * 7919 + g.index, 12)}`;
      g.serial = String(1653924000000 + i);
      if (src === base.idle) {
        g.memory.usedMiB = (i * 37) % 600;
        g.memory.freeMiB = g.memory.totalMiB - g.memory.usedMiB - (g.memory.reservedMiB ?? 0);
      }
    }
  }
  if (o.plant !== false) plant(i, s);
  return s;
}

function plant(i: number, s: Loose): void {
  const libs = s.libraries as LibsLike | undefined;
  const py = s.python as { environments?: { packages: { name: string }[] }[] } | undefined;
  switch (i) {
    case PLANTED.oldDriver.index:
      if (s.nvidia.ok) {
        s.nvidia.driverVersion = '570.172.08';
        s.nvidia.cudaVersion = '12.8';
      }
      if (s.system.kernelModule)
        s.system.kernelModule = {
          version: '570.172.08',
          line: 'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.172.08  Release Build',
        };
      break;
    case PLANTED.cudnnShadowed.index: {
      s.env = { ...s.env, LD_LIBRARY_PATH: '/usr/lib/x86_64-linux-gnu:/usr/local/nvidia/lib64:/usr/local/nvidia/lib' };
      shadowCudnn(libs);
      break;
    }
    case PLANTED.eccErrors.index:
      if (s.nvidia.ok && s.nvidia.gpus[0]) s.nvidia.gpus[0].ecc.volatileUncorrected = 3;
      break;
    case PLANTED.wheelMissing.index: {
      const env = py?.environments?.[0];
      if (env) env.packages = env.packages.filter((p) => p.name !== 'nvidia-cudnn-cu13');
      break;
    }
  }
}

type LibsLike = {
  consumers?: {
    framework: string | null;
    resolved: { name: string; path: string | null; realPath?: string | null; version: string | null; via: string }[];
  }[];
};

/** torch's libcudnn.so.9 now resolves to the system's 9.14 through LD_LIBRARY_PATH (the classic shadowing). */
export function shadowCudnn(libs: LibsLike | undefined): void {
  for (const c of libs?.consumers ?? []) {
    if (c.framework !== 'torch') continue;
    for (const r of c.resolved) {
      if (r.name !== 'libcudnn.so.9') continue;
      r.path = '/usr/lib/x86_64-linux-gnu/libcudnn.so.9';
      r.realPath = '/usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0';
      r.version = '9.14.0';
      r.via = 'ld_library_path';
    }
  }
}
