// One rule of the redactor: a cheap test that must pass first (most strings are short paths and numbers), then
// its pattern and what a match becomes. `learns`: the rule finds values by context (the X of --master X), so it
// also runs in the learning pass.
export type Rule = (s: string) => string;
// biome-ignore lint/suspicious/noExplicitAny: String.prototype.replace hands a replacer its groups untyped
export type Replacer = (match: string, ...groups: any[]) => string;

export function rule(gate: RegExp | null, re: RegExp, fn: Replacer): Rule {
  return (s: string) => (gate === null || gate.test(s) ? s.replace(re, fn) : s);
}

/** A rule and whether it learns (runs in the learning pass too). */
export interface Step {
  rule: Rule;
  learns: boolean;
}

export const learning = (r: Rule): Step => ({ rule: r, learns: true });
export const plain = (r: Rule): Step => ({ rule: r, learns: false });
