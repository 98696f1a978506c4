// Findings: what a check concluded, with the evidence a user can verify and the fix.
import { t } from '../base/i18n/index.js';
import { unique } from '../base/format.js';
import type { RootCauseId } from '../knowledge/root-causes.js';

export type Severity = 'info' | 'warn' | 'error';
export type Status = 'ok' | 'warn' | 'fail' | 'skip' | 'unknown' | 'crash';

/** A raw fact behind a finding: the value and where it came from (the command or file that produced it). */
export interface Evidence {
  text: string;
  /** e.g. "nvidia-smi -q -x", "/proc/694/status" */
  source?: string;
  /** line number when the evidence comes from a log */
  line?: number;
}

/**
 * A fix: prose, plus commands that are safe to copy and run.
 * Destructive or root-needing steps (kill, driver install) are described in `text`
 * or listed in `manual`, never in `commands`.
 */
export interface Fix {
  text: string;
  commands: string[];
  /** Steps the user must judge: ending a process, installing a driver. Shown, never run by `check`. */
  manual?: string[];
}

export interface Affects {
  gpu?: number;
  pid?: number;
  library?: string;
  env?: string;
  framework?: string;
}

/**
 * How sure a statement about what a framework does is:
 *  - verified: seen happen on a real machine in the same setting (the source names the capture);
 *  - expected: follows from the framework's own code (the source names the file), not seen here;
 *  - possible: may happen or not; the evidence does not decide.
 */
export type Certainty = 'verified' | 'expected' | 'possible';

/**
 * What a framework does with a fact (which file loads, what a variable holds): kept apart from the fact
 * itself, per framework, at the certainty the evidence gives, with where that knowledge comes from.
 */
export interface Consequence {
  /** "torch", "jax", "tensorflow"; absent when it does not depend on the framework (cuDNN itself) */
  framework?: string;
  /** what happens, in words: "refuses at its cuDNN version check: …" */
  text: string;
  /** what it means for the user's job: it fails, it runs, or the evidence does not say */
  outcome: 'fails' | 'runs' | 'unknown';
  certainty: Certainty;
  source: string;
}

export interface Finding {
  /** stable check id, e.g. "gpu.driver" */
  check: string;
  severity: Severity;
  status: Status;
  rootCause: RootCauseId | null;
  message: string;
  details?: string;
  evidence: Evidence[];
  affects?: Affects;
  /** what frameworks do with the fact the message states (the message is the fact) */
  consequences?: Consequence[];
  fix?: Fix;
  /** the runner's own "<title>: ok" line for a check with nothing to say (layout decides by this, never by text) */
  bare?: true;
}

export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warn: 1, error: 2 };

/** Small constructor so checks read as data, not as object-literal noise. A fix never repeats a command. */
export function finding(f: Omit<Finding, 'evidence'> & { evidence?: Evidence[] }): Finding {
  const fix = f.fix
    ? { ...f.fix, commands: unique(f.fix.commands), ...(f.fix.manual ? { manual: unique(f.fix.manual) } : {}) }
    : undefined;
  return { ...f, evidence: f.evidence ?? [], ...(fix ? { fix } : {}) };
}

/** "expected" → the words a reader sees next to a consequence. */
export const CERTAINTY_LABEL: Record<Certainty, string> = {
  get verified() {
    return t('certainty.verified');
  },
  get expected() {
    return t('certainty.expected');
  },
  get possible() {
    return t('certainty.possible');
  },
};

/** One consequence as a line: "PyTorch refuses … [seen]", the source added when asked (-v, reports). */
export function consequenceText(q: Consequence, withSource: boolean, dim: (s: string) => string = (s) => s): string {
  return `${q.text} ${dim(`[${CERTAINTY_LABEL[q.certainty]}${withSource ? `: ${q.source}` : ''}]`)}`;
}
