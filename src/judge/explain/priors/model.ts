// The priors of the diagnosis, fitted from labelled real reports (fit.ts, run by scripts/fit-explain-priors.mjs;
// the result is fitted.json, data a reader can inspect):
// - per signal group, how many reports behind that message had each cause; blended with the catalog's own order
//   of causes (Dirichlet smoothing: `strength` is how many reports the catalog's opinion is worth);
// - per framework and era (TensorFlow 1/2, CUDA 10/11/12/13), how often each cause is behind a failure at all;
//   `context` is how much that reweighs the causes the lines point at (0: not at all);
// - the calibration of the first cause's confidence (a logistic map of its share of the weight and of the total
//   weight, and whether the input could not separate its first candidates), so that "70%" is right about 70% of
//   the time on reports the fit did not see.
import { ROOT_CAUSES, type RootCauseId } from '../../../knowledge/root-causes.js';

export type Dist = Partial<Record<RootCauseId, number>>;

export interface FittedPriors {
  $comment?: string;
  fittedOn: { corpora: string[]; reports: number };
  strength: number;
  context: number;
  calibration: { a: number; b: number; c: number; d?: number; e?: number };
  groups: Record<string, Dist>;
  contexts: Record<string, Dist>;
}

/** One labelled report as the fit sees it: its label, the signal groups it showed, its context keys. */
export interface Sample {
  label: RootCauseId;
  groups: string[];
  contextKeys: string[];
}

/** Smoothing of the framework/era priors towards the level above (in reports). */
const CONTEXT_SMOOTHING = 4;

export class PriorModel {
  constructor(
    readonly fitted: FittedPriors | null,
    /** a report whose own counts are taken out (leave-one-out while fitting) */
    private readonly leaveOut?: Sample,
    private readonly override?: { strength?: number; context?: number },
  ) {}

  get strength(): number {
    return this.override?.strength ?? this.fitted?.strength ?? 2;
  }

  get contextWeight(): number {
    return this.override?.context ?? this.fitted?.context ?? 0;
  }

  private groupCounts(group: string): Dist {
    const n = this.fitted?.groups[group] ?? {};
    const lo = this.leaveOut;
    if (!lo || !lo.groups.includes(group)) return n;
    const out: Dist = { ...n };
    out[lo.label] = Math.max(0, (out[lo.label] ?? 0) - 1 / lo.groups.length);
    return out;
  }

  /** a group's distribution over causes: the catalog's (q0) worth `strength` reports, plus the reports seen */
  groupDist(group: string, q0: Dist): Dist {
    const n = this.groupCounts(group);
    const A = this.strength;
    const total = Object.values(n).reduce((a, b) => a + (b ?? 0), 0);
    const out: Dist = {};
    for (const c of ROOT_CAUSES) {
      const v = (A * (q0[c] ?? 0) + (n[c] ?? 0)) / (A + total);
      if (v > 0) out[c] = v;
    }
    return out;
  }

  /** how many labelled reports stand behind a group (for the reasoning shown with -v) */
  reportsBehind(group: string): number {
    return Object.values(this.groupCounts(group)).reduce((a, b) => a + (b ?? 0), 0);
  }

  private contextCounts(key: string): Dist {
    const n = this.fitted?.contexts[key] ?? {};
    const lo = this.leaveOut;
    if (!lo || !(key === '*' || lo.contextKeys.includes(key))) return n;
    return { ...n, [lo.label]: Math.max(0, (n[lo.label] ?? 0) - 1) };
  }

  /** π(cause | the deepest known context), smoothed towards each level above it */
  contextPrior(keys: string[]): Record<RootCauseId, number> {
    const base = this.contextCounts('*');
    const N = Object.values(base).reduce((a, b) => a + (b ?? 0), 0);
    let p = Object.fromEntries(ROOT_CAUSES.map((c) => [c, ((base[c] ?? 0) + 1) / (N + ROOT_CAUSES.length)])) as Record<
      RootCauseId,
      number
    >;
    for (const k of keys) {
      const n = this.contextCounts(k);
      const t = Object.values(n).reduce((a, b) => a + (b ?? 0), 0);
      if (t === 0) continue;
      p = Object.fromEntries(
        ROOT_CAUSES.map((c) => [c, ((n[c] ?? 0) + CONTEXT_SMOOTHING * p[c]) / (t + CONTEXT_SMOOTHING)]),
      ) as Record<RootCauseId, number>;
    }
    return p;
  }

  /** the factor each cause's weight is multiplied by in this context: (π(c | context) / π(c))^context */
  contextFactors(keys: string[]): Record<RootCauseId, number> {
    const w = this.contextWeight;
    const top = this.contextPrior([]);
    const here = this.contextPrior(keys);
    return Object.fromEntries(ROOT_CAUSES.map((c) => [c, w === 0 ? 1 : (here[c] / top[c]) ** w])) as Record<
      RootCauseId,
      number
    >;
  }

  /** the confidence of the first cause, from its share of all weight and the total weight */
  calibrate(share: number, total: number, ambiguous = false, onlyMessages = false): number {
    const cal = this.fitted?.calibration;
    if (!cal) return Math.min(0.97, share * Math.min(1, total));
    // bounded as in the fit (fit.ts clipShare): one cause alone on the board is not certainty
    const s = Math.min(0.98, Math.max(0.02, share));
    const z =
      cal.a * Math.log(s / (1 - s)) +
      cal.b * Math.log(Math.max(total, 1e-3)) +
      cal.c +
      (cal.d ?? 0) * (ambiguous ? 1 : 0) +
      (cal.e ?? 0) * (onlyMessages ? 1 : 0);
    return 1 / (1 + Math.exp(-z));
  }
}

/** The context keys of a report: its framework family, then that family with its era, most specific last. */
export function contextKeys(family: string, era: string | undefined): string[] {
  return era ? [family, `${family}|${era}`] : [family];
}
