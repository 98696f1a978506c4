// The terminal rendering of a Diagnosis, laid out from the one answer (./answer.ts): the headline, the evidence
// once, ONE next step, then the alternatives; every line wrapped to the terminal with a hanging indent (the
// same wrapper and finding blocks as check), so no error text is cut and no line runs past the edge.
// - Decided: each cause ranked "1.", "2." with its confidence, the reasons, the lines that prove it (a line
//   shown under one cause is not shown again), its fix with the acting command first; cause 1's fix is the
//   next step.
// - Undecided: the headline says so, the evidence once, "Next step:" with the command that decides, then the
//   candidates with what tells each apart. Root-cause ids only with -v.
import pc from 'picocolors';
import { LABELS } from '../../labels.js';
import { displayWidth, wrap } from '../../layout.js';
import { visible, visibleLine } from '../../escape.js';
import { renderBlock, type TermStyle } from '../../terminal.js';
import type { Diagnosis, EnvironmentFacts } from '../../../judge/explain/types.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import { answerOf, type Answer, type NextStep } from './answer.js';
import { t, type MessageKey } from '../../../base/i18n/index.js';

export interface RenderOptions {
  color: boolean;
  verbose: boolean;
  /** columns to wrap to (default 80) */
  width?: number;
  /** the machine's facts the log was judged with: which PIDs are local */
  snapshot?: Snapshot | null;
  /** for facts from a saved snapshot: which file, host, when (said under the first line) */
  snapshotLine?: string;
}

export function renderExplainTerminal(d: Diagnosis, o: RenderOptions): string {
  const c = o.color ? pc : pc.createColors(false);
  const width = Math.max(40, o.width ?? 80);
  const st: TermStyle = { width, c, verbose: o.verbose };
  const out: string[] = [];
  out.push(...wrap(`${c.bold('gpu-env-doctor explain')} ${c.dim(visible(inputLine(d)))}`, width, '', '  '));
  if (o.snapshotLine) out.push(...wrap(c.dim(visible(o.snapshotLine)), width, '  ', '    '));
  out.push('');
  if (d.causes.length === 0) {
    out.push(...wrap(d.verdict, width));
    if (d.signals.length > 0 && o.verbose) out.push(c.dim(`  ${t('explain.contextRead', { n: d.signals.length })}`));
    out.push(...wrap(c.dim(t('explain.pasteWhole')), width, '  '));
    return `${out.join('\n')}\n`;
  }
  const a = answerWithReasons(d, o.verbose, o.snapshot ?? null);
  out.push(...wrap(c.bold(a.headline), width));
  if (a.undecided) renderUndecided(a, st, out);
  else renderDecided(a, st, out);
  if (o.verbose) renderVerbose(d, c, out, width);
  else {
    out.push('');
    out.push(...wrap(c.dim(t('explain.addV')), width));
  }
  return `${out.join('\n')}\n`;
}

/** the answer, each cause's reasons as its details (a reason that only repeats an evidence line is left out) */
function answerWithReasons(d: Diagnosis, verbose: boolean, snapshot: Snapshot | null): Answer {
  const a = answerOf(d, { verbose, snapshot });
  a.causes.forEach((ac, i) => {
    const cause = d.causes[i];
    if (!cause) return;
    const ev = new Set(cause.evidence.map((e) => e.text.trim()));
    const why = cause.why.filter(
      (w) => !w.startsWith('against:') && !ev.has(w.trim()) && !ev.has(w.replace(/^now: /, '').trim()),
    );
    const against = verbose ? cause.why.filter((w) => w.startsWith('against:')) : [];
    ac.lines = {
      ...ac.lines,
      details: [...why.slice(0, verbose ? why.length : 2), ...against],
      evidence: ac.lines.evidence.slice(0, verbose ? undefined : 3),
    };
  });
  return a;
}

/** what was read, in words: the input files, their lines, the machine whose facts were combined */
export function inputLine(d: Diagnosis): string {
  const n = d.input.lines;
  const sources = d.input.sources.join(', ');
  if (!d.machine) return t('explain.inputLine', { sources, n });
  if (!d.machine.used) return t('explain.inputNoGpu', { sources, n });
  return t('explain.inputWith', { sources, n, host: d.machine.host ?? t('explain.thisMachine') });
}

type Colors = ReturnType<typeof pc.createColors>;

function renderDecided(a: Answer, st: TermStyle, out: string[]): void {
  a.causes.forEach((cause, i) => {
    out.push('');
    const id = st.verbose ? st.c.dim(`  [${cause.id}]`) : '';
    out.push(
      ...renderBlock({ ...cause.lines, headline: `${cause.title} ${st.c.cyan(`${cause.pct}%`)}${id}`, ids: [] }, st, {
        lead: st.c.bold(LABELS.rank(i + 1)),
      }),
    );
  });
}

