// Version strings compared as numbers per dot-separated part, never as floats: "12.10" > "12.9",
// "2.1.0+cu121" is 2.1.0 with a local label, "2.0.0rc1" comes before "2.0.0".
import { InputError } from '../../base/errors.js';
import { compareVersions, isVersion, majorMinor as seriesOf, parseDotted } from '../../base/versions.js';

export { compareVersions, isVersion } from '../../base/versions.js';

const parse = parseDotted;

/** The first `parts` numeric parts: majorMinor("12.4.131") === "12.4". */
export function truncateVersion(v: string, parts: number): string {
  const p = parse(v);
  if (!p) throw new InputError('usage.version.notVersion', { value: v });
  const nums = [...p.nums];
  while (nums.length < parts) nums.push(0);
  return nums.slice(0, parts).join('.');
}

/** "12.4.131" → "12.4", "12" → "12.0": base/versions.ts's, with an InputError when `v` is not a version. */
export const majorMinor = (v: string): string => seriesOf(v) ?? notAVersion(v);

function notAVersion(v: string): never {
  throw new InputError('usage.version.notVersion', { value: v });
}

export const majorOf = (v: string): number => Number(truncateVersion(v, 1));

/** Same release series: every part of `prefix` equals `v`'s ("12.4" prefixes "12.4.1", not "12.40"). */
export function versionHasPrefix(v: string, prefix: string): boolean {
  const pv = parse(v);
  const pp = parse(prefix);
  if (!pv || !pp) return false;
  return pp.nums.every((n, i) => (pv.nums[i] ?? 0) === n);
}

/**
 * Does `v` satisfy a PEP 440-like specifier list: ">=3.8,<3.12", "==2.15.*", "~=2.15.0", "!=1.2", "2.12" (same
 * as ==2.12.*)? Parts are comma-separated and all must hold. Throws InputError on a malformed specifier.
 */
export function versionInRange(v: string, range: string): boolean {
  const parts = range
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0) return true;
  return parts.every((part) => {
    const m = /^(>=|<=|==|!=|~=|>|<|=)?\s*(\S+)$/.exec(part);
    if (!m) throw new InputError('usage.version.notRange', { range });
    const op = m[1] ?? '==';
    let target = m[2]!;
    const wildcard = target.endsWith('.*');
    if (wildcard) target = target.slice(0, -2);
    if (!isVersion(target)) throw new InputError('usage.version.notRange', { range });
    switch (op) {
      case '==':
      case '=':
        return wildcard || !m[1] ? versionHasPrefix(v, target) : compareVersions(v, target) === 0;
      case '!=':
        return wildcard ? !versionHasPrefix(v, target) : compareVersions(v, target) !== 0;
      case '>=':
        return compareVersions(v, target) >= 0;
      case '<=':
        return compareVersions(v, target) <= 0;
      case '>':
        return compareVersions(v, target) > 0;
      case '<':
        return compareVersions(v, target) < 0;
      case '~=': {
        // ~=2.15.0 means >=2.15.0,==2.15.*
        const nums = target.split('.');
        if (nums.length < 2) throw new InputError('usage.version.compatibleRelease', { range });
        return compareVersions(v, target) >= 0 && versionHasPrefix(v, nums.slice(0, -1).join('.'));
      }
      default:
        return false;
    }
  });
}

/** Sort ascending by version. */
export function sortVersions<T>(items: readonly T[], key: (t: T) => string): T[] {
  return [...items].sort((a, b) => compareVersions(key(a), key(b)));
}

/** The highest of some versions, or null for none. */
export function maxVersion(vs: readonly string[]): string | null {
  let best: string | null = null;
  for (const v of vs) if (best === null || compareVersions(v, best) > 0) best = v;
  return best;
}
