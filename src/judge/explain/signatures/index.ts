// All signatures `explain` matches, compiled once: the ones generated from the message catalog
// (../catalog/generated.json), the hand-written ones for texts no source in the catalog emits (one JSON file per
// family in this folder: user prose, glibc/ld.so, ptxas, cuBLAS status names, ...), the families that catch a
// failure's vocabulary when no message is known, and the framework cues. Each names the prefilter anchors its
// lines must hold; `Registry` builds the prefilter from them and dispatches a line to the signatures whose anchor
// it holds. See README.md in this folder. The rows' schema (./schema.ts) is checked by the build and the tests,
// not at every start.
import type { RootCauseId } from '../../../knowledge/root-causes.js';
import { AnchorSet, type AnchorSetState } from '../read/anchors.js';
import { HEAD_STEMS, STEMS } from '../read/vocabulary.js';
import { ENV_ANCHORS } from '../env/anchors.js';
import { native } from '../../../base/native-regex.js';
import type { Framework } from '../types.js';
import type { FamilyRow, FrameworkCueRow, SignatureRow } from './schema.js';
import { requiredClauses } from './literals.js';
import generated from '../catalog/generated.json' with { type: 'json' };
import type { BundledCatalog, BundledDigest } from '../catalog/bundled.js';
import memory from './memory.json' with { type: 'json' };
import cudnn from './cudnn.json' with { type: 'json' };
import libraries from './libraries.json' with { type: 'json' };
import arch from './arch.json' with { type: 'json' };
import misc from './misc.json' with { type: 'json' };
import context from './context.json' with { type: 'json' };
import families from './families.json' with { type: 'json' };
import frameworks from './frameworks.json' with { type: 'json' };

/**
 * evidence: names its cause; symptom: several causes are behind it; memory: an out-of-memory message whose
 * numbers the analysers read; family: only the vocabulary of a failure; context: what the user wrote about
 * the setting (adjusts, never makes, a diagnosis); noise: a line the catalog lists as harmless.
 */
export type SignatureKind = 'evidence' | 'symptom' | 'memory' | 'family' | 'context' | 'noise';

export interface Signature {
  id: string;
  /** the name the signal is known by (several wordings of one message share it) */
  group: string;
  kind: SignatureKind;
  re: RegExp;
  /** another pattern the line must match too (short CUDA/NVML status texts need GPU words beside them) */
  needs?: RegExp;
  anchors: string[];
  /** the framework that prints it, when one does (a message only TensorFlow prints says the log is TensorFlow's) */
  framework?: Framework;
  /** prior over causes before data (sums to 1), or for context rows the weights they add */
  causes: Partial<Record<RootCauseId, number>>;
  /** the catalog's code-level reason per cause */
  reasons: Partial<Record<RootCauseId, string>>;
  summary: string;
  source: string;
  /** the environment variable the message rejects */
  setting?: string;
  examples: string[];
  /** from the message catalog (generated) rather than written by hand */
  catalog: boolean;
  /** a short status text: dropped when a longer message on the same line holds it */
  status: boolean;
  /** clauses of lower-case strings, every match holding one string of each (./literals.ts): a line that does not
   *  is not tried */
  literals?: Clauses | null;
}

/** see requiredClauses in ./literals.ts */
export type Clauses = readonly (readonly string[])[];

export interface FrameworkCue {
  framework: Framework;
  re: RegExp;
  weight: number;
  anchors: string[];
  /** as a signature's: a line that holds no string of one of these clauses is not tried */
  literals: Clauses | null;
}

export const SIGNATURE_FILES: Record<string, unknown[]> = { memory, cudnn, libraries, arch, misc, context };

const FRAMEWORK_OF: Record<string, Framework> = {
  tensorflow: 'tensorflow',
  xla: 'xla',
  jax: 'jax',
  pytorch: 'pytorch',
  cupy: 'cupy',
  onnxruntime: 'onnxruntime',
  paddle: 'paddle',
  caffe: 'caffe',
  mxnet: 'mxnet',
};

