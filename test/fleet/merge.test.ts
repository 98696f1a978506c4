import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../src/judge/checks/index.js';
import { FleetMerger, type FleetResult } from '../../src/judge/fleet/merge.js';
import type { Snapshot } from '../../src/gather/snapshot/schema.js';
import { nodeName, nodeSnapshot, PLANTED } from '../../bench/fleet-generate.js';
import { clone, realSnapshot } from './h200-snapshot.js';

const base = { idle: realSnapshot('h200-idle.json'), held: realSnapshot('h200-memory-held.json') };

function merge(snaps: Snapshot[]): FleetResult {
  const m = new FleetMerger({ checks: ALL_CHECKS });
  snaps.forEach((s) => m.add(s, `${s.host.name}.json`));
  return m.result();
}

function fleet(n: number, o: { heldEvery?: number; plant?: boolean } = {}): Snapshot[] {
  return Array.from({ length: n }, (_, i) => nodeSnapshot(i, base, o));
}

describe('fleet: 200 H200 nodes with planted outliers', () => {
  const r = merge(fleet(200));

  it('names exactly the planted outliers, with the planted facts and the usual values', () => {
    const byMachine = new Map(r.outliers.map((o) => [o.machine, o.differs.map((d) => d.fact)]));
    expect([...byMachine.keys()].sort()).toEqual(
      Object.values(PLANTED)
        .map((p) => nodeName(p.index))
        .sort(),
    );
    for (const p of Object.values(PLANTED))
      expect(byMachine.get(nodeName(p.index))!.sort()).toEqual([...p.facts].sort());
    const old = r.outliers.find((o) => o.machine === nodeName(PLANTED.oldDriver.index))!;
    expect(old.differs[0]).toMatchObject({
      fact: 'driver',
      value: '570.172.08',
      usual: '580.159.04',
      impact: 'critical',
    });
    const wheel = r.outliers.find((o) => o.machine === nodeName(PLANTED.wheelMissing.index))!;
    expect(wheel.differs).toEqual([
      {
        fact: 'wheel[nvidia-cudnn-cu13]',
        label: 'Python package nvidia-cudnn-cu13',
        impact: 'critical',
        value: null,
        usual: '9.19.0.56',
      },
    ]);
    const shadow = r.outliers.find((o) => o.machine === nodeName(PLANTED.cudnnShadowed.index))!;
    expect(shadow.differs.find((d) => d.fact === 'loads[torch libcudnn.so.9]')!.value).toMatch(/^9\.14\.0 /);
    // critical ones first
    expect(r.outliers.at(-1)!.machine).toBe(nodeName(PLANTED.eccErrors.index));
  });

  it('groups by the key facts: the old-driver node is its own configuration', () => {
    expect(r.machines).toBe(200);
    expect(r.groups.map((g) => g.size)).toEqual([199, 1]);
    expect(r.groups[0]!.key).toBe(
      'driver 580.159.04 · 1× NVIDIA H200 · 1× 140.4 GiB · x64 · torch 2.11.0+cu130 (CUDA 13.0), jax 0.11.2 (CUDA 13)',
    );
    expect(r.groups[1]!.machines).toEqual([nodeName(PLANTED.oldDriver.index)]);
    expect(r.usual.driver).toBe('580.159.04');
    expect(r.usual['env[LD_LIBRARY_PATH]']).toBe('/usr/local/nvidia/lib64:/usr/local/nvidia/lib');
    expect(r.splits).toEqual([]);
  });

  it('runs the checks on every node: which fail on which machines', () => {
    const held = Array.from({ length: 200 }, (_, i) => i)
      .filter((i) => i % 50 === 49)
      .map(nodeName);
    const headroom = r.findings.find((f) => f.check === 'memory.headroom')!;
    // 1.2 GiB free on those nodes: small jobs still start there, so a warning (H200 truth table)
    expect(headroom).toMatchObject({ severity: 'warn', rootCause: 'memory_held_by_other_process', count: 4 });
    expect(headroom.machines).toEqual(held);
    // the holder of a GPU that is short is named by memory.headroom: one cause, one finding
    expect(r.findings.find((f) => f.check === 'memory.holders')).toBeUndefined();
    const health = r.findings.find((f) => f.check === 'gpu.health')!;
    expect(health).toMatchObject({ severity: 'error', machines: [nodeName(PLANTED.eccErrors.index)] });
    // errors before warnings
    expect(r.findings.map((f) => f.severity)).toEqual(
      [...r.findings.map((f) => f.severity)].sort((a, b) =>
        a === b ? 0 : a === 'error' ? -1 : b === 'error' ? 1 : a === 'warn' ? -1 : 1,
      ),
    );
  });
});

