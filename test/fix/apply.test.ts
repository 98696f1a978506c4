// endProcess against a tiny fake /proc tree (through the real filesystem port rooted there) and a fake
// Signals port that changes the tree the way the kernel would.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { endProcess, type ApplyDeps } from '../../src/act/fix/apply.js';
import type { EndProcessStep } from '../../src/judge/fix/plan.js';
import { createFileSystem } from '../../src/ports/fs.js';
import type { SignalName, SignalOutcome, Signals } from '../../src/ports/signals.js';
import { tempDir } from '../helpers/fake-bin.js';

const BTIME = 1764660000;
// The real stat line of the hog on the H200 (test/fixtures/h200/hog/hog-1200-proc.txt), PID 637, start 7986 ticks.
const HOG_STAT =
  '637 (python3) S 418 417 417 0 -1 4194560 87482 0 0 0 499 52 0 0 20 0 18 0 7986 166059065344 155301 18446744073709551615 4325376 7352253 140736692274288 0 0 0 0 16781318 0 0 0 0 17 15 0 0 0 0 0 10653128 12216448 644227072 140736692280124 140736692280147 140736692280147 140736692285403 0';
const HOG_STARTED_AT = Math.round((BTIME + 7986 / 100) * 1000);

function procTree(): { root: string; setStat(line: string | null): void } {
  const root = tempDir('ged-proc-');
  fs.mkdirSync(path.join(root, 'proc/637'), { recursive: true });
  fs.writeFileSync(path.join(root, 'proc/stat'), `cpu  1 2 3\nbtime ${BTIME}\n`);
  fs.writeFileSync(
    path.join(root, 'proc/637/status'),
    'Name:\tpython3\nState:\tS (sleeping)\nPPid:\t1\nUid:\t0\t0\t0\t0\n',
  );
  const statPath = path.join(root, 'proc/637/stat');
  const setStat = (line: string | null) =>
    line === null ? fs.rmSync(statPath, { force: true }) : fs.writeFileSync(statPath, line);
  setStat(HOG_STAT);
  return { root, setStat };
}

const withState = (st: string) => HOG_STAT.replace(' S 418 ', ` ${st} 418 `);
const withStart = (ticks: number) => HOG_STAT.replace(' 7986 ', ` ${ticks} `);

function step(over: Partial<EndProcessStep> = {}): EndProcessStep {
  return {
    pid: 637,
    startedAt: HOG_STARTED_AT,
    uid: 0,
    user: 'root',
    name: 'python3',
    cmdline: ['python3', 'hog.py'],
    state: 'sleeping',
    verdict: 'orphaned',
    why: 'orphaned',
    usedMiB: 142848,
    gpus: [0],
    ...over,
  };
}

/** Signals that record what was sent and let the test decide what the "kernel" does. */
function fakeSignals(onSignal: (sig: SignalName) => SignalOutcome | void): Signals & { sent: SignalName[] } {
  const sent: SignalName[] = [];
  return {
    sent,
    send(pid, sig) {
      expect(pid).toBe(637);
      sent.push(sig);
      return onSignal(sig) ?? 'sent';
    },
  };
}

function deps(root: string, signals: Signals, graceMs = 5000): ApplyDeps & { clock: () => number } {
  let t = 0;
  return {
    fs: createFileSystem(root),
    signals,
    graceMs,
    now: () => t,
    sleep: async (ms) => void (t += ms),
    clock: () => t,
  };
}

describe('ending a process', () => {
  it('SIGTERM, and done as soon as the process is gone', async () => {
    const tree = procTree();
    const sig = fakeSignals((s) => (s === 'SIGTERM' ? tree.setStat(null) : undefined));
    expect(await endProcess(step(), deps(tree.root, sig))).toEqual({ kind: 'ended', by: 'SIGTERM' });
    expect(sig.sent).toEqual(['SIGTERM']);
  });

  it('a PID with another start time than the snapshot is never signalled (PID reuse)', async () => {
    const tree = procTree();
    tree.setStat(withStart(7987));
    const sig = fakeSignals(() => undefined);
    const r = await endProcess(step(), deps(tree.root, sig));
    expect(r.kind).toBe('refused');
    expect(r.kind === 'refused' && r.why).toMatch(/PID 637 is now another process/);
    expect(sig.sent).toEqual([]);
  });

  it('a PID now owned by another user is never signalled', async () => {
    const tree = procTree();
    fs.writeFileSync(path.join(tree.root, 'proc/637/status'), 'Uid:\t1001\t1001\t1001\t1001\n');
    const sig = fakeSignals(() => undefined);
    expect((await endProcess(step(), deps(tree.root, sig))).kind).toBe('refused');
    expect(sig.sent).toEqual([]);
  });

  it('a stopped process gets SIGCONT after SIGTERM, so that it acts on it', async () => {
    const tree = procTree();
    tree.setStat(withState('T'));
    const sig = fakeSignals((s) => (s === 'SIGCONT' ? tree.setStat(withState('Z')) : undefined));
    expect(await endProcess(step({ state: 'stopped' }), deps(tree.root, sig))).toEqual({
      kind: 'ended',
      by: 'SIGTERM',
    });
    expect(sig.sent).toEqual(['SIGTERM', 'SIGCONT']);
  });

  it('SIGKILL after the grace period when SIGTERM is ignored', async () => {
    const tree = procTree();
    const sig = fakeSignals((s) => (s === 'SIGKILL' ? tree.setStat(null) : undefined));
    const d = deps(tree.root, sig, 2000);
    expect(await endProcess(step(), d)).toEqual({ kind: 'ended', by: 'SIGKILL' });
    expect(sig.sent).toEqual(['SIGTERM', 'SIGKILL']);
    expect(d.clock()).toBeGreaterThanOrEqual(2000);
  });

  it('no SIGKILL when the PID was reused during the grace period', async () => {
    const tree = procTree();
    let polls = 0;
    const d = deps(
      tree.root,
      fakeSignals(() => undefined),
      1000,
    );
    const sleep = d.sleep;
    d.sleep = async (ms) => {
      if (++polls === 3) tree.setStat(withStart(99999)); // exited, and the PID went to a new process
      await sleep(ms);
    };
    const sig = d.signals as ReturnType<typeof fakeSignals>;
    expect(await endProcess(step(), d)).toEqual({ kind: 'ended', by: 'SIGTERM' });
    expect(sig.sent).toEqual(['SIGTERM']);
  });

  it('reports a process that survives SIGKILL (stuck in the driver), and permission errors', async () => {
    const tree = procTree();
    tree.setStat(withState('D'));
    const stuck = await endProcess(
      step(),
      deps(
        tree.root,
        fakeSignals(() => undefined),
        500,
      ),
    );
    expect(stuck.kind === 'failed' && stuck.why).toMatch(/still there after SIGKILL \(state disk-sleep\)/);
    const denied = await endProcess(
      step(),
      deps(
        procTree().root,
        fakeSignals(() => 'permission'),
      ),
    );
    expect(denied).toEqual({ kind: 'failed', why: 'SIGTERM to PID 637: permission denied' });
  });

  it('a zombie already exited; a blocked step is skipped without a signal', async () => {
    const tree = procTree();
    tree.setStat(withState('Z'));
    const sig = fakeSignals(() => undefined);
    expect(await endProcess(step(), deps(tree.root, sig))).toEqual({ kind: 'already-gone' });
    expect(await endProcess(step({ blocked: 'busy' }), deps(procTree().root, sig))).toEqual({
      kind: 'skipped',
      why: 'busy',
    });
    expect(sig.sent).toEqual([]);
  });
});
