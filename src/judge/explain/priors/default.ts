// The priors shipped with the tool: fitted.json, written by scripts/fit-explain-priors.mjs from the labelled
// corpora in test/fixtures/corpus (dev, dev2).
import fitted from './fitted.json' with { type: 'json' };
import { PriorModel, type FittedPriors } from './model.js';

let cached: PriorModel | undefined;
export function defaultPriors(): PriorModel {
  cached ??= new PriorModel(fitted as FittedPriors);
  return cached;
}
