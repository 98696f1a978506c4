// check's judging begun on the snapshot so far (src/commands/shared/prejudge.ts): whatever the checks read, the
// findings are those of a plain run on the whole snapshot; a check keeps its early findings only when all it read
// is the same there, and runs again otherwise.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Prejudge } from '../../src/commands/shared/prejudge.js';
import { NOT_YET_ANSWERED } from '../../src/gather/snapshot/collect.js';
import type { Snapshot } from '../../src/gather/snapshot/schema.js';
import type { Check } from '../../src/judge/checks/check.js';
import { ALL_CHECKS } from '../../src/judge/checks/index.js';
import { runChecks } from '../../src/judge/checks/run-checks.js';
import type { Finding } from '../../src/judge/finding.js';
import { clone, EXAMPLES, realSnapshot } from '../fleet/h200-snapshot.js';

/** The whole snapshot as collect.ts shows it before nvidia-smi's answer: the same sections, no GPU facts. */
function soFarOf(s: Snapshot): Snapshot {
  return {
    ...s,
    ...NOT_YET_ANSWERED,
    probes: s.probes.slice(0, 3),
    ...(s.libraries ? { libraries: { ...s.libraries, loaded: [], processes: [] } } : {}),
  };
}

async function prejudged(checks: readonly Check[], whole: Snapshot, soFar = soFarOf(whole)) {
  const p = new Prejudge(checks);
  await p.beginChecks(soFar, () => false);
  return { p, results: p.finishChecks(whole) };
}

const findings = (r: { findings: Finding[] }[]) => r.map((x) => x.findings);

function snapshots(): [string, Snapshot][] {
  const files = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));
  const out: [string, Snapshot][] = files.map((f) => [f, JSON.parse(fs.readFileSync(path.join(EXAMPLES, f), 'utf8'))]);
  out.push(['h200-idle + captured sections', realSnapshot('h200-idle.json')]);
  out.push(['h200-memory-held + captured sections', realSnapshot('h200-memory-held.json')]);
  // no GPU at all: the GPU facts read early are the same after the answer
  const none = clone(realSnapshot('h200-idle.json'));
  none.nvidia = { ok: false, failure: { reason: 'not-installed', message: 'nvidia-smi was not found on PATH' } };
  out.push(['no nvidia-smi', none]);
  return out;
}

describe('the checks begun before nvidia-smi answers', () => {
  it.each(snapshots())('%s: the findings of a plain run, some kept from the early run', async (_, whole) => {
    const { p, results } = await prejudged(ALL_CHECKS, whole);
    expect(findings(results)).toEqual(findings(runChecks(ALL_CHECKS, whole)));
    const { ranEarly, kept } = p.stats();
    expect(ranEarly).toBe(ALL_CHECKS.length);
    expect(kept).toBeGreaterThan(0);
    if (whole.nvidia.ok) expect(kept).toBeLessThan(ALL_CHECKS.length);
  });

  it.each(snapshots())(
    '%s, begun while the libraries are still read elsewhere, then again with them: the findings of a plain run',
    async (_, whole) => {
      const p = new Prejudge(ALL_CHECKS);
      const soFar = soFarOf(whole);
      await p.beginChecks({ ...soFar, libraries: undefined }, () => false);
      await p.beginChecks(soFar, () => false);
      expect(findings(p.finishChecks(whole))).toEqual(findings(runChecks(ALL_CHECKS, whole)));
      expect(p.stats().ranEarly).toBe(ALL_CHECKS.length);
    },
  );

  it('without the libraries, the checks that judge them and the versions are begun last', async () => {
    const whole = realSnapshot('h200-idle.json');
    const p = new Prejudge(ALL_CHECKS);
    await p.beginChecks({ ...soFarOf(whole), libraries: undefined }, () => false);
    const categories = p.stats().order.map((id) => ALL_CHECKS.find((c) => c.id === id)!.category);
    const firstLate = categories.findIndex((c) => c === 'libraries' || c === 'versions');
    expect(firstLate).toBeGreaterThan(0);
    expect(categories.slice(firstLate).every((c) => c === 'libraries' || c === 'versions')).toBe(true);
  });

  it('a check stops being begun once nvidia-smi has answered; the rest run after it, once', async () => {
    const whole = realSnapshot('h200-idle.json');
    const p = new Prejudge(ALL_CHECKS);
    let asked = 0;
    await p.beginChecks(soFarOf(whole), () => ++asked > 3);
    expect(p.stats().ranEarly).toBe(3);
    // the checks of files first (their findings kept whole), the GPU's last (run again after the answer anyway)
    const first = p.stats().order.map((id) => ALL_CHECKS.find((c) => c.id === id)!.category);
    expect(first).toEqual(['libraries', 'libraries', 'libraries']);
    expect(findings(p.finishChecks(whole))).toEqual(findings(runChecks(ALL_CHECKS, whole)));
  });
});

