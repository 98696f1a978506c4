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
  return copied(f);
}

// The constructors checks use: each sets the status and allows only the severities that go with it, so that an
// impossible pair (a fail of severity info, an ok with a fix) is a compile error, not a report that contradicts
// itself. The keys keep the order given, with severity, status and rootCause just before the message, as every
// finding has always had them: --json does not change with the way a check builds its finding.

/** what a constructor is given: a finding without its severity and status, the evidence optional */
type FindingInput = Omit<Finding, 'evidence' | 'severity' | 'status' | 'bare'> & { evidence?: Evidence[] };
/** what a finding that states no problem is given: no fix, the root cause null unless it names one ruled out */
type PassInput = Omit<FindingInput, 'rootCause' | 'fix'> & { rootCause?: RootCauseId | null; fix?: never };

function make(severity: Severity, status: Status, f: FindingInput, rootCause: RootCauseId | null): Finding {
  return copied(f, { severity, status, rootCause });
}

/**
 * A finding from `f`, in one pass over its own keys (a check builds several per snapshot, and fleet runs the
 * unmemoisable ones on every node: spreads and entries cost more than the check). Keys in the order given; the
 * evidence an empty list when none is given (last, when the key is absent); the fix's commands each once. `head`:
 * the severity, status and root cause set by a constructor, placed just before the first of rootCause and message
 * (any carried in from a spread finding dropped).
 */
function copied(f: object, head?: { severity: Severity; status: Status; rootCause: RootCauseId | null }): Finding {
  const out: Record<string, unknown> = {};
  const keys = Object.keys(f);
  let placed = false;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (head) {
      if (k === 'rootCause' || k === 'message') {
        if (!placed) {
          out.severity = head.severity;
          out.status = head.status;
          out.rootCause = head.rootCause;
          placed = true;
        }
        if (k === 'rootCause') continue;
      } else if (k === 'severity' || k === 'status') continue;
    }
    const v = (f as Record<string, unknown>)[k];
    if (k === 'evidence') out.evidence = v ?? [];
    else if (k === 'fix' && v) out.fix = uniqueFix(v as Fix);
    else out[k] = v;
  }
  if (out.evidence === undefined) out.evidence = [];
  return out as unknown as Finding;
}

/** A fix with each command (and manual step) once, its keys in the order given. */
function uniqueFix(fix: Fix): Fix {
  return { ...fix, commands: unique(fix.commands), ...(fix.manual ? { manual: unique(fix.manual) } : {}) };
}

/** The check failed: the job fails on it ('error') or may ('warn'). */
export function fail(f: FindingInput & { severity: 'error' | 'warn' }): Finding {
  return make(f.severity, 'fail', f, f.rootCause);
}

/** Worth a look, not a failure: 'warn', or 'info' for a note that is no problem yet. */
export function warn(f: FindingInput & { severity?: 'warn' | 'info' }): Finding {
  return make(f.severity === undefined ? 'warn' : f.severity, 'warn', f, f.rootCause);
}

/** A problem whose status follows from its severity: an error fails, a warning warns. */
export function problem(f: FindingInput & { severity: 'error' | 'warn' }): Finding {
  return make(f.severity, f.severity === 'error' ? 'fail' : 'warn', f, f.rootCause);
}

/** The check passed: severity info, no fix. */
export function ok(f: PassInput): Finding {
  return make('info', 'ok', f as FindingInput, f.rootCause ?? null);
}

/** The check did not run here (not applicable, nothing to look at): severity info; a fix may say how to judge it. */
export function skip(f: Omit<FindingInput, 'rootCause'> & { rootCause?: RootCauseId | null }): Finding {
  return make('info', 'skip', f as FindingInput, f.rootCause ?? null);
}

/** The facts do not decide: at the severity of what it could be. */
export function unknown(f: FindingInput & { severity: Severity }): Finding {
  return make(f.severity, 'unknown', f, f.rootCause);
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
