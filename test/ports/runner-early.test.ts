// A run started early (dist/cli.js starts nvidia-smi before the program loads) is handed to the first identical
// request of the real runner: that request spawns nothing and gets the early run's own result; a request that
// differs in anything spawns its own; an early run nobody took is ended with its process group.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { earlyStartOf, endEarlyRuns, realRunner, startEarly } from '../../src/ports/runner.js';
import { fakeBin, tempDir } from '../helpers/fake-bin.js';

afterEach(() => {
  endEarlyRuns();
});

/** A program that appends its pid and arguments to a file, sleeps `seconds`, prints a line and exits with `code`. */
function counted(seconds: number, code = 0): { bin: string; log: string } {
  const dir = tempDir('ged-early-');
  const log = path.join(dir, 'calls');
  const bin = fakeBin(dir, 'prog', `echo "$$ $*" >> '${log}'\nsleep ${seconds}\necho "answer $*"\nexit ${code}`);
  return { bin, log };
}
const calls = (log: string) => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []);
const alive = (pid: number) =>
  fs.existsSync(`/proc/${pid}`) && !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));

describe('runner: runs started early', () => {
  it('the identical request takes the run over: one spawn, its result, its spawn time', async () => {
    const { bin, log } = counted(0.3);
    const options = { timeoutMs: 5000, maxBytes: 1024, stdoutToFile: true };
    const before = performance.now();
    startEarly(bin, ['-q', '-x'], options);
    await new Promise((r) => setTimeout(r, 100));
    const asked = performance.now();
    const result = realRunner.run(bin, ['-q', '-x'], { ...options });
    const r = await result;
    expect(r).toMatchObject({ kind: 'ok', stdout: 'answer -q -x\n' });
    expect(calls(log)).toHaveLength(1);
    // the run's own start, before the request
    const at = earlyStartOf(result);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThan(asked);
    // taken once: the same request again spawns its own
    await realRunner.run(bin, ['-q', '-x'], options);
    expect(calls(log)).toHaveLength(2);
    expect(earlyStartOf(realRunner.run(bin, ['-q', '-x'], options))).toBeUndefined();
  });

  it('a request that differs in its arguments, time limit, size limit or output route spawns its own', async () => {
    const { bin, log } = counted(0);
    const options = { timeoutMs: 5000, maxBytes: 1024, stdoutToFile: true };
    startEarly(bin, ['a'], options);
    await realRunner.run(bin, ['b'], options);
    await realRunner.run(bin, ['a'], { ...options, timeoutMs: 4000 });
    await realRunner.run(bin, ['a'], { ...options, maxBytes: 2048 });
    await realRunner.run(bin, ['a'], { ...options, stdoutToFile: false });
    await realRunner.run(bin, ['a'], { ...options, env: { PATH: '/usr/bin:/bin' } });
    // 1 early + 5 own
    expect(calls(log)).toHaveLength(6);
    expect(endEarlyRuns()).toBe(1);
  });

  it('failures come through as the program gave them: exit code, time limit, not found', async () => {
    const failing = counted(0, 9);
    startEarly(failing.bin, ['x'], { timeoutMs: 5000 });
    expect(await realRunner.run(failing.bin, ['x'], { timeoutMs: 5000 })).toMatchObject({
      kind: 'non-zero',
      code: 9,
      stdout: 'answer x\n',
    });
    const hanging = counted(30);
    const t0 = Date.now();
    startEarly(hanging.bin, ['x'], { timeoutMs: 500 });
    expect(await realRunner.run(hanging.bin, ['x'], { timeoutMs: 500 })).toMatchObject({ kind: 'timeout' });
    expect(Date.now() - t0).toBeLessThan(5000);
    const pid = Number(calls(hanging.log)[0]!.split(' ')[0]);
    expect(alive(pid)).toBe(false);
    const missing = path.join(tempDir('ged-early-'), 'not-there');
    startEarly(missing, [], {});
    expect(await realRunner.run(missing, [], {})).toMatchObject({ kind: 'not-found', command: missing });
  });

  it('an early run nobody took is ended with its process group, and does not hold the process', async () => {
    const { bin, log } = counted(30);
    startEarly(bin, ['x'], { timeoutMs: 60000 });
    await new Promise((r) => setTimeout(r, 200));
    const pid = Number(calls(log)[0]!.split(' ')[0]);
    expect(alive(pid)).toBe(true);
    expect(endEarlyRuns()).toBe(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(pid)).toBe(false);
    // nothing left to take: the next request spawns
    expect(endEarlyRuns()).toBe(0);
  });

  it('runs with an input, an environment or a working folder are never started early', async () => {
    const { bin, log } = counted(0);
    startEarly(bin, ['x'], { input: 'a' } as never);
    startEarly(bin, ['x'], { env: { A: '1' } } as never);
    startEarly(bin, ['x'], { cwd: '/' } as never);
    expect(calls(log)).toHaveLength(0);
    expect(endEarlyRuns()).toBe(0);
  });
});