describe('fleet: what "usual" means', () => {
  it('a fleet split half and half has no usual driver: a split, not a hundred outliers', () => {
    const snaps = fleet(100, { plant: false, heldEvery: 0 });
    snaps.forEach((s, i) => {
      if (i % 2 === 0 && s.nvidia.ok) s.nvidia.driverVersion = '575.57.08';
    });
    const r = merge(snaps);
    expect(r.outliers).toEqual([]);
    expect(r.splits).toEqual([
      {
        fact: 'driver',
        label: 'NVIDIA driver',
        impact: 'critical',
        values: [
          { value: '575.57.08', machines: 50 },
          { value: '580.159.04', machines: 50 },
        ],
      },
    ]);
    expect(r.groups.map((g) => g.size)).toEqual([50, 50]);
  });

  it('two thirds is a clear majority; less is not', () => {
    const three = fleet(3, { plant: false, heldEvery: 0 });
    if (three[2]!.nvidia.ok) three[2]!.nvidia.driverVersion = '575.57.08';
    expect(merge(three).outliers.map((o) => o.machine)).toEqual([nodeName(2)]);
    const five = fleet(5, { plant: false, heldEvery: 0 });
    for (const i of [3, 4]) if (five[i]!.nvidia.ok) five[i]!.nvidia.driverVersion = '575.57.08';
    const r = merge(five); // 3 of 5 = 60%
    expect(r.outliers).toEqual([]);
    expect(r.splits.map((s) => s.fact)).toEqual(['driver']);
  });

  it('fewer than three machines have no usual value', () => {
    const two = fleet(2, { plant: false, heldEvery: 0 });
    if (two[1]!.nvidia.ok) two[1]!.nvidia.driverVersion = '575.57.08';
    expect(merge(two).outliers).toEqual([]);
  });

  it('a node that did not collect a section is not an outlier for its facts', () => {
    const snaps = fleet(10, { plant: false, heldEvery: 0 });
    delete (snaps[3] as { python?: unknown }).python;
    const r = merge(snaps);
    expect(r.outliers).toEqual([]);
    expect(r.groups.map((g) => g.size)).toEqual([9, 1]);
    expect(r.groups[1]!.key).toMatch(/ · framework not collected$/);
  });

  it('noise never makes an outlier: memory in use, PIDs, clocks differ on every node', () => {
    const r = merge(fleet(60, { plant: false, heldEvery: 0 }));
    expect(r.outliers).toEqual([]);
    expect(Object.keys(r.usual).some((k) => k.startsWith('gpu.memory-used') || k === 'collected-at')).toBe(false);
  });

  it('an environment variable set on one node only is an outlier with usual "not set"', () => {
    const snaps = fleet(20, { plant: false, heldEvery: 0 });
    snaps[5]!.env.LD_PRELOAD = '/opt/old/libcudnn.so.8';
    const r = merge(snaps);
    expect(r.outliers).toEqual([
      {
        machine: nodeName(5),
        file: `${nodeName(5)}.json`,
        differs: [
          {
            fact: 'env[LD_PRELOAD]',
            label: 'environment variable LD_PRELOAD',
            impact: 'critical',
            value: '/opt/old/libcudnn.so.8',
            usual: null,
          },
        ],
      },
    ]);
  });

  it('the same host name twice is reported and both are kept', () => {
    const snaps = fleet(4, { plant: false, heldEvery: 0 });
    snaps[3] = clone(snaps[3]!);
    snaps[3].host.name = nodeName(1);
    const r = merge(snaps);
    expect(r.duplicates).toEqual([nodeName(1)]);
    expect(r.groups[0]!.machines).toContain(`${nodeName(1)} (${nodeName(1)}.json)`);
    expect(r.machines).toBe(4);
  });

  it('a GPU missing on one node of eight-GPU machines: gpu.count and the absent GPU', () => {
    const eight = clone(base.idle);
    if (!eight.nvidia.ok) throw new Error('fixture');
    const g0 = eight.nvidia.gpus[0]!;
    eight.nvidia.gpus = Array.from({ length: 8 }, (_, k) => ({ ...clone(g0), index: k }));
    const snaps = Array.from({ length: 10 }, (_, i) =>
      nodeSnapshot(i, { idle: eight, held: eight }, { plant: false, heldEvery: 0 }),
    );
    const s7 = snaps[7]!;
    if (s7.nvidia.ok) s7.nvidia.gpus.pop(); // fell off the bus
    const r = merge(snaps);
    expect(r.groups[0]!.key).toContain('8× NVIDIA H200');
    const o = r.outliers.find((x) => x.machine === nodeName(7))!;
    expect(o.differs.map((d) => [d.fact, d.value, d.usual])).toEqual(
      expect.arrayContaining([
        ['gpu.count', '7', '8'],
        ['gpu.model[7]', null, 'NVIDIA H200'],
      ]),
    );
  });
});

