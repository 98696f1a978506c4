// One finding, one rendering model (SHAPE.md): what a finding or a diagnosed cause says, in the order every
// output shows it — the headline (a fact), the details, what frameworks do with that fact (each consequence at
// its certainty, with its source), the evidence with where each piece came from, the fix: its
// prose, the acting command first (`gpu-env-doctor fix`, which shows the plan and asks), the other safe
// commands, the by-hand steps, and the page about it. The terminal, Markdown, HTML, `run` and `fix` take
// this model and only decide the layout (width, colour, escaping); none of them words a finding itself.
import type { Consequence, Finding } from '../judge/finding.js';
import type { Snapshot } from '../gather/snapshot/schema.js';
import { labelsOf } from './labels.js';
import { gpusToMoveTo } from '../judge/free-gpus.js';
import type { Words } from '../base/i18n/words.js';
import { nativeAtFirstUse, nativeWhenAsked } from '../base/native-regex.js';

export type LineMark = 'ok' | 'warn' | 'fail' | 'unknown' | 'skip';

export interface EvidenceLine {
  text: string;
  /** where it came from: a command or file of the machine ("nvidia-smi -q -x"), or "line 26" of a log */
  where?: string;
}

export interface FindingLines {
  mark: LineMark;
  headline: string;
  details: string[];
  /** what frameworks do with the fact the headline states, kept apart from it (none for a diagnosed cause) */
  consequences: Consequence[];
  evidence: EvidenceLine[];
  fix?: {
    text: string;
    /** the one command that acts, shown first: `gpu-env-doctor fix` */
    act?: string;
    /** other commands, safe to copy */
    commands: string[];
    /** steps to judge and do by hand (ending a process, a driver install) */
    byHand: string[];
  };
  /** the stable ids (check, root cause): shown with -v, in --json, and in the page's name */
  ids: string[];
  /** docs/findings/<check-id>.md */
  doc?: string;
}

/** The command that acts on the findings: it shows its plan and asks before it does anything. */
export const ACT_COMMAND = 'gpu-env-doctor fix';

/** the finding's page, in the language of the output (the Chinese pages sit under docs/zh/findings/) */
export function docPath(words: Words, checkId: string): string {
  return words.lang === 'zh' ? `docs/zh/findings/${checkId}.md` : `docs/findings/${checkId}.md`;
}

export function markOfFinding(f: Finding): LineMark {
  if (f.status === 'skip') return 'skip';
  if (f.status === 'unknown' || f.status === 'crash') return 'unknown';
  if (f.status === 'ok' || f.severity === 'info') return 'ok';
  return f.severity === 'error' && f.status === 'fail' ? 'fail' : 'warn';
}

export interface LinesOptions {
  /** the machine the finding is about: fills placeholders such as the index of an idle GPU */
  snapshot?: Snapshot | null;
  /** leave out the acting command (inside `fix` itself, which is that command) */
  omitAct?: boolean;
}

export function findingLines(words: Words, f: Finding, o: LinesOptions = {}): FindingLines {
  const { details, evidence } = splitDetails(words, f);
  return {
    mark: markOfFinding(f),
    headline: f.message,
    details,
    consequences: [...(f.consequences ?? [])],
    evidence,
    ...(f.fix ? { fix: fixLines(f.fix.text, f.fix.commands, f.fix.manual ?? [], o) } : {}),
    ids: [f.check, ...(f.rootCause ? [f.rootCause] : [])],
    doc: docPath(words, f.check),
  };
}

/** A cause of a diagnosis (explain, run), ranked: the rank is its place, never a severity symbol. */
export interface CauseLike {
  id: string;
  title: string;
  confidence: number;
  summary: string;
  evidence: { line: number | null; text: string }[];
  fix?: { text: string; commands: string[]; manual: string[] };
}

export function causeLines(words: Words, c: CauseLike, o: LinesOptions = {}): FindingLines {
  return {
    mark: 'fail',
    headline: c.title,
    details: summaryBeyondTitle(c.summary, c.title),
    consequences: [],
    evidence: c.evidence.map((e) => ({
      text: e.text,
      where: e.line === null ? labelsOf(words).machineFactWhere : labelsOf(words).logLineWhere(e.line),
    })),
    ...(c.fix ? { fix: fixLines(c.fix.text, c.fix.commands, c.fix.manual, o) } : {}),
    ids: [c.id],
  };
}

