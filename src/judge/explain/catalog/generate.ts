// The message catalog (catalog/messages: what the frameworks and NVIDIA's libraries print, read from their
// sources; catalog/installed.json: today's wordings of the builds on the project's lab GPU machine) turned into
// signatures by code. For each entry: its format string becomes a pattern whose placeholders are captures
// (format.ts), its anchor is the longest prefilter word in the text the pattern requires, its causes keep the
// catalog's order as a prior, and its source travels with it. notes.json holds where the project's copy departs
// from the catalog (names for captures, a role, a correction with its reason); tests check each departure.
//
// Pure: the build runs it (scripts/lib/explain-catalog.mjs) and writes catalog/generated.json, which the engine reads.
import { ROOT_CAUSES, type RootCauseId } from '../../../knowledge/root-causes.js';
import { GENERIC_WORDS, VOCABULARY } from '../read/vocabulary.js';
import { compileLine, literalLength, literalText, merge, parseFormat, type FormatLine } from './format.js';

export interface CatalogEntry {
  id: string;
  framework: string;
  source: { repo: string | null; path: string | null; commit: string | null; line: number | null };
  format: string;
  rendered_example: string | null;
  versions: string | null;
  level: string;
  meaning: string;
  causes: Array<{ id: string; why: string }>;
}

export interface EntryNote {
  /** noise: a harmless line (never a cause); context: says something about the setting, not the failure;
   *  skip: no useful signature (the text is a bare placeholder, or another entry matches the same lines);
   *  status: a short status text that only means a GPU failure beside GPU words on the same line */
  role?: 'noise' | 'context' | 'skip' | 'status';
  why?: string;
  /** the signal name the analysers know this message by (several wordings of one message share it) */
  group?: string;
  /** names for the placeholders, by position (1-based) */
  captures?: Record<string, string>;
  /** which line of a multi-line format identifies the message (0-based; default: the first with enough text) */
  line?: number;
  /** literal characters the pattern requires before the rest becomes optional (default 20) */
  minHead?: number;
  /** the catalog's causes, corrected (with `why`) */
  causes?: Array<{ id: string; why: string }>;
  /** the environment variable whose value the message rejects */
  setting?: string;
  /** a line the message prints, where the catalog has none that the pattern matches and a rendering of the format
   *  would not hold a real value (a library's name) */
  example?: string;
  /** the pattern's text, where the format cannot say it (with `why`) */
  pattern?: string;
  anchors?: string[];
}

export interface Notes {
  /** for `status` entries: the words one of which must be on the same line, by catalog file */
  statusContext: Record<string, { pattern: string; anchors: string[]; source: string; example: string }>;
  entries: Record<string, EntryNote>;
}

export interface GeneratedSignature {
  id: string;
  /** catalog file (family) the entry comes from */
  file: string;
  group: string;
  kind: 'evidence' | 'symptom' | 'context' | 'noise';
  pattern: string;
  /** a second pattern the line must also match (status texts) */
  needs?: string;
  anchors: string[];
  captures: string[];
  framework: string;
  /** the catalog's causes in its order, as weights that sum to 1 (the prior before data) */
  causes: Partial<Record<RootCauseId, number>>;
  /** the code-level reason for each cause, from the catalog */
  reasons: Partial<Record<RootCauseId, string>>;
  meaning: string;
  source: string;
  versions: string;
  setting?: string;
  /** real or rendered lines the pattern must match */
  examples: string[];
  /** the project's correction of the catalog, when there is one */
  note?: string;
}

/** Weights of the catalog's causes by rank: the first listed is the most common reason in its authors' reading. */
const RANK_WEIGHTS = [1, 0.55, 0.35, 0.25, 0.2, 0.15];

const ENUM_NAME = /\b(cudaError(?!_t\b)[A-Z]\w+|CUDA_ERROR_[A-Z_]+|NVML_ERROR_[A-Z_]+|CURAND_STATUS_[A-Z_]+)\b/g;

