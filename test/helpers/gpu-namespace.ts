// A private mount namespace in which /dev/nvidia0 exists (an empty file on a tmpfs over /dev; the real /dev
// entries are linked in), so that real processes started in it hold "/dev/nvidia0" open exactly as a CUDA
// process does, and the CLI run in it sees them as GPU holders in a complete /proc scan. Nothing changes
// outside the namespace: the VM's /dev is untouched, other tests do not see the file. Needs root (tests run as
// root here), unshare and nsenter (util-linux).
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI } from './cli.js';
import { tempDir } from './fake-bin.js';
import { orphanArgv } from './orphan.js';

const SETUP = `set -e
mkdir -p "$T/realdev"
mount --bind /dev "$T/realdev"
mount -t tmpfs -o mode=755 ged-fake-dev /dev
for e in "$T"/realdev/* "$T"/realdev/.[!.]*; do
  [ -e "$e" ] || [ -L "$e" ] || continue
  ln -s "$e" "/dev/\${e##*/}"
done
for n in nvidia0 nvidiactl nvidia-uvm; do : > "/dev/$n"; chmod 666 "/dev/$n"; done
: > "$T/ready"
exec sleep 3600`;

export interface GpuNamespace {
  /** the process that keeps the namespace alive */
  readonly anchor: number;
  /** argv run inside the namespace (as `uid` when given) */
  argv(argv: readonly string[], opts?: { uid?: number; pidNsOf?: number; cwd?: string }): string[];
  /** runs the built CLI inside the namespace */
  cli(
    args: readonly string[],
    opts?: { env?: Record<string, string>; cwd?: string; uid?: number; input?: string; timeoutMs?: number },
  ): { code: number | null; stdout: string; stderr: string };
  /**
   * Starts `argv` with /dev/nvidia0 open (its stdin), from a shell that exits at once: a leftover whose parent
   * has exited, adopted by PID 1. Returns its PID.
   */
  orphan(argv: readonly string[], opts?: { uid?: number }): number;
  close(): void;
}

export function startGpuNamespace(): GpuNamespace {
  const t = tempDir('ged-gpu-ns-');
  fs.chmodSync(t, 0o755); // other users' processes in the namespace reach /dev/null through it
  const out = execFileSync('/bin/sh', ['-c', `unshare -m sh -c "$SETUP" </dev/null >"$T/log" 2>&1 & echo $!`], {
    env: { ...process.env, T: t, SETUP },
    encoding: 'utf8',
  });
  const anchor = Number(out.trim());
  waitUntil(
    () => fs.existsSync(path.join(t, 'ready')),
    () => `the fake GPU namespace did not start: ${readOr(path.join(t, 'log'))}`,
  );
  waitUntil(() => readComm(anchor) === 'sleep', 'the namespace anchor did not settle');

  // Entering a mount namespace moves the working directory to its root: --wd puts it back.
  const argv = (a: readonly string[], o: { uid?: number; pidNsOf?: number; cwd?: string } = {}) => [
    'nsenter',
    '-t',
    String(o.pidNsOf ?? anchor),
    '-m',
    `--wd=${o.cwd ?? process.cwd()}`,
    ...(o.pidNsOf !== undefined ? ['-p'] : []),
    ...(o.uid !== undefined ? ['-S', String(o.uid), '-G', String(o.uid)] : []),
    '--',
    ...a,
  ];
  return {
    anchor,
    argv,
    cli(args, o = {}) {
      const full = argv([process.execPath, CLI, ...args], {
        ...(o.uid !== undefined ? { uid: o.uid } : {}),
        ...(o.cwd !== undefined ? { cwd: o.cwd } : {}),
      });
      const r: SpawnSyncReturns<string> = spawnSync(full[0]!, full.slice(1), {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NO_COLOR: '1', ...o.env },
        input: o.input ?? '',
        cwd: o.cwd,
        encoding: 'utf8',
        timeout: o.timeoutMs ?? 30000,
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    },
    orphan(a, o = {}) {
      const full = argv(orphanArgv(a, '/dev/nvidia0'), o);
      const pid = Number(execFileSync(full[0]!, full.slice(1), { encoding: 'utf8' }).trim());
      if (!Number.isInteger(pid) || pid <= 1) throw new Error(`could not start ${a.join(' ')}`);
      waitUntil(() => holdsFakeGpu(pid), `PID ${pid} did not open /dev/nvidia0`);
      return pid;
    },
    close() {
      try {
        process.kill(anchor, 'SIGKILL');
      } catch {
        /* gone */
      }
      fs.rmSync(t, { recursive: true, force: true });
    },
  };
}

/** Has the process the namespace's /dev/nvidia0 open? (read from outside: the link text is the same) */
export function holdsFakeGpu(pid: number): boolean {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === '/dev/nvidia0';
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

function readComm(pid: number): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

function readOr(p: string): string {
  try {
    return fs.readFileSync(p, 'utf8').trim();
  } catch {
    return '(no output)';
  }
}

function waitUntil(cond: () => boolean, what: string | (() => string), ms = 10000): void {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(typeof what === 'string' ? what : what());
    spawnSync('sleep', ['0.02']);
  }
}
