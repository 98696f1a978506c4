// The streaming half of `explain`: each line is normalised once, matched against the signatures, read for
// environment facts and framework cues. Only bounded state is kept (per signature: the first few and the
// last few matches), so memory does not grow with the size of the log.
import type { Line } from './read/lines.js';
import { normaliseLine } from './read/normalise.js';
import { frameworkCues, PREFILTER, signatures, type Signature } from './signatures/index.js';
import { EnvReader } from './env/reader.js';
import type { Framework, LogEvidence } from './types.js';

const FIRST_KEPT = 8;
const LAST_KEPT = 40;
const EVIDENCE_CHARS = 400;
/** kept per match for the analysers (PyTorch's message runs past 400 characters with several processes) */
const MATCH_CHARS = 2000;

export interface Match {
  line: number;
  text: string;
  values: Record<string, string>;
}

export interface SignalState {
  sig: Signature;
  count: number;
  first: Match[];
  /** ring buffer of the most recent matches after the first ones */
  last: Match[];
  lastPos: number;
}

export class Collector {
  readonly env = new EnvReader();
  readonly signals = new Map<string, SignalState>();
  readonly frameworkScore = new Map<Framework, number>();
  private frameworkLines = 0;
  lines = 0;
  /** the latest line that matched anything, to tell the order of events */
  constructor(private readonly sourceOf: (line: number) => string | undefined = () => undefined) {}

  onLine(line: Line): void {
    this.lines = line.no;
    if (line.text.length === 0) return;
    const text = normaliseLine(line.text);
    if (text.trim().length === 0) return;
    this.env.onLine(line.no, text);
    // framework cues: enough lines to decide, not every line of a 2 GB log
    if (this.frameworkLines < 2000) {
      let any = false;
      for (const c of frameworkCues()) {
        if (c.re.test(text)) {
          this.frameworkScore.set(c.framework, (this.frameworkScore.get(c.framework) ?? 0) + c.weight);
          any = true;
        }
      }
      if (any) this.frameworkLines++;
    }
    if (!PREFILTER.test(text)) return;
    const groupsHit = new Set<string>();
    for (const sig of signatures()) {
      if (sig.group && groupsHit.has(sig.group)) continue;
      const m = sig.re.exec(text);
      if (!m) continue;
      if (sig.group) groupsHit.add(sig.group);
      this.record(sig, line.no, text, m.groups);
    }
  }

  private record(sig: Signature, no: number, text: string, groups: Record<string, string | undefined> | undefined): void {
    let st = this.signals.get(sig.id);
    if (!st) {
      st = { sig, count: 0, first: [], last: [], lastPos: 0 };
      this.signals.set(sig.id, st);
    }
    st.count++;
    const values: Record<string, string> = {};
    if (groups) for (const [k, v] of Object.entries(groups)) if (v !== undefined) values[k.replace(/\d+$/, '')] ??= v;
    const m: Match = { line: no, text: text.trim().slice(0, MATCH_CHARS), values };
    if (st.first.length < FIRST_KEPT) st.first.push(m);
    else if (st.last.length < LAST_KEPT) st.last.push(m);
    else {
      st.last[st.lastPos] = m;
      st.lastPos = (st.lastPos + 1) % LAST_KEPT;
    }
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

function withSource(e: LogEvidence, source: string | undefined): LogEvidence {
  return source ? { ...e, source } : e;
}

function clip(s: string): string {
  return s.length > EVIDENCE_CHARS ? `${s.slice(0, EVIDENCE_CHARS - 1)}…` : s;
}
