// Types of framework-words.mjs (test/explain/true-words.test.ts uses the bench's oracle).
export const FAMILY_WORDS: Record<string, RegExp>;
export const FAMILY_OF: Record<string, string>;
export function familiesIn(s: string): Set<string>;
/** the families named beside the input's (`fam`, null when unknown) that `cause` does not allow, joined with +;
 *  null when none */
export function frameworkProblem(s: string, fam: string | null, cause: string): string | null;
