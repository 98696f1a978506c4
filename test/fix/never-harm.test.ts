// `fix --yes` and `procs` against real processes that detached on purpose or still serve (issue 23: on the H200
// a nohup model server and a nohup GPU loop were ended), against real leftovers it must still end, and with a
// fake nvidia-smi that reports per-process GPU activity. Each holds the namespace's /dev/nvidia0
// (helpers/gpu-namespace.ts) and is listed by a fake nvidia-smi replaying the real H200 capture.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeBin, FIXTURES, tempDir } from '../helpers/fake-bin.js';
import { startGpuNamespace, type GpuNamespace } from '../helpers/gpu-namespace.js';
import { flat, isRunning, killQuietly, smiXmlWith, waitFor } from './helpers.js';

let ns: GpuNamespace;
beforeAll(() => {
  ns = startGpuNamespace();
});
afterAll(() => ns.close());
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0).reverse()) killQuietly(pid);
});

const QUERY_CSV = path.join(FIXTURES, 'h200/idle/query-gpu.csv');

/**
 * A fake nvidia-smi listing `pids` (5000 MiB each) on GPU 0; `pmon` gives each the SM % in `sm` ("-" when absent),
 * and the free-memory query answers 143000 MiB free once `freed` exists.
 */
function fakeSmi(pids: number[], sm: Record<number, number> = {}): string {
  const dir = tempDir('ged-harm-');
  fs.chmodSync(dir, 0o755);
  fs.writeFileSync(path.join(dir, 'smi.xml'), smiXmlWith(pids.map((pid) => ({ pid, usedMiB: 5000 }))));
  const pmon = [
    '# gpu         pid   type     sm    mem    enc    dec    jpg    ofa    command',
    '# Idx           #    C/G      %      %      %      %      %      %    name',
  ]
    .concat(
      pids.map((pid) => `    0     ${pid}     C     ${sm[pid] ?? '-'}     -      -      -      -      -    python3`),
    )
    .join('\n');
  fs.writeFileSync(path.join(dir, 'pmon.txt'), `${pmon}\n`);
  fakeBin(
    dir,
    'nvidia-smi',
    `case "$1" in
  -q) cat '${dir}/smi.xml' ;;
  pmon) cat '${dir}/pmon.txt' ;;
  --query-gpu=index,memory.free,memory.total) echo "0, 143000, 143771" ;;
  --query-gpu=index,utilization.gpu) echo "0, 0" ;;
  --query-gpu=*) cat '${QUERY_CSV}' ;;
  *) echo "unsupported" >&2; exit 2 ;;
esac`,
  );
  return `${dir}:${process.env.PATH}`;
}

function track(pid: number): number {
  started.push(pid);
  return pid;
}

/** Runs a shell line in the namespace from a shell in its own session that exits at once; returns the PID it wrote. */
function launch(dir: string, line: string): number {
  const pidFile = path.join(dir, `${Math.random().toString(36).slice(2)}.pid`);
  const argv = ns.argv(['setsid', 'sh', '-c', `${line} & echo $! > ${pidFile}`]);
  const sh = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
  sh.unref();
  waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '', 10000);
  return track(Number(fs.readFileSync(pidFile, 'utf8').trim()));
}

function readPid(file: string): number {
  waitFor(() => fs.existsSync(file) && fs.readFileSync(file, 'utf8') !== '', 10000);
  return track(Number(fs.readFileSync(file, 'utf8')));
}

function holdsGpu(pid: number): boolean {
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

/** The parent of `pid` has exited (its launching shell is gone). */
function adoptedNow(pid: number): void {
  waitFor(() => {
    const st = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[1]);
    return ppid === 1 || !fs.readFileSync(`/proc/${ppid}/comm`, 'utf8').startsWith('sh');
  }, 10000);
}