export function generateSignatures(
  files: Record<string, CatalogEntry[]>,
  notes: Notes,
): { signatures: GeneratedSignature[]; problems: string[] } {
  const out: GeneratedSignature[] = [];
  const problems: string[] = [];
  // entries that share one format differ only by the value they print (the catalog splits glog CHECK macros by
  // their common rendered variants): their pattern ends with the rendered value instead of a capture
  const formatCount = new Map<string, number>();
  for (const entries of Object.values(files))
    for (const e of entries) formatCount.set(e.format, (formatCount.get(e.format) ?? 0) + 1);

  // entries whose patterns come out the same (one message in two sources, or capitalised differently across
  // releases: "Could not create cudnn handle" / "could not create cudnn handle") cannot be told apart in a log:
  // they share the group of the first
  const groupOfPattern = new Map<string, string>();
  for (const [file, entries] of Object.entries(files)) {
    for (const e of entries) {
      const note = notes.entries[e.id] ?? {};
      if (note.role === 'skip') continue;
      try {
        const sig = one(file, e, note, notes, (formatCount.get(e.format) ?? 0) > 1);
        if (!sig) continue;
        const key = `${sig.pattern.toLowerCase()} ${sig.needs ?? ''}`;
        const same = groupOfPattern.get(key);
        if (same && !note.group) sig.group = same;
        else groupOfPattern.set(key, sig.group);
        out.push(sig);
      } catch (err) {
        problems.push(`${e.id}: ${(err as Error).message}`);
      }
    }
  }
  return { signatures: out, problems };
}

