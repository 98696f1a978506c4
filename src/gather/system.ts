// OS, kernel, container and WSL detection, and the loaded NVIDIA kernel module. Files only: no programs.
import type { FileSystem } from '../ports/fs.js';
import { readTextOr } from '../ports/fs.js';
import type { System } from './snapshot/schema.js';
import { CLOCK_TICKS } from './procfs/processes.js';

export function probeSystem(fs: FileSystem, env: Record<string, string | undefined>, arch: string): System {
  const osRelease = readTextOr(fs, '/etc/os-release') ?? '';
  const pretty = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(osRelease)?.[1] ?? null;
  const procVersion = readTextOr(fs, '/proc/version') ?? '';
  const kernel =
    readTextOr(fs, '/proc/sys/kernel/osrelease')?.trim() ?? /Linux version (\S+)/.exec(procVersion)?.[1] ?? null;
  const wsl =
    /microsoft|WSL/i.test(procVersion) ||
    fs.exists('/proc/sys/fs/binfmt_misc/WSLInterop') ||
    fs.exists('/usr/lib/wsl/lib');
  const driverText = readTextOr(fs, '/proc/driver/nvidia/version');
  const uptime = readTextOr(fs, '/proc/uptime');
  return {
    os: pretty,
    kernel,
    arch,
    container: detectContainer(fs, env),
    wsl,
    kernelModule: driverText === undefined ? null : parseDriverVersionFile(driverText),
    nvidiaDevices: listNvidiaDevices(fs),
    shm: parseShmMount(readTextOr(fs, '/proc/self/mounts') ?? readTextOr(fs, '/proc/mounts') ?? ''),
    uptimeSeconds: uptime ? Number(uptime.split(/\s+/)[0]) || null : null,
    clockTicks: CLOCK_TICKS,
  };
}

/** "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ..." */
export function parseDriverVersionFile(text: string): { version: string | null; line: string } {
  const line = text.split('\n').find((l) => l.startsWith('NVRM')) ?? text.split('\n')[0] ?? '';
  const m = /Kernel Module(?: for \S+)?\s+(\d+\.\d+(?:\.\d+)?)/.exec(line) ?? /\s(\d{3}\.\d+(?:\.\d+)?)\s/.exec(line);
  return { version: m?.[1] ?? null, line: line.trim() };
}

function detectContainer(fs: FileSystem, env: Record<string, string | undefined>): System['container'] {
  const evidence: string[] = [];
  const cgroup = readTextOr(fs, '/proc/1/cgroup') ?? '';
  const kubernetes =
    env.KUBERNETES_SERVICE_HOST !== undefined || /kubepods/.test(cgroup) || fs.exists('/var/run/secrets/kubernetes.io');
  if (kubernetes)
    evidence.push(
      env.KUBERNETES_SERVICE_HOST !== undefined
        ? 'KUBERNETES_SERVICE_HOST is set'
        : 'kubepods in /proc/1/cgroup or a service-account folder',
    );
  if (env.SINGULARITY_CONTAINER || env.APPTAINER_CONTAINER || fs.exists('/.singularity.d')) {
    evidence.push('Singularity/Apptainer: SINGULARITY_CONTAINER/APPTAINER_CONTAINER or /.singularity.d');
    return { kind: 'singularity', evidence };
  }
  if (kubernetes) return { kind: 'kubernetes', evidence };
  if (fs.exists('/run/.containerenv')) return { kind: 'podman', evidence: ['/run/.containerenv exists'] };
  if (fs.exists('/.dockerenv')) return { kind: 'docker', evidence: ['/.dockerenv exists'] };
  if (/docker|containerd/.test(cgroup)) return { kind: 'docker', evidence: ['docker/containerd in /proc/1/cgroup'] };
  if (/lxc/.test(cgroup) || (env.container ?? '') === 'lxc')
    return { kind: 'lxc', evidence: ['lxc in /proc/1/cgroup or $container'] };
  if (env.container) return { kind: 'other', evidence: [`container=${env.container}`] };
  return { kind: 'none', evidence };
}

function listNvidiaDevices(fs: FileSystem): string[] {
  try {
    return fs
      .readdir('/dev')
      .filter((e) => e.name.startsWith('nvidia'))
      .map((e) => `/dev/${e.name}`)
      .sort();
  } catch {
    return [];
  }
}

const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/**
 * The /dev/shm line of /proc/mounts and its size= option ("size=65536k" is Docker's 64 MiB default). A tmpfs
 * without size= gets half the RAM: sizeBytes null then. Null when nothing is mounted there.
 */
export function parseShmMount(mounts: string): NonNullable<System['shm']> | null {
  let found: NonNullable<System['shm']> | null = null;
  for (const line of mounts.split('\n')) {
    const f = line.split(' ');
    if (f[1] !== '/dev/shm') continue;
    const size = /(?:^|,)size=(\d+)([kmgt]?)(?:,|$)/i.exec(f[3] ?? '');
    // the last mount on a path is the one in effect
    found = { sizeBytes: size ? Number(size[1]) * SIZE_UNITS[size[2]!.toLowerCase()]! : null, line: line.trim() };
  }
  return found;
}
