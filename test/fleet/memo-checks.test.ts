import { describe, expect, it } from 'vitest';
import type { Check } from '../../src/judge/checks/check.js';
import { ALL_CHECKS } from '../../src/judge/checks/index.js';
import { runChecks } from '../../src/judge/checks/run-checks.js';
import { finding } from '../../src/judge/finding.js';
import { FleetMerger } from '../../src/judge/fleet/merge.js';
import { MemoChecks, ReadMemo } from '../../src/judge/fleet/memo-checks.js';
import type { Snapshot } from '../../src/gather/snapshot/schema.js';
import { nodeSnapshot } from '../../bench/fleet-generate.js';
import { clone, realSnapshot } from './h200-snapshot.js';

const base = { idle: realSnapshot('h200-idle.json'), held: realSnapshot('h200-memory-held.json') };
const strip = (fs: { check: string; severity: string; status: string; message: string; rootCause: string | null }[]) =>
  fs.map((f) => ({
    check: f.check,
    severity: f.severity,
    status: f.status,
    message: f.message,
    rootCause: f.rootCause,
  }));

describe('memoised checks give the findings the plain run gives', () => {
  it('on every node of a planted fleet, for every check, while reusing most of them', () => {
    const memo = new MemoChecks(ALL_CHECKS);
    const snaps = Array.from({ length: 300 }, (_, i) => nodeSnapshot(i, base, { heldEvery: 7 }));
    // A few nodes whose software differs: the version checks must see it, not reuse the usual answer.
    const older = clone(snaps[11]!) as Snapshot & {
      python: { environments: { frameworks: { version: string; cuda: string }[] }[] };
    };
    older.python.environments[0]!.frameworks[0]!.cuda = '13.2';
    older.python.environments[0]!.frameworks[0]!.version = '2.12.0+cu132';
    snaps[11] = older;
    if (snaps[12]!.nvidia.ok) snaps[12]!.nvidia.gpus[0]!.computeCapability = '12.0';
    for (const s of snaps) {
      const got = memo.run(s);
      const want = runChecks(ALL_CHECKS, s);
      expect(got.map((r) => strip(r.findings))).toEqual(want.map((r) => strip(r.findings)));
    }
    const stats = memo.stats();
    const reused = stats.reduce((a, x) => a + x.reused, 0);
    const runs = stats.reduce((a, x) => a + x.runs, 0);
    expect(reused / runs).toBeGreaterThan(0.5);
  });

  it('the fleet merge is the same with and without the memo', () => {
    const snaps = Array.from({ length: 150 }, (_, i) => nodeSnapshot(i, base));
    const a = new FleetMerger({ checks: ALL_CHECKS });
    const b = new FleetMerger({ checks: ALL_CHECKS, memo: false });
    for (const s of snaps) {
      a.add(s, `${s.host.name}.json`);
      b.add(s, `${s.host.name}.json`);
    }
    expect(a.result()).toEqual(b.result());
  });

  it('the fleet merge is the same with and without the memo where the facts vary from node to node', () => {
    const snaps = Array.from({ length: 160 }, (_, i) => {
      const s = nodeSnapshot(i, base) as Snapshot & Record<string, unknown>;
      if (i % 5 === 0) delete s.python; // the python facts not collected there
      if (i % 7 === 0) s.env.CUDA_VISIBLE_DEVICES = String(i % 3);
      if (s.nvidia.ok && i % 11 === 0) s.nvidia.gpus[0]!.name = 'NVIDIA H100 80GB HBM3';
      if (s.nvidia.ok && i % 13 === 0) s.nvidia.driverVersion = i % 2 === 0 ? '575.57.08' : '570.172.08';
      if (i % 17 === 0) s.system.arch = 'arm64';
      if (i === 90) {
        // a section whose reading throws: its facts are "not collected" on that node only
        Object.defineProperty(s, 'libraries', {
          enumerable: true,
          get() {
            throw new Error('unreadable');
          },
        });
      }
      return s;
    });
    const a = new FleetMerger({ checks: ALL_CHECKS });
    const b = new FleetMerger({ checks: ALL_CHECKS, memo: false });
    for (const s of snaps) {
      a.add(s, `${s.host.name}.json`);
      b.add(s, `${s.host.name}.json`);
    }
    const r = a.result();
    expect(r).toEqual(b.result());
    expect(r.groups.length).toBeGreaterThan(6);
    expect(r.splits.length + r.outliers.length).toBeGreaterThan(0);
  });
});

