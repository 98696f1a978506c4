// Which installed packages matter for the GPU (data in relevant-packages.json / library-families.json).
import relevantRows from '../../knowledge/python/relevant-packages.json' with { type: 'json' };
import familyRows from '../../knowledge/python/library-families.json' with { type: 'json' };

export interface RelevantRow {
  pattern: string;
  group: 'framework' | 'framework-addon' | 'gpu-package' | 'cuda-wheel' | 'conda-cuda';
  framework: string | null;
  source: string;
}

export interface LibraryFamily {
  library: string;
  pip: string;
  conda: string;
  source: string;
}

export const RELEVANT: readonly RelevantRow[] = relevantRows as RelevantRow[];
export const LIBRARY_FAMILIES: readonly LibraryFamily[] = familyRows as LibraryFamily[];

const compiled = RELEVANT.map((r) => ({ row: r, re: new RegExp(r.pattern) }));

/** The row that makes a (normalised) package name interesting, or undefined. */
export function relevantRow(name: string): RelevantRow | undefined {
  return compiled.find((c) => c.re.test(name))?.row;
}

export function isRelevant(name: string): boolean {
  return relevantRow(name) !== undefined;
}
