// `run` under a real terminal: util-linux `script` gives the wrapper a pseudo-terminal, as a user's shell would.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';

const SCRIPT = ['/usr/bin/script', '/bin/script'].find((p) => fs.existsSync(p));
if (!SCRIPT) console.warn('test/run/tty: util-linux `script` is not installed: the terminal tests are skipped');

let dir: string;
beforeAll(() => {
  dir = tempDir('ged-tty-');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function inTerminal(
  inner: string,
  onOutput?: (sofar: string, write: (s: string) => void) => void,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const c = spawn(SCRIPT!, ['-qec', inner, '/dev/null'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NO_COLOR: '1', TERM: 'dumb' },
    });
    let out = '';
    c.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      onOutput?.(out, (s) => c.stdin.write(s));
    });
    const timer = setTimeout(() => c.kill('SIGKILL'), 15000);
    c.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe.skipIf(!SCRIPT)('run in a terminal', () => {
  it('hands the terminal to the command on stdin and stdout (colours, progress bars); stderr is read through a pipe', async () => {
    const job = path.join(dir, 'tty.sh');
    fs.writeFileSync(
      job,
      'test -t 0 && echo stdin-tty; test -t 1 && echo stdout-tty; test -t 2 && echo stderr-tty || echo stderr-pipe\n',
    );
    const r = await inTerminal(`${process.execPath} ${CLI} run -- sh ${job}`);
    expect(r.out).toContain('stdin-tty');
    expect(r.out).toContain('stdout-tty');
    expect(r.out).toContain('stderr-pipe');
    const nc = await inTerminal(`${process.execPath} ${CLI} run --no-capture -- sh ${job}`);
    expect(nc.out).toContain('stderr-tty');
  });

  it('Ctrl-C reaches the command once (the terminal delivers it; run does not send it again), and run reports after', async () => {
    const job = path.join(dir, 'int.sh');
    fs.writeFileSync(
      job,
      'n=0\ntrap \'n=$((n+1))\' INT\necho ready\ni=0\nwhile [ $i -lt 15 ]; do sleep 0.1; i=$((i+1)); done\necho "ints=$n"\nexit 5\n',
    );
    let sent = false;
    // exec: script(1) runs the line through a shell, which would itself die of the SIGINT (an interactive shell would not)
    const r = await inTerminal(`exec ${process.execPath} ${CLI} run -- sh ${job}`, (sofar, write) => {
      if (!sent && sofar.includes('ready')) {
        sent = true;
        write('\u0003');
      }
    });
    expect(r.out).toContain('ints=1');
    expect(r.out).toContain('the command failed (exit code 5)');
    expect(r.code).toBe(5);
  });
});

describe.skipIf(!SCRIPT)('explain and check --deep in a terminal (issue 16.12, 16.13)', () => {
  it('explain - says "paste the error output, then press Ctrl-D", then reads what is pasted', async () => {
    let sent = false;
    const r = await inTerminal(`${process.execPath} ${CLI} explain - --no-machine`, (sofar, write) => {
      if (!sent && sofar.includes('Ctrl-D')) {
        sent = true;
        write('RuntimeError: No CUDA GPUs are available\n\u0004');
      }
    });
    expect(r.out).toContain('gpu-env-doctor: paste the error output, then press Ctrl-D on a line of its own');
    expect(r.out).toMatch(/No GPU is visible to the process/);
  });

  it('check --deep=frameworks says on stderr what it is doing while the frameworks are imported', async () => {
    const r = await inTerminal(`${process.execPath} ${CLI} check --deep=frameworks -q >/dev/null; true`);
    expect(r.out).toContain('--deep=frameworks: importing each framework and running a small convolution');
  });
});
