// Collects a text with every regular expression run seen: `seen(re)` is called before each RegExp#exec, and
// RegExp.prototype.exec is put back afterwards whatever happens (the explain engine's work, counted by pattern).
import type { Collector } from '../../src/judge/explain/collect.js';
import { collectText } from '../../src/judge/explain/engine.js';

export function collectSeeing(text: string, seen: (re: RegExp) => void): Collector {
  const exec = RegExp.prototype.exec;
  RegExp.prototype.exec = function (this: RegExp, s: string) {
    seen(this);
    return exec.call(this, s);
  };
  try {
    return collectText(text).collector;
  } finally {
    RegExp.prototype.exec = exec;
  }
}