describe('fix --yes keeps work that detached on purpose or still serves', () => {
  it('a nohup job (SIGHUP ignored) whose shell exited: unknown in procs, kept by fix, with why', () => {
    const dir = tempDir();
    const pid = launch(dir, 'nohup sleep 1001 </dev/nvidia0 >/dev/null 2>&1');
    adoptedNow(pid);
    const env = { PATH: fakeSmi([pid]) };
    const procs = ns.cli(['procs', '--json'], { env });
    const row = (
      JSON.parse(procs.stdout) as {
        processes: { pid: number; verdict: string; reason: string; sigHupIgnored: boolean }[];
      }
    ).processes.find((p) => p.pid === pid)!;
    expect(row.sigHupIgnored).toBe(true);
    expect([row.verdict, row.reason]).toEqual([
      'unknown',
      'it was started to run on its own (nohup: it ignores the hang-up signal): its launching shell has exited, but nothing shows that its work is done',
    ]);
    const r = ns.cli(['fix', '--yes', '--grace', '1'], { env, cwd: dir });
    expect(flat(r.stdout)).toMatch(
      new RegExp(
        `keep +PID ${pid} \\(root\\) sleep 1001: 4\\.9 GiB on GPU 0; unknown: it was started to run on its own \\(nohup`,
      ),
    );
    expect(r.stdout).not.toMatch(/^ {2}end /m);
    expect(isRunning(pid)).toBe(true);
  });

  it('a server listening on a TCP port, idle between requests: active, "listens on", kept', () => {
    const dir = tempDir();
    const script = path.join(dir, 'serve.py');
    fs.writeFileSync(
      script,
      `import socket, sys, time\ns = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()\ngpu = open('/dev/nvidia0')\nopen(sys.argv[1], 'w').write(str(s.getsockname()[1]))\ntime.sleep(1000)\n`,
    );
    const pid = launch(dir, `python3 ${script} ${dir}/port </dev/null >/dev/null 2>&1`);
    const port = Number(readPid(path.join(dir, 'port')));
    started.pop(); // the port is no PID
    waitFor(() => holdsGpu(pid), 10000);
    adoptedNow(pid);
    const env = { PATH: fakeSmi([pid]) };
    const procs = ns.cli(['procs', '-v'], { env });
    const text = procs.stdout.replace(/\s+/g, ' ');
    expect(text).toMatch(
      new RegExp(
        `PID ${pid}: active: its parent process has exited, but it is still working: it listens on tcp 127\\.0\\.0\\.1:${port}`,
      ),
    );
    // -v gives the fork evidence under it
    expect(text).toMatch(/evidence: its session \(\d+\) is not the one of its parent/);
    const r = ns.cli(['fix', '--yes', '--grace', '1'], { env, cwd: dir });
    expect(r.stdout).not.toMatch(/^ {2}end /m);
    expect(isRunning(pid)).toBe(true);
  });

  it('a setsid child (its own session) and a double-forked daemon: kept', () => {
    const dir = tempDir();
    const own = launch(dir, 'setsid sleep 1002 </dev/nvidia0 >/dev/null 2>&1');
    const daemon = path.join(dir, 'daemon.py');
    fs.writeFileSync(
      daemon,
      `import os, sys, time\nif os.fork() > 0: os._exit(0)\nos.setsid()\nif os.fork() > 0: os._exit(0)\nos.chdir('/')\nn = os.open('/dev/null', os.O_RDWR)\nfor fd in (0, 1, 2): os.dup2(n, fd)\ng = open('/dev/nvidia0')\nopen(sys.argv[1], 'w').write(str(os.getpid()))\ntime.sleep(1000)\n`,
    );
    const argv = ns.argv(['python3', daemon, path.join(dir, 'daemon.pid')]);
    spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' }).unref();
    const d = readPid(path.join(dir, 'daemon.pid'));
    waitFor(() => holdsGpu(d) && holdsGpu(own), 10000);
    adoptedNow(own);
    const env = { PATH: fakeSmi([own, d]) };
    const r = ns.cli(['fix', '--yes', '--grace', '1'], { env, cwd: dir });
    const out = flat(r.stdout);
    // its own session's leader: no session shows that its starter exited, so it is not even adopted
    expect(out).toMatch(
      new RegExp(`keep +PID ${own} .*unknown: its parent is \\S+ \\(PID 1\\), which may have started it`),
    );
    expect(out).toMatch(
      new RegExp(
        `keep +PID ${d} .*unknown: it was started to run on its own \\(a daemon: no terminal, working folder /, nothing to read\\)`,
      ),
    );
    expect(isRunning(own)).toBe(true);
    expect(isRunning(d)).toBe(true);
  });

  it('audit M1(b) as written: a double fork that keeps its folder and output, idle: kept, "left running"', () => {
    const dir = tempDir();
    const script = path.join(dir, 'fork2.py');
    // fork, setsid, fork; the middle process exits; no chdir, no stdio change (the audit's script)
    fs.writeFileSync(
      script,
      `import os, sys, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        fd = os.open('/dev/nvidia0', os.O_RDONLY); os.set_inheritable(fd, True)\n        open(sys.argv[1], 'w').write(str(os.getpid())); os.execvp('sleep', ['sleep', '1007'])\n    os._exit(0)\nos.wait(); time.sleep(0.3)\n`,
    );
    const argv = ns.argv(['python3', script, path.join(dir, 'b.pid')]);
    spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' }).unref();
    const pid = track(readPid(path.join(dir, 'b.pid')));
    waitFor(() => holdsGpu(pid), 10000);
    const env = { PATH: fakeSmi([pid]) };
    const r = ns.cli(['fix', '--yes', '--grace', '1'], { env, cwd: dir });
    expect(r.stdout).not.toMatch(/^ {2}end /m);
    expect(flat(r.stdout)).toMatch(
      new RegExp(`keep +PID ${pid} .*unknown: it was started to run on its own \\(left running: its session has ended`),
    );
    expect(flat(r.stdout)).not.toMatch(/a leftover of a finished job/);
    expect(isRunning(pid)).toBe(true);
  });

  it('audit M1(a): a launcher that starts its job, then calls setsid() and waits for it: the job is kept', () => {
    const dir = tempDir();
    const script = path.join(dir, 'launch.py');
    fs.writeFileSync(
      script,
      `import os, subprocess, sys\np = subprocess.Popen(['sleep', '1006'], stdin=open('/dev/nvidia0'))\nos.setsid()\nopen(sys.argv[1], 'w').write(str(p.pid))\np.wait()\n`,
    );
    // from a shell that leads its own session and stays (`; true`: no exec), so the job's session differs from
    // its living parent's once the launcher has called setsid()
    const argv = ns.argv(['setsid', 'sh', '-c', `python3 ${script} ${dir}/job.pid; true`]);
    const shell = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
    track(shell.pid!);
    const job = readPid(path.join(dir, 'job.pid'));
    const stat = (pid: number) => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const launcher = Number(stat(job)[1]);
    track(launcher);
    expect(stat(job)[3]).not.toBe(stat(launcher)[3]); // the mismatch the audit saw
    waitFor(() => holdsGpu(job), 10000);
    const env = { PATH: fakeSmi([job]) };
    const r = ns.cli(['fix', '--yes', '--grace', '1'], { env, cwd: dir });
    expect(r.stdout).not.toMatch(/^ {2}end /m);
    expect(flat(r.stdout)).toMatch(
      new RegExp(`keep +PID ${job} \\(root\\) sleep 1006: 4\\.9 GiB on GPU 0; active: running`),
    );
    expect(isRunning(job)).toBe(true);
  });

  it('an adopted job that nvidia-smi pmon shows busy on the GPU (little CPU): watched, kept, with the window stated', () => {
    const dir = tempDir();
    const pid = ns.orphan(['sleep', '1003']);
    track(pid);
    const env = { PATH: fakeSmi([pid], { [pid]: 97 }) };
    const r = ns.cli(['fix', '--yes', '--grace', '1'], { env, cwd: dir });
    const out = flat(r.stdout);
    expect(out.replace(/\s+/g, ' ')).toMatch(
      /Each was watched for 2(\.\d)? s before this plan: CPU, output files, and GPU activity per process \(nvidia-smi pmon\)/,
    );
    expect(out).toMatch(
      new RegExp(`skip PID ${pid} .*orphaned: its parent process has exited: a leftover of a finished job`),
    );
    expect(out).toMatch(
      new RegExp(`not ended: it is working on the GPU: 97% SM activity during the watch .*kill ${pid}`),
    );
    expect(isRunning(pid)).toBe(true);
  });
});

