// The H200 at a job's failure, built from its real captures (test/fixtures/h200-truth/holders: nvidia-smi's XML with a
// JAX process preallocating 75% and a PyTorch process, their real /proc/PID/maps; the idle H200 snapshot), for the
// tests of explain with the machine (machine-at-failure.test.ts, machine-corpus.test.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { markJobProcesses } from '../../src/act/run/mark-job.js';
import { createFileSystem } from '../../src/ports/fs.js';
import { probeProcesses } from '../../src/gather/procfs/processes.js';
import { Snapshot, type Nvidia } from '../../src/gather/snapshot/schema.js';
import { FIXTURES } from '../helpers/fake-bin.js';
import { makeRoot } from '../helpers/fixture-root.js';
import { HOLDERS, holdersNvidia, JAX_PID, TORCH_PID } from '../helpers/holders.js';

export const maps = (pid: number) => fs.readFileSync(path.join(HOLDERS, `maps-${pid}.txt`), 'utf8');
/** CuPy's extension modules as a process that imported CuPy maps them, at the path the repro logs' tracebacks show */
export const CUPY_MAPS = ['cupy_backends/cuda/api/runtime', 'cupy/_core/core', 'cupy/cuda/memory']
  .map(
    (m, i) =>
      `7f3a1${i}000000-7f3a1${i}100000 r-xp 00000000 00:2e 99${i} /opt/torch/.venv/lib/python3.12/site-packages/${m}.cpython-312-x86_64-linux-gnu.so`,
  )
  .join('\n');

/**
 * The H200 at a job's failure: nvidia-smi's real XML with its processes as given (PID → MiB; the PIDs of the
 * capture keep their real maps unless `mapsOf` gives others), probed under a --root tree, and the job's PID marked
 * as the job (as `run` and gpu-lab/repro/run.sh mark it).
 */
export function atFailure(spec: {
  used: Record<number, number>;
  mapsOf?: Record<number, string>;
  environ?: Record<number, string>;
  job?: number;
}): Snapshot {
  const base = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'snapshots/h200-full-idle.json'), 'utf8'));
  const real = holdersNvidia();
  if (!real.ok) throw new Error('no GPU in the capture');
  const pids = Object.keys(spec.used).map(Number);
  const proto = real.gpus[0]!.processes[0]!;
  const procsOnGpu = pids.map((pid) => ({ ...proto, pid, usedMiB: spec.used[pid]! }));
  const usedMiB = pids.reduce((a, p) => a + spec.used[p]!, 0);
  const nvidia: Nvidia = {
    ...real,
    gpus: real.gpus.map((g) => ({
      ...g,
      processes: procsOnGpu,
      memory: { ...g.memory, usedMiB, freeMiB: g.memory.totalMiB - usedMiB },
    })),
  };
  const root = makeRoot({
    procs: [
      { pid: 1731, ppid: 1, comm: 'bash', uid: 0 },
      ...pids.map((pid) => ({ pid, ppid: 1731, uid: 0, gpuFd: true, cmdline: ['python3', `/tmp/job-${pid}.py`] })),
    ],
    selfPid: 4242,
    files: Object.fromEntries([
      ...pids.map((pid) => [`/proc/${pid}/maps`, spec.mapsOf?.[pid] ?? maps(pid)]),
      ...Object.entries(spec.environ ?? {}).map(([pid, text]) => [`/proc/${pid}/environ`, text]),
    ]) as Record<string, string>,
  });
  const processes = probeProcesses(createFileSystem(root), nvidia, 4242, (1796200000 + 79.86 + 12) * 1000);
  const snap = Snapshot.parse({
    ...base,
    nvidia,
    processes,
    self: { ...base.self, pid: 4242, uid: 0, user: 'root' },
  });
  return spec.job !== undefined ? Snapshot.parse(markJobProcesses(snap, [spec.job])) : snap;
}

/** The H200's memory in MiB (nvidia-smi's total) and what the driver keeps (its reserved figure) */
const TOTAL_MIB = 143771;
const RESERVED_MIB = 616;

/**
 * The machine as gpu-lab/repro/run.sh stages it for a corpus job (its id and sidecar), at the job's failure: the
 * holder its phase keeps (a PyTorch process leaving K MiB, a stopped CuPy one leaving 4000 MiB, a JAX process's pool
 * at 75% or 95%), the job's own process where it holds the GPU (two frameworks in one process), other jobs' contexts
 * beside a request too large; else the idle H200 with the job's staged variables but the loader's (as run.sh takes it).
 */
export function stagedScene(meta: { id: string; env?: string[] }): Snapshot {
  const id = meta.id;
  const keep = /^held\.keep(\d+)-/.exec(id);
  if (id.startsWith('toobig.'))
    return atFailure({ used: { [JAX_PID]: 518, [TORCH_PID]: 518, 4243: 600 }, mapsOf: { 4243: '' } });
  if (keep) return atFailure({ used: { [TORCH_PID]: TOTAL_MIB - RESERVED_MIB - Number(keep[1]) } });
  if (id.startsWith('held.cupyhog'))
    return atFailure({ used: { [TORCH_PID]: TOTAL_MIB - RESERVED_MIB - 4000 }, mapsOf: { [TORCH_PID]: CUPY_MAPS } });
  if (id.startsWith('prealloc.default'))
    return atFailure({ used: { [JAX_PID]: 107918 }, environ: { [JAX_PID]: 'PATH=/usr/bin\0' } });
  if (id.startsWith('prealloc.0.95'))
    return atFailure({
      used: { [JAX_PID]: Math.round(0.95 * TOTAL_MIB) },
      environ: { [JAX_PID]: 'XLA_PYTHON_CLIENT_MEM_FRACTION=0.95\0PATH=/usr/bin\0' },
    });
  const two = /^twofw\.(jax|torch|cupy)\d*-(jax|torch|cupy)/.exec(id);
  if (two) {
    const mapsOf = (fw: string) => (fw === 'jax' ? maps(JAX_PID) : fw === 'torch' ? maps(TORCH_PID) : CUPY_MAPS);
    return atFailure({
      used: { [JAX_PID]: two[1] === 'jax' ? 107918 : 103000 },
      mapsOf: { [JAX_PID]: `${mapsOf(two[1]!)}\n${mapsOf(two[2]!)}\n` },
      job: JAX_PID,
    });
  }
  const base = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'snapshots/h200-full-idle.json'), 'utf8'));
  const env: Record<string, string> = { ...base.env };
  for (const kv of meta.env ?? []) {
    const i = kv.indexOf('=');
    if (i > 0 && !kv.startsWith('LD_')) env[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return Snapshot.parse({ ...base, env });
}
