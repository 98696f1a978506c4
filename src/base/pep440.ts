// Just enough of PEP 440 to ask "does the installed nvidia-cudnn-cu12 9.3.0.75 satisfy torch's
// ==9.1.0.70?": version ordering (release, pre, post, dev, local) and the specifier operators.
import { regexOf } from './regex.js';

export interface Pep440Version {
  epoch: number;
  release: number[];
  /** ["a"|"b"|"rc", n] */
  pre: [string, number] | null;
  post: number | null;
  dev: number | null;
  local: string | null;
}

const VERSION_RE = regexOf(
  [
    /^v?(?:(\d+)!)?/, // epoch: 1 "1!"
    /(\d+(?:\.\d+)*)/, // release: 2
    /(?:[-_.]?(a|b|c|rc|alpha|beta|pre|preview)[-_.]?(\d*))?/, // pre-release: 3 tag, 4 number
    /(?:(?:-(\d+))|(?:[-_.]?(post|rev|r)[-_.]?(\d*)))?/, // post-release: 5 "-N", or 6 tag, 7 number
    /(?:[-_.]?(dev)[-_.]?(\d*))?/, // development release: 8 tag, 9 number
    /(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?$/, // local label: 10
  ],
  'i',
);

export function parseVersion(text: string): Pep440Version | null {
  const m = VERSION_RE.exec(text.trim());
  if (!m) return null;
  const preTag = m[3]?.toLowerCase();
  const pre: [string, number] | null = preTag
    ? [
        preTag === 'alpha' ? 'a' : preTag === 'beta' ? 'b' : preTag === 'a' || preTag === 'b' ? preTag : 'rc',
        Number(m[4] || 0),
      ]
    : null;
  const post = m[5] !== undefined ? Number(m[5]) : m[6] !== undefined ? Number(m[7] || 0) : null;
  return {
    epoch: Number(m[1] ?? 0),
    release: m[2]!.split('.').map(Number),
    pre,
    post,
    dev: m[8] !== undefined ? Number(m[9] || 0) : null,
    local: m[10] ? m[10].toLowerCase().replace(/[-_]/g, '.') : null,
  };
}

const PRE_RANK: Record<string, number> = { a: 0, b: 1, rc: 2 };

/** Negative, zero or positive like a comparator. Local versions compare after the public part. */
export function comparePep440(a: Pep440Version, b: Pep440Version, withLocal = true): number {
  if (a.epoch !== b.epoch) return a.epoch - b.epoch;
  const n = Math.max(a.release.length, b.release.length);
  for (let i = 0; i < n; i++) {
    const d = (a.release[i] ?? 0) - (b.release[i] ?? 0);
    if (d !== 0) return d;
  }
  // Order within one release: X.devN < X.aN < X.bN < X.rcN < X < X.postN
  const phase = (v: Pep440Version): [number, number, number, number] => {
    if (v.pre) return [PRE_RANK[v.pre[0]] ?? 2, v.pre[1], v.post ?? -1, v.dev ?? Infinity];
    if (v.post !== null) return [4, 0, v.post, v.dev ?? Infinity];
    if (v.dev !== null) return [-1, 0, -1, v.dev];
    return [3, 0, -1, Infinity];
  };
  const pa = phase(a);
  const pb = phase(b);
  for (let i = 0; i < 4; i++) {
    const d = pa[i]! === pb[i]! ? 0 : pa[i]! < pb[i]! ? -1 : 1;
    if (d !== 0) return d;
  }
  if (!withLocal) return 0;
  return (a.local ?? '').localeCompare(b.local ?? '');
}

/**
 * Does `version` satisfy `specifier` ("==9.1.0.70", ">=9.3.0.75,<10", "~=12.1", "==12.*")?
 * Unparseable input gives null: the caller says "cannot tell" rather than guessing.
 */
export function satisfies(version: string, specifier: string): boolean | null {
  const v = parseVersion(version);
  if (!v) return null;
  const clauses = specifier
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const clause of clauses) {
    const m = /^(===|==|!=|~=|>=|<=|>|<)\s*(.+)$/.exec(clause);
    if (!m) return null;
    const op = m[1]!;
    const target = m[2]!.trim();
    if (op === '===') {
      if (version.trim() !== target) return false;
      continue;
    }
    if ((op === '==' || op === '!=') && target.endsWith('.*')) {
      const prefix = parseVersion(target.slice(0, -2));
      if (!prefix) return null;
      const match = prefix.epoch === v.epoch && prefix.release.every((x, i) => (v.release[i] ?? 0) === x);
      if (match !== (op === '==')) return false;
      continue;
    }
    const t = parseVersion(target);
    if (!t) return null;
    // A specifier without a local part ignores the candidate's local part ("==2.1.0" accepts 2.1.0+cu121).
    const c = comparePep440(v, t, t.local !== null);
    let ok: boolean;
    switch (op) {
      case '==':
        ok = c === 0;
        break;
      case '!=':
        ok = c !== 0;
        break;
      case '>=':
        ok = c >= 0;
        break;
      case '<=':
        ok = c <= 0;
        break;
      case '>':
        ok = c > 0 && !(v.post !== null && t.post === null && sameRelease(v, t));
        break;
      case '<':
        ok = c < 0 && !(v.pre !== null && t.pre === null && sameRelease(v, t));
        break;
      case '~=': {
        // ~=X.Y.Z means >=X.Y.Z, ==X.Y.*
        if (t.release.length < 2) return null;
        const prefix = t.release.slice(0, -1);
        ok = c >= 0 && prefix.every((x, i) => (v.release[i] ?? 0) === x);
        break;
      }
      default:
        return null;
    }
    if (!ok) return false;
  }
  return true;
}

function sameRelease(a: Pep440Version, b: Pep440Version): boolean {
  const n = Math.max(a.release.length, b.release.length);
  for (let i = 0; i < n; i++) if ((a.release[i] ?? 0) !== (b.release[i] ?? 0)) return false;
  return true;
}
