// The type of generated.json, which the build writes from the catalog's sources (scripts/lib/explain-catalog.mjs):
// the file is not committed, and type checking does not need it.
import type { FamilyPrior, GeneratedSignature } from './generate.js';

declare const catalog: { $comment: string; signatures: GeneratedSignature[]; families: FamilyPrior[] };
export default catalog;
