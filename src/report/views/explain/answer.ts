// The one answer a diagnosis gives, the same in every format (terminal, Markdown, HTML, JSON) and in `run`:
// the headline, the evidence once, ONE next step, then the alternatives.
// - Decided: the next step is the first cause's fix (the acting command first); the other causes follow with
//   their own fixes, each log line shown under the first cause that cites it only.
// - Undecided (the input cannot separate its candidates): said once in the headline; the next step is the one
//   command that decides (check on the machine that failed, or, with the machine's facts already read, the
//   cheapest test); then the candidates, each with what tells it apart. No candidate's fix is offered as if it
//   were the answer.
// Renderers lay this out; none of them picks a next step or words one itself.
import { ROOT_CAUSE_TITLES, isRootCauseId } from '../../../knowledge/root-causes.js';
import { causeLines, type FindingLines } from '../../finding-lines.js';
import { machineFix } from '../../next-step.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Words } from '../../../base/i18n/words.js';
import { nativeAtFirstUse, nativeWhenAsked } from '../../../base/native-regex.js';

/** What the answer reads of a diagnosis: explain's Diagnosis, or run's (only `causes` is always there). */
export interface AnswerInput {
  causes: ReadonlyArray<{
    id: string;
    confidence: number;
    summary: string;
    evidence: ReadonlyArray<{ line: number; text: string; source?: string }>;
    fix?: { text: string; commands?: readonly string[]; manual?: readonly string[] };
    test?: { text: string; command?: string; cost: number };
    setting?: string;
    /** the reasoning (explain's why-lines; "against: …" argues against the cause) */
    why?: readonly string[];
    /** the why-lines that read a message of the input (explain's readings) */
    readings?: ReadonlyArray<{ why: string; line: number; meaning: string; reason?: string }>;
  }>;
  verdict?: string;
  ambiguous?: boolean;
  unknownMessage?: boolean;
  machine?: { used: boolean };
  signals?: ReadonlyArray<{ signature: string }>;
  /** a container named by the log, and the framework (explain's facts) */
  environment?: { container?: { value: string; text?: string }; framework?: { value: string } };
}

export interface AnswerCause {
  id: string;
  title: string;
  /** whole percent */
  pct: number;
  /** what tells this candidate from the others (undecided only), and the command that runs it */
  tell?: { text: string; command?: string };
  /** the cause as a finding block: its evidence without lines an earlier cause already showed */
  lines: FindingLines;
}

export interface NextStep {
  /** what the step does, one sentence */
  text: string;
  /** the command that acts (`gpu-env-doctor fix`, which shows its plan and asks) */
  act?: string;
  commands: string[];
  byHand: string[];
  /** where to run it, when that matters ("on the machine that failed") */
  where?: string;
}

export interface Answer {
  headline: string;
  /** the input cannot tell its candidates apart: the causes are candidates, the next step decides */
  undecided: boolean;
  /** undecided: the evidence, once (decided: each cause carries its own) */
  evidence: FindingLines['evidence'];
  next: NextStep | null;
  causes: AnswerCause[];
}

/** how many candidates an undecided answer lists, and how many of its evidence lines it shows */
const CANDIDATES = 4;
const EVIDENCE = 3;

