// The glossary: every label and fixed phrase the reporters print around what a finding says, in one place,
// so every output uses the same words (one vocabulary for every command). The words themselves live in the
// message catalogs (src/base/i18n/en.ts, zh.ts); these getters resolve them in the chosen language, so call sites
// read LABELS.fix as before. Whole sentences with named slots, never sentences built from fragments.
import { t } from '../base/i18n/index.js';

export const LABELS = {
  get fix() {
    return t('label.fix');
  },
  /** between a label and what follows it: a space after "Fix:", none after the full-width colon of 修复： */
  get gap() {
    return t('label.gap');
  },
  /** after the acting command `gpu-env-doctor fix` */
  get actNote() {
    return t('label.actNote');
  },
  /** a destructive or by-hand step, never in the list of safe commands */
  get byHand() {
    return t('label.byHand');
  },
  get heldBy() {
    return t('label.heldBy');
  },
  /** a link to the page of a finding */
  get about() {
    return t('label.about');
  },
  get ids() {
    return t('label.ids');
  },
  get evidence() {
    return t('label.evidence');
  },
  get details() {
    return t('label.details');
  },
  /** a rank in a diagnosis ("1."), never a severity symbol */
  rank: (n: number) => t('label.rank', { n }),
  logLine: (n: number) => t('label.logLine', { n }),
  /** where a piece of evidence was read: "line 26" */
  logLineWhere: (n: number) => t('label.logLineWhere', { n }),
  get machineFact() {
    return t('label.machineFact');
  },
  get machineFactWhere() {
    return t('label.machineFactWhere');
  },
  get noProblems() {
    return t('label.noProblems');
  },
  get skipped() {
    return t('label.skipped');
  },
  get notChecked() {
    return t('label.notChecked');
  },
};

/** Report titles and headers. */
export const TITLES = {
  live: (command: string, host: string) => t('title.live', { command, host }),
  fromSnapshot: (command: string, file: string) => t('title.fromSnapshot', { command, file }),
  snapshotLine: (host: string, taken: string, ago: string) => t('title.snapshotLine', { host, taken, ago }),
  detailsHint: (command: string) => t('title.detailsHint', { command }),
  get noGpuVerdict() {
    return t('title.noGpuVerdict');
  },
};

/** How severities and statuses read in words (Markdown tables, HTML titles, screen readers). */
export const MARK_WORDS = {
  get ok() {
    return t('mark.ok');
  },
  get warn() {
    return t('mark.warn');
  },
  get fail() {
    return t('mark.fail');
  },
  get unknown() {
    return t('mark.unknown');
  },
  get skip() {
    return t('mark.skip');
  },
};

/** The summary line at the end of check. */
export const SUMMARY = {
  counts: (errors: number, warnings: number) => t('summary.counts', { errors, warnings }),
  unknown: (n: number) => t('summary.unknown', { n }),
  ignored: (n: number) => t('summary.ignored', { n }),
  checks: (n: number) => t('summary.checks', { n }),
  slowest: (ms: number) => t('summary.slowest', { ms }),
  get noGpu() {
    return t('summary.noGpu');
  },
  belowThreshold: (level: string) => (level === 'warn' ? t('summary.exit0') : t('summary.belowThreshold')),
};
