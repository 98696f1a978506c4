// Findings: what a check concluded, with the evidence a user can verify and the fix.
import type { RootCauseId } from './root-causes.js';

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
  fix?: Fix;
}

export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warn: 1, error: 2 };

/** Small constructor so checks read as data, not as object-literal noise. */
export function finding(f: Omit<Finding, 'evidence'> & { evidence?: Evidence[] }): Finding {
  return { ...f, evidence: f.evidence ?? [] };
}
