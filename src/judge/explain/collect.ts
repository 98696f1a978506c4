// The streaming half of `explain`: each line the prefilter passed is normalised once, read for environment facts
// and framework cues, and tried against the signatures keyed on the anchors it holds. Only bounded state is kept
// (per signal: the first few and the last few matches), so memory does not grow with the size of the log.
//
// One line, several matches: the most specific reading wins. Matches that start at the same place are readings
// of one message (the wordings of several releases share their first words): the longest is kept. A short CUDA
// or NVML status text inside a longer message is that message's detail, not a second failure. A family (only the
// vocabulary of a failure) counts only on a line no known message matched (a harmless one included).
import type { Line } from './read/scan.js';
import { normaliseLine } from './read/normalise.js';
import { registry, type Registry, type Signature } from './signatures/index.js';
import { mayHoldAll } from './signatures/literals.js';
import { EnvReader } from './env/reader.js';
import { mayHoldEnvFact } from './env-gate.js';
import { nativeAtFirstUse } from '../../base/native-regex.js';
import type { Framework, LogEvidence } from './types.js';

const FIRST_KEPT = 8;
const LAST_KEPT = 40;
const EVIDENCE_CHARS = 400;
/** kept per match for the analysers (PyTorch's message runs past 400 characters with several processes) */
const MATCH_CHARS = 2000;
/** framework cues: enough lines to decide, not every line of a 2 GB log */
const CUE_LINES = 2000;
/** lines remembered as of no use (see Collector.idle): how many, and how long (a bound on the memory they hold) */
const IDLE_LINES = 16;
const IDLE_LINE_CHARS = 4096;

export interface Match {
  line: number;
  text: string;
  values: Record<string, string>;
  /** the signature (wording) that matched */
  sig: Signature;
}

export interface SignalState {
  /** the first signature of the group that matched (kind, summary and prior of the group) */
  sig: Signature;
  group: string;
  count: number;
  first: Match[];
  /** ring buffer of the most recent matches after the first ones */
  last: Match[];
  lastPos: number;
}

interface Hit {
  sig: Signature;
  start: number;
  end: number;
  groups: Record<string, string | undefined> | undefined;
  /** characters of the match that are the message's own text (not its values) */
  literal: number;
  /** spans of the values it captured */
  values: Array<[number, number]>;
}

export class Collector {
  readonly env = new EnvReader();
  readonly signals = new Map<string, SignalState>();
  readonly frameworkScore = new Map<Framework, number>();
  private frameworkLines = 0;
  lines = 0;
  private readonly reg: Registry;
  /** a match whose text continues on the next line (see continueOpen) */
  private open: { m: Match; last: number } | undefined;
  /**
   * Raw texts of the last lines that had no use: no environment fact looked for, no framework cue, no signature
   * matched. All that is decided by the text alone (the cues are tested on every line until CUE_LINES lines had one,
   * and never after), so the same text again has no use either: it is not normalised nor read again. A training log
   * prints the same warnings every few steps. Only when no match is open (an open match may take the line as its
   * continuation). A ring compared with ===: lines of other lengths cost one comparison of lengths each.
   */
  private readonly idle: string[] = new Array<string>(IDLE_LINES).fill('');
  private idleAt = 0;

  /** `remember`: lines of no use are remembered (see `idle`); off, every line is read in full (the tests compare) */
  constructor(
    private readonly sourceOf: (line: number) => string | undefined = () => undefined,
    reg?: Registry,
    private readonly remember = true,
  ) {
    this.reg = reg ?? registry();
  }

  onLine(line: Line): void {
    this.lines = line.no;
    const raw = line.text;
    if (raw.length === 0) return;
    if (this.open === undefined && this.idle.includes(raw)) return;
    const text = normaliseLine(raw);
    if (text.trim().length === 0) {
      this.open = undefined;
      return;
    }
    this.continueOpen(line.no, text);
    const lower = text.toLowerCase();
    // anchors of the normalised text (colour codes removed can join a word the raw bytes split)
    const anchors = this.reg.anchors.idsIn(text, lower);
    if (anchors.length === 0) {
      this.noUse(raw);
      return;
    }
    // most "memory" lines of a training log hold no machine fact: not handed to the reader's twenty patterns
    const envRead = mayHoldEnvFact(lower);
    if (envRead) this.env.onLine(line.no, text, lower);
    let cued = false;
    if (this.frameworkLines < CUE_LINES) {
      for (const c of this.reg.cuesFor(anchors)) {
        // as for the signatures below: a line without the cue's literals is not tried (its pattern never compiled)
        if (c.literals && !mayHoldAll(c.literals, lower)) continue;
        if (c.re.test(text)) {
          this.frameworkScore.set(c.framework, (this.frameworkScore.get(c.framework) ?? 0) + c.weight);
          cued = true;
        }
      }
      if (cued) this.frameworkLines++;
    }
    const hits: Hit[] = [];
    // a family counts only on a line no other signature matched (pickReadings): tried after the others, and only
    // when none of them matched (its pattern then never compiled on a line a known message explains)
    let families: Signature[] | undefined;
    for (const sig of this.reg.signaturesFor(anchors)) {
      // a line without any of the literals every match holds cannot match: not tried (its regex then never
      // compiled: most of the start of `explain` on a short log); see signatures/literals.ts (precomputed by the build)
      // (it also spares most lines of a training log the call into the regex engine: "process memory 3.2 GiB" is
      // selected by every memory message's anchor and held by almost none of their literals)
      if (sig.literals && !mayHoldAll(sig.literals, lower)) continue;
      if (sig.kind === 'family') (families ??= []).push(sig);
      else tryOn(sig, text, hits);
    }
    if (hits.length === 0 && families) for (const sig of families) tryOn(sig, text, hits);
    if (hits.length === 0) {
      if (!envRead && !cued) this.noUse(raw);
      return;
    }
    for (const h of pickReadings(hits, text)) {
      const m = this.record(h.sig, line.no, text, h.groups);
      // a message with figures whose parenthesis is still open at the line's end was wrapped by the terminal
      if (h.groups && unclosed(text.slice(h.start))) this.open = { m, last: line.no };
    }
  }

