// A finding about one environment variable: its value is the evidence, the variable is what it affects.
// The status follows from the severity (info is ok, warn is warn, error is fail), as in every env check.
import { finding, type Finding, type Fix, type Severity } from '../../finding.js';
import type { RootCauseId } from '../../../knowledge/root-causes.js';

export interface EnvFindingInput {
  check: string;
  /** the variable, and its value as the environment holds it */
  name: string;
  value: string;
  message: string;
  severity?: Severity;
  rootCause?: RootCauseId | null;
  details?: string;
  fix?: Fix;
}

export function envFinding(o: EnvFindingInput): Finding {
  const severity = o.severity ?? 'warn';
  return finding({
    check: o.check,
    severity,
    status: severity === 'info' ? 'ok' : severity === 'warn' ? 'warn' : 'fail',
    rootCause: o.rootCause === undefined ? 'other' : o.rootCause,
    message: o.message,
    ...(o.details ? { details: o.details } : {}),
    evidence: [{ text: `${o.name}=${o.value}`, source: 'environment' }],
    affects: { env: o.name },
    ...(o.fix ? { fix: o.fix } : {}),
  });
}
