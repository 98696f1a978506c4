// The glossary: every label and fixed phrase the reporters print around what a finding says, in one place,
// so every output uses the same words (one vocabulary for every command). The words themselves live in the
// message catalogs (src/base/i18n/en.ts, zh.ts); each group is a function of the Words the renderer was handed
// (labelsOf(w).fix), made once per language. Whole sentences with named slots, never sentences built from fragments.
import type { Words } from '../base/i18n/words.js';

export function labelsOf(w: Words) {
  return cached(w, 'labelsOf', () => ({
    fix: w.t('label.fix'),
    /** between a label and what follows it: a space after "Fix:", none after the full-width colon of 修复： */
    gap: w.t('label.gap'),
    /** after the acting command `gpu-env-doctor fix` */
    actNote: w.t('label.actNote'),
    /** a destructive or by-hand step, never in the list of safe commands */
    byHand: w.t('label.byHand'),
    heldBy: w.t('label.heldBy'),
    /** a link to the page of a finding */
    about: w.t('label.about'),
    ids: w.t('label.ids'),
    evidence: w.t('label.evidence'),
    details: w.t('label.details'),
    /** a rank in a diagnosis ("1."), never a severity symbol */
    rank: (n: number) => w.t('label.rank', { n }),
    logLine: (n: number) => w.t('label.logLine', { n }),
    /** where a piece of evidence was read: "line 26" */
    logLineWhere: (n: number) => w.t('label.logLineWhere', { n }),
    machineFact: w.t('label.machineFact'),
    machineFactWhere: w.t('label.machineFactWhere'),
    noProblems: w.t('label.noProblems'),
    skipped: w.t('label.skipped'),
    notChecked: w.t('label.notChecked'),
  }));
}

/** Report titles and headers. */
export function titlesOf(w: Words) {
  return cached(w, 'titlesOf', () => ({
    live: (command: string, host: string) => w.t('title.live', { command, host }),
    fromSnapshot: (command: string, file: string) => w.t('title.fromSnapshot', { command, file }),
    snapshotLine: (host: string, taken: string, ago: string) => w.t('title.snapshotLine', { host, taken, ago }),
    detailsHint: (command: string) => w.t('title.detailsHint', { command }),
    noGpuVerdict: w.t('title.noGpuVerdict'),
  }));
}

/** How severities and statuses read in words (Markdown tables, HTML titles, screen readers). */
export function markWordsOf(w: Words) {
  return cached(w, 'markWordsOf', () => ({
    ok: w.t('mark.ok'),
    warn: w.t('mark.warn'),
    fail: w.t('mark.fail'),
    unknown: w.t('mark.unknown'),
    skip: w.t('mark.skip'),
  }));
}

/** The summary line at the end of check. */
export function summaryOf(w: Words) {
  return cached(w, 'summaryOf', () => ({
    counts: (errors: number, warnings: number) => w.t('summary.counts', { errors, warnings }),
    unknown: (n: number) => w.t('summary.unknown', { n }),
    ignored: (n: number) => w.t('summary.ignored', { n }),
    checks: (n: number) => w.t('summary.checks', { n }),
    slowest: (ms: number) => w.t('summary.slowest', { ms }),
    noGpu: w.t('summary.noGpu'),
    belowThreshold: (level: string) => (level === 'warn' ? w.t('summary.exit0') : w.t('summary.belowThreshold')),
  }));
}

const made = new WeakMap<Words, Map<string, unknown>>();

/** One object per group and language: the words are fixed once the language is. */
function cached<T>(w: Words, group: string, make: () => T): T {
  let m = made.get(w);
  if (!m) made.set(w, (m = new Map()));
  if (!m.has(group)) m.set(group, make());
  return m.get(group) as T;
}
