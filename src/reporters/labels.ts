// The glossary: every label and fixed phrase the reporters print around what a finding says, in one place,
// so every output uses the same words (HELPERS.md: shared conventions) and a translation replaces this
// module's values, not sentences scattered through the code. Whole sentences with named slots, never
// sentences built from fragments.

export const LABELS = {
  fix: 'Fix:',
  /** after the acting command `gpu-env-doctor fix` */
  actNote: 'shows the plan and asks first',
  /** a destructive or by-hand step, never in the list of safe commands */
  byHand: 'By hand, after checking:',
  heldBy: 'Held by:',
  /** a link to the page of a finding */
  about: 'About this finding:',
  ids: 'ids:',
  evidence: 'Evidence',
  details: 'details',
  /** a rank in a diagnosis ("1."), never a severity symbol */
  rank: (n: number) => `${n}.`,
  logLine: (n: number) => `line ${n}:`,
  machineFact: 'this machine:',
  noProblems: 'No problems found.',
  skipped: 'skipped',
  notChecked: 'not checked',
} as const;

/** Report titles and headers. */
export const TITLES = {
  live: (command: string, host: string) => `gpu-env-doctor ${command} on ${host}`,
  fromSnapshot: (command: string, file: string) => `gpu-env-doctor ${command} of the snapshot ${file}`,
  snapshotLine: (host: string, taken: string, ago: string) => `host ${host}, taken ${taken} (${ago} ago); ages are as of that moment`,
  detailsHint: (command: string) => `details: ${command} -v`,
  noGpuVerdict: 'No GPU visible: GPU checks were skipped',
} as const;

/** How severities and statuses read in words (Markdown tables, HTML titles, screen readers). */
export const MARK_WORDS = {
  ok: 'ok',
  warn: 'warning',
  fail: 'error',
  unknown: 'unknown',
  skip: 'skipped',
} as const;

/** The summary line at the end of check. */
export const SUMMARY = {
  counts: (errors: number, warnings: number) => `${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`,
  unknown: (n: number) => `${n} unknown`,
  ignored: (n: number) => `${n} accepted (ignored by --ignore or the config file)`,
  checks: (n: number) => `${n} ${n === 1 ? 'check' : 'checks'}`,
  slowest: (ms: number) => `slowest probe ${ms} ms`,
  noGpu: 'no GPU visible, so the GPU checks were skipped',
  belowThreshold: (level: string) => (level === 'warn' ? 'exit 0' : 'exit 0 (warnings fail only with --fail-on warn)'),
} as const;