describe('fleet: chunks merged apart and joined in order (the worker threads) give one merger’s result', () => {
  // 240 nodes: the planted outliers fall in different chunks, every 7th holds memory (findings whose messages
  // differ), two hosts repeat across chunks (renamed on the second sighting), and a GPU appears only late.
  const snaps = fleet(240, { heldEvery: 7 });
  snaps[130]!.host.name = snaps[3]!.host.name;
  snaps[200]!.host.name = snaps[3]!.host.name;
  snaps[230]!.host.name = snaps[229]!.host.name;
  const extra = clone(snaps[220]!);
  snaps[220] = extra;
  if (extra.nvidia.ok) extra.nvidia.gpus.push({ ...extra.nvidia.gpus[0]!, index: 1, uuid: 'GPU-late-second' });
  const feed = (m: FleetMerger, from: number, to: number) => {
    for (let i = from; i < to; i++) {
      if (i % 37 === 5) m.skip(`broken-${i}.json`, 'not JSON');
      m.add(snaps[i]!, `rack/${snaps[i]!.host.name}.json`);
    }
  };
  const one = new FleetMerger({ checks: ALL_CHECKS });
  one.skip('first.json', 'empty');
  feed(one, 0, snaps.length);
  const expected = JSON.stringify(one.result(), null, 2);

  for (const cuts of [[120], [1, 2, 100, 239], [60, 120, 180], [0, 240]]) {
    it(`cut at ${cuts.join(', ')}`, () => {
      const joined = new FleetMerger({ checks: ALL_CHECKS });
      joined.skip('first.json', 'empty');
      const bounds = [0, ...cuts, snaps.length];
      for (let k = 0; k + 1 < bounds.length; k++) {
        const slice = new FleetMerger({ checks: ALL_CHECKS, source: k });
        feed(slice, bounds[k]!, bounds[k + 1]!);
        // through the structured clone a worker's message goes through
        joined.absorb(structuredClone(slice.partial()));
      }
      const got = joined.result();
      expect(got.duplicates).toEqual([snaps[3]!.host.name, snaps[229]!.host.name]);
      expect(got.machines).toBe(240);
      expect(JSON.stringify(got, null, 2)).toBe(expected);
    });
  }

  // Threads taking the next chunk not yet taken: each merger makes one partial per chunk it took, numbering
  // instances and values once for all of them; the chunks are joined in input order, not in the order made.
  for (const [chunk, takers] of [
    [16, 'ABAABBBABAAAABBB'],
    [7, 'AABCBCCAAABCBBCAAACBCBCACBCACBBAACA'],
    [240, 'A'],
  ] as const) {
    it(`chunks of ${chunk} taken by ${new Set(takers).size} mergers in turn`, () => {
      const mergers = new Map<string, FleetMerger>();
      const parts = [];
      for (let c = 0; c * chunk < snaps.length; c++) {
        const who = takers[c % takers.length]!;
        let m = mergers.get(who);
        if (!m) mergers.set(who, (m = new FleetMerger({ checks: ALL_CHECKS, source: who.charCodeAt(0) })));
        feed(m, c * chunk, Math.min(snaps.length, (c + 1) * chunk));
        parts.push(structuredClone(m.partial()));
      }
      const joined = new FleetMerger({ checks: ALL_CHECKS });
      joined.skip('first.json', 'empty');
      for (const p of parts) joined.absorb(p);
      expect(JSON.stringify(joined.result(), null, 2)).toBe(expected);
    });
  }

  it("a partial joined before its merger's earlier one is refused, not merged with the wrong numbers", () => {
    const m = new FleetMerger({ checks: ALL_CHECKS, source: 7 });
    feed(m, 0, 30);
    const first = m.partial();
    feed(m, 30, 60);
    const second = m.partial();
    expect(second.instanceBase).toBeGreaterThan(0);
    expect(() => new FleetMerger({ checks: ALL_CHECKS }).absorb(second)).toThrow(/source 7 out of order/);
    const joined = new FleetMerger({ checks: ALL_CHECKS });
    joined.absorb(first);
    expect(() => joined.absorb(second)).not.toThrow();
  });

  it('the joined result is not trivially equal: the fleet has outliers, splits, duplicates and findings', () => {
    const r = one.result();
    expect(r.outliers.length).toBeGreaterThan(3);
    expect(r.findings.length).toBeGreaterThan(0);
    expect(r.inputs.skipped.length).toBe(8);
    expect(r.groups.length).toBeGreaterThan(1);
  });
});
