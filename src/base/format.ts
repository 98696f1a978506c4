// Small formatting helpers shared by checks and reporters.
import { getLang } from './i18n/index.js';

/** 142848 → "139.5 GiB"; 900 → "900 MiB" */
export function fmtMiB(mib: number | null | undefined): string {
  if (mib === null || mib === undefined || !Number.isFinite(mib)) return '?';
  if (Math.abs(mib) >= 1024) return `${(mib / 1024).toFixed(1)} GiB`;
  return `${Math.round(mib)} MiB`;
}

/** 93784 → "1d 2h"; 3700 → "1h 1m"; 42 → "42s" */
export function fmtAge(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  // Chinese writes its units as words, a space between number and unit (11 小时 19 分钟, 9 秒)
  if (getLang() === 'zh') {
    if (d > 0) return `${d} 天 ${h} 小时`;
    if (h > 0) return `${h} 小时 ${m} 分钟`;
    if (m > 0) return `${m} 分 ${s % 60} 秒`;
    return `${s} 秒`;
  }
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s % 60}s`;
  return `${s}s`;
}

/** A command line for display: argv joined, long ones cut. */
export function fmtCmdline(argv: readonly string[] | null | undefined, max = 120): string {
  if (!argv || argv.length === 0) return '?';
  const s = argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(' ');
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${n} ${n === 1 ? word : pluralWord}`;
}

/** The items once each, in the order first seen: a list built from per-file facts (seven sub-libraries in one
 *  folder) names that folder once. Every list a finding prints goes through here. */
export function unique<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}

/** "a, b and c" style lists for messages and fix texts, each item once. */
export function listOf(items: Iterable<string>, sep = ', '): string {
  return unique(items).join(sep);
}
