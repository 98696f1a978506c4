// Sizes as the frameworks print them: "784.00 MiB", "0 bytes", "1.40G", "4,294,967,296".

/** bytes, or undefined when the text is not a size */
export function parseSize(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const m = /^\s*([\d.,]+)\s*(bytes|b|[kmgtp]i?b?)?\s*$/i.exec(s);
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

export function fmtBytes(b: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = b;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${Math.round(v)} bytes` : `${v.toFixed(v >= 100 ? 1 : 2)} ${units[i]}`;
}

export const GiB = 1024 ** 3;
export const MiB = 1024 ** 2;