describe('fix --yes still ends leftovers', () => {
  it('an adopted idle child: ended, and the GPU read again says what is free now', () => {
    const dir = tempDir();
    const pid = ns.orphan(['sleep', '1004']);
    track(pid);
    const env = { PATH: fakeSmi([pid]) };
    const procs = ns.cli(['procs'], { env });
    // the PARENT column and the verdict agree: gone→…, orphaned
    expect(procs.stdout).toMatch(new RegExp(`^0 +${pid} .* gone→\\S+ .* orphaned +- +sleep 1004$`, 'm'));
    expect(flat(procs.stdout)).toMatch(
      new RegExp(`PID ${pid}: orphaned: its parent process has exited: a leftover of a finished job`),
    );
    const r = ns.cli(['fix', '--yes', '--grace', '1', '--json'], { env, cwd: dir });
    const doc = JSON.parse(r.stdout) as {
      processes: { pid: number; action: string; evidence?: string; outcome?: { kind: string } }[];
      window?: { seconds: number; gpuActivity: string };
      gpuFreeAfter?: { index: number; freeMiB: number }[];
    };
    const step = doc.processes.find((p) => p.pid === pid)!;
    expect(step.action).toBe('end');
    expect(step.outcome?.kind).toBe('ended');
    expect(step.evidence).toMatch(/its session/);
    expect(doc.window?.gpuActivity).toBe('process');
    expect(doc.gpuFreeAfter).toEqual([{ index: 0, freeMiB: 143000, totalMiB: 143771 }]);
    waitFor(() => !isRunning(pid));
  });

  it('the text result says "GPU 0 now has … free"', () => {
    const dir = tempDir();
    const pid = ns.orphan(['sleep', '1005']);
    track(pid);
    const r = ns.cli(['fix', '--yes', '--grace', '1'], { env: { PATH: fakeSmi([pid]) }, cwd: dir });
    expect(r.stdout).toMatch(new RegExp(`✓ ended PID ${pid} \\(SIGTERM\\)`));
    expect(r.stdout).toMatch(/✓ GPU 0 now has 139\.6 GiB free of 140\.4 GiB/);
  });

  it('a multiprocessing worker whose nohup Python parent was killed: ended', () => {
    const dir = tempDir();
    const script = path.join(dir, 'train.py');
    fs.writeFileSync(
      script,
      `import multiprocessing as mp, os, sys, time\ndef work(f):\n    g = open('/dev/nvidia0')\n    open(f, 'w').write(str(os.getpid()))\n    time.sleep(1000)\nif __name__ == '__main__':\n    open(sys.argv[2], 'w').write(str(os.getpid()))\n    p = mp.get_context('spawn').Process(target=work, args=(sys.argv[1],)); p.start(); p.join()\n`,
    );
    launch(dir, `nohup python3 ${script} ${dir}/worker.pid ${dir}/parent.pid </dev/null >/dev/null 2>&1`);
    const parent = readPid(path.join(dir, 'parent.pid'));
    const worker = readPid(path.join(dir, 'worker.pid'));
    waitFor(() => holdsGpu(worker), 10000);
    process.kill(parent, 'SIGKILL');
    adoptedNow(worker);
    const env = { PATH: fakeSmi([worker]) };
    const r = ns.cli(['fix', '--yes', '--grace', '1'], { env, cwd: dir });
    expect(flat(r.stdout)).toMatch(
      new RegExp(
        `end +PID ${worker} .*orphaned: a worker \\(multiprocessing, a DataLoader\\) whose Python parent has exited`,
      ),
    );
    waitFor(() => !isRunning(worker));
  });
});

