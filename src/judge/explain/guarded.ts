// A pattern run only on a text that holds one of a few lower-case words every match of it holds (ignoring ASCII
// case): the test is a few `includes`, and the pattern is compiled (natively, at its first run) only for a text that
// may match it. Each guarded pattern is kept in one list, so that test/explain/pattern-guards.test.ts can prove
// every guard implied by its pattern's own required literals: a guard may only skip a text the pattern cannot match.
import { nativeWhenAsked } from '../../base/native-regex.js';
import { mayHold } from './signatures/literals.js';

export interface Guarded {
  readonly re: RegExp;
  readonly words: readonly string[];
  /** `lower`: the text in lower case, where the caller has it already */
  exec(text: string, lower?: string): RegExpExecArray | null;
  test(text: string, lower?: string): boolean;
}

const ALL: Guarded[] = [];

/** `re` behind the test for `words` (lower case) */
export function guarded(re: RegExp, words: readonly string[]): Guarded {
  const compiled = nativeWhenAsked(re);
  const g: Guarded = {
    re,
    words,
    exec: (text, lower = text.toLowerCase()) => (mayHold(words, lower) ? compiled().exec(text) : null),
    test: (text, lower = text.toLowerCase()) => mayHold(words, lower) && compiled().test(text),
  };
  ALL.push(g);
  return g;
}

/** every guarded pattern of the modules loaded so far */
export function allGuarded(): readonly Guarded[] {
  return ALL;
}