const TITLE_END = /[.:]+$/;
const IN_PARENS = /^\((.*)\)$/;
/** the patterns below compiled to machine code at their first use, not at load (src/base/native-regex.ts) */
const primeSummary = nativeAtFirstUse(TITLE_END, IN_PARENS);
const leadingPunctuation = nativeWhenAsked(/^[\s:;,.–-]+/);

/** The summary of a cause without the words its title already says ("No GPU is visible…: no GPU is visible…"). */
function summaryBeyondTitle(summary: string, title: string): string[] {
  primeSummary();
  const t = title.toLowerCase().replace(TITLE_END, '');
  let s = summary.trim();
  // "No GPU is visible to the process: no GPU is visible to the process (…)": the title may come back twice.
  while (s.toLowerCase().startsWith(t)) s = s.slice(t.length).replace(leadingPunctuation(), '').trim();
  s = s.replace(IN_PARENS, '$1');
  return s === '' ? [] : [s];
}

function fixLines(
  text: string,
  commands: readonly string[],
  manual: readonly string[],
  o: LinesOptions,
): NonNullable<FindingLines['fix']> {
  const fill = (s: string) => fillPlaceholders(s, o.snapshot ?? null);
  const act = commands.find((c) => c.trim() === ACT_COMMAND);
  const rest = commands.filter((c) => c.trim() !== ACT_COMMAND).map(fill);
  const byHand = manual
    .map((m) => (o.snapshot && IDLE_GPU.test(m) && idleGpu(o.snapshot) === null ? null : fill(m)))
    .filter((m): m is string => m !== null);
  return {
    text: fill(text),
    ...(act && !o.omitAct ? { act } : {}),
    commands: [...new Set(rest)],
    byHand: [...new Set(byHand)],
  };
}

/** "Held by: …" kept apart from the rest of the details; evidence with its source. */
function splitDetails(words: Words, f: Finding): { details: string[]; evidence: EvidenceLine[] } {
  const details = f.details ? f.details.split('\n').filter((l) => l.trim() !== '') : [];
  const evidence = f.evidence.map((e) => ({
    text: e.text,
    ...(e.source !== undefined || e.line !== undefined
      ? {
          where:
            e.line !== undefined
              ? e.source
                ? `${e.source}:${e.line}`
                : labelsOf(words).logLineWhere(e.line)
              : e.source!,
        }
      : {}),
  }));
  // A detail that only repeats an evidence line is said once, as evidence.
  const evidenceTexts = new Set(evidence.map((e) => e.text.trim()));
  return {
    details: details.filter(
      (d) =>
        !evidenceTexts.has(
          d
            .replace(/^Held by:\s*/, '')
            .replace(/^占用者：\s*/, '')
            .trim(),
        ),
    ),
    evidence,
  };
}

// the placeholder as each catalog words it
const IDLE_GPU = /<index of an idle GPU>|<空闲 GPU 的序号>/;

/** The GPU a job should move to (judge/free-gpus.ts: a free one, else the one with the most room). */
export function idleGpu(s: Snapshot): { index: number; uuid: string; freeMiB: number } | null {
  const best = gpusToMoveTo(s)[0];
  return best ? { index: best.index, uuid: best.uuid, freeMiB: best.freeMiB } : null;
}

/**
 * Placeholders of fix texts filled with what the machine says: `<index of an idle GPU>` becomes the UUID of
 * the GPU with the most free memory (a UUID, since CUDA's device order can differ from nvidia-smi's).
 * Without the machine's facts the placeholder stays, and every output shows it as text, never as a tag.
 */
export function fillPlaceholders(text: string, s: Snapshot | null): string {
  if (!s || !IDLE_GPU.test(text)) return text;
  const g = idleGpu(s);
  return g ? text.replace(IDLE_GPU, g.uuid) : text;
}