function normalise(c: Partial<Record<RootCauseId, number>>): Partial<Record<RootCauseId, number>> {
  const pos = Object.entries(c).filter(([, w]) => (w ?? 0) > 0) as Array<[RootCauseId, number]>;
  const sum = pos.reduce((a, [, w]) => a + w, 0);
  const out: Partial<Record<RootCauseId, number>> = {};
  for (const [k, w] of pos) out[k] = w / sum;
  return out;
}

const MEMORY_CAUSES: RootCauseId[] = [
  'gpu_memory_exhausted',
  'memory_held_by_other_process',
  'framework_preallocation',
  'allocator_fragmentation',
];

/** how much of a prior is on the memory causes (an out-of-memory message puts nearly all of it there) */
export function memoryShare(c: Partial<Record<RootCauseId, number>>): number {
  return MEMORY_CAUSES.reduce((a, k) => a + (c[k] ?? 0), 0);
}

/** What a signature is made of when first read: its fields, its pattern and flags, its `needs` pattern. */
interface SignatureBody {
  id: string;
  anchors: string[];
  fields: Omit<Signature, 'id' | 'anchors' | 'catalog' | 're' | 'needs' | 'literals'>;
  pattern: string;
  flags: string;
  needs: string | undefined;
}

/**
 * A signature read and compiled when first used. Dispatching a line needs only a signature's required literals;
 * a short log's lines reach a few hundred of the ~800 signatures by their anchors and match a few dozen. So the
 * rest (the id, the texts, the priors) is made on first access — in the bundle the catalog's rows are even parsed
 * then, each from its own line of the catalog file (../catalog/bundled.ts) — and the regular expressions are
 * compiled on first use (V8 checks a pattern's syntax when its RegExp is created), straight to machine code
 * (src/base/native-regex.ts). Every pattern is still compiled at build time (scripts/validate-data.ts) and by the
 * tests, so a bad one stops the build, not a run.
 */
class LazySignature implements Signature {
  #body: SignatureBody | undefined;
  #re: RegExp | undefined;
  #needs: RegExp | undefined;
  readonly literals: Clauses | null;

  /** `literals`: as the build computed them, else computed here from the pattern */
  constructor(
    readonly catalog: boolean,
    literals: Clauses | null | undefined,
    private readonly make: () => SignatureBody,
  ) {
    this.literals = literals !== undefined ? literals : requiredClauses(this.body.pattern, this.body.flags);
  }

