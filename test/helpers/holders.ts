// The H200 with two real holders (issue 13 captures, test/fixtures/h200-truth/holders): PID 1968 runs JAX with
// its default preallocation (107918 MiB = 75% of the GPU), PID 1969 runs PyTorch with a 10 GiB tensor and
// 6 GiB freed but cached (16902 MiB). nvidia-smi's real XML with both, and their real /proc/PID/maps, under a
// --root tree; the probe reads them as it would on the machine.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createFileSystem } from '../../src/ports/fs.js';
import { parseSmiXml } from '../../src/gather/nvidia/parse-xml.js';
import { probeProcesses } from '../../src/gather/procfs/processes.js';
import { Snapshot, type Nvidia } from '../../src/gather/snapshot/schema.js';
import { FIXTURES } from './fake-bin.js';
import { makeRoot } from './fixture-root.js';

export const HOLDERS = path.join(FIXTURES, 'h200-truth/holders');
export const JAX_PID = 1968;
export const TORCH_PID = 1969;

export function holdersNvidia(): Nvidia {
  const x = parseSmiXml(fs.readFileSync(path.join(HOLDERS, 'smi-both.xml'), 'utf8'));
  return {
    ok: true,
    driverVersion: x.driverVersion,
    cudaVersion: x.cudaVersion,
    gpus: x.gpus.map((g) => ({ ...g, computeCapability: '9.0' })),
  };
}

/** A --root tree with both holders (parent 1731, alive: a shell), their maps, and environments as given. */
export function holdersRoot(environ: { jax?: string; torch?: string } = {}): string {
  const maps = (pid: number) => fs.readFileSync(path.join(HOLDERS, `maps-${pid}.txt`), 'utf8');
  return makeRoot({
    procs: [
      { pid: 1731, ppid: 1, comm: 'bash', uid: 0 },
      { pid: JAX_PID, ppid: 1731, uid: 0, gpuFd: true, cmdline: ['python3', '/tmp/gather/jaxhold.py', '60'] },
      { pid: TORCH_PID, ppid: 1731, uid: 0, gpuFd: true, cmdline: ['python3', '/tmp/gather/torchhold.py', '60'] },
    ],
    selfPid: 4242,
    files: {
      [`/proc/${JAX_PID}/maps`]: maps(JAX_PID),
      [`/proc/${TORCH_PID}/maps`]: maps(TORCH_PID),
      ...(environ.jax !== undefined ? { [`/proc/${JAX_PID}/environ`]: environ.jax } : {}),
      ...(environ.torch !== undefined ? { [`/proc/${TORCH_PID}/environ`]: environ.torch } : {}),
    },
  });
}

/** The full idle H200 snapshot with the two holders put in (nvidia-smi and the process probe's answer). */
export function holdersSnapshot(
  environ: { jax?: string; torch?: string } = { jax: 'PATH=/usr/bin\0HOME=/root\0', torch: 'PATH=/usr/bin\0' },
): Snapshot {
  const base = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'snapshots/h200-full-idle.json'), 'utf8'));
  const nvidia = holdersNvidia();
  // 12 s after the holders started (makeRoot's boot time and start ticks): young, parent alive — active.
  const procs = probeProcesses(createFileSystem(holdersRoot(environ)), nvidia, 4242, (1796200000 + 79.86 + 12) * 1000);
  return Snapshot.parse({ ...base, nvidia, processes: procs, self: { ...base.self, pid: 4242, uid: 0, user: 'root' } });
}
