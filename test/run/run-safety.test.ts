// `run` is a faithful pipe (audit M6, M7, M8, L10, L11): back-pressure instead of buffering, no stack trace
// when the reader goes away, it returns when the job exits, it stops its samplers' whole process groups, and
// a SIGINT sent to it with kill(1) reaches the job even when it writes to a terminal.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { fakeBin, tempDir } from '../helpers/fake-bin.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('ged-run-safety-');
});
afterAll(() => {
  killMarked(dir);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Processes whose command line mentions `marker` (ours: the fake nvidia-smi loops). */
function marked(marker: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((p) => {
      try {
        return (
          fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker) &&
          !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${p}/stat`, 'utf8'))
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}
function killMarked(marker: string): void {
  for (const p of marked(marker)) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** A PATH whose nvidia-smi is a wrapper script that samples nothing and never ends (its loop runs `sleep`). */
function hangingSmi(name: string): string {
  const bin = path.join(dir, name);
  fs.mkdirSync(bin);
  fakeBin(bin, 'nvidia-smi', `while :; do sleep 0.3; done`);
  return `${bin}:${process.env.PATH}`;
}

const env = (PATH: string) => ({ PATH, NO_COLOR: '1' });

describe('run: a faithful pipe', () => {
  it('M6: a slow reader slows the job down instead of run holding its output in memory', () => {
    // 300 MB of output into a pipe whose reader starts reading after 6 s; /usr/bin/time gives run's peak memory.
    const total = 300 * 1000 * 1000;
    const PATH = hangingSmi('m6');
    const r = spawnSync(
      'sh',
      [
        '-c',
        `/usr/bin/time -o '${dir}/m6.time' -f %M '${process.execPath}' '${CLI}' run -- sh -c 'yes "some progress line of text 0123456789" | head -c ${total}' 2>/dev/null | (sleep 6; wc -c)`,
      ],
      { env: env(PATH), encoding: 'utf8', timeout: 120000 },
    );
    expect(Number(r.stdout.trim())).toBe(total);
    const peakKiB = Number(fs.readFileSync(path.join(dir, 'm6.time'), 'utf8').trim().split('\n').pop());
    // Without back-pressure run held what the reader had not taken yet: 588 MB for 500 MB (3.27 GB for 3 GB).
    expect(peakKiB).toBeLessThan(200 * 1024);
  });

  it('M7: the reader goes away (run -- yes | head -2): the job gets SIGPIPE, exit 141, no stack trace, no sampler left', () => {
    const PATH = hangingSmi('m7');
    const r = spawnSync(
      'bash',
      ['-c', `'${process.execPath}' '${CLI}' run -- yes 2>'${dir}/m7.err' | head -2; echo "rc=\${PIPESTATUS[0]}"`],
      { env: env(PATH), encoding: 'utf8', timeout: 30000 },
    );
    expect(r.stdout).toBe('y\ny\nrc=141\n');
    const err = fs.readFileSync(path.join(dir, 'm7.err'), 'utf8');
    expect(err).not.toMatch(/node:events|Unhandled 'error'|EPIPE|    at /);
    spawnSync('sleep', ['0.5']);
    expect(marked(path.join(dir, 'm7'))).toEqual([]);
  });

  it('M7: procs --watch into a reader that goes away: exit 0, no stack trace', () => {
    const r = spawnSync(
      'bash',
      [
        '-c',
        `timeout 20 '${process.execPath}' '${CLI}' procs --watch 0.3 2>'${dir}/w.err' | head -3 >/dev/null; echo "rc=\${PIPESTATUS[0]}"`,
      ],
      { env: env(process.env.PATH ?? ''), encoding: 'utf8', timeout: 30000 },
    );
    expect(r.stdout).toBe('rc=0\n');
    expect(fs.readFileSync(path.join(dir, 'w.err'), 'utf8')).toBe('');
  });

  it('M8: returns when the job exits, though a background process it started keeps its pipes', () => {
    const t0 = Date.now();
    const r = spawnSync(process.execPath, [CLI, 'run', '--', 'sh', '-c', 'sleep 27 & echo started; exit 0'], {
      env: env(hangingSmi('m8')),
      encoding: 'utf8',
      timeout: 60000,
    });
    const seconds = (Date.now() - t0) / 1000;
    for (const p of spawnSync('pgrep', ['-f', '^sleep 27$'], { encoding: 'utf8' })
      .stdout.trim()
      .split('\n')
      .filter(Boolean))
      process.kill(Number(p), 'SIGKILL');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('started\n');
    expect(r.stderr).toMatch(/exit code 0 after \d+ ms/);
    expect(seconds).toBeLessThan(20); // the background sleep lasts 27 s
  });

  it('L10: the samplers are stopped with their whole process group (a wrapper script’s children too)', () => {
    const bin = path.join(dir, 'l10');
    fs.mkdirSync(bin);
    fakeBin(bin, 'nvidia-smi', 'sleep 1077');
    const r = spawnSync(process.execPath, [CLI, 'run', '--', 'sh', '-c', 'sleep 1; exit 3'], {
      env: env(`${bin}:${process.env.PATH}`),
      encoding: 'utf8',
      timeout: 60000,
    });
    expect(r.status).toBe(3);
    spawnSync('sleep', ['0.5']);
    const left = marked('sleep\u00001077');
    for (const p of left) process.kill(p, 'SIGKILL');
    expect(left).toEqual([]);
  });

  it('L11: with a terminal attached, SIGINT sent to run’s PID (not typed) reaches the job', () => {
    const py = `import os, pty, subprocess, time, signal, sys
m, s = pty.openpty()
p = subprocess.Popen([sys.argv[1], sys.argv[2], 'run', '--', 'sleep', '8'], stdin=s, stdout=s, stderr=s, start_new_session=True)
time.sleep(2); t0 = time.time(); os.kill(p.pid, signal.SIGINT)
p.wait(); print('rc', p.returncode, 'after', round(time.time() - t0, 1))
`;
    // no nvidia-smi on PATH: the snapshot taken after the failure is quick
    const r = spawnSync('python3', ['-c', py, process.execPath, CLI], {
      env: env(
        `${path.dirname(spawnSync('sh', ['-c', 'command -v python3'], { encoding: 'utf8' }).stdout.trim())}:/usr/bin:/bin`,
      ),
      encoding: 'utf8',
      timeout: 30000,
    });
    const m = /^rc (-?\d+) after ([\d.]+)$/m.exec(r.stdout);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBe(130);
    expect(Number(m![2])).toBeLessThan(5); // the job would have run 6 more seconds
  });
});