  private get body(): SignatureBody {
    return (this.#body ??= this.make());
  }
  get id(): string {
    return this.body.id;
  }
  get anchors(): string[] {
    return this.body.anchors;
  }
  /** a context or noise row: needs no anchor read in the whole log */
  get quiet(): boolean {
    return this.kind === 'noise' || this.kind === 'context';
  }
  get group(): string {
    return this.body.fields.group;
  }
  get kind(): SignatureKind {
    return this.body.fields.kind;
  }
  get framework(): Framework | undefined {
    return this.body.fields.framework;
  }
  get causes(): Partial<Record<RootCauseId, number>> {
    return this.body.fields.causes;
  }
  get reasons(): Partial<Record<RootCauseId, string>> {
    return this.body.fields.reasons;
  }
  get summary(): string {
    return this.body.fields.summary;
  }
  get source(): string {
    return this.body.fields.source;
  }
  get setting(): string | undefined {
    return this.body.fields.setting;
  }
  get examples(): string[] {
    return this.body.fields.examples;
  }
  get status(): boolean {
    return this.body.fields.status;
  }
  get re(): RegExp {
    return (this.#re ??= native(new RegExp(this.body.pattern, this.body.flags)));
  }
  get needs(): RegExp | undefined {
    const n = this.body.needs;
    return n === undefined ? undefined : (this.#needs ??= native(new RegExp(n, 'i')));
  }
}

/** A framework cue whose regular expression is compiled when first used (see LazySignature). */
class LazyCue implements FrameworkCue {
  #re: RegExp | undefined;
  readonly literals: Clauses | null;
  /** `literals`: as the build computed them, else computed here from the pattern */
  constructor(
    readonly framework: Framework,
    private readonly pattern: string,
    readonly weight: number,
    readonly anchors: string[],
    literals: Clauses | null | undefined,
  ) {
    this.literals = literals !== undefined ? literals : requiredClauses(pattern, 'i');
  }
  get re(): RegExp {
    return (this.#re ??= native(new RegExp(this.pattern, 'i')));
  }
}

type CatalogRow = Omit<(typeof generated.signatures)[number], 'file' | 'captures' | 'versions' | 'note'>;

function catalogBody(g: CatalogRow): SignatureBody {
  const causes = g.causes as Partial<Record<RootCauseId, number>>;
  return {
    id: g.id,
    anchors: g.anchors,
    fields: {
      group: g.group,
      kind:
        g.kind === 'noise'
          ? 'noise'
          : g.kind === 'context'
            ? 'context'
            : g.kind === 'evidence'
              ? 'evidence'
              : memoryShare(causes) >= 0.8
                ? 'memory'
                : 'symptom',
      ...(FRAMEWORK_OF[g.framework] ? { framework: FRAMEWORK_OF[g.framework] } : {}),
      causes,
      reasons: g.reasons as Partial<Record<RootCauseId, string>>,
      summary: g.meaning,
      source: `${g.source} (catalog: ${g.id})`,
      ...(g.setting ? { setting: g.setting } : {}),
      examples: g.examples,
      status: Boolean(g.needs),
    },
    // d: the spans of the captures, to tell a status printed as this message's value from one in its text
    pattern: g.pattern,
    flags: 'id',
    needs: g.needs ? g.needs : undefined,
  };
}

/** The catalog's rows as the registry reads them: from the source (the tests) or from the bundle's file. */
interface CatalogRows {
  count: number;
  /** the row's required literals; undefined: not computed by the build */
  literals(i: number): Clauses | null | undefined;
  row(i: number): CatalogRow;
  /** what building the registry computes, when the build wrote it down (the bundle) */
  digest: BundledDigest | undefined;
  families: Array<{ id: string; causes: unknown }>;
}

type CatalogSource = typeof generated | BundledCatalog;

function catalogRows(c: CatalogSource): CatalogRows {
  if ('signatures' in c) {
    const rows = c.signatures as Array<CatalogRow & { literals?: string[][] | null }>;
    return {
      count: rows.length,
      literals: (i) => rows[i]!.literals,
      row: (i) => rows[i]!,
      digest: undefined,
      families: c.families,
    };
  }
  return {
    count: c.count,
    literals: (i) => c.literals(i),
    row: (i) => c.row(i) as CatalogRow,
    digest: c.registry,
    get families() {
      return c.families;
    },
  };
}

/** the hand-written signatures (the files of this folder, then the families), by their index after the catalog's */
function handWritten(rows: CatalogRows): Array<() => LazySignature> {
  const out: Array<() => LazySignature> = [];
  for (const [file, list] of Object.entries(SIGNATURE_FILES)) {
    for (const raw of list) {
      // validated by the tests (schema above), not at start: the rows are data shipped with the code
      const row = raw as SignatureRow & { literals?: string[][] | null };
      out.push(
        () =>
          new LazySignature(false, row.literals, () => ({
            id: row.id,
            anchors: row.anchors,
            fields: {
              group: row.group ?? row.id,
              kind: row.kind,
              ...(row.frameworks.length === 1 && row.frameworks[0] !== 'other' ? { framework: row.frameworks[0] } : {}),
              causes: row.kind === 'context' ? row.indicates : normalise(row.indicates),
              reasons: {},
              summary: row.summary,
              source: `${row.source} (${file}.json)`,
              examples: row.examples,
              status: false,
            },
            pattern: row.pattern,
            flags: row.flags ?? 'i',
            needs: undefined,
          })),
      );
    }
  }
  let priors: Map<string, Partial<Record<RootCauseId, number>>> | undefined;
  for (const raw of families) {
    const row = raw as FamilyRow & { literals?: string[][] | null };
    out.push(
      () =>
        new LazySignature(false, row.literals, () => {
          priors ??= new Map(rows.families.map((f) => [f.id, f.causes as Partial<Record<RootCauseId, number>>]));
          return {
            id: row.id,
            anchors: row.anchors,
            fields: {
              group: row.id,
              kind: 'family',
              causes: normalise(priors.get(row.id) ?? {}),
              reasons: {},
              summary: row.summary,
              source: row.source,
              examples: [],
              status: false,
            },
            pattern: row.pattern,
            flags: 'i',
            needs: undefined,
          };
        }),
    );
  }
  return out;
}

/** A registry's computed state by index (see Registry.digest). */
export interface RegistryDigest {
  /** the signatures' ids in order: the digest is used only for the same signatures */
  ids: string[];
  cues: number;
  anchors: AnchorSetState;
  byAnchor: number[][];
  cuesByAnchor: number[][];
}

/** The signatures, the prefilter built from every anchor in use, and the dispatch from anchor to signatures. */
export class Registry {
  readonly cues: FrameworkCue[];
  readonly anchors: AnchorSet;
  /** anchor id → the indices of the signatures keyed on it (a signature keyed on several anchors is under each) */
  private readonly byAnchor: number[][];
  /** anchor id → the framework cues keyed on it */
  private readonly cuesByAnchor: FrameworkCue[][];
  /** anchor id → its signatures, made when the anchor is first asked for */
  private readonly lists: Array<Signature[] | undefined>;
  /** the signatures made so far, by index: the catalog's rows first, then the hand-written ones */
  private readonly made: Array<Signature | undefined>;
  private readonly rows: CatalogRows;
  private hand: Array<() => LazySignature> | undefined;
  private all: Signature[] | undefined;

  /** `catalog`: the generated catalog, from its source or as the bundle ships it (../catalog/bundled.ts) */
  constructor(catalog: CatalogSource = generated) {
    this.rows = catalogRows(catalog);
    this.cues = frameworks.map((r) => {
      const row = r as FrameworkCueRow & { literals?: string[][] | null };
      return new LazyCue(row.framework, row.pattern, row.weight, row.anchors, row.literals);
    });
    // The bundle's catalog carries what the rest of this constructor computes (scripts/build.mjs built this
    // registry and wrote it down): restored, when it is of as many signatures and cues, instead of computed again.
    // The signatures are then made only when an anchor first selects them.
    const digest = this.rows.digest;
    const count = this.rows.count + this.handWritten().length;
    this.made = new Array<Signature | undefined>(count);
    if (digest && digest.count === count && digest.cues === this.cues.length) {
      this.anchors = AnchorSet.fromState(digest.anchors as AnchorSetState);
      this.byAnchor = digest.byAnchor;
      this.lists = new Array<Signature[] | undefined>(digest.byAnchor.length);
      this.cuesByAnchor = digest.cuesByAnchor.map((list) => list.map((i) => this.cues[i]!));
      return;
    }
    const signatures = this.signatures;
    const seen = new Set<string>();
    for (const s of signatures) {
      if (seen.has(s.id)) throw new Error(`signature ${s.id} defined twice`);
      seen.add(s.id);
    }
    const words = [
      ...new Set(
        [...signatures.flatMap((s) => s.anchors), ...this.cues.flatMap((c) => c.anchors), ...ENV_ANCHORS].map((w) =>
          w.toLowerCase(),
        ),
      ),
    ];
    this.anchors = new AnchorSet(words, STEMS, HEAD_STEMS);
    // a failure message must be found anywhere in a log, not only in its first part (asked once per distinct
    // anchor: the ~480 signatures share ~150 of them)
    const anywhere = new Map<string, boolean>();
    const foundAnywhere = (a: string) => {
      let v = anywhere.get(a);
      if (v === undefined) anywhere.set(a, (v = this.anchors.foundAnywhere(a)));
      return v;
    };
    for (const sig of signatures) {
      if ((sig as LazySignature).quiet) continue;
      if (!sig.anchors.some(foundAnywhere))
        throw new Error(
          `signature ${sig.id}: none of its anchors (${sig.anchors.join(', ')}) holds a stem read in the whole log`,
        );
    }
    const ids = new Map<string, number>();
    const idOf = (a: string) => {
      let id = ids.get(a);
      if (id === undefined) ids.set(a, (id = this.anchors.idOf(a)!));
      return id;
    };
    this.byAnchor = words.map(() => []);
    this.cuesByAnchor = words.map(() => []);
    this.lists = new Array<Signature[] | undefined>(words.length);
    signatures.forEach((s, i) => {
      for (const a of new Set(s.anchors.map((x) => x.toLowerCase()))) this.byAnchor[idOf(a)]!.push(i);
    });
    for (const c of this.cues)
      for (const a of new Set(c.anchors.map((x) => x.toLowerCase()))) this.cuesByAnchor[idOf(a)]!.push(c);
  }

  private handWritten(): Array<() => LazySignature> {
    return (this.hand ??= handWritten(this.rows));
  }

  /** signature `i`, made when first asked for */
  private at(i: number): Signature {
    let s = this.made[i];
    if (s === undefined) {
      const n = this.rows.count;
      s =
        i < n
          ? new LazySignature(true, this.rows.literals(i), () => catalogBody(this.rows.row(i)))
          : this.handWritten()[i - n]!();
      this.made[i] = s;
    }
    return s;
  }

  /** every signature, in order (all made) */
  get signatures(): Signature[] {
    if (this.all === undefined) {
      const all: Signature[] = [];
      for (let i = 0; i < this.made.length; i++) all.push(this.at(i));
      this.all = all;
    }
    return this.all;
  }

  /** What the constructor computed, by index: written into the bundle's catalog by the build. */
  digest(): RegistryDigest {
    const cueIndex = new Map(this.cues.map((c, i) => [c, i]));
    return {
      ids: this.signatures.map((s) => s.id),
      cues: this.cues.length,
      anchors: this.anchors.state(),
      byAnchor: this.byAnchor.map((list) => [...list]),
      cuesByAnchor: this.cuesByAnchor.map((list) => list.map((c) => cueIndex.get(c)!)),
    };
  }

  /** the signatures keyed on an anchor */
  private listFor(anchorId: number): Signature[] {
    let list = this.lists[anchorId];
    if (list === undefined) {
      const ids = this.byAnchor[anchorId];
      if (ids === undefined) return [];
      list = ids.map((i) => this.at(i));
      this.lists[anchorId] = list;
    }
    return list;
  }

  /** the signatures to try on a line that holds these anchors (each once, in the order of the anchors' lists) */
  signaturesFor(anchorIds: readonly number[]): Signature[] {
    if (anchorIds.length === 1) return this.listFor(anchorIds[0]!);
    const set = new Set<Signature>();
    for (const id of anchorIds) for (const s of this.listFor(id)) set.add(s);
    return [...set];
  }

  cuesFor(anchorIds: readonly number[]): FrameworkCue[] {
    if (anchorIds.length === 1) return this.cuesByAnchor[anchorIds[0]!] ?? [];
    const set = new Set<FrameworkCue>();
    for (const id of anchorIds) for (const c of this.cuesByAnchor[id] ?? []) set.add(c);
    return [...set];
  }
}

let cached: Registry | undefined;
export function registry(): Registry {
  cached ??= new Registry();
  return cached;
}

/** kept for callers that list the signatures */
export function signatures(): Signature[] {
  return registry().signatures;
}