/** the evidence once; the one step that decides; the candidates, each with what tells it apart */
export function renderUndecided(a: Answer, st: TermStyle, out: string[]): void {
  const { c, width } = st;
  const gutter = `    ${c.dim('│')} `;
  for (const e of a.evidence)
    out.push(
      ...wrap(
        `${visible(e.text)}${e.where ? c.dim(`   (${visibleLine(e.where)})`) : ''}`,
        width,
        gutter,
        `${gutter}  `,
      ),
    );
  if (a.next) {
    out.push('');
    renderNext(a.next, st, out);
  }
  out.push('');
  out.push(...wrap(c.bold(t('answer.candidates')), width));
  const titleWidth = Math.min(width - 14, Math.max(...a.causes.map((x) => displayWidth(x.title))));
  a.causes.forEach((cause, i) => {
    const rank = LABELS.rank(i + 1);
    const pad = ' '.repeat(Math.max(1, titleWidth - displayWidth(cause.title) + 1));
    const pct = `${cause.pct}%`.padStart(4);
    out.push(
      ...wrap(
        `${cause.title}${pad}${c.cyan(pct)}${st.verbose ? c.dim(`  [${cause.id}]`) : ''}`,
        width,
        `  ${rank} `,
        `     `,
      ),
    );
    if (cause.tell) {
      out.push(
        ...wrap(`${c.dim(t('answer.tells'))}${LABELS.gap}${visible(cause.tell.text)}`, width, '     ', '       '),
      );
      if (cause.tell.command) out.push(`       ${c.cyan('$')} ${visibleLine(cause.tell.command)}`);
    }
  });
}

/** "Next step:" with what it does, then its commands (never wrapped: they are for copying) */
function renderNext(n: NextStep, st: TermStyle, out: string[]): void {
  const { c, width } = st;
  out.push(...wrap(`${c.bold(t('answer.next'))}${LABELS.gap}${visible(n.text)}`, width, '', '  '));
  if (n.act) out.push(`  ${c.cyan('$')} ${n.act}   ${c.dim(`# ${LABELS.actNote}`)}`);
  for (const cmd of n.commands)
    out.push(`  ${c.cyan('$')} ${visibleLine(cmd)}${n.where ? `   ${c.dim(`# ${n.where}`)}` : ''}`);
  for (const m of n.byHand)
    out.push(...wrap(`${c.yellow(LABELS.byHand)}${LABELS.gap}${visible(m)}`, width, '  ', '    '));
}

function renderVerbose(d: Diagnosis, c: Colors, out: string[], width: number): void {
  out.push('');
  out.push(c.bold(t('explain.signals')));
  for (const s of d.signals)
    out.push(
      ...wrap(
        visible(
          t('explain.signalLine', {
            signature: s.signature,
            count: s.count,
            line: s.lines[0]?.line ?? '?',
            summary: s.summary,
          }),
        ),
        width,
        '  ',
        '    ',
      ),
    );
  const facts = describeFacts(d.environment);
  if (facts.length > 0) {
    out.push(c.bold(t('explain.factsRead')));
    for (const f of facts) out.push(...wrap(visible(f), width, '  ', '    '));
  }
  for (const n of d.machine?.notes ?? [])
    out.push(...wrap(visible(t('explain.machineNote', { note: n })), width, '  ', '    '));
}

export function describeFacts(e: EnvironmentFacts): string[] {
  const out: string[] = [];
  const f = (key: MessageKey, v: { value: unknown; line: number } | undefined) => {
    if (v)
      out.push(
        v.line > 0
          ? t('fact.line', { label: t(key), value: String(v.value), n: v.line })
          : t('fact.noLine', { label: t(key), value: String(v.value) }),
      );
  };
  f('fact.framework', e.framework);
  f('fact.frameworkVersion', e.frameworkVersion);
  f('fact.buildCuda', e.buildCuda);
  f('fact.cuda', e.cuda);
  f('fact.driverCuda', e.driverCuda);
  f('fact.cudnn', e.cudnn);
  f('fact.driver', e.driver);
  for (const g of e.gpus)
    out.push(
      g.computeCapability
        ? t('fact.gpuCc', { name: g.name, cc: g.computeCapability, n: g.line })
        : t('fact.gpu', { name: g.name, n: g.line }),
    );
  f('fact.os', e.os);
  f('fact.python', e.python);
  if (e.install.length)
    out.push(t('fact.noLine', { label: t('fact.install'), value: e.install.map((i) => i.value).join(', ') }));
  f('fact.container', e.container);
  return out;
}
