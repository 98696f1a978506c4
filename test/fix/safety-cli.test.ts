// `fix --yes` and `procs` against the processes the audit (security-audit-2026-12-02: H1, M1, M2, L4) saw
// ended: a supervisor's child, a job under a PID-1 shell in a PID namespace, a process entered with nsenter,
// fix's own caller as a zombie's parent, a PID that holds no GPU here, PID 1 and a kernel thread. Each is a
// real process holding the namespace's /dev/nvidia0 (helpers/gpu-namespace.ts), listed by a fake nvidia-smi
// that replays the real H200 capture; real /proc, real signals.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';
import { startGpuNamespace, type GpuNamespace } from '../helpers/gpu-namespace.js';
import { orphanArgv } from '../helpers/orphan.js';
import { fakeSmiDir, isRunning, killQuietly, smiXmlWith, waitFor, flat } from './helpers.js';

let ns: GpuNamespace;
beforeAll(() => {
  ns = startGpuNamespace();
});
afterAll(() => ns.close());
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0).reverse()) killQuietly(pid);
});

const smiPath = (bin: string) => `${bin}:${process.env.PATH}`;

/** A parent that keeps its child, named like a supervisor (PR_SET_NAME), the child holding /dev/nvidia0. */
const SUPERVISOR = `import ctypes, subprocess, sys
ctypes.CDLL(None).prctl(15, sys.argv[1].encode(), 0, 0, 0)
p = subprocess.Popen(['sleep', '1000'], stdin=open('/dev/nvidia0'))
open(sys.argv[2], 'w').write(str(p.pid))
p.wait()
`;

function readPid(file: string): number {
  waitFor(() => fs.existsSync(file) && fs.readFileSync(file, 'utf8') !== '', 10000);
  return Number(fs.readFileSync(file, 'utf8'));
}

