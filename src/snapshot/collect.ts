// Gathers the Snapshot: runs each probe once, records its timing, validates the result.
// Adding a probe = one module in src/probes/ and one `timed(...)` line here (plus its schema section).
import { readTextOr } from '../ports/fs.js';
import { probeEnv } from '../probes/env.js';
import { probeNvidia } from '../probes/nvidia/probe.js';
import { parsePasswd, parseProcStatus } from '../probes/procfs/parse.js';
import { probeProcesses, sampleGpuProcessCpu } from '../probes/procfs/processes.js';
import { timed, type ProbeEnv, type Timing } from '../probes/probe-env.js';
import { probeSystem } from '../probes/system.js';
import { probeToolkit } from '../probes/toolkit.js';
import { probePython } from '../python/probe.js';
import { probeLibraries } from '../libs/probe.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import type { Nvidia, Snapshot } from './schema.js';
import { SNAPSHOT_SCHEMA_VERSION } from './schema-version.js';

export async function collectSnapshot(penv: ProbeEnv): Promise<Snapshot> {
  const probes: Timing[] = [];
  const fs = penv.fs;
  const cpuBefore = sampleGpuProcessCpu(fs, performance.now());
  const nvidiaPromise = timed(probes, 'nvidia-smi', () => probeNvidia(penv), (n) => (n.ok ? true : n.failure.message));
  // Python environments: file reads (ms); with --deep, framework imports in subprocesses (seconds).
  const pythonPromise = timed(probes, 'python', () => probePython(penv));
  // File-only probes run while nvidia-smi is busy (it takes ~100 ms on a big machine).
  const system = (await timed(probes, 'system', () => probeSystem(fs, penv.env, process.arch)))!;
  const env = (await timed(probes, 'env', () => probeEnv(penv.env)))!;
  const self = (await timed(probes, 'self', () => probeSelf(penv)))!;
  const toolkit = await timed(probes, 'toolkit', () => probeToolkit(fs, penv.env));
  const nvidia: Nvidia = (await nvidiaPromise) ?? { ok: false, failure: { reason: 'failed', message: 'the nvidia-smi probe failed' } };
  const python = await pythonPromise;
  const processes = (await timed(probes, 'processes', () => probeProcesses(fs, nvidia, penv.pid, penv.now(), cpuBefore, performance.now()), (p) => p.message ?? true)) ?? {
    ok: false,
    message: 'the process probe failed',
    list: [],
  };
  // The library inventory scans the environments the Python probe found, rather than discovering them again.
  const libraries = await timed(probes, 'libraries', () => probeLibraries({ penv, gpuPids: processes.list.filter((p) => p.visible).map((p) => p.pid), ...(python ? { environments: python.environments } : {}) }), (l) => l.message ?? true);
  return {
    schemaVersion: SNAPSHOT_SCHEMA_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    collectedAt: new Date(penv.now()).toISOString(),
    host: { name: (readTextOr(fs, '/proc/sys/kernel/hostname') ?? readTextOr(fs, '/etc/hostname') ?? 'unknown').trim() || 'unknown' },
    self,
    system,
    nvidia,
    processes,
    env,
    probes,
    ...(toolkit ? { toolkit } : {}),
    ...(python ? { python } : {}),
    ...(libraries ? { libraries } : {}),
  };
}

function probeSelf(penv: ProbeEnv): Snapshot['self'] {
  const status = parseProcStatus(readTextOr(penv.fs, '/proc/self/status') ?? '');
  const uidText = status.get('Uid')?.split(/\s+/)[0];
  const uid = uidText && /^\d+$/.test(uidText) ? Number(uidText) : null;
  const users = parsePasswd(readTextOr(penv.fs, '/etc/passwd') ?? '');
  let ns: string | null = null;
  try {
    ns = penv.fs.readlink('/proc/self/ns/pid');
  } catch {
    ns = null;
  }
  return { pid: penv.pid, uid, user: uid === null ? null : (users.get(uid) ?? String(uid)), pidNamespace: ns };
}
