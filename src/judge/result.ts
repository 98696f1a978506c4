// The result of judging a snapshot: what reporters render and what decides the exit code.
import { SEVERITY_RANK, type Finding } from './finding.js';
import type { Snapshot } from '../gather/snapshot/schema.js';

export const RESULT_SCHEMA_VERSION = 1;

export interface CheckRunResult {
  schemaVersion: typeof RESULT_SCHEMA_VERSION;
  snapshot: Snapshot;
  findings: Finding[];
}

/** Findings that count as problems at the threshold: warn or error that did not pass. */
export function isProblem(f: Finding, threshold: 'error' | 'warn'): boolean {
  if (f.status === 'ok' || f.status === 'skip') return false;
  return SEVERITY_RANK[f.severity] >= SEVERITY_RANK[threshold];
}

export function exitCodeFor(findings: readonly Finding[], threshold: 'error' | 'warn'): number {
  return findings.some((f) => isProblem(f, threshold)) ? 1 : 0;
}