  /** remembers a line's raw text as of no use (see `idle`) */
  private noUse(raw: string): void {
    if (!this.remember || raw.length > IDLE_LINE_CHARS) return;
    this.idle[this.idleAt] = raw;
    this.idleAt = (this.idleAt + 1) % IDLE_LINES;
  }

  /**
   * A terminal (or a paste from one) wraps a long line: a message that opened a parenthesis it did not close
   * continues on the next lines. Those lines are joined to its text and its pattern read again, so figures after the
   * wrap (PyTorch 1.x's "(GPU 0; X total capacity; …)") are read. Only directly following lines (a line the
   * prefilter passed over ends it), up to the match's length limit.
   */
  private continueOpen(no: number, text: string): void {
    const o = this.open;
    if (!o) return;
    if (no !== o.last + 1 || o.m.text.length + text.length >= MATCH_CHARS) {
      this.open = undefined;
      return;
    }
    const joined = `${o.m.text} ${text.trim()}`;
    const r = o.m.sig.re.exec(joined);
    o.m.text = joined;
    o.last = no;
    if (r?.groups)
      for (const [k, v] of Object.entries(r.groups))
        if (v !== undefined && v !== '') o.m.values[valueName(k)] = v.trim();
    if (!unclosed(joined)) this.open = undefined;
  }

  private record(
    sig: Signature,
    no: number,
    text: string,
    groups: Record<string, string | undefined> | undefined,
  ): Match {
    let st = this.signals.get(sig.group);
    if (!st) {
      st = { sig, group: sig.group, count: 0, first: [], last: [], lastPos: 0 };
      this.signals.set(sig.group, st);
    }
    st.count++;
    const values: Record<string, string> = {};
    if (groups)
      for (const [k, v] of Object.entries(groups)) if (v !== undefined && v !== '') values[valueName(k)] ??= v.trim();
    const m: Match = { line: no, text: text.trim().slice(0, MATCH_CHARS), values, sig };
    if (st.first.length < FIRST_KEPT) st.first.push(m);
    else if (st.last.length < LAST_KEPT) st.last.push(m);
    else {
      st.last[st.lastPos] = m;
      st.lastPos = (st.lastPos + 1) % LAST_KEPT;
    }
    return m;
  }

  /** all kept matches of a signal, in line order */
  static matches(st: SignalState): Match[] {
    const ring = st.last.length < LAST_KEPT ? st.last : [...st.last.slice(st.lastPos), ...st.last.slice(0, st.lastPos)];
    return [...st.first, ...ring];
  }

  evidenceOf(st: SignalState, max = 3): LogEvidence[] {
    const all = Collector.matches(st);
    const picked = all.length <= max ? all : [...all.slice(0, max - 1), all[all.length - 1]!];
    return picked.map((m) => withSource({ line: m.line, text: clip(m.text) }, this.sourceOf(m.line)));
  }

  detectedFramework(): Framework | undefined {
    let best: Framework | undefined;
    let bestScore = 0;
    for (const [fw, s] of this.frameworkScore) {
      if (s > bestScore) {
        best = fw;
        bestScore = s;
      }
    }
    // JAX logs carry TensorFlow paths (vendored stream_executor); Keras runs on TensorFlow
    if (best === 'tensorflow' && (this.frameworkScore.get('jax') ?? 0) >= 3) return 'jax';
    return best;
  }
}

/** a signature's reading of a line, added to `hits` when it matches */
function tryOn(sig: Signature, text: string, hits: Hit[]): void {
  if (sig.needs && !sig.needs.test(text)) return;
  const m = sig.re.exec(text);
  if (!m) return;
  const values = m.indices?.groups
    ? (Object.values(m.indices.groups).filter((x) => x !== undefined) as Array<[number, number]>)
    : [];
  const literal = m[0].length - values.reduce((a, [s, e]) => a + (e - s), 0);
  hits.push({ sig, start: m.index, end: m.index + m[0].length, groups: m.groups, literal, values });
}

