// The probe runner returns when the program exits, even when a descendant that left its process group keeps
// the output pipe open (audit L9: `--timeout 3` took 40 s and reported a hang), and keeps a bounded amount.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { realRunner } from '../../src/ports/runner.js';
import { runCli } from '../helpers/cli.js';
import { fakeBin, FIXTURES, tempDir } from '../helpers/fake-bin.js';

const leftovers: number[] = [];
afterEach(() => {
  // (only real PIDs: kill(0) would hit our own process group)
  for (const pid of leftovers.splice(0).filter((p) => Number.isInteger(p) && p > 1)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});

// Forks a child that starts its own session (so a kill of the process group misses it) and keeps stdout.
const ESCAPE = `import os, sys, time
pid = os.fork()
if pid == 0:
    os.setsid()
    time.sleep(40)
    os._exit(0)
print(pid, flush=True)
`;

describe('runner: a descendant that leaves the process group', () => {
  it('the answer comes when the program exits, not when the descendant does', async () => {
    const t0 = Date.now();
    const r = await realRunner.run('python3', ['-c', ESCAPE], { timeoutMs: 20000 });
    if (r.kind === 'ok') leftovers.push(Number(r.stdout.trim()));
    expect(r.kind).toBe('ok');
    expect(r.kind === 'ok' && /^\d+\n$/.test(r.stdout)).toBe(true);
    expect(Date.now() - t0).toBeLessThan(15000); // the descendant sleeps 40 s
  });

  it('a hang is still a timeout, even with such a descendant', async () => {
    const r = await realRunner.run('python3', ['-c', `${ESCAPE}\ntime.sleep(60)`], { timeoutMs: 1500 });
    expect(r.kind).toBe('timeout');
    if (r.kind === 'timeout') leftovers.push(Number(r.stdout.trim()));
  });

  it('check --timeout 10 with an nvidia-smi whose helper keeps the pipe for 40 s: the XML is used, no "hang" (audit L9)', () => {
    const dir = tempDir();
    const xml = path.join(FIXTURES, 'h200/idle/nvidia-smi-q.xml');
    const csv = path.join(FIXTURES, 'h200/idle/query-gpu.csv');
    fs.writeFileSync(
      path.join(dir, 'escape.py'),
      ESCAPE.replace(
        'print(pid, flush=True)',
        `open(${JSON.stringify(path.join(dir, 'pids'))}, 'a').write('%d\\n' % pid)`,
      ),
    );
    fakeBin(
      dir,
      'nvidia-smi',
      `/usr/bin/python3 '${dir}/escape.py'\ncase "$1" in -q) cat '${xml}' ;; *) cat '${csv}' ;; esac\nexit 0`,
    );
    const r = runCli(['check', '--timeout', '10', '--no-color'], {
      env: { PATH: `${dir}:${process.env.PATH}` },
      timeoutMs: 60000,
    });
    for (const p of fs.readFileSync(path.join(dir, 'pids'), 'utf8').trim().split('\n')) leftovers.push(Number(p));
    expect(r.stdout).toMatch(/\[✓\] GPU & driver: 1 × NVIDIA H200/);
    expect(r.stdout).not.toContain('did not answer in time');
  });
});

describe('runner: output is kept up to the limit', () => {
  it('keeps at most maxBytes of stdout', async () => {
    const r = await realRunner.run('sh', ['-c', 'head -c 100000 /dev/zero'], { maxBytes: 1000 });
    expect(r.kind === 'ok' && r.stdout.length).toBe(1000);
  });
});

// nvidia-smi -q -x writes its answer in many small writes; through a socket pair it blocks until our event loop
// reads, so a busy main thread made it ~40 ms slower inside check on the GPU machine (gpu-lab/check-variants.sh).
const SMALL_WRITES = `import sys, time
t = time.time()
for i in range(20000):
    sys.stdout.write('%05d line of a small write\\n' % i)
    sys.stdout.flush()
sys.stderr.write('%.3f' % (time.time() - t))
`;
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('runner: standard output into a file (stdoutToFile)', () => {
  it('the program does not wait for our busy main thread, and every byte arrives', async () => {
    const pending = realRunner.run('python3', ['-c', SMALL_WRITES], { stdoutToFile: true, timeoutMs: 20000 });
    spin(1500);
    const r = await pending;
    expect(r.kind).toBe('ok');
    if (r.kind !== 'ok') return;
    const lines = r.stdout.split('\n');
    expect(lines.length).toBe(20001);
    expect(lines[19999]).toBe('19999 line of a small write');
    expect(Number(r.stderr)).toBeLessThan(1.0);
  });

  it('through the socket pair, the same program waits for the main thread (why the option exists)', async () => {
    const pending = realRunner.run('python3', ['-c', SMALL_WRITES], { timeoutMs: 20000 });
    spin(1500);
    const r = await pending;
    expect(r.kind === 'ok' && r.stdout.split('\n').length).toBe(20001);
    expect(r.kind === 'ok' && Number(r.stderr)).toBeGreaterThan(1.0);
  });

  it('a program that writes without end is ended past maxBytes, keeping maxBytes', async () => {
    const t0 = Date.now();
    const r = await realRunner.run('yes', [], { stdoutToFile: true, maxBytes: 100000, timeoutMs: 20000 });
    expect(Date.now() - t0).toBeLessThan(10000);
    expect(r.kind).toBe('ok');
    expect(r.kind === 'ok' && r.stdout.length).toBe(100000);
  });

  it('leaves no file in the temporary folder, and falls back to the socket where none can be made', async () => {
    const saved = process.env.TMPDIR;
    const dir = tempDir();
    try {
      process.env.TMPDIR = dir;
      const a = await realRunner.run('sh', ['-c', 'echo hello'], { stdoutToFile: true });
      expect(a.kind === 'ok' && a.stdout).toBe('hello\n');
      expect(fs.readdirSync(dir)).toEqual([]);
      process.env.TMPDIR = path.join(dir, 'missing');
      const b = await realRunner.run('sh', ['-c', 'echo again'], { stdoutToFile: true });
      expect(b.kind === 'ok' && b.stdout).toBe('again\n');
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });
});
