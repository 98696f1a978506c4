// The terminal rendering of a Diagnosis, laid out from the one answer (./answer.ts): the headline, the evidence
// once, ONE next step, then the alternatives; every line wrapped to the terminal with a hanging indent (the
// same wrapper and finding blocks as check), so no error text is cut and no line runs past the edge.
// - Decided: each cause ranked "1.", "2." with its confidence, the reasons, the lines that prove it (a line
//   shown under one cause is not shown again), its fix with the acting command first; cause 1's fix is the
//   next step.
// - Undecided: the headline says so, the evidence once, "Next step:" with the command that decides, then the
//   candidates with what tells each apart. Root-cause ids only with -v.
import pc from 'picocolors';
import { labelsOf } from '../../labels.js';
import { displayWidth, fitCommandLine, wrap } from '../../layout.js';
import { visible, visibleLine } from '../../escape.js';
import { renderBlock, type TermStyle } from '../../terminal.js';
import type { Diagnosis, EnvironmentFacts } from '../../../judge/explain/types.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import { answerOf, type Answer, type NextStep } from './answer.js';
import type { MessageKey } from '../../../base/i18n/index.js';
import type { Words } from '../../../base/i18n/words.js';

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

export function renderExplainTerminal(words: Words, d: Diagnosis, o: RenderOptions): string {
  const c = o.color ? pc : pc.createColors(false);
  const width = Math.max(40, o.width ?? 80);
  const st: TermStyle = { width, c, verbose: o.verbose };
  const out: string[] = [];
  out.push(
    ...wrap(words, `${c.bold('gpu-env-doctor explain')} ${c.dim(visible(inputLine(words, d)))}`, width, '', '  '),
  );
  if (o.snapshotLine) out.push(...wrap(words, c.dim(visible(o.snapshotLine)), width, '  ', '    '));
  out.push('');
  if (d.causes.length === 0) {
    out.push(...wrap(words, d.verdict, width));
    if (d.signals.length > 0 && o.verbose)
      out.push(c.dim(`  ${words.t('explain.contextRead', { n: d.signals.length })}`));
    out.push(...wrap(words, c.dim(words.t('explain.pasteWhole')), width, '  '));
    return `${out.join('\n')}\n`;
  }
  const a = answerWithReasons(words, d, o.verbose, o.snapshot ?? null);
  out.push(...wrap(words, c.bold(a.headline), width));
  if (a.undecided) renderUndecided(words, a, st, out);
  else renderDecided(words, a, st, out);
  if (o.verbose) renderVerbose(words, d, c, out, width);
  else {
    out.push('');
    out.push(...wrap(words, c.dim(words.t('explain.addV')), width));
  }
  return `${out.join('\n')}\n`;
}

/** the answer (each cause's reasons are its details, said once across the causes: answer.ts), at most three
 *  evidence lines a cause without -v */
function answerWithReasons(words: Words, d: Diagnosis, verbose: boolean, snapshot: Snapshot | null): Answer {
  const a = answerOf(words, d, { verbose, snapshot });
  for (const ac of a.causes) ac.lines = { ...ac.lines, evidence: ac.lines.evidence.slice(0, verbose ? undefined : 3) };
  return a;
}

/** what was read, in words: the input files, their lines, the machine whose facts were combined */
export function inputLine(words: Words, d: Diagnosis): string {
  const n = d.input.lines;
  const sources = d.input.sources.join(', ');
  if (!d.machine) return words.t('explain.inputLine', { sources, n });
  if (!d.machine.used) return words.t('explain.inputNoGpu', { sources, n });
  return words.t('explain.inputWith', { sources, n, host: d.machine.host ?? words.t('explain.thisMachine') });
}

type Colors = ReturnType<typeof pc.createColors>;

function renderDecided(words: Words, a: Answer, st: TermStyle, out: string[]): void {
  a.causes.forEach((cause, i) => {
    out.push('');
    const id = st.verbose ? st.c.dim(`  [${cause.id}]`) : '';
    out.push(
      ...renderBlock(
        words,
        { ...cause.lines, headline: `${cause.title} ${st.c.cyan(`${cause.pct}%`)}${id}`, ids: [] },
        st,
        {
          lead: st.c.bold(labelsOf(words).rank(i + 1)),
        },
      ),
    );
  });
}

