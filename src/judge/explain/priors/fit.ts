// Fitting the priors (model.ts) on labelled reports. Everything is counted, nothing is tuned by hand:
// - counts: for each report, its label is counted once per context key (framework, framework|era) and shared
//   among the message groups it showed (1/k each);
// - `strength` (how many reports the catalog's order of causes is worth) and `context` (how much framework and
//   era reweigh causes) are chosen on a grid by leave-one-out log-likelihood of the right cause (a proper score:
//   accuracy alone flipped between grid points on one or two reports): each report is diagnosed with priors
//   counted without it, so a report never votes for its own label;
// - the calibration is a logistic regression, on those same leave-one-out diagnoses, of "the first cause was
//   right" on the first cause's share of the weight, the total weight and whether the diagnosis was ambiguous.
// The accuracy bench runs this inside k-fold cross-validation: the fold it scores is never among the reports.
import { ROOT_CAUSES, type RootCauseId } from '../../../knowledge/root-causes.js';
import type { Diagnosis } from '../types.js';
import { PriorModel, type Dist, type FittedPriors, type Sample } from './model.js';

export interface FitReport {
  sample: Sample;
  /** diagnoses this report with the given priors (its reading is done once, before) */
  diagnose: (priors: PriorModel) => Diagnosis;
}

export const STRENGTH_GRID = [0.5, 1, 2, 4, 8];
export const CONTEXT_GRID = [0, 0.25, 0.5, 1];

export function countPriors(samples: Sample[]): Pick<FittedPriors, 'groups' | 'contexts'> {
  const groups: Record<string, Dist> = {};
  const contexts: Record<string, Dist> = {};
  const add = (m: Record<string, Dist>, key: string, c: RootCauseId, w: number) => {
    const d = (m[key] ??= {});
    d[c] = round4((d[c] ?? 0) + w);
  };
  for (const s of samples) {
    for (const g of s.groups) add(groups, g, s.label, 1 / s.groups.length);
    add(contexts, '*', s.label, 1);
    for (const k of s.contextKeys) add(contexts, k, s.label, 1);
  }
  return { groups: sortKeys(groups), contexts: sortKeys(contexts) };
}

/**
 * `views`: the same reports read another way (the log without the environment block), index for index: their
 * diagnoses calibrate too (explain reads both kinds of input), with the report's own counts left out as above.
 */
export function fitPriors(reports: FitReport[], corpora: string[], views: FitReport[] = []): FittedPriors {
  const counts = countPriors(reports.map((r) => r.sample));
  const base: FittedPriors = {
    fittedOn: { corpora, reports: reports.length },
    strength: 2,
    context: 0,
    calibration: { a: 1, b: 0, c: 0, d: 0, e: 0 },
    ...counts,
  };
  let best: { strength: number; context: number; acc: number; ll: number; points: Point[] } | undefined;
  for (const strength of STRENGTH_GRID) {
    for (const context of CONTEXT_GRID) {
      const fitted = { ...base, strength, context, calibration: { a: 1, b: 0, c: 0, d: 0, e: 0 } };
      let acc = 0;
      let ll = 0;
      const points: Point[] = [];
      for (const r of reports) {
        const d = r.diagnose(new PriorModel(fitted, r.sample));
        const top = d.causes[0];
        const right = top?.id === r.sample.label;
        if (right) acc++;
        const scoreOf = (id: RootCauseId) => d.causes.find((c) => c.id === id)?.score ?? 0;
        const p = d.weights.total > 0 ? scoreOf(r.sample.label) / d.weights.total : 0;
        ll += Math.log(Math.max(p, 0.01));
        if (top)
          points.push({
            share: d.weights.topShare,
            total: d.weights.total,
            ambiguous: d.ambiguous,
            onlyMessages: d.weights.onlyMessages ?? false,
            right,
          });
      }
      if (!best || ll > best.ll) best = { strength, context, acc, ll, points };
    }
  }
  const chosen = { ...base, strength: best!.strength, context: best!.context };
  const points = best!.points.slice();
  views.forEach((v, i) => {
    const d = v.diagnose(new PriorModel(chosen, reports[i]!.sample));
    const top = d.causes[0];
    if (top)
      points.push({
        share: d.weights.topShare,
        total: d.weights.total,
        ambiguous: d.ambiguous,
        onlyMessages: d.weights.onlyMessages ?? false,
        right: top.id === reports[i]!.sample.label,
      });
  });
  return { ...chosen, calibration: fitCalibration(points) };
}

interface Point {
  share: number;
  total: number;
  /** the diagnosis said its input could not separate the first candidates */
  ambiguous: boolean;
  /** only messages stand behind the first cause (no number, version or machine fact moved it) */
  onlyMessages: boolean;
  right: boolean;
}

/**
 * logistic regression of `right` on (logit(share), ln(total), 1, ambiguous, only messages), by Newton's method with a
 * small ridge
 */
export function fitCalibration(points: Point[]): { a: number; b: number; c: number; d: number; e: number } {
  if (points.length < 5) return { a: 1, b: 0, c: 0, d: 0, e: 0 };
  const X = points.map((p) => {
    const s = clipShare(p.share);
    return [Math.log(s / (1 - s)), Math.log(Math.max(p.total, 1e-3)), 1, p.ambiguous ? 1 : 0, p.onlyMessages ? 1 : 0];
  });
  const y = points.map((p) => (p.right ? 1 : 0));
  const n = 5;
  // the ridge pulls a towards 1 (the share as it is), b, d and e towards 0; the intercept is free. The two flags
  // overlap (an ambiguous first place has only messages behind it): a firmer ridge keeps their split stable
  const prior = [1, 0, 0, 0, 0];
  const ridge = [0.1, 0.1, 1e-6, 1, 1];
  let w = prior.slice();
  for (let iter = 0; iter < 50; iter++) {
    const g = w.map((v, j) => ridge[j]! * (v - prior[j]!));
    const H = Array.from({ length: n }, (_, j) => Array.from({ length: n }, (_, k) => (j === k ? ridge[j]! : 0)));
    for (let i = 0; i < X.length; i++) {
      const x = X[i]!;
      const z = x.reduce((a, v, j) => a + w[j]! * v, 0);
      const p = 1 / (1 + Math.exp(-z));
      for (let j = 0; j < n; j++) {
        g[j]! += (p - y[i]!) * x[j]!;
        for (let k = 0; k < n; k++) H[j]![k]! += p * (1 - p) * x[j]! * x[k]!;
      }
    }
    const step = solve(H, g);
    if (!step) break;
    w = w.map((v, j) => v - step[j]!);
    if (Math.hypot(...step) < 1e-8) break;
  }
  return { a: round4(w[0]!), b: round4(w[1]!), c: round4(w[2]!), d: round4(w[3]!), e: round4(w[4]!) };
}

/** a share of 1 (one cause alone on the board) says nothing about how sure to be: the logit is bounded */
export function clipShare(share: number): number {
  return Math.min(0.98, Math.max(0.02, share));
}

/** A x = b by Gaussian elimination with partial pivoting; null when A is singular */
function solve(A: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = A.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[piv]![c]!)) piv = r;
    if (Math.abs(m[piv]![c]!) < 1e-12) return null;
    [m[c], m[piv]] = [m[piv]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return Array.from({ length: n }, (_, i) => m[i]![n]! / m[i]![i]!);
}

function round4(n: number): number {
  return Math.round(n * 10000) / 10000;
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export { ROOT_CAUSES };