describe('what the recording follows, and where it stands aside', () => {
  const snaps = Array.from({ length: 5 }, (_, i) => nodeSnapshot(i, base, { heldEvery: 0, plant: false }));
  const mk = (evaluate: (s: Snapshot) => string | null): Check => ({
    id: 'test.check',
    category: 'system',
    title: 'test',
    evaluate: (s) => {
      const m = evaluate(s);
      return m === null
        ? []
        : [finding({ check: 'test.check', severity: 'warn', status: 'warn', rootCause: null, message: m })];
    },
  });

  it('reuses while the values read are equal, and runs again when one differs', () => {
    let calls = 0;
    const memo = new MemoChecks([mk((s) => (calls++, s.nvidia.ok ? s.nvidia.driverVersion : null))]);
    for (const s of snaps) memo.run(s);
    expect(calls).toBe(1);
    const other = clone(snaps[0]!);
    if (other.nvidia.ok) other.nvidia.driverVersion = '570.1';
    expect(memo.run(other)[0]!.findings[0]!.message).toBe('570.1');
    expect(calls).toBe(2);
    expect(memo.run(snaps[3]!)[0]!.findings[0]!.message).toBe('580.159.04'); // the earlier variant still there
    expect(calls).toBe(2);
  });

  it('tells 0 from -0 (JSON has both) as Object.is does', () => {
    const memo = new MemoChecks([mk((s) => String(1 / (s.system.uptimeSeconds ?? 1)))]);
    const zero = clone(snaps[0]!);
    zero.system.uptimeSeconds = 0;
    const minus = JSON.parse(JSON.stringify(zero).replace('"uptimeSeconds":0', '"uptimeSeconds":-0')) as Snapshot;
    expect(Object.is(minus.system.uptimeSeconds, -0)).toBe(true);
    expect(memo.run(zero)[0]!.findings[0]!.message).toBe('Infinity');
    expect(memo.run(minus)[0]!.findings[0]!.message).toBe('-Infinity');
    expect(memo.run(clone(zero))[0]!.findings[0]!.message).toBe('Infinity');
  });

  it('follows Object.keys, "in", array lengths and iteration', () => {
    let calls = 0;
    const memo = new MemoChecks([
      mk(
        (s) => (
          calls++,
          `${Object.keys(s.env).sort().join(',')}|${'LD_PRELOAD' in s.env}|${s.processes.list.map((p) => p.pid).join(',')}`
        ),
      ),
    ]);
    memo.run(snaps[0]!);
    memo.run(snaps[1]!);
    expect(calls).toBe(1);
    const withVar = clone(snaps[2]!);
    withVar.env.LD_PRELOAD = '/x.so';
    expect(memo.run(withVar)[0]!.findings[0]!.message).toContain('LD_PRELOAD');
    const withProc = clone(snaps[2]!);
    withProc.processes.list.push(clone(base.held.processes.list[0]!));
    expect(memo.run(withProc)[0]!.findings[0]!.message).toMatch(/\|589$/);
    expect(calls).toBe(3);
  });

  it('a check that writes to the snapshot or cannot run under the proxy is run plainly from then on', () => {
    const writer = mk((s) => {
      (s.env as Record<string, string>).SEEN = '1';
      return 'wrote';
    });
    const memo = new MemoChecks([writer]);
    for (const s of snaps) expect(memo.run(clone(s))[0]!.findings[0]!.message).toBe('wrote');
    expect(memo.stats()[0]).toMatchObject({ recorded: false });

    let calls = 0;
    const cloner = mk((s) => (calls++, structuredClone(s.env).PATH ?? null));
    const m2 = new MemoChecks([cloner]);
    expect(m2.run(snaps[0]!)[0]!.findings[0]!.message).toBe(snaps[0]!.env.PATH);
    expect(m2.run(snaps[1]!)[0]!.findings[0]!.status).toBe('warn');
    expect(m2.stats()[0]).toMatchObject({ recorded: false });
  });

  it('a check run after one that writes to the snapshot sees the write, not the values read before it', () => {
    // before reads MARK first (its value is then known), writer sets it on nodes that ask, after reports it
    const before = { ...mk((s) => s.env.MARK ?? 'unset'), id: 'test.before' };
    const writer = {
      ...mk((s) => {
        if (s.env.WRITE === '1') (s.env as Record<string, string>).MARK = 'written';
        return null;
      }),
      id: 'test.writer',
    };
    const after = { ...mk((s) => s.env.MARK ?? 'unset'), id: 'test.after' };
    const checks = [before, writer, after];
    const memo = new MemoChecks(checks);
    const asked = (i: number) => {
      const s = clone(snaps[i % snaps.length]!);
      s.env.WRITE = '1';
      return s;
    };
    const nodes = [clone(snaps[0]!), asked(1), clone(snaps[2]!), asked(3), asked(4)];
    for (const s of nodes) {
      const want = runChecks(checks, clone(s)).map((r) => strip(r.findings));
      expect(memo.run(s).map((r) => strip(r.findings))).toEqual(want);
    }
    expect(memo.stats().map((x) => [x.check, x.recorded])).toEqual([
      ['test.before', true],
      ['test.writer', false],
      ['test.after', true],
    ]);
  });

  it('checks that read the same paths share the reads: one path table for all recordings', () => {
    const driver = mk((s) => (s.nvidia.ok ? s.nvidia.driverVersion : null));
    const alone = new ReadMemo();
    const one = new MemoChecks([driver], alone);
    const both = new ReadMemo();
    const two = new MemoChecks([driver, { ...driver, id: 'test.again' }], both);
    for (const s of snaps) {
      one.run(s);
      two.run(s);
    }
    expect(alone.paths).toBeGreaterThanOrEqual(3); // nvidia, its ok, its driverVersion (and what the run reads)
    expect(both.paths).toBe(alone.paths);
    expect(two.stats().map((x) => x.reused)).toEqual([4, 4]);
  });

  it('stops recording a check whose inputs differ on most nodes', () => {
    const memo = new MemoChecks([mk((s) => s.collectedAt)]);
    const many = Array.from({ length: 80 }, (_, i) => nodeSnapshot(i, base, { heldEvery: 0, plant: false }));
    for (const s of many) expect(memo.run(s)[0]!.findings[0]!.message).toBe(s.collectedAt);
    expect(memo.stats()[0]).toMatchObject({ runs: 80, reused: 0, recorded: false });
  });

  it('decides soon, before the per-snapshot code is optimised: at the 16th run; reused on a quarter, it stays', () => {
    const many = Array.from({ length: 16 }, (_, i) => {
      const s = nodeSnapshot(i, base, { heldEvery: 0, plant: false });
      s.system.uptimeSeconds = Math.floor(i * 0.75); // 0 0 1 2 3 3 4 5 6 6 …: the one before, on 4 nodes of 16
      return s;
    });
    const never = new MemoChecks([mk((s) => s.collectedAt)]);
    const quarter = new MemoChecks([mk((s) => String(s.system.uptimeSeconds))]);
    many.forEach((s, i) => {
      never.run(s);
      quarter.run(s);
      if (i === 14) expect(never.stats()[0]).toMatchObject({ runs: 15, recorded: true });
    });
    expect(never.stats()[0]).toMatchObject({ runs: 16, reused: 0, recorded: false });
    expect(quarter.stats()[0]).toMatchObject({ runs: 16, reused: 4, recorded: true });
  });
});