function one(file: string, e: CatalogEntry, note: EntryNote, notes: Notes, shared: boolean): GeneratedSignature | null {
  const lines = parseFormat(e.format);
  if (lines.length === 0) throw new Error('empty format');
  const lineIdx = note.line ?? bestLine(lines);
  let line = lines[lineIdx];
  if (!line) throw new Error(`no line ${lineIdx}`);
  if (shared && e.rendered_example) line = specialise(line, e.rendered_example);
  const usedNames = new Set<string>();
  const names = (i: number, p: { name?: string }): string => {
    let n = note.captures?.[String(i)] ?? safeName(p.name) ?? `v${i}`;
    while (usedNames.has(n)) n = `${n}_`;
    usedNames.add(n);
    return n;
  };
  // a format shared by several entries differs only by the value the entry specialised: all of it is required
  const minHead = note.minHead ?? (shared && e.rendered_example ? Number.POSITIVE_INFINITY : 20);
  const compiled = note.pattern
    ? {
        pattern: note.pattern,
        captures: [...note.pattern.matchAll(/\(\?<(\w+)>/g)].map((m) => m[1]!),
        required: literalText(line),
      }
    : compileLine(splitSentences(line), names, minHead);

  const role = note.role ?? autoRole(file, e, line);
  let needs: string | undefined;
  let anchors = note.anchors ?? chooseAnchors(compiled.required);
  let pattern = compiled.pattern;
  if (role === 'status') {
    const ctx = notes.statusContext[file] ?? notes.statusContext.default;
    if (!ctx) throw new Error(`status entry without a context for ${file}`);
    needs = ctx.pattern;
    anchors = ctx.anchors;
  }
  // a CUDA or NVML status text also has a name (cudaGetErrorName, cuGetErrorName, NVML's return codes):
  // cudaErrorMemoryAllocation, CUDA_ERROR_OUT_OF_MEMORY, NVML_ERROR_LIB_RM_VERSION_MISMATCH print in its place
  if ((file === 'cuda' || file === 'nvml-container') && !line.some((p) => 'ph' in p) && !note.pattern) {
    // a name in angle brackets is a placeholder ("'<cudaErrorName>: ' (CuPy/XLA)"), not the status itself
    const described = `${e.versions ?? ''} ${e.meaning}`.replace(/<[^<>\n]*>/g, ' ');
    const enums = [...new Set([...described.matchAll(ENUM_NAME)].map((m) => m[1]!))];
    if (enums.length > 0) {
      const names = `\\b(?:${enums.join('|')})\\b`;
      pattern = `(?:${pattern}|${names})`;
      // the name alone is specific: it needs no GPU word beside it
      if (needs) needs = `(?:${needs})|${names}`;
      anchors = [...new Set([...anchors, ...enums.flatMap((n) => chooseAnchors(n))])];
    }
  }
  if (anchors.length === 0)
    throw new Error(
      `no prefilter word in "${compiled.required}": add one to read/vocabulary.ts or an anchor in notes.json`,
    );

  const causeList = note.causes ?? e.causes;
  const causes: Partial<Record<RootCauseId, number>> = {};
  const reasons: Partial<Record<RootCauseId, string>> = {};
  causeList.forEach((c, i) => {
    if (!(ROOT_CAUSES as readonly string[]).includes(c.id)) throw new Error(`unknown cause ${c.id}`);
    // a message about a setting the framework rejects or ignores: the catalog's older entries file it as `other`
    const id = (note.setting && c.id === 'other' ? 'configuration_invalid' : c.id) as RootCauseId;
    causes[id] = (causes[id] ?? 0) + (RANK_WEIGHTS[i] ?? 0.1);
    reasons[id] ??= c.why;
  });
  const sum = Object.values(causes).reduce((a, b) => a + b, 0);
  for (const k of Object.keys(causes) as RootCauseId[]) causes[k] = round3(causes[k]! / sum);

  const kind: GeneratedSignature['kind'] =
    role === 'noise'
      ? 'noise'
      : role === 'context'
        ? 'context'
        : Object.keys(causes).length === 1 && role !== 'status'
          ? 'evidence'
          : 'symptom';
  const examples: string[] = note.example ? [note.example] : [];
  const ok = (l: string) => new RegExp(pattern, 'i').test(l) && (!needs || new RegExp(needs, 'i').test(l));
  // a status's rendered example is usually another entry's message ("CUDA error: out of memory" is PyTorch's):
  // its own example is the status in a neutral context
  if (e.rendered_example && role !== 'status')
    examples.push(
      ...e.rendered_example
        .split('\n')
        .filter((l) => l.trim().length > 0 && ok(l))
        .slice(0, 1),
    );
  if (examples.length === 0 && !note.example) {
    // a status text is printed inside another message: render it the way its context shows it
    const ctx = role === 'status' ? (notes.statusContext[file] ?? notes.statusContext.default)?.example : undefined;
    examples.push(ctx ? ctx.replace('{}', renderLine(line)) : renderLine(line));
  }
  return {
    id: e.id,
    file,
    group: note.group ?? e.id,
    kind,
    pattern,
    ...(needs ? { needs } : {}),
    anchors,
    captures: compiled.captures,
    framework: e.framework,
    causes,
    reasons,
    meaning: e.meaning,
    source: sourceOf(e),
    versions: e.versions ?? '',
    ...(note.setting ? { setting: note.setting } : {}),
    examples,
    ...(note.why ? { note: note.why } : {}),
  };
}

/** literal text split at its sentences, so that the sentences after the first few become optional (users paste
 *  the first sentence of a long message, and releases change its later ones) */
function splitSentences(line: FormatLine): FormatLine {
  const out: FormatLine = [];
  for (const p of line) {
    if (!('lit' in p)) {
      out.push(p);
      continue;
    }
    // a sentence ends after a word ("failed. Look at…"), not after a value ("{size}. GPU {} has…")
    // and a clause ends before a parenthesis or after a colon or semicolon ("unhandled system error (run with
    // NCCL_DEBUG=INFO…)", "Blas GEMM launch failed : a.shape=…"): the head of a message is the shortest run of
    // whole clauses long enough to be recognised, so a paste cut after its first clause (a thread's title, an
    // older release that printed only that clause) still matches
    // (a clause of three words or more and 20 visible characters: "initialization error:" alone says too little)
    const parts = p.lit.split(/(?<=[A-Za-z)]{2}[.!?])(?=\s+[A-Z(])/);
    for (const part of parts) for (const clause of splitClauses(part)) if (clause.length > 0) out.push({ lit: clause });
  }
  return out;
}

const CLAUSE_END = /(?<=[A-Za-z]{2})(?=\s+\((?!\)))|(?<=[A-Za-z]{2})(?=\s+[:;]\s)|(?<=[A-Za-z]{2}[:;])(?=\s)/g;

/** a literal cut at its clause boundaries, where the text before a cut is a clause of its own (see splitSentences) */
function splitClauses(lit: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (const m of lit.matchAll(CLAUSE_END)) {
    const clause = lit.slice(start, m.index);
    if (clause.replace(/\s+/g, '').length >= 20 && clause.trim().split(/\s+/).length >= 3) {
      out.push(clause);
      start = m.index!;
    }
  }
  out.push(lit.slice(start));
  return out;
}

/** the first line with enough text to be recognised; else the one with the most */
function bestLine(lines: FormatLine[]): number {
  const i = lines.findIndex((l) => literalLength(l) >= 16);
  if (i !== -1) return i;
  let best = 0;
  lines.forEach((l, k) => {
    if (literalLength(l) > literalLength(lines[best]!)) best = k;
  });
  return best;
}

/** a trailing value printed by a shared format, replaced by what the entry's rendered example shows there */
function specialise(line: FormatLine, example: string): FormatLine {
  const last = line[line.length - 1];
  if (!last || 'lit' in last) return line;
  const lit = [...line].reverse().find((p) => 'lit' in p) as { lit: string } | undefined;
  if (!lit) return line;
  const marker = lit.lit.trim();
  const exLine = example.split('\n').find((l) => (marker ? l.includes(marker) : true)) ?? example;
  // the value is what follows the last literal piece (glog: "... (2 vs. 0)  out of memory")
  const anchorText = marker || ')';
  const at = exLine.lastIndexOf(anchorText);
  const value = at >= 0 ? exLine.slice(at + anchorText.length).trim() : '';
  if (!value) return line;
  return merge([...line.slice(0, -1), { lit: ` ${value}` }]);
}

/** the longest vocabulary words in the required text (two of them when there are: either admits the line) */
export function chooseAnchors(required: string): string[] {
  const low = required.toLowerCase();
  // words inside the text only (a word the pattern relaxes, across a space, cannot be one)
  const found = VOCABULARY.filter((w) => low.includes(w)).sort(
    (a, b) => Number(GENERIC_WORDS.has(a)) - Number(GENERIC_WORDS.has(b)) || b.length - a.length,
  );
  return found.slice(0, 1);
}

/** default roles from the catalog's own fields: short status texts need GPU words beside them; info lines whose
 *  only cause is "other" are context (the catalog includes harmless lines on purpose, to say they are harmless) */
function autoRole(file: string, e: CatalogEntry, line: FormatLine): EntryNote['role'] | undefined {
  const placeholders = line.filter((p) => 'ph' in p).length;
  // the CUDA runtime/driver error strings (cudaGetErrorString) and NVML's (nvmlErrorString) are printed after a
  // prefix that names CUDA or NVML; the catalog's other entries in those files carry their own words
  if (file === 'cuda' && placeholders === 0 && !/^(?:nccl|nvrm)-/.test(e.id) && !/[_:]/.test(literalText(line)))
    return 'status';
  if (
    file === 'nvml-container' &&
    placeholders === 0 &&
    literalLength(line) < 40 &&
    !/[_:]/.test(literalText(line)) &&
    !/nvidia|gpu|nvml/i.test(literalText(line))
  )
    return 'status';
  if (
    e.causes.length === 1 &&
    e.causes[0]!.id === 'other' &&
    (e.level === 'info' || /context only|harmless|informational/i.test(e.causes[0]!.why))
  )
    return 'context';
  return undefined;
}

function renderLine(line: FormatLine): string {
  return line
    .map((p) =>
      'lit' in p
        ? p.lit
        : 'raw' in p
          ? (p.example ?? ' ')
          : p.ph === 'int'
            ? '2'
            : p.ph === 'hex'
              ? '0x1f'
              : p.ph === 'float'
                ? '1.5'
                : 'X',
    )
    .join('')
    .replace(/ {2,}/g, ' ')
    .trim();
}

function safeName(n: string | undefined): string | undefined {
  if (!n) return undefined;
  const s = n.replace(/\W/g, '_');
  return /^[A-Za-z_]/.test(s) ? s : undefined;
}

function sourceOf(e: CatalogEntry): string {
  const s = e.source;
  const where = [s.repo, s.path].filter(Boolean).join(' ');
  return `${where || '(no public source)'}${s.commit ? ` @${s.commit.slice(0, 10)}` : ''}${s.line ? `:${s.line}` : ''}`;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

export interface FamilyPrior {
  id: string;
  /** the average of the causes of the catalog's messages that carry the family's vocabulary */
  causes: Partial<Record<RootCauseId, number>>;
  /** how many catalog messages that average is made of */
  messages: number;
}

/**
 * A family's prior: the catalog's messages whose example carries the family's words, their causes averaged.
 * When a line has the vocabulary of a failure but no known message, this is the honest ranking within it.
 */
export function familyPriors(
  families: Array<{ id: string; pattern: string }>,
  signatures: GeneratedSignature[],
): FamilyPrior[] {
  return families.map((f) => {
    const re = new RegExp(f.pattern, 'i');
    const members = signatures.filter(
      (s) => (s.kind === 'evidence' || s.kind === 'symptom') && s.examples.some((e) => re.test(e)),
    );
    const sum: Partial<Record<RootCauseId, number>> = {};
    for (const m of members)
      for (const [c, w] of Object.entries(m.causes) as Array<[RootCauseId, number]>)
        sum[c] = (sum[c] ?? 0) + w / members.length;
    for (const c of Object.keys(sum) as RootCauseId[]) sum[c] = round3(sum[c]!);
    return { id: f.id, causes: sum, messages: members.length };
  });
}