describe('fix leaves alone what nothing shows to be stale (H1)', () => {
  for (const name of ['supervisord', 'tini', 'containerd-shim-runc-v2', 'process_api']) {
    it(`the child of a live ${name} that started it and waits for it`, () => {
      const dir = tempDir();
      fs.writeFileSync(path.join(dir, 'sup.py'), SUPERVISOR);
      const argv = ns.argv(['python3', path.join(dir, 'sup.py'), name, path.join(dir, 'child.pid')]);
      const sup = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
      started.push(sup.pid!);
      const child = readPid(path.join(dir, 'child.pid'));
      started.push(child);
      const bin = fakeSmiDir([{ pid: child, usedMiB: 5000 }]);
      const r = ns.cli(['fix', '--yes', '--grace', '1'], { env: { PATH: smiPath(bin) }, cwd: dir });
      expect(r.stdout).not.toMatch(/^ {2}end /m);
      expect(flat(r.stdout)).toMatch(
        new RegExp(
          `keep +PID ${child} \\(root\\) sleep 1000: 4\\.9 GiB on GPU 0; unknown: its parent is ${name.slice(0, 15)} \\(PID \\d+\\), which may have started it`,
        ),
      );
      expect(r.stdout).not.toContain('its parent is gone');
      expect(isRunning(child)).toBe(true);
      const procs = ns.cli(['procs'], { env: { PATH: smiPath(bin) } });
      expect(procs.stdout).toMatch(new RegExp(`^0 +${child} .* unknown +- +sleep 1000$`, 'm'));
      expect(procs.code).toBe(0);
    });
  }

  it('a job started by a shell that is PID 1 of a PID namespace (docker run -it IMAGE bash)', () => {
    const dir = tempDir();
    const bin = fakeSmiDir([]);
    // Inside the namespace the job is PID 2; the fake nvidia-smi lists it there.
    fs.writeFileSync(
      path.join(dir, 'ns-bash.sh'),
      `sleep 1000 </dev/nvidia0 & JOB=$!
cat > ${bin}/smi.xml <<EOF
${smiXmlWith([{ pid: 2, usedMiB: 5000 }]).replace(/\$/g, '\\$')}
EOF
PATH=${smiPath(bin)} ${process.execPath} ${CLI} fix --yes --grace 1 --no-color
echo "rc=$?"
if [ -d /proc/$JOB ] && ! grep -q '^State:.*Z' /proc/$JOB/status; then echo "job $JOB alive"; else echo "job $JOB ended"; fi
kill $JOB
`,
    );
    const argv = ns.argv(['timeout', '60', 'unshare', '-pf', '--mount-proc', 'bash', path.join(dir, 'ns-bash.sh')]);
    const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', cwd: dir, timeout: 60000 });
    expect(flat(r.stdout)).toMatch(
      /keep +PID 2 \(root\) sleep 1000: 4\.9 GiB on GPU 0; unknown: its parent is bash \(PID 1\), which may have started it/,
    );
    expect(r.stdout).not.toMatch(/^ {2}end /m);
    expect(r.stdout).toContain('job 2 alive');
  });

  it('a process entered from outside its PID namespace (docker exec, nsenter): parent 0', () => {
    const dir = tempDir();
    const nsArgv = ns.argv(['unshare', '-pf', '--mount-proc', 'sleep', '120']);
    const holder = spawn(nsArgv[0]!, nsArgv.slice(1), { stdio: 'ignore' });
    started.push(holder.pid!);
    let nsInit = 0;
    waitFor(() => {
      // unshare -f forks: the namespace's init is the `sleep 120` below it
      const kids = spawnSync('pgrep', ['-f', '^sleep 120$'], { encoding: 'utf8' })
        .stdout.trim()
        .split('\n')
        .map(Number)
        .filter((p) => p > 0 && isDescendant(p, holder.pid!));
      nsInit = kids[0] ?? 0;
      return nsInit > 0;
    }, 10000);
    started.push(nsInit);
    const enterArgv = ns.argv(['sh', '-c', 'exec sleep 109 </dev/nvidia0'], { pidNsOf: nsInit });
    const entered = spawn(enterArgv[0]!, enterArgv.slice(1), { stdio: 'ignore' });
    started.push(entered.pid!);
    let inner = 0;
    let hostPid = 0;
    waitFor(() => {
      for (const p of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
        const cmd = readOr(`/proc/${p}/cmdline`).replace(/\0/g, ' ').trim();
        if (cmd !== 'sleep 109') continue;
        const nspid = /^NSpid:\s+(.*)$/m
          .exec(readOr(`/proc/${p}/status`))?.[1]
          ?.split(/\s+/)
          .map(Number);
        if (nspid && nspid.length > 1) {
          hostPid = Number(p);
          inner = nspid[nspid.length - 1]!;
          return true;
        }
      }
      return false;
    }, 10000);
    started.push(hostPid);
    const bin = fakeSmiDir([{ pid: inner, usedMiB: 5000 }]);
    const cli = ns.argv([process.execPath, CLI, 'fix', '--yes', '--grace', '1', '--no-color'], {
      pidNsOf: nsInit,
      cwd: dir,
    });
    const r = spawnSync(cli[0]!, cli.slice(1), {
      encoding: 'utf8',
      env: { PATH: smiPath(bin), NO_COLOR: '1' },
      timeout: 60000,
    });
    expect(flat(r.stdout)).toMatch(
      new RegExp(
        `keep +PID ${inner} \\(root\\) sleep 109: 4\\.9 GiB on GPU 0; unknown: its parent is outside this PID namespace`,
      ),
    );
    expect(r.stdout).not.toMatch(/^ {2}end /m);
    expect(isRunning(hostPid)).toBe(true);
  });
});

