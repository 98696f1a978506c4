// Helpers shared by the python.* checks: which environments to judge, how to name them, how to write a
// pip command that installs into that environment (not into whatever `pip` is first on PATH).
import type { PythonEnvironmentFacts, PythonPackage } from '../../../gather/snapshot/schema-python.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import { t } from '../../../base/i18n/index.js';

export function scannedEnvs(s: Snapshot): PythonEnvironmentFacts[] {
  return (s.python?.environments ?? []).filter((e) => e.scanned);
}

export function appliesPython(s: Snapshot): true | string {
  if (!s.python) return t('applies.noPythonFacts');
  if (scannedEnvs(s).length === 0) return t('applies.noPythonEnv');
  return true;
}

/** "venv /opt/torch/.venv", "conda env ml (/opt/conda/envs/ml)" */
export function envLabel(e: PythonEnvironmentFacts): string {
  if (e.kind === 'conda') return e.name ? `conda env ${e.name} (${e.prefix})` : `conda env ${e.prefix}`;
  if (e.kind === 'system')
    return `system Python ${e.pythonVersion ?? ''} (${e.interpreter ?? e.prefix})`.replace(/\s+\(/, ' (');
  return `${e.kind} ${e.prefix}`;
}

/** Quote for a POSIX shell only when needed. */
export function shq(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

/** `<env's python> -m pip ARGS`: pip of this environment, whatever PATH says. */
export function pipCommand(e: PythonEnvironmentFacts, args: string[]): string {
  return [shq(e.interpreter ?? 'python3'), '-m', 'pip', ...args.map(shq)].join(' ');
}

/** Does this machine have an NVIDIA GPU (even one the driver cannot talk to right now)? */
export function hasNvidiaGpu(s: Snapshot): boolean {
  if (s.nvidia.ok) return s.nvidia.gpus.length > 0;
  return s.system.kernelModule !== null || s.system.nvidiaDevices.some((d) => /nvidia\d+$/.test(d));
}

export function pkgSource(p: PythonPackage): string {
  return p.source === 'conda-meta'
    ? `conda ${p.name} ${p.version}${p.channel ? ` (${p.channel.replace(/^https?:\/\/[^/]+\//, '')})` : ''}`
    : `pip ${p.name} ${p.version}`;
}

/** The highest CUDA the driver can run, as [major, minor], from nvidia-smi. */
export function driverCuda(s: Snapshot): [number, number] | null {
  if (!s.nvidia.ok || !s.nvidia.cudaVersion) return null;
  const m = /^(\d+)\.(\d+)/.exec(s.nvidia.cudaVersion);
  return m ? [Number(m[1]), Number(m[2])] : null;
}
