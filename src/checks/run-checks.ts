// Runs every check over a snapshot. A check that throws becomes a `crash` finding, never a crashed run.
import type { Finding } from '../core/finding.js';
import type { Snapshot } from '../snapshot/schema.js';
import type { Check } from './check.js';

export interface CheckResult {
  check: Check;
  findings: Finding[];
}

export function runChecks(checks: readonly Check[], s: Snapshot): CheckResult[] {
  return checks.map((check) => ({ check, findings: evaluateOne(check, s) }));
}

function evaluateOne(check: Check, s: Snapshot): Finding[] {
  try {
    const applies = check.applies ? check.applies(s) : true;
    if (applies !== true) {
      return [{ check: check.id, severity: 'info', status: 'skip', rootCause: null, message: `${check.title}: ${applies}`, evidence: [] }];
    }
    const found = check.evaluate(s);
    if (found.length === 0) {
      return [{ check: check.id, severity: 'info', status: 'ok', rootCause: null, message: `${check.title}: ok`, evidence: [] }];
    }
    return found;
  } catch (err) {
    return [
      {
        check: check.id,
        severity: 'warn',
        status: 'crash',
        rootCause: null,
        message: `${check.title}: the check itself failed (${err instanceof Error ? err.message : String(err)}). Please report this as a bug of gpu-env-doctor.`,
        evidence: err instanceof Error && err.stack ? [{ text: err.stack.split('\n').slice(0, 4).join('\n') }] : [],
      },
    ];
  }
}