describe('fix never signals its caller, PID 1, kernel threads or a PID with no GPU here', () => {
  it('M1: the launcher that runs fix is the parent of a listed zombie: it survives', () => {
    const dir = tempDir();
    const bin = fakeSmiDir([]);
    fs.writeFileSync(
      path.join(dir, 'launcher.py'),
      `import os, subprocess, sys, time
w = subprocess.Popen(['true']); time.sleep(0.5)   # exited, not collected: a zombie
xml = open(sys.argv[1]).read().replace('<pid>1</pid>', '<pid>%d</pid>' % w.pid)
open('${bin}/smi.xml', 'w').write(xml)
r = subprocess.run([sys.argv[2], sys.argv[3], 'fix', '--yes', '--grace', '1', '--no-color'])
print('launcher survived; fix rc', r.returncode, flush=True)
`,
    );
    fs.writeFileSync(path.join(dir, 'template.xml'), smiXmlWith([{ pid: 1, usedMiB: 5000 }]));
    const argv = ns.argv(
      ['python3', path.join(dir, 'launcher.py'), path.join(dir, 'template.xml'), process.execPath, CLI],
      { cwd: dir },
    );
    const r = spawnSync(argv[0]!, argv.slice(1), {
      encoding: 'utf8',
      env: { PATH: smiPath(bin), NO_COLOR: '1' },
      timeout: 60000,
    });
    expect(r.stdout).toContain('launcher survived');
    expect(flat(r.stdout)).toMatch(
      /skip PID \d+ python3 \(root\): .*zombie[\s\S]*not ended: it is gpu-env-doctor itself or one of its ancestors/,
    );
    expect(r.status).toBe(0);
  });

  it('M2: a listed PID whose process here has no /dev/nvidia* open (a complete scan) is not signalled', () => {
    // A leftover whose parent has exited, but with no GPU open: the number nvidia-smi gives is not this process.
    const [cmd, ...args] = orphanArgv(['sleep', '300']);
    const out = spawnSync(cmd!, args, { encoding: 'utf8' });
    const pid = Number(out.stdout.trim());
    started.push(pid);
    // The audit's own reproduction: setsid -f
    const out2 = spawnSync(
      '/bin/sh',
      ['-c', 'setsid -f sleep 301 </dev/null >/dev/null 2>&1; sleep 0.2; pgrep -n -x -f "sleep 301"'],
      { encoding: 'utf8' },
    );
    const pid2 = Number(out2.stdout.trim());
    started.push(pid2);
    const bin = fakeSmiDir([
      { pid, usedMiB: 5000 },
      { pid: pid2, usedMiB: 5000 },
    ]);
    const snap = JSON.parse(ns.cli(['snapshot'], { env: { PATH: smiPath(bin) } }).stdout);
    expect(snap.processes.deviceScanComplete).toBe(true);
    expect(snap.processes.list.find((p: { pid: number }) => p.pid === pid)).toMatchObject({
      holdsDeviceFiles: false,
      gpuNotOpenHere: true,
    });
    const r = ns.cli(['fix', '--yes', '--grace', '1'], { env: { PATH: smiPath(bin) }, cwd: tempDir() });
    expect(flat(r.stdout)).toMatch(
      new RegExp(
        `keep +PID ${pid} .*: nvidia-smi lists PID ${pid}, but here that PID is sleep with no /dev/nvidia\\* open`,
      ),
    );
    expect(flat(r.stdout)).toMatch(new RegExp(`keep +PID ${pid2} `));
    expect(r.stdout).not.toMatch(/^ {2}end /m);
    expect(r.stdout).not.toContain('ended');
    expect(isRunning(pid)).toBe(true);
    expect(isRunning(pid2)).toBe(true);
  });

  it('L4: PID 1 and a kernel thread are left alone in the plan, each with its reason', () => {
    // none is visible inside a PID namespace of its own: then only PID 1's half can be shown
    const kthread = firstKernelThread();
    const bin = fakeSmiDir([{ pid: 1, usedMiB: 5000 }, ...(kthread !== null ? [{ pid: kthread, usedMiB: 100 }] : [])]);
    const r = ns.cli(['fix', '--dry-run'], { env: { PATH: smiPath(bin) } });
    expect(r.stdout).not.toMatch(/^ {2}end /m);
    expect(flat(r.stdout)).toMatch(/keep +PID 1 .*: it is PID 1, the init of this PID namespace/);
    if (kthread !== null) expect(flat(r.stdout)).toMatch(new RegExp(`keep +PID ${kthread} .*: it is a kernel thread`));
  });

  it('L4 in a PID namespace: PID 1 (the shell) is kept with the right reason, its job too', () => {
    const dir = tempDir();
    const bin = fakeSmiDir([]);
    fs.writeFileSync(
      path.join(dir, 'ns-pid1.sh'),
      `sleep 1000 </dev/nvidia0 & JOB=$!
cat > ${bin}/smi.xml <<EOF
${smiXmlWith([
  { pid: 1, usedMiB: 5000 },
  { pid: 2, usedMiB: 100 },
]).replace(/\$/g, '\\$')}
EOF
PATH=${smiPath(bin)} ${process.execPath} ${CLI} fix --yes --grace 1 --no-color
kill $JOB
`,
    );
    const argv = ns.argv(['timeout', '60', 'unshare', '-pf', '--mount-proc', 'sh', path.join(dir, 'ns-pid1.sh')]);
    const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', cwd: dir, timeout: 60000 });
    expect(flat(r.stdout)).toMatch(/keep +PID 1 .*it is PID 1, the init of this PID namespace/);
    expect(flat(r.stdout)).toMatch(/keep +PID 2 .*unknown: its parent is sh \(PID 1\)/);
    expect(r.stdout).not.toContain('no start time to check the PID against');
    expect(r.stdout).not.toMatch(/^ {2}end /m);
  });
});

function readOr(p: string): string {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return '';
  }
}