/** a named group's value name: its trailing underscores cut, then its trailing digits */
const TRAILING_UNDERSCORES = /_+$/;
const TRAILING_DIGITS = /\d+$/;
/** both compiled natively at the first name */
const primeValueName = nativeAtFirstUse(TRAILING_UNDERSCORES, TRAILING_DIGITS);
function valueName(k: string): string {
  primeValueName();
  return k.replace(TRAILING_UNDERSCORES, '').replace(TRAILING_DIGITS, '');
}

/** more '(' than ')': a parenthesis the text opened and has not closed */
function unclosed(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40) depth++;
    else if (c === 41 && depth > 0) depth--;
  }
  return depth > 0;
}

/** The readings of one line to keep (see the head of this file). */
function pickReadings(hits: Hit[], text: string): Hit[] {
  if (hits.length === 1) return hits;
  // a known message, even a harmless one, explains its line: the family's vocabulary there is that message's
  const specific = hits.filter((h) => h.sig.kind !== 'family');
  let pool = specific.length > 0 ? specific : hits;
  // a library that does not load is a loading failure whatever its name: "Could not load library
  // cudnn_cnn_infer64_8.dll" is the library family's, not cuDNN's (the component families name which library)
  if (specific.length === 0 && pool.some((h) => h.sig.group === 'family.library'))
    pool = pool.filter((h) => !COMPONENT_FAMILIES.has(h.sig.group));
  // same start: one message read by several wordings; keep the longest, then the one with more of its own text
  // (a wording that spells out what another leaves as a value is the more specific)
  // exactCase once per pattern and line (two wordings may share one pattern): a second run of a pattern is when V8
  // compiles it to machine code
  const cased = new Map<string, boolean>();
  const casedHere = (s: Signature): boolean => {
    let v = cased.get(s.re.source);
    if (v === undefined) cased.set(s.re.source, (v = exactCase(s, text)));
    return v;
  };
  const better = (o: Hit, h: Hit): boolean => {
    const lo = o.end - o.start;
    const lh = h.end - h.start;
    if (lo !== lh) return lo > lh;
    if (o.literal !== h.literal) return o.literal > h.literal;
    // wordings that differ only in case ("Could not…", "could not…"): the one printed in this case
    const co = casedHere(o.sig);
    if (co !== casedHere(h.sig)) return co;
    return pool.indexOf(o) < pool.indexOf(h);
  };
  // a reading with a longer one at its start is dropped before any tie is weighed: the case of the tied ones is then
  // never asked (the same answer: `better` is pure, and a longer reading is better whatever the rest says)
  const rival = (o: Hit, h: Hit) => o !== h && o.start === h.start && o.sig.kind !== 'context';
  pool = pool.filter(
    (h) =>
      !pool.some((o) => rival(o, h) && o.end - o.start > h.end - h.start) &&
      !pool.some((o) => rival(o, h) && better(o, h)),
  );
  // a status text inside a longer message's own text is part of that message ("CUDA error: out of memory");
  // printed as its value ("Could not create cudnn handle: <status>") it says which failure, and stays
  const insideText = (h: Hit, o: Hit) =>
    o.start <= h.start && o.end >= h.end && !o.values.some(([s, e]) => s <= h.start && e >= h.end);
  pool = pool.filter((h) => !(h.sig.status && pool.some((o) => o !== h && !o.sig.status && insideText(h, o))));
  // what users write about their setting (hand-written context rows) is never inside a framework's own message:
  // PyTorch's "…installed a driver from http://www.nvidia.com…" is not the user saying they installed a driver
  pool = pool.filter(
    (h) =>
      !(
        h.sig.kind === 'context' &&
        !h.sig.catalog &&
        pool.some(
          (o) =>
            o !== h &&
            o.sig.catalog &&
            o.sig.kind !== 'context' &&
            o.sig.kind !== 'noise' &&
            o.start <= h.start &&
            o.end >= h.end,
        )
      ),
  );
  // one reading per group and line
  const byGroup = new Map<string, Hit>();
  for (const h of pool) {
    const o = byGroup.get(h.sig.group);
    if (!o || h.end - h.start > o.end - o.start) byGroup.set(h.sig.group, h);
  }
  return [...byGroup.values()];
}

const COMPONENT_FAMILIES: ReadonlySet<string> = new Set(['family.cudnn', 'family.cublas', 'family.cuda']);

const CASED = new WeakMap<Signature, RegExp>();
/** whether a signature matches the line in the case its source prints it (its pattern ignores case) */
export function exactCase(sig: Signature, text: string): boolean {
  let re = CASED.get(sig);
  if (!re) CASED.set(sig, (re = new RegExp(sig.re.source)));
  return re.test(text);
}

function withSource(e: LogEvidence, source: string | undefined): LogEvidence {
  return source ? { ...e, source } : e;
}

function clip(s: string): string {
  return s.length > EVIDENCE_CHARS ? `${s.slice(0, EVIDENCE_CHARS - 1)}…` : s;
}
