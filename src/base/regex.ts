// A long pattern written as parts, one per meaning, so that no line of it runs past the width: the pattern is the
// parts joined as written (a RegExp part gives its source, a string is pattern text, not escaped), the flags given
// once for the whole. A part's own flags are ignored, so parts are written without any.

/** a piece of a pattern: a regex literal (its source) or pattern text */
export type RegexPart = RegExp | string;

const sourceOf = (p: RegexPart): string => (typeof p === 'string' ? p : p.source);

/** the parts one after another: `regexOf([/^a/, /b$/])` is `/^ab$/` */
export function regexOf(parts: readonly RegexPart[], flags = ''): RegExp {
  return new RegExp(parts.map(sourceOf).join(''), flags);
}

/** the parts as alternatives, without a group around them: `regexOf(['(', eitherOf([/a/, /b/]), ')'])` is `/(a|b)/`;
 *  a whole pattern of alternatives is `regexOf([eitherOf([...])])` */
export function eitherOf(parts: readonly RegexPart[]): string {
  return parts.map(sourceOf).join('|');
}