/** A check that reads what `read` reads, counting its runs; its finding says what it saw. */
function probe(id: string, read: (s: Snapshot) => unknown): Check & { runs: number } {
  const c = {
    id,
    category: 'system' as const,
    title: id,
    runs: 0,
    evaluate(s: Snapshot): Finding[] {
      c.runs++;
      return [
        {
          check: id,
          severity: 'info',
          status: 'warn',
          rootCause: null,
          message: JSON.stringify(read(s)) ?? '-',
          evidence: [],
        },
      ];
    },
  };
  return c;
}

describe('what a check read decides whether it runs again', () => {
  const whole = realSnapshot('h200-idle.json');
  const cases: [string, (s: Snapshot) => unknown, 'kept' | 'again'][] = [
    ['the Python section', (s) => s.python?.environments.length, 'kept'],
    ['the system and the environment', (s) => [s.system.os, s.env.vars], 'kept'],
    ['the libraries found', (s) => s.libraries?.copies.length, 'kept'],
    ['the GPUs', (s) => s.nvidia.ok, 'again'],
    ['the GPU processes', (s) => s.processes.list.length, 'again'],
    ['the probe timings', (s) => s.probes.length, 'again'],
    ['the libraries the processes mapped', (s) => s.libraries?.loaded.length, 'again'],
    ['the libraries section whole', (s) => JSON.stringify(s.libraries).length, 'again'],
    ['the snapshot whole', (s) => Object.keys(s).length, 'again'],
  ];
  it.each(cases)('%s: %s', async (_, read, expected) => {
    const c = probe('t.read', read);
    const { p, results } = await prejudged([c], whole);
    expect(findings(results)).toEqual([[expect.objectContaining({ message: JSON.stringify(read(whole)) ?? '-' })]]);
    expect(p.stats().kept).toBe(expected === 'kept' ? 1 : 0);
    expect(c.runs).toBe(expected === 'kept' ? 1 : 2);
  });

  it('a key present after the answer only: asked with `in`, the check runs again', async () => {
    const soFar = soFarOf(whole);
    delete (soFar as Partial<Snapshot>).kernelLog;
    const withLog = { ...whole, kernelLog: { readable: true, nvrmLines: 0, xid: [] } } as Snapshot;
    const c = probe('t.has', (s) => 'kernelLog' in s);
    const { results } = await prejudged([c], withLog, soFar);
    expect(results[0]!.findings[0]!.message).toBe('true');
    expect(c.runs).toBe(2);
  });

  it('the same values under other key lists: listed, the check runs again', async () => {
    const logged = { ...whole, kernelLog: { readable: true, nvrmLines: 0, xid: [] } } as Snapshot;
    const before = { ...logged } as Partial<Snapshot>;
    delete before.kernelLog;
    const top = probe('t.keys', (s) => Object.keys(s).length);
    expect((await prejudged([top], logged, before as Snapshot)).results[0]!.findings[0]!.message).toBe(
      String(Object.keys(logged).length),
    );
    expect(top.runs).toBe(2);
    const libs = { ...whole.libraries!, message: 'no ld cache' };
    const { message: _, ...libsBefore } = libs;
    const inner = probe('t.inner-keys', (s) => Object.keys(s.libraries!).length);
    await prejudged([inner], { ...whole, libraries: libs }, { ...whole, libraries: libsBefore });
    expect(inner.runs).toBe(2);
  });

  it('a check that writes to the snapshot, or crashes, runs again', async () => {
    const writer = probe('t.write', (s) => {
      (s as Record<string, unknown>).scratch = 1;
      return s.python?.environments.length;
    });
    let calls = 0;
    const crasher: Check = {
      id: 't.crash',
      category: 'system',
      title: 't.crash',
      evaluate(s) {
        if (++calls === 1) throw new Error('first run');
        return [
          {
            check: 't.crash',
            severity: 'info',
            status: 'warn',
            rootCause: null,
            message: String(s.system.os),
            evidence: [],
          },
        ];
      },
    };
    const { results } = await prejudged([writer, crasher], clone(whole));
    expect(writer.runs).toBe(2);
    expect(calls).toBe(2);
    expect(results[1]!.findings[0]!.status).toBe('warn');
  });
});
