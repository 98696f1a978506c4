// Which GPU a job should go to, by one rule for every command and format (check's "or run on GPU N", the fix
// placeholder of explain and run, serve's "Free now", the fleet page), spelled by one line:
// - free: nothing listed on it, almost no memory in use, usable as a whole (MIG off, compute mode not prohibited);
// - otherwise the GPU with the most free memory, when it has room for a job to start (MIN_ROOM_MIB).
// The line names the GPU by UUID: CUDA's device order can differ from nvidia-smi's, a UUID is the same in both.
import type { Snapshot } from '../gather/snapshot/schema.js';

type Gpu = Extract<Snapshot['nvidia'], { ok: true }>['gpus'][number];

/** A GPU with no process on it and at most this share of its memory (or this much) in use is "free". */
export const FREE_MAX_USED_SHARE = 0.02;
export const FREE_MAX_USED_MIN_MIB = 512;
/** cuDNN workspace + a CUDA context: a job needs at least this much free to start. */
export const MIN_ROOM_MIB = 2048;

export type Freeness = { free: true } | { free: false; why?: 'mig' | 'prohibited' };

/** Is this GPU free: nothing listed (`listed` processes), almost nothing used, usable as a whole. */
export function freeness(g: Gpu, listed = g.processes.length): Freeness {
  const idle =
    listed === 0 && g.memory.usedMiB <= Math.max(FREE_MAX_USED_MIN_MIB, g.memory.totalMiB * FREE_MAX_USED_SHARE);
  if (!idle) return { free: false };
  if (g.migMode && /^enabled$/i.test(g.migMode)) return { free: false, why: 'mig' };
  if (g.computeMode && /prohibited/i.test(g.computeMode)) return { free: false, why: 'prohibited' };
  return { free: true };
}

export interface GpuChoice {
  index: number;
  uuid: string;
  freeMiB: number;
  /** free by the rule above (else: only the one with the most room) */
  free: boolean;
}

/** The free GPUs, by index. */
export function freeGpus(s: Snapshot): GpuChoice[] {
  if (!s.nvidia.ok) return [];
  return s.nvidia.gpus
    .filter((g) => freeness(g).free)
    .sort((a, b) => a.index - b.index)
    .map((g) => ({ index: g.index, uuid: g.uuid, freeMiB: g.memory.freeMiB, free: true }));
}

/** The GPUs a job can move to, best first: the free ones by index, else the one with the most room. */
export function gpusToMoveTo(s: Snapshot): GpuChoice[] {
  const free = freeGpus(s);
  if (free.length > 0 || !s.nvidia.ok) return free;
  const roomy = [...s.nvidia.gpus]
    .filter((g) => g.memory.freeMiB >= MIN_ROOM_MIB && (!g.migMode || !/^enabled$/i.test(g.migMode)))
    .filter((g) => !g.computeMode || !/prohibited/i.test(g.computeMode))
    .sort((a, b) => b.memory.freeMiB - a.memory.freeMiB || a.index - b.index);
  const best = roomy[0];
  return best ? [{ index: best.index, uuid: best.uuid, freeMiB: best.memory.freeMiB, free: false }] : [];
}

/** The line that puts a job on these GPUs: by UUID; by nvidia-smi's numbers (with its order) only when a GPU
 *  has no UUID. */
export function visibleDevicesLine(gpus: readonly { index: number; uuid: string | null | undefined }[]): string | null {
  if (gpus.length === 0) return null;
  if (gpus.some((g) => !g.uuid))
    return `export CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=${gpus.map((g) => g.index).join(',')}`;
  return `export CUDA_VISIBLE_DEVICES=${gpus.map((g) => g.uuid).join(',')}`;
}
