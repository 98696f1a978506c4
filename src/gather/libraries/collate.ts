// The order String.prototype.localeCompare gives paths, without its cost: the first comparison creates ICU's
// collator (5-20 ms, on the scan's path while nvidia-smi works). For strings of printable ASCII under a locale
// whose collation leaves ASCII as the root order has it, that order is two comparisons: by primary weight (case
// folded, punctuation before digits before letters, in the table below), then lowercase before uppercase at the
// first letter whose case differs. Anything else (other characters, a tailored locale) goes to localeCompare.

/** Printable ASCII in the root collation's primary order; a letter's two cases share one weight. */
const ROOT_ORDER = ` _-,;:!?.'"()[]{}@*/\\&#%\`^+<=>|~$0123456789aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ`;

/** Primary weight of each printable ASCII code (1 and up); 0: not in the table (the slow path). */
const PRIMARY = (() => {
  const w = new Uint8Array(128);
  let weight = 0;
  for (let i = 0; i < ROOT_ORDER.length; i++) {
    const c = ROOT_ORDER.charCodeAt(i);
    const isUpperAfterLower = c >= 0x41 && c <= 0x5a;
    if (!isUpperAfterLower) weight++;
    w[c] = weight;
  }
  return w;
})();

/**
 * Languages whose collation orders printable ASCII as the root does (compared with Intl.Collator on random
 * strings); others (Czech "ch", Danish "aa", Turkish i, Thai, ...) tailor it.
 */
const ROOT_ASCII_LANGUAGES = new Set([
  '',
  'c',
  'posix',
  'en',
  'zh',
  'ja',
  'ko',
  'de',
  'fr',
  'it',
  'pt',
  'ru',
  'es',
  'nl',
  'uk',
  'ar',
  'he',
  'hi',
  'id',
]);

/** The locale ICU takes as its default, as it reads the environment (LC_ALL, LC_MESSAGES, LANG). */
function defaultLanguage(env: Record<string, string | undefined>): string | null {
  const id = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  if (id.includes('@')) return null; // a modifier may name another collation
  return id.split(/[_.-]/)[0]!.toLowerCase();
}

const viaLocale = (a: string, b: string): number => a.localeCompare(b);

/**
 * A comparator equal in sign to localeCompare under the locale `env` selects. `keys`: when given, the strings it
 * will compare: if all are printable ASCII, it skips that test on each comparison.
 */
export function localeOrder(
  env: Record<string, string | undefined>,
  keys?: readonly string[],
): (a: string, b: string) => number {
  const lang = defaultLanguage(env);
  if (lang === null || !ROOT_ASCII_LANGUAGES.has(lang)) return viaLocale;
  return keys?.every((k) => allAscii(k, 0)) ? compareAsciiOnly : compareRootAscii;
}

/** compareRootAscii for two strings known to be printable ASCII. */
function compareAsciiOnly(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let caseDiff = 0;
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    const d = PRIMARY[ca]! - PRIMARY[cb]!;
    if (d !== 0) return d;
    if (caseDiff === 0) caseDiff = ca > cb ? -1 : 1;
  }
  return a.length !== b.length ? a.length - b.length : caseDiff;
}

/** Root collation order for printable ASCII; localeCompare for anything else. */
export function compareRootAscii(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let caseDiff = 0;
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    const wa = ca < 128 ? PRIMARY[ca]! : 0;
    const wb = cb < 128 ? PRIMARY[cb]! : 0;
    if (wa === 0 || wb === 0) return a.localeCompare(b);
    if (wa !== wb) return allAscii(a, i) && allAscii(b, i) ? wa - wb : a.localeCompare(b);
    // same weight, different code: the same letter in two cases (lowercase first), decided only on a tie
    if (caseDiff === 0 && ca !== cb) caseDiff = ca > cb ? -1 : 1;
  }
  if (!allAscii(a, n) || !allAscii(b, n)) return a.localeCompare(b);
  if (a.length !== b.length) return a.length - b.length;
  return caseDiff;
}

/** Every code from `from` on is in the table (a later character outside it could be ignorable or reorder). */
function allAscii(s: string, from: number): boolean {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || PRIMARY[c] === 0) return false;
  }
  return true;
}