/** the evidence once; the one step that decides; the candidates, each with what tells it apart */
export function renderUndecided(words: Words, a: Answer, st: TermStyle, out: string[]): void {
  const { c, width } = st;
  const gutter = `    ${c.dim('│')} `;
  for (const e of a.evidence)
    out.push(
      ...wrap(
        words,
        `${visible(e.text)}${e.where ? c.dim(`   (${visibleLine(e.where)})`) : ''}`,
        width,
        gutter,
        `${gutter}  `,
      ),
    );
  if (a.next) {
    out.push('');
    renderNext(words, a.next, st, out);
  }
  out.push('');
  out.push(...wrap(words, c.bold(words.t('answer.candidates')), width));
  const titleWidth = Math.min(width - 14, Math.max(...a.causes.map((x) => displayWidth(x.title))));
  a.causes.forEach((cause, i) => {
    const rank = labelsOf(words).rank(i + 1);
    const pad = ' '.repeat(Math.max(1, titleWidth - displayWidth(cause.title) + 1));
    const pct = `${cause.pct}%`.padStart(4);
    out.push(
      ...wrap(
        words,
        `${cause.title}${pad}${c.cyan(pct)}${st.verbose ? c.dim(`  [${cause.id}]`) : ''}`,
        width,
        `  ${rank} `,
        `     `,
      ),
    );
    if (cause.tell) {
      out.push(
        ...wrap(
          words,
          `${c.dim(words.t('answer.tells'))}${labelsOf(words).gap}${visible(cause.tell.text)}`,
          width,
          '     ',
          '       ',
        ),
      );
      if (cause.tell.command)
        out.push(...fitCommandLine(`       ${c.cyan('$')} ${visibleLine(cause.tell.command)}`, width));
    }
  });
}

/** "Next step:" with what it does, then its commands (broken only where the shell ignores it: for copying) */
function renderNext(words: Words, n: NextStep, st: TermStyle, out: string[]): void {
  const { c, width } = st;
  out.push(
    ...wrap(words, `${c.bold(words.t('answer.next'))}${labelsOf(words).gap}${visible(n.text)}`, width, '', '  '),
  );
  if (n.act) out.push(...fitCommandLine(`  ${c.cyan('$')} ${n.act}   ${c.dim(`# ${labelsOf(words).actNote}`)}`, width));
  for (const cmd of n.commands)
    out.push(
      ...fitCommandLine(`  ${c.cyan('$')} ${visibleLine(cmd)}${n.where ? `   ${c.dim(`# ${n.where}`)}` : ''}`, width),
    );
  for (const m of n.byHand)
    out.push(
      ...wrap(words, `${c.yellow(labelsOf(words).byHand)}${labelsOf(words).gap}${visible(m)}`, width, '  ', '    '),
    );
}

function renderVerbose(words: Words, d: Diagnosis, c: Colors, out: string[], width: number): void {
  out.push('');
  out.push(c.bold(words.t('explain.signals')));
  for (const s of d.signals)
    out.push(
      ...wrap(
        words,
        visible(
          words.t('explain.signalLine', {
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
  const facts = describeFacts(words, d.environment);
  if (facts.length > 0) {
    out.push(c.bold(words.t('explain.factsRead')));
    for (const f of facts) out.push(...wrap(words, visible(f), width, '  ', '    '));
  }
  for (const n of d.machine?.notes ?? [])
    out.push(...wrap(words, visible(words.t('explain.machineNote', { note: n })), width, '  ', '    '));
}

export function describeFacts(words: Words, e: EnvironmentFacts): string[] {
  const out: string[] = [];
  const f = (key: MessageKey, v: { value: unknown; line: number } | undefined) => {
    if (v)
      out.push(
        v.line > 0
          ? words.t('fact.line', { label: words.t(key), value: String(v.value), n: v.line })
          : words.t('fact.noLine', { label: words.t(key), value: String(v.value) }),
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
        ? words.t('fact.gpuCc', { name: g.name, cc: g.computeCapability, n: g.line })
        : words.t('fact.gpu', { name: g.name, n: g.line }),
    );
  f('fact.os', e.os);
  f('fact.python', e.python);
  if (e.install.length)
    out.push(
      words.t('fact.noLine', { label: words.t('fact.install'), value: e.install.map((i) => i.value).join(', ') }),
    );
  f('fact.container', e.container);
  return out;
}
