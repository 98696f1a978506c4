// cuDNN releases and the rules of which copy works with which build.
import { knowledge } from '../../knowledge/index.js';
import { compareVersions, majorOf, truncateVersion } from './version.js';
import type { Framework } from './spec.js';

export interface CudnnRelease {
  from: string;
  to: string;
  cudaMajors: number[];
  minComputeCapability: string;
  confidence: string;
  source: string;
}

/** The cuDNN release row covering `version` ("9.1.0.70", "8.9"), or null. */
export function cudnnRelease(version: string): CudnnRelease | null {
  const v = truncateVersion(version, 3);
  const r = knowledge().cudnn.releases.find((x) => compareVersions(v, x.from) >= 0 && compareVersions(v, x.to) <= 0);
  return r
    ? {
        from: r.from,
        to: r.to,
        cudaMajors: r.cudaMajors,
        minComputeCapability: r.minComputeCapability,
        confidence: r.confidence,
        source: r.source,
      }
    : null;
}

export type CudnnVerdict = 'same' | 'newer-minor' | 'older-minor' | 'other-major';

/** How a loaded cuDNN relates to the one a build was compiled with (compared as major.minor). */
export function compareCudnn(built: string, loaded: string): CudnnVerdict {
  if (majorOf(built) !== majorOf(loaded)) return 'other-major';
  const c = compareVersions(truncateVersion(loaded, 2), truncateVersion(built, 2));
  return c === 0 ? 'same' : c > 0 ? 'newer-minor' : 'older-minor';
}

/** Whether `framework` works with a loaded cuDNN in relation `verdict` to its build, and why (with source). */
export function cudnnTolerated(
  framework: Framework,
  verdict: CudnnVerdict,
): { ok: boolean; text: string; source: string } {
  const t = knowledge().cudnn.frameworkTolerance.find((x) => x.framework === framework);
  if (!t) return { ok: verdict === 'same' || verdict === 'newer-minor', text: '', source: '' };
  const ok =
    verdict === 'same'
      ? true
      : verdict === 'newer-minor'
        ? t.newerMinor === 'ok'
        : verdict === 'older-minor'
          ? t.olderMinor === 'ok'
          : t.otherMajor === 'ok';
  return { ok, text: t.text, source: t.source };
}