function isDescendant(pid: number, of: number): boolean {
  let cur = pid;
  for (let i = 0; i < 16 && cur > 1; i++) {
    if (cur === of) return true;
    const stat = readOr(`/proc/${cur}/stat`);
    cur = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }
  return false;
}

describe('the env file and what fix reports (M10, L3)', () => {
  it('M10: a link another user planted in a shared folder is not written through', () => {
    const base = tempDir();
    fs.chmodSync(base, 0o755);
    const shared = path.join(base, 'shared');
    fs.mkdirSync(shared, { mode: 0o777 });
    fs.chmodSync(shared, 0o777);
    const target = path.join(tempDir(), 'target.txt');
    fs.writeFileSync(target, 'root-only line 1\nroot-only line 2\n', { mode: 0o600 });
    const ln = spawnSync('ln', ['-s', target, path.join(shared, 'gpu-env-doctor.env')], { uid: 65534, gid: 65534 });
    expect(ln.status).toBe(0);
    const r = ns.cli(['fix', '--yes', '--no-color'], {
      cwd: shared,
      env: { PATH: smiPath(fakeSmiDir([])), TF_FORCE_GPU_ALLOW_GROWTH: 'yes' },
    });
    expect(flat(r.stdout)).toMatch(
      /not written: not writing gpu-env-doctor\.env: its folder .* can be written by other users/,
    );
    expect(fs.readFileSync(target, 'utf8')).toBe('root-only line 1\nroot-only line 2\n');
    // The same link in a folder of the caller's own
    const own = tempDir();
    fs.symlinkSync(target, path.join(own, 'gpu-env-doctor.env'));
    const r2 = ns.cli(['fix', '--yes', '--no-color'], {
      cwd: own,
      env: { PATH: smiPath(fakeSmiDir([])), TF_FORCE_GPU_ALLOW_GROWTH: 'yes' },
    });
    expect(r2.stdout).toMatch(/not written: not writing gpu-env-doctor\.env: it is a symbolic link/);
    expect(fs.readFileSync(target, 'utf8')).toBe('root-only line 1\nroot-only line 2\n');
    expect(r2.code).toBe(1);
  });

  it('L3: the env file cannot be written; the processes fix ended are still reported', () => {
    const pid = ns.orphan(['sleep', '701'], { uid: 65534 });
    started.push(pid);
    const bin = fakeSmiDir([{ pid, usedMiB: 5000 }]);
    const r = ns.cli(['fix', '--yes', '--grace', '1', '--no-color'], {
      cwd: '/',
      uid: 65534,
      env: { PATH: smiPath(bin), TF_FORCE_GPU_ALLOW_GROWTH: 'yes' },
    });
    expect(flat(r.stdout)).toMatch(/not written: cannot write gpu-env-doctor\.env: its folder \/: permission denied/);
    expect(r.stdout).toContain(`✓ ended PID ${pid} (SIGTERM)`);
    expect(r.stdout).toContain('✗ did not write ./gpu-env-doctor.env');
    expect(r.code).toBe(1);
    expect(isRunning(pid)).toBe(false);
  });

  it('L3: a failure while writing (a binary file in its place) comes after the outcome of each process', () => {
    const pid = ns.orphan(['sleep', '702']);
    started.push(pid);
    const dir = tempDir();
    fs.writeFileSync(
      path.join(dir, 'gpu-env-doctor.env'),
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0xff, 0xfe, 0xfd, 0x0a]),
    );
    const r = ns.cli(['fix', '--yes', '--grace', '1', '--no-color'], {
      cwd: dir,
      env: { PATH: smiPath(fakeSmiDir([{ pid, usedMiB: 5000 }])), TF_FORCE_GPU_ALLOW_GROWTH: 'yes' },
    });
    expect(flat(r.stdout)).toMatch(
      new RegExp(
        `✓ ended PID ${pid} \\(SIGTERM\\)\\n✗ did not write \\./gpu-env-doctor\\.env: gpu-env-doctor\\.env is not UTF-8 text`,
      ),
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
  });
});

/**
 * A kernel thread of this machine: PID 2 (kthreadd) on a plain host or VM, but inside a PID namespace PID 2 is an
 * ordinary process and no kernel thread is visible; the kernel marks its threads with PF_KTHREAD (0x00200000) in
 * /proc/PID/stat's flags.
 */
function firstKernelThread(): number | null {
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const flags = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[6]);
      if ((flags & 0x00200000) !== 0) return Number(name);
    } catch {
      /* gone */
    }
  }
  return null;
}
