// A finding about one environment variable: its value is the evidence, the variable is what it affects.
// The status follows from the severity (info is ok, warn is warn, error is fail), as in every env check; an ok
// one has no fix.
import { ok, problem, type Finding, type Fix } from '../../finding.js';
import type { RootCauseId } from '../../../knowledge/root-causes.js';

interface EnvFindingBase {
  check: string;
  /** the variable, and its value as the environment holds it */
  name: string;
  value: string;
  message: string;
  rootCause?: RootCauseId | null;
  details?: string;
}

export type EnvFindingInput = EnvFindingBase &
  ({ severity: 'info'; fix?: never } | { severity?: 'warn' | 'error'; fix?: Fix });

export function envFinding(o: EnvFindingInput): Finding {
  const said = {
    check: o.check,
    rootCause: o.rootCause === undefined ? 'other' : o.rootCause,
    message: o.message,
    ...(o.details ? { details: o.details } : {}),
    evidence: [{ text: `${o.name}=${o.value}`, source: 'environment' }],
    affects: { env: o.name },
  };
  if (o.severity === 'info') return ok(said);
  return problem({ ...said, severity: o.severity ?? 'warn', ...(o.fix ? { fix: o.fix } : {}) });
}
