// `diff`: what differs between two snapshots, fact by fact, ranked by how likely the difference changes what a
// GPU job does. Pure: two snapshots in, a DiffResult out; reporters render it.
import type { Snapshot } from '../../gather/snapshot/schema.js';
import { fmtMiB } from '../../base/format.js';
import { joinList, t } from '../../base/i18n/index.js';
import { extractFacts, FACTS, IMPACT_RANK, impactOf, type FactDef, type Impact } from './facts.js';

export const DIFF_SCHEMA_VERSION = 1;

export interface DiffSide {
  /** the file name, or "this machine" */
  label: string;
  host: string;
  collectedAt: string;
  tool: string;
}

export interface Difference {
  /** instance id: "driver", "gpu.model[0]", "env[LD_PRELOAD]" */
  fact: string;
  label: string;
  impact: Impact;
  /** null: absent on that side (unset, not installed, no such GPU) */
  a: string | null;
  b: string | null;
  /** true when one side did not collect the fact at all (older snapshot, probe not run) */
  notCollected?: 'a' | 'b';
  why: string;
}

export interface DiffResult {
  schemaVersion: typeof DIFF_SCHEMA_VERSION;
  a: DiffSide;
  b: DiffSide;
  /** most impact first; noise only with `all` */
  differences: Difference[];
  /** fact values compared and equal */
  same: number;
  /** noise differences left out (PIDs, timestamps, memory in use); `--all` shows them */
  hiddenNoise: number;
}

export interface DiffOptions {
  all?: boolean;
  facts?: readonly FactDef[];
}

export function side(s: Snapshot, label: string): DiffSide {
  return { label, host: s.host.name, collectedAt: s.collectedAt, tool: s.tool.version };
}

export function diffSnapshots(
  sa: Snapshot,
  sb: Snapshot,
  labels: { a: string; b: string },
  o: DiffOptions = {},
): DiffResult {
  const defs = o.facts ?? FACTS;
  const fa = extractFacts(sa, defs);
  const fb = extractFacts(sb, defs);
  const differences: Difference[] = [];
  let same = 0;
  let hiddenNoise = 0;
  const push = (d: Difference) => {
    if (d.impact === 'noise' && !o.all) hiddenNoise++;
    else differences.push(d);
  };
  for (const def of defs) {
    const aMissing = fa.notCollected.has(def.id);
    const bMissing = fb.notCollected.has(def.id);
    if (aMissing && bMissing) continue;
    if (aMissing || bMissing) {
      // One side has no such section: one line, not a "removed" line per package.
      push({
        fact: def.id,
        label: def.label,
        impact: def.impact === 'noise' ? 'noise' : 'low',
        a: aMissing ? null : summarise(fa.values, fa.byFact.get(def.id) ?? []),
        b: bMissing ? null : summarise(fb.values, fb.byFact.get(def.id) ?? []),
        notCollected: aMissing ? 'a' : 'b',
        why: t('diff.notCollectedOn', { side: aMissing ? labels.a : labels.b }),
      });
      continue;
    }
    // Union of the instance ids, in A's order then B's extra ones.
    const ids = [...new Set([...(fa.byFact.get(def.id) ?? []), ...(fb.byFact.get(def.id) ?? [])])];
    for (const id of ids) {
      const va = fa.values.get(id) ?? null;
      const vb = fb.values.get(id) ?? null;
      if (va === vb) {
        same++;
        continue;
      }
      const sub = subOf(def.id, id);
      push({
        fact: id,
        label: sub === '' ? def.label : `${def.label} ${sub}`,
        impact: impactOf(def, sub),
        a: va,
        b: vb,
        why: def.why,
      });
    }
  }
  differences.push(...memoryDifferences(sa, sb));
  // Stable sort: impact first, then the table's order (driver before GPU model before env...).
  differences.sort((x, y) => IMPACT_RANK[y.impact] - IMPACT_RANK[x.impact]);
  return {
    schemaVersion: DIFF_SCHEMA_VERSION,
    a: side(sa, labels.a),
    b: side(sb, labels.b),
    differences,
    same,
    hiddenNoise,
  };
}

/** A process holding this share of a GPU, or a GPU left with less than this free, is a difference that matters. */
const BIG_HOLDER_SHARE = 0.25;
const MIN_FREE_MIB = 2048;

/**
 * Memory in use is noise (it changes by the second), except in the case people run diff for: "it worked
 * yesterday" because a process now holds most of a GPU, or the GPU has too little left for a job to start.
 */
export function memoryDifferences(sa: Snapshot, sb: Snapshot): Difference[] {
  if (!sa.nvidia.ok || !sb.nvidia.ok) return [];
  const out: Difference[] = [];
  const describe = (s: Snapshot, index: number): { text: string; tight: boolean; holders: Set<number> } | null => {
    if (!s.nvidia.ok) return null;
    const g = s.nvidia.gpus.find((x) => x.index === index);
    if (!g) return null;
    const big = g.processes.filter((p) => (p.usedMiB ?? 0) >= g.memory.totalMiB * BIG_HOLDER_SHARE);
    const names = big.map((p) => {
      const h = s.processes.list.find((x) => x.pid === p.pid);
      return t('diff.holds', { pid: p.pid, name: h?.name ?? p.name.split('/').pop() ?? '?', mib: fmtMiB(p.usedMiB) });
    });
    const free = t('diff.freeOf', { free: fmtMiB(g.memory.freeMiB), total: fmtMiB(g.memory.totalMiB) });
    return {
      text: names.length > 0 ? `${joinList(names, 'comma')}${t('list.semicolon')}${free}` : free,
      tight: g.memory.freeMiB < MIN_FREE_MIB,
      holders: new Set(big.map((p) => p.pid)),
    };
  };
  for (const g of sb.nvidia.gpus) {
    const a = describe(sa, g.index);
    const b = describe(sb, g.index);
    if (!a || !b) continue;
    const newHolder =
      [...b.holders].some((pid) => !a.holders.has(pid)) || [...a.holders].some((pid) => !b.holders.has(pid));
    if (a.tight === b.tight && !newHolder) continue;
    out.push({
      fact: `gpu.free-memory[${g.index}]`,
      label: t('diff.gpuMemory', { index: g.index }),
      impact: 'high',
      a: a.text,
      b: b.text,
      why: t('diff.memoryWhy'),
    });
  }
  return out;
}

function subOf(factId: string, id: string): string {
  return id === factId ? '' : id.slice(factId.length + 1, -1);
}

function summarise(values: Map<string, string>, ids: string[]): string {
  if (ids.length === 0) return t('diff.none');
  if (ids.length === 1 && !ids[0]!.includes('[')) return values.get(ids[0]!) ?? t('diff.none');
  return t('diff.values', { n: ids.length });
}
