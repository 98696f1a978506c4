// The y/N question on a terminal: runFix with a context whose stdin is a (fake) TTY, a scripted nvidia-smi
// listing a real leftover, the real /proc and real signals.
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../src/cli/args.js';
import type { Context } from '../../src/ports/context.js';
import { command, runFix } from '../../src/commands/fix.js';
import { createFileSystem } from '../../src/ports/fs.js';
import type { Signals } from '../../src/ports/signals.js';
import { realSignals, realSleep } from '../../src/ports/signals.js';
import { createUserFiles } from '../../src/ports/user-files.js';
import { tempDir } from '../helpers/fake-bin.js';
import { fakeRunner, ok } from '../helpers/fake-runner.js';
import { fsWithGpuFds, isRunning, killQuietly, smiXmlWith, spawnOrphan } from './helpers.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) killQuietly(pid);
});

function ttyContext(pid: number, answer: string | null): Context & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const stdin = Readable.from(answer === null ? [] : [answer]) as Readable & { isTTY?: boolean };
  stdin.isTTY = true;
  const cwd = tempDir();
  return {
    out,
    err,
    stdout: { write: (s) => void out.push(s), isTTY: true },
    stderr: { write: (s) => void err.push(s), isTTY: true },
    env: { PATH: '/usr/bin:/bin' },
    cwd,
    runner: fakeRunner([
      { command: 'nvidia-smi', args: ['-q', '-x'], result: ok(smiXmlWith([{ pid, usedMiB: 4096 }])) },
    ]),
    fs: fsWithGpuFds(createFileSystem('/'), [pid]),
    files: createUserFiles(cwd),
    now: () => Date.now(),
    color: false,
    pid: process.pid,
    stdin,
  };
}

const args = (...a: string[]) => parseCommandArgs(a, command.options);

function recordingSignals(): Signals & { sent: string[] } {
  const sent: string[] = [];
  return { sent, send: (pid, sig) => (sent.push(`${sig} ${pid}`), 'sent') };
}

describe('fix on a terminal', () => {
  it('asks y/N; "y" applies the plan', async () => {
    const pid = spawnOrphan(['sleep', '300']);
    started.push(pid);
    const ctx = ttyContext(pid, 'y\n');
    const code = await runFix(wordsFor(getLang()), ctx, args('--grace', '2'), {
      signals: realSignals,
      sleep: realSleep,
    });
    expect(ctx.err.join('')).toContain('End this process? [y/N] ');
    expect(ctx.out.join('')).toContain(`✓ ended PID ${pid} (SIGTERM)`);
    expect(isRunning(pid)).toBe(false);
    expect(code).toBe(0);
  });

  it('anything but yes, or no answer at all, changes nothing and exits 1', async () => {
    const pid = spawnOrphan(['sleep', '300']);
    started.push(pid);
    for (const answer of ['n\n', '\n', 'yep\n', null]) {
      const ctx = ttyContext(pid, answer);
      const signals = recordingSignals();
      const code = await runFix(wordsFor(getLang()), ctx, args(), { signals, sleep: realSleep });
      expect(ctx.err.join('')).toContain('Nothing changed.');
      expect(signals.sent).toEqual([]);
      expect(code).toBe(1);
    }
    expect(isRunning(pid)).toBe(true);
  });
});
