// The catalog as the bundle ships it (dist/explain/catalog.json, written by scripts/build.mjs with bundledText): a
// head line, then one row per line. The head holds what building the registry reads: the families' priors, the
// registry's digest (signatures/index.ts Registry.digest: the prefilter's state and which signatures and cues each
// anchor selects), each row's required literals and where each row's line starts. A row is parsed only when its
// signature is first used: a short log's lines select a few hundred of the ~700 rows by their anchors, whose literals
// are tested, and match a few dozen; the rest of the file (~600 kB) is never read. The file is ASCII (other characters
// written as \u escapes), so that an offset into its text is one into its bytes.
import type { FamilyPrior, GeneratedSignature } from './generate.js';

/** see signatures/literals.ts requiredClauses */
export type Clauses = readonly (readonly string[])[];

/** between a clause's strings, and between clauses, in the head's encoding of a row's literals */
const IN_CLAUSE = '\u0001';
const BETWEEN_CLAUSES = '\u0002';

/** A row's literals as one string (its strings hold neither separator: the build fails otherwise). */
export function encodeClauses(clauses: Clauses | null): string | null {
  if (clauses === null) return null;
  for (const c of clauses)
    for (const l of c)
      if (l.includes(IN_CLAUSE) || l.includes(BETWEEN_CLAUSES)) throw new Error(`a literal holds a separator: ${l}`);
  if (clauses.some((c) => c.length === 0)) throw new Error('an empty clause');
  return clauses.map((c) => c.join(IN_CLAUSE)).join(BETWEEN_CLAUSES);
}

export function decodeClauses(text: string | null): Clauses | null {
  return text === null ? null : text.split(BETWEEN_CLAUSES).map((c) => c.split(IN_CLAUSE));
}

/** Registry.digest as the head holds it: the number of signatures instead of their ids */
export interface BundledDigest {
  count: number;
  cues: number;
  anchors: unknown;
  byAnchor: number[][];
  cuesByAnchor: number[][];
}

/** A catalog row as the bundle holds it: without the fields the run never reads, nor its literals (in the head). */
export type BundledRow = Omit<GeneratedSignature, 'file' | 'captures' | 'versions' | 'note'>;

interface Head {
  families: FamilyPrior[];
  registry: BundledDigest;
  /** per row, its required literals (encodeClauses) */
  literals: (string | null)[];
  /** per row, where its line starts, counted from the first row's start; then one past the file's end (each row
   *  ends one before the next starts) */
  at: number[];
}

/** What building the registry reads of the bundle's catalog. */
export interface BundledCatalog {
  readonly families: FamilyPrior[];
  readonly registry: BundledDigest;
  /** the number of rows */
  readonly count: number;
  literals(i: number): Clauses | null;
  row(i: number): BundledRow;
}

/** The bundle's file from the generated catalog (its rows with their literals) and the registry's digest. */
export function bundledText(
  doc: { families: FamilyPrior[]; signatures: Array<BundledRow & { literals: Clauses | null }> },
  registry: BundledDigest,
  asciiJson: (v: unknown) => string,
): string {
  const lines = doc.signatures.map(({ literals, ...row }) => asciiJson(row));
  const at = [0];
  for (const l of lines) at.push(at[at.length - 1]! + l.length + 1);
  const head: Head = {
    families: doc.families,
    registry,
    literals: doc.signatures.map((r) => encodeClauses(r.literals)),
    at,
  };
  return [asciiJson(head), ...lines].join('\n');
}

/** the file's bytes [start, end) as text (the file is ASCII), fewer past its end */
export type ReadBytes = (start: number, end: number) => string;

/** what the first read takes: the head (~60 kB) and the rows after it */
const FIRST_READ = 1 << 17;

/**
 * The bundle's catalog, read when first asked: the head then (with the rows that follow it in the same read), each
 * other row when first asked for, by itself.
 */
export function bundledCatalog(read: ReadBytes): BundledCatalog {
  let first = '';
  let head: Head | undefined;
  let base = 0;
  const load = (): Head => {
    if (head) return head;
    let size = FIRST_READ;
    for (;;) {
      first = read(0, size);
      base = first.indexOf('\n') + 1;
      if (base > 0 || first.length < size) break;
      size *= 2;
    }
    if (base === 0) base = first.length + 1;
    head = JSON.parse(first.slice(0, base - 1)) as Head;
    return head;
  };
  return {
    get families() {
      return load().families;
    },
    get registry() {
      return load().registry;
    },
    get count() {
      return load().literals.length;
    },
    literals: (i) => decodeClauses(load().literals[i]!),
    row: (i) => {
      const h = load();
      const from = base + h.at[i]!;
      const to = base + h.at[i + 1]! - 1;
      return JSON.parse(to <= first.length ? first.slice(from, to) : read(from, to));
    },
  };
}
