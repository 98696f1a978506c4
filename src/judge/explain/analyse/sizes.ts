import { fmtMiB } from '../../../base/format.js';
import { nativeAtFirstUse } from '../../../base/native-regex.js';

export const GiB = 1024 ** 3;
export const MiB = 1024 ** 2;

// Sizes as the frameworks print them: "784.00 MiB", "0 bytes", "1.40G", "4,294,967,296".

/** a size and its unit, compiled natively at the first size read */
const SIZE = /^\s*([\d.,]+)\s*(bytes|b|[kmgtp]i?b?)?\s*$/i;
const primeSize = nativeAtFirstUse(SIZE);

/** bytes, or undefined when the text is not a size */
export function parseSize(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  primeSize();
  const m = SIZE.exec(s);
  if (!m) return undefined;
  const n = Number(m[1]!.replace(/,/g, ''));
  if (!Number.isFinite(n)) return undefined;
  const u = (m[2] ?? 'b').toLowerCase();
  const pow = u.startsWith('k')
    ? 1
    : u.startsWith('m')
      ? 2
      : u.startsWith('g')
        ? 3
        : u.startsWith('t')
          ? 4
          : u.startsWith('p')
            ? 5
            : 0;
  return n * 1024 ** pow;
}

/** A size the log printed, in the tool's one rule for GPU memory (base/format's fmtMiB), so the log's
 *  "139.80 GiB" and the machine's 143171 MiB read alike. */
export function fmtBytes(b: number): string {
  return fmtMiB(b / MiB);
}