describe('a Jupyter kernel whose server is gone', () => {
  it('started as Jupyter starts kernels (a session of its own, JPY_PARENT_PID), its server killed: orphaned and ended; with the server alive: kept', () => {
    const dir = tempDir();
    fs.chmodSync(dir, 0o755);
    // a stand-in for ipykernel_launcher: listens on its ports (as ZMQ does) with the GPU open
    fs.writeFileSync(
      path.join(dir, 'ipykernel_launcher.py'),
      `import socket, sys, time\ns = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()\ng = open('/dev/nvidia0')\nopen(sys.argv[2], 'w').write('ready')\ntime.sleep(1000)\n`,
    );
    // the server: starts the kernel the way jupyter_client does (start_new_session, JPY_PARENT_PID), then waits
    fs.writeFileSync(
      path.join(dir, 'server.py'),
      `import os, subprocess, sys\nenv = dict(os.environ, JPY_PARENT_PID=str(os.getpid()), PYTHONPATH=sys.argv[1])\nk = subprocess.Popen([sys.executable, '-m', 'ipykernel_launcher', '-f', sys.argv[1] + '/kernel-1.json'], env=env, start_new_session=True)\nopen(sys.argv[1] + '/kernel.pid', 'w').write(str(k.pid))\nk.wait()\n`,
    );
    const argv = ns.argv(['python3', path.join(dir, 'server.py'), dir]);
    const server = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
    track(server.pid!);
    const kernel = readPid(path.join(dir, 'kernel.pid'));
    waitFor(() => holdsGpu(kernel), 10000);
    const env = { PATH: fakeSmi([kernel]) };
    const alive = ns.cli(['fix', '--dry-run'], { env, cwd: dir });
    expect(flat(alive.stdout)).toMatch(new RegExp(`keep +PID ${kernel} `));
    process.kill(server.pid!, 'SIGKILL');
    waitFor(() => !isRunning(server.pid!), 10000);
    const r = ns.cli(['fix', '--yes', '--grace', '1'], { env, cwd: dir });
    expect(flat(r.stdout)).toMatch(
      new RegExp(
        `end +PID ${kernel} .*orphaned: a Jupyter kernel whose server has exited: nothing can reach it any more`,
      ),
    );
    waitFor(() => !isRunning(kernel));
  });
});

describe('the tool never reports itself (issue 27)', () => {
  it('its own nvidia-smi calls, which have the GPU open while they run, are not GPU processes', () => {
    const dir = tempDir();
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(path.join(dir, 'smi.xml'), smiXmlWith([]));
    fakeBin(
      dir,
      'nvidia-smi',
      `exec 7</dev/nvidia0
sleep 0.5
case "$1" in
  -q) cat '${dir}/smi.xml' ;;
  --query-gpu=*) cat '${QUERY_CSV}' ;;
  *) exit 2 ;;
esac`,
    );
    const r = ns.cli(['procs', '--json'], { env: { PATH: `${dir}:${process.env.PATH}` } });
    const doc = JSON.parse(r.stdout) as { processes: { pid: number; name: string | null; verdict: string }[] };
    expect(doc.processes.filter((p) => p.name === 'nvidia-smi' || p.verdict === 'invisible')).toEqual([]);
  });
});
