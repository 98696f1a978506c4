// Shared by the versions.* checks: the installed frameworks as targets, verdicts as findings, and the
// fix that is right for this machine.
import { fail, ok, unknown, warn, type Finding, type Fix } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import { machineFacts, type EnvFacts, type FrameworkFacts, type MachineFacts } from '../../compat/facts.js';
import { driverUpgrade, newestFor, toFix, type MachineNeeds } from '../../compat/fixes.js';
import type { Verdict } from '../../compat/judge.js';
import { targetFromInstalled, type Target } from '../../compat/target.js';
import { t } from '../../../base/i18n/index.js';

export interface Installed {
  env: EnvFacts;
  fw: FrameworkFacts;
  target: Target;
}

// Six versions.* checks ask for the same facts of the same snapshot; a snapshot is never changed once read, so
// they are computed once per snapshot (read-only for the callers).
const INSTALLED = new WeakMap<Snapshot, { m: MachineFacts; items: Installed[] }>();

export function installedFrameworks(s: Snapshot): { m: MachineFacts; items: Installed[] } {
  const known = INSTALLED.get(s);
  if (known) return known;
  const m = machineFacts(s);
  const items = m.envs.flatMap((env) => env.frameworks.map((fw) => ({ env, fw, target: targetFromInstalled(fw) })));
  const facts = { m, items };
  INSTALLED.set(s, facts);
  return facts;
}

/** applies(): there must be a framework to judge. */
export function appliesToFrameworks(s: Snapshot): true | string {
  if (!s.python) return t('applies.noPythonEnvs');
  // PaddlePaddle has no build-file reader: its package record is what the version checks judge
  const any = s.python.environments.some(
    (e) => e.scanned && (e.frameworks.length > 0 || e.packages.some((p) => p.name === 'paddlepaddle-gpu')),
  );
  return any ? true : t('applies.noFrameworks');
}

export function needsOf(m: MachineFacts, python: string | null): MachineNeeds | null {
  if (m.driver === null) return null;
  return { os: m.os, driver: m.driver, ccs: m.gpus.map((g) => g.cc).filter((c): c is string => c !== null), python };
}

/** The newest build of the same framework for this machine, plus (optionally) the driver upgrade. */
export function alignFix(m: MachineFacts, item: Installed, withDriver: false | 'min' | 'full', fallback: string): Fix {
  const needs = needsOf(m, item.env.python);
  const p = needs ? newestFor(item.fw.framework, needs) : null;
  const up = withDriver ? driverUpgrade(item.target, m.os, withDriver) : null;
  return toFix(p, up, fallback);
}

export function verdictFinding(check: string, v: Verdict, item: Installed, fix?: Fix): Finding {
  const said = {
    check,
    rootCause: v.rootCause,
    message: v.message,
    details: `environment ${item.env.prefix}${item.env.active ? ' (active)' : ''}`,
    evidence: v.evidence,
    affects: { framework: item.fw.framework, ...(v.gpu !== undefined ? { gpu: v.gpu } : {}) },
  };
  const fixed = { ...said, ...(fix ? { fix } : {}) };
  switch (v.status) {
    case 'ok':
      return ok(said);
    case 'warn':
      return warn(fixed);
    case 'fail':
      return fail({ ...fixed, severity: 'error' });
    default:
      return unknown({ ...fixed, severity: 'info' });
  }
}
