// Runs every check over a snapshot. A check that throws becomes a `crash` finding, never a crashed run.
import type { Finding } from '../finding.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';
import type { Check } from './check.js';
import type { Platform } from '../platform/shell-syntax.js';
import { adaptFix } from '../platform/adapt-fix.js';
import { platformOfSnapshot } from '../platform/detect.js';
import { t } from '../../base/i18n/index.js';

export interface CheckResult {
  check: Check;
  findings: Finding[];
}

export function runChecks(checks: readonly Check[], s: Snapshot): CheckResult[] {
  // fixes are written for a Linux shell; on Windows or under WSL they are re-rendered for it (src/judge/platform)
  const platform = platformOfSnapshot(s);
  return checks.map((check) => ({ check, findings: forPlatform(evaluateOne(check, s), platform) }));
}

const FAMILY: Record<string, string> = { torch: 'torch', tensorflow: 'tf', jax: 'jax', paddle: 'paddle' };

function forPlatform(findings: Finding[], platform: Platform): Finding[] {
  if (platform === 'linux') return findings;
  return findings.map((f) =>
    f.fix
      ? {
          ...f,
          fix: adaptFix(f.fix, platform, {
            cause: f.rootCause,
            ...(f.affects?.framework ? { family: FAMILY[f.affects.framework] ?? 'other' } : {}),
          }),
        }
      : f,
  );
}

function evaluateOne(check: Check, s: Snapshot): Finding[] {
  try {
    const applies = check.applies ? check.applies(s) : true;
    if (applies !== true) {
      return [
        {
          check: check.id,
          severity: 'info',
          status: 'skip',
          rootCause: null,
          message: t('check.notApplicable', { title: check.title, reason: applies }),
          evidence: [],
        },
      ];
    }
    const found = check.evaluate(s);
    if (found.length === 0) {
      return [
        {
          check: check.id,
          severity: 'info',
          status: 'ok',
          rootCause: null,
          message: t('check.ok', { title: check.title }),
          evidence: [],
          bare: true,
        },
      ];
    }
    return found;
  } catch (err) {
    return [
      {
        check: check.id,
        severity: 'warn',
        status: 'crash',
        rootCause: null,
        message: t('check.crashed', { title: check.title, error: err instanceof Error ? err.message : String(err) }),
        evidence: err instanceof Error && err.stack ? [{ text: err.stack.split('\n').slice(0, 4).join('\n') }] : [],
      },
    ];
  }
}