export function answerOf(
  words: Words,
  d: AnswerInput,
  o: { snapshot?: Snapshot | null; verbose?: boolean } = {},
): Answer {
  const undecided = Boolean(d.ambiguous || d.unknownMessage);
  const fw = d.environment?.framework?.value;
  const sorted = [...d.causes];
  const top = sorted[0];
  const headline =
    d.verdict ??
    (top
      ? words.t('explain.mostLikely', { cause: lowerFirst(titleOf(words, top, fw)), pct: pct(top.confidence) })
      : words.t('explain.nothing'));
  const seen = new Set<string>();
  const fixes = new Set<string>();
  const sentences = new Set<string>();
  const details = detailsOf(words, sorted, Boolean(o.verbose));
  const causes: AnswerCause[] = sorted.slice(0, undecided ? CANDIDATES : sorted.length).map((c, i) => {
    // each line of the log under the first cause that cites it, never again under the next
    const evidence = c.evidence.filter((e) => {
      const k = keyOf(e);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    const lines = causeLines(
      words,
      {
        id: c.id,
        title: titleOf(words, c, fw),
        confidence: c.confidence,
        summary: c.summary,
        evidence: evidence.map((e) => ({
          line: e.source === 'machine' || !(e.line > 0) ? null : e.line,
          text: e.text,
        })),
        // a fix already given under an earlier cause is not repeated under this one, nor a sentence of it (the
        // platform's facts a fix ends with: the DLL a log names, conda's Library\bin)
        ...(c.fix && !fixes.has(c.fix.text)
          ? {
              fix: {
                text: unsaid(words, c.fix.text, sentences),
                commands: [...(c.fix.commands ?? [])],
                manual: localKills(words, c.fix.manual ?? [], d, o.snapshot ?? null),
              },
            }
          : {}),
      },
      { snapshot: o.snapshot ?? null },
    );
    const shown = c.why ? withTell(words, lines, details[i]) : lines;
    if (c.fix) fixes.add(c.fix.text);
    return {
      id: c.id,
      title: titleOf(words, c, fw),
      pct: pct(c.confidence),
      ...(undecided && c.test
        ? { tell: { text: c.test.text, ...(c.test.command ? { command: c.test.command } : {}) } }
        : {}),
      lines: shown,
    };
  });
  if (!undecided) {
    // the machine's facts name the holders now: the first cause's fix is check's, word for word, so the same
    // state gives the same first command in every command and format
    const now = causes[0] && o.snapshot ? machineFix(words, causes[0].id, o.snapshot) : null;
    if (now) {
      // a PID of the log that the snapshot paired with a local one: the pairing said under check's steps
      const mapped = pairings(words, sorted[0]?.fix?.manual ?? [], o.snapshot!);
      causes[0]!.lines = { ...causes[0]!.lines, fix: { ...now, byHand: [...now.byHand, ...mapped] } };
    }
    const fix = causes[0]?.lines.fix;
    return {
      headline,
      undecided,
      evidence: [],
      next: fix
        ? { text: fix.text, ...(fix.act ? { act: fix.act } : {}), commands: fix.commands, byHand: fix.byHand }
        : null,
      causes,
    };
  }
  const evidence = causes.flatMap((c) => c.lines.evidence).slice(0, o.verbose ? 8 : EVIDENCE);
  return {
    headline,
    undecided,
    evidence,
    next: decider(words, d),
    causes: causes.map((c) => ({ ...c, lines: { ...c.lines, evidence: [] } })),
  };
}

/** a long sentence said once is enough: shorter ones ("Then rerun.") may belong to each fix */
const LONG_SENTENCE = 60;

const SENTENCE_END = /(?<=\.)\s+/;
const ABBREVIATION_END = /\b(?:e\.g|i\.e|vs|cf)\.$/;
/** the patterns below compiled to machine code at their first use, not at load (src/base/native-regex.ts) */
const primeSentences = nativeAtFirstUse(SENTENCE_END, ABBREVIATION_END);
const nowPrefix = nativeWhenAsked(/^now: /);
const killPid = nativeWhenAsked(/^kill (\d+)\b/);

/** English sentences: split after a full stop and a space, never after "e.g." or "i.e." */
function sentencesOf(text: string): string[] {
  primeSentences();
  const out: string[] = [];
  for (const piece of text.split(SENTENCE_END)) {
    const last = out.at(-1);
    if (last !== undefined && ABBREVIATION_END.test(last)) out[out.length - 1] = `${last} ${piece}`;
    else out.push(piece);
  }
  return out;
}

/** The sentences of a fix text not said by an earlier fix (each said one is remembered in `said`). */
function unsaid(words: Words, text: string, said: Set<string>): string {
  const parts = words.lang === 'zh' ? text.split(/(?<=。)/) : sentencesOf(text);
  const kept = parts.filter((p) => p.trim().length < LONG_SENTENCE || !said.has(p.trim()));
  for (const p of parts) if (p.trim().length >= LONG_SENTENCE) said.add(p.trim());
  return kept.length === 0 ? text : kept.join(words.lang === 'zh' ? '' : ' ');
}

/** how many lines of its reasoning a cause shows without -v (what tells it apart comes on top) */
const REASONS = 2;

/**
 * Each cause's reasoning as the reader sees it, in rank order. A message's meaning is said once, under the first
 * cause that reads it; a later cause that reads the same line says, in a sentence of its own, what that line means
 * under it (or only that it fits it too), and what tells it from the earlier cause. A reason that is an evidence
 * line word for word, or was said under an earlier cause, is not said again. With -v: every line, and the
 * arguments against.
 */
function detailsOf(words: Words, causes: AnswerInput['causes'], verbose: boolean): Details[] {
  const readAt = new Map<string, number>();
  const said = new Set<string>();
  return causes.map((c, i) => {
    const rank = i + 1;
    const ev = new Set(c.evidence.map((e) => e.text.trim()));
    const readings = new Map((c.readings ?? []).map((r) => [r.why, r]));
    const out: string[] = [];
    const alsoAt = new Map<number, { i: number; reason: boolean }>();
    let from: number | undefined;
    for (const w of c.why ?? []) {
      if (!verbose && out.length >= REASONS) break;
      if (w.startsWith('against:') || ev.has(w.trim()) || ev.has(w.replace(nowPrefix(), '').trim())) continue;
      const r = readings.get(w);
      const earlier = r ? readAt.get(r.meaning) : undefined;
      if (r && earlier !== undefined && earlier !== rank) {
        const line = r.line > 0 ? r.line : '?';
        const text = r.reason
          ? words.t('answer.alsoFits', { line, rank: earlier, why: r.reason })
          : words.t('answer.alsoFitsBare', { line, rank: earlier });
        // one sentence per line of the input: the first reading of it that says something of its own
        const at = alsoAt.get(r.line);
        if (at !== undefined) {
          if (r.reason && !at.reason) {
            out[at.i] = text;
            from = Math.min(from ?? earlier, earlier);
          }
          if (r.reason) at.reason = true;
          continue;
        }
        alsoAt.set(r.line, { i: out.length, reason: Boolean(r.reason) });
        out.push(text);
        // what tells it apart from the strongest of the causes it shares a line with
        from = Math.min(from ?? earlier, earlier);
        continue;
      }
      // (the same meaning read twice under this cause, by two messages or two wordings: said once)
      if (r && earlier === rank) continue;
      if (r) readAt.set(r.meaning, rank);
      if (said.has(w)) continue;
      said.add(w);
      out.push(w);
    }
    const tell = from !== undefined && c.test ? { rank: from, text: c.test.text, command: c.test.command } : undefined;
    const against = verbose ? (c.why ?? []).filter((w) => w.startsWith('against:')) : [];
    return { lines: [...out, ...against], ...(tell ? { tell } : {}) };
  });
}

/**
 * What tells a cause from an earlier one, after its reasons. Its command goes first among the fix's commands (to
 * run before acting; whole: a command is never wrapped); without a fix block under this cause, inside the sentence.
 */
function withTell(words: Words, lines: FindingLines, d: Details | undefined): FindingLines {
  if (!d) return lines;
  const t = d.tell;
  if (!t) return { ...lines, details: d.lines };
  const fix = lines.fix;
  // (a fix for native Windows: the test's Linux command, libs or dmesg, would not run there; its words stay)
  const windows = fix?.commands.some((x) => /^(?:where\.exe|tasklist|taskkill|set |\$env:)/.test(x)) ?? false;
  const inFix = t.command !== undefined && fix !== undefined && !windows;
  const sentence =
    t.command && !inFix && !windows
      ? words.t('answer.tellApartCmd', { rank: t.rank, test: t.text, command: t.command })
      : words.t('answer.tellApart', { rank: t.rank, test: t.text });
  const against = d.lines.filter((x) => x.startsWith('against:'));
  const reasons = d.lines.filter((x) => !x.startsWith('against:'));
  return {
    ...lines,
    details: [...reasons, sentence, ...against],
    ...(inFix && fix && !fix.commands.includes(t.command!)
      ? { fix: { ...fix, commands: [t.command!, ...fix.commands] } }
      : {}),
  };
}

interface Details {
  lines: string[];
  tell?: { rank: number; text: string; command?: string | undefined };
}

/**
 * The one step that decides between the candidates: `check` on the machine that failed (with --deep when a
 * cuDNN or convolution message is among the signals: its smoke test tells a cuDNN that cannot start from one
 * that cannot get memory); when the machine's facts were already read, the cheapest test that has a command.
 */
function decider(words: Words, d: AnswerInput): NextStep {
  const cudnn = (d.signals ?? []).some((s) => /cudnn|conv|dnn/i.test(s.signature));
  if (d.machine?.used) {
    const tests = d.causes
      .slice(0, CANDIDATES)
      .filter((c) => c.test?.command)
      .sort((a, b) => a.test!.cost - b.test!.cost || b.confidence - a.confidence);
    const best = tests[0]?.test;
    if (best?.command)
      return { text: words.t('answer.testDecides', { test: best.text }), commands: [best.command], byHand: [] };
  }
  return {
    text: words.t(cudnn ? 'answer.checkDecidesCudnn' : 'answer.checkDecides'),
    commands: [`gpu-env-doctor check${cudnn ? ' --deep' : ''}`],
    byHand: [],
    where: words.t('answer.onMachine'),
  };
}

/** The answer as data, for --json: the same headline, cause order and next step as every other format. */
export function answerJson(a: Answer): {
  headline: string;
  undecided: boolean;
  nextStep: { text: string; commands: string[]; byHand: string[]; where?: string } | null;
  causeOrder: string[];
} {
  return {
    headline: a.headline,
    undecided: a.undecided,
    nextStep: a.next
      ? {
          text: a.next.text,
          commands: [...(a.next.act ? [a.next.act] : []), ...a.next.commands],
          byHand: a.next.byHand,
          ...(a.next.where ? { where: a.next.where } : {}),
        }
      : null,
    causeOrder: a.causes.map((c) => c.id),
  };
}

/**
 * A `kill PID` only for a PID of this machine. NVML (nvidia-smi, PyTorch's "Process N has … in use") reports
 * host PIDs: in a container, one read from the log names nothing here, or another process. A PID that the
 * snapshot paired with a local process (nvidiaSmiPid) becomes that local PID, with the pairing said; one that
 * is neither the snapshot's nor local outside a container is left as the log said it.
 */
function localKills(words: Words, manual: readonly string[], d: AnswerInput, s: Snapshot | null): string[] {
  // (a traceback through torch/nn/modules/container.py is not a container)
  const logContainer = d.environment?.container && !/\bcontainer\.py\b/.test(d.environment.container.text ?? '');
  const inContainer = Boolean(logContainer) || (s !== null && s.system.container.kind !== 'none');
  const list = s?.processes.list ?? [];
  const out: string[] = [];
  for (const m of manual) {
    const pid = killPid().exec(m)?.[1];
    if (!pid) {
      out.push(m);
      continue;
    }
    const n = Number(pid);
    const mapped = list.find((p) => p.nvidiaSmiPid === n && p.pid !== n);
    if (mapped) {
      out.push(
        words.t('fix.held.kill', { pid: mapped.pid }),
        words.t('fix.held.mapped', { pid: n, local: mapped.pid }),
      );
      continue;
    }
    if (!inContainer || list.some((p) => p.pid === n && p.visible)) {
      out.push(m);
      continue;
    }
    out.push(words.t('fix.held.hostPid', { pid: n }));
  }
  return [...new Set(out)];
}

/** "PID 637 in the log is PID 666 here" for each `kill N` of the log whose N nvidia-smi reported for a local PID. */
function pairings(words: Words, manual: readonly string[], s: Snapshot): string[] {
  const out: string[] = [];
  for (const m of manual) {
    const n = Number(killPid().exec(m)?.[1] ?? Number.NaN);
    const p = s.processes.list.find((x) => x.nvidiaSmiPid === n && x.pid !== n);
    if (p) out.push(words.t('fix.held.mapped', { pid: n, local: p.pid }));
  }
  return [...new Set(out)];
}

/**
 * A cause's title as the answer shows it. Fragmentation's title names PyTorch's cache: for a log of another
 * framework, or of none known, it is the framework's memory pool (the fix says it in that framework's words).
 */
export function titleOf(words: Words, c: { id: string; setting?: string }, framework?: string): string {
  if (c.setting) return words.t('explain.settingTitle', { setting: c.setting });
  if (c.id === 'allocator_fragmentation' && framework !== 'pytorch') return words.t('explain.fragTitlePool');
  return isRootCauseId(c.id) ? ROOT_CAUSE_TITLES[c.id] : c.id;
}

function keyOf(e: { line: number; text: string; source?: string }): string {
  return e.source === 'machine' ? `m:${e.text}` : `${e.source ?? ''}:${e.line}`;
}

function pct(x: number): number {
  return Math.round(Math.max(0, Math.min(1, Number.isFinite(x) ? x : 0)) * 100);
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}
