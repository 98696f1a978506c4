// The terminal report, in the style of `flutter doctor`: one line per area with ✓ ! ✗ ? -, then the problems
// (each from the one finding model, ./finding-lines.ts), then one summary line. Wrapped to the terminal with
// hanging indents; everything from the machine shown with its control characters visible (./escape.ts).
// `-v` adds every finding, the ids and pages, the facts and probe timings.
import { fitToWidth } from './fit.js';
import { CATEGORIES, isBareOk, type Category } from '../judge/checks/check.js';
import { consequenceText, type Finding } from '../judge/finding.js';
import { fmtAge, fmtCmdline, fmtMiB } from '../base/format.js';
import { isProblem } from '../judge/result.js';
import type { Snapshot } from '../gather/snapshot/schema.js';
import { frameworkLabel } from '../gather/procfs/framework.js';
import { visible, visibleLine } from './escape.js';
import { findingLines, markOfFinding, type FindingLines, type LineMark } from './finding-lines.js';
import { labelsOf, summaryOf, titlesOf } from './labels.js';
import { displayWidth, fitCommandLine, palette, SYMBOLS, wrap, type Colors } from './layout.js';
import { headerLines, type ReportSource } from './provenance.js';
import type { Words } from '../base/i18n/words.js';

export interface TerminalOptions {
  color: boolean;
  verbose: boolean;
  threshold: 'error' | 'warn';
  /** check id → category, from the check registry */
  categoryOf: (checkId: string) => Category;
  /** the command that reproduces with more detail, for the header */
  commandName?: string;
  /** columns to wrap to (default 80) */
  width?: number;
  /** where the facts come from (default: this machine, now) */
  source?: ReportSource;
  /** only the problems; nothing at all when there is none */
  quiet?: boolean;
  /** how many findings --ignore / the config file accepted */
  ignored?: number;
  /** which checks were not judged and by which config file or --ignore (src/cli/config.ts ignoredNote) */
  ignoredNote?: string;
}

/** The style every terminal renderer shares: width, colours, verbosity. */
export interface TermStyle {
  width: number;
  c: Colors;
  verbose: boolean;
}

export function paintMark(m: LineMark, c: Colors): string {
  const s = SYMBOLS[m];
  return m === 'ok'
    ? c.green(s)
    : m === 'warn'
      ? c.yellow(s)
      : m === 'fail'
        ? c.red(s)
        : m === 'unknown'
          ? c.magenta(s)
          : c.dim(s);
}

/**
 * One finding (or cause) as terminal lines: the headline after its mark (or its rank), the details and the
 * evidence under a gutter, the fix with the acting command first, the by-hand steps last; with -v the ids
 * and the page about it. `lead` replaces the mark (a rank "1." in a diagnosis); `indent` shifts the block.
 */
export function renderBlock(
  words: Words,
  fl: FindingLines,
  st: TermStyle,
  o: { lead?: string; indent?: string } = {},
): string[] {
  const { c, width } = st;
  const ind = o.indent ?? '';
  const lead = o.lead ?? paintMark(fl.mark, c);
  const out: string[] = [...wrap(words, c.bold(visible(fl.headline)), width, `${ind}${lead} `, `${ind}  `)];
  const body = `${ind}    `;
  for (const d of fl.details) out.push(...wrap(words, visible(d), width, body, `${body}  `));
  // what a framework does with the fact: its certainty always, its source with -v
  for (const q of fl.consequences)
    out.push(
      ...wrap(
        words,
        `→ ${consequenceText({ ...q, text: visible(q.text), source: visible(q.source) }, st.verbose, c.dim)}`,
        width,
        body,
        `${body}  `,
      ),
    );
  const gutter = `${body}${c.dim('│')} `;
  for (const e of fl.evidence) {
    const text = visible(e.text);
    const where = e.where ? c.dim(`   (${visibleLine(e.where)})`) : '';
    out.push(...wrap(words, `${text}${where}`, width, gutter, `${gutter}  `));
  }
  if (fl.fix) {
    out.push(
      ...wrap(
        words,
        `${c.cyan(labelsOf(words).fix)}${labelsOf(words).gap}${visible(fl.fix.text)}`,
        width,
        body,
        `${body}  `,
      ),
    );
    // Commands are for copying: whole on their line, broken only where the shell ignores it (fitCommandLine).
    if (fl.fix.act)
      out.push(
        ...fitCommandLine(`${body}  ${c.dim('$')} ${fl.fix.act}   ${c.dim(`# ${labelsOf(words).actNote}`)}`, width),
      );
    for (const cmd of fl.fix.commands) out.push(...fitCommandLine(`${body}  ${c.dim('$')} ${visibleLine(cmd)}`, width));
    for (const m of fl.fix.byHand)
      out.push(
        ...wrap(
          words,
          `${c.yellow(labelsOf(words).byHand)}${labelsOf(words).gap}${visible(m)}`,
          width,
          `${body}  `,
          `${body}    `,
        ),
      );
  }
  if (st.verbose && (fl.ids.length > 0 || fl.doc))
    out.push(c.dim(`${body}${labelsOf(words).ids} ${fl.ids.join(' · ')}${fl.doc ? ` · ${fl.doc}` : ''}`));
  return out;
}

export function renderTerminal(
  words: Words,
  snapshot: Snapshot,
  findings: readonly Finding[],
  o: TerminalOptions,
): string {
  const c = palette(o.color);
  const st: TermStyle = { width: o.width ?? 80, c, verbose: o.verbose };
  const lines: string[] = [];
  const command = o.commandName ?? 'gpu-env-doctor check';
  const problems = findings.filter((f) => isProblem(f, 'warn') || f.status === 'unknown' || f.status === 'crash');
  if (o.quiet && problems.length === 0) return '';

  const src = o.source ?? { file: null, host: snapshot.host.name, takenAt: snapshot.collectedAt, agoSeconds: 0 };
  const head = headerLines(words, command.replace(/^gpu-env-doctor /, ''), src);
  // The hint goes where it fits: after the title, else after the snapshot line, else nowhere.
  const hint = o.verbose || o.quiet ? '' : ` (${titlesOf(words).detailsHint(command)})`;
  const title = visibleLine(head.title);
  const sub = head.sub ? visibleLine(head.sub) : null;
  const hintOnTitle = hint !== '' && displayWidth(title + hint) <= st.width;
  lines.push(...wrap(words, `${c.bold(title)}${hintOnTitle ? c.dim(hint) : ''}`, st.width, '', '  '));
  if (sub)
    lines.push(
      ...wrap(
        words,
        c.dim(`${sub}${!hintOnTitle && displayWidth(`  ${sub}${hint}`) <= st.width ? hint : ''}`),
        st.width,
        '  ',
        '  ',
      ),
    );

  if (!o.quiet) {
    const byCat = new Map<Category, Finding[]>();
    for (const f of findings) {
      const cat = o.categoryOf(f.check);
      byCat.set(cat, [...(byCat.get(cat) ?? []), f]);
    }
    for (const cat of Object.keys(CATEGORIES) as Category[]) {
      const fs = byCat.get(cat);
      if (!fs) continue;
      const mark = areaMark(fs);
      const text = areaText(words, fs, mark);
      lines.push(
        ...wrap(
          words,
          `[${paintMark(mark, c)}] ${words.t('area.line', { area: CATEGORIES[cat], text: visible(text) })}`,
          st.width,
          '',
          '    ',
        ),
      );
      if (o.verbose) {
        for (const f of fs) {
          // shown below with details
          if (isProblem(f, 'warn') || f.status === 'unknown' || f.status === 'crash') continue;
          if (f.message === text) continue; // already the area's line
          const message = deferredTo(words, f, fs) ?? f.message;
          lines.push(
            ...wrap(
              words,
              `${visible(message)}${f.status === 'skip' ? c.dim(` (${labelsOf(words).skipped})`) : ''} ` +
                `${c.dim(`[${f.check}]`)}`,
              st.width,
              `    ${c.dim('•')} `,
              '      ',
            ),
          );
        }
      }
    }
  }

  if (problems.length > 0) {
    const sorted = [...problems].sort((a, b) => sevRank(b) - sevRank(a));
    for (const f of sorted) lines.push('', ...renderBlock(words, findingLines(words, f, { snapshot }), st));
  }

  if (o.verbose) lines.push('', ...renderFacts(words, snapshot, c));

  lines.push(
    '',
    ...wrap(
      words,
      summaryLine(words, findings, snapshot, c, o.threshold, o.ignored ?? 0, o.ignoredNote),
      st.width,
      '',
      '  ',
    ),
  );
  // the -v facts (a GPU's line, the environment, probe times) are fitted like the rest
  return `${fitToWidth(words, lines.join('\n'), st.width)}\n`;
}

/** Checks that leave their subject to another when that one reports it (one cause, one finding): memory.holders
 *  names no holder of a GPU short of memory, memory.headroom does. Its bare "ok" would read as "no holder". */
const DEFERS_TO: Readonly<Record<string, string>> = { 'memory.holders': 'memory.headroom' };

/** "<title>: named in the finding below" for a bare ok whose subject a problem of its area reports */
function deferredTo(words: Words, f: Finding, area: readonly Finding[]): string | null {
  const other = DEFERS_TO[f.check];
  if (!other || !isBareOk(f) || !area.some((x) => x.check === other && isProblem(x, 'warn'))) return null;
  const title = f.message.replace(/: ok$|：正常$/, '');
  return words.t('area.namedBelow', { title });
}

function sevRank(f: Finding): number {
  return (
    (f.severity === 'error' ? 20 : f.severity === 'warn' ? 10 : 0) +
    (f.status === 'fail' ? 2 : f.status === 'unknown' ? 1 : 0)
  );
}

/** An area's mark: the worst of its findings; all skipped is "-", never ✓. */
function areaMark(fs: readonly Finding[]): LineMark {
  if (fs.some((f) => f.severity === 'error' && (f.status === 'fail' || f.status === 'crash'))) return 'fail';
  if (fs.some((f) => f.status === 'unknown')) return 'unknown';
  if (fs.some((f) => isProblem(f, 'warn') || f.status === 'crash')) return 'warn';
  if (fs.every((f) => f.status === 'skip')) return 'skip';
  return 'ok';
}

function areaText(words: Words, fs: readonly Finding[], mark: LineMark): string {
  if (mark === 'ok' || mark === 'skip') {
    // For an area that was skipped, a skip that carries evidence (the check's own verdict) says more than
    // the runner's bare "not applicable" skips.
    const informative =
      fs.find((f) => f.status !== 'skip' && !isBareOk(f)) ??
      (mark === 'skip' ? (fs.find((f) => f.evidence.length > 0) ?? fs[0]) : undefined);
    return informative?.message ?? words.t('area.noProblem');
  }
  const problems = fs.filter((f) => isProblem(f, 'warn') || f.status === 'unknown' || f.status === 'crash');
  // the finding's block below says it whole: the area line gives its first clause, so it is not said twice
  if (problems.length === 1) return firstClause(words, problems[0]!.message);
  return words.t('area.problems', { n: problems.length });
}

/** "GPU 0 has 1.2 GiB free of 140.4 GiB: a job that needs more fails…" → "GPU 0 has 1.2 GiB free of 140.4 GiB
 *  (below)"; a headline without a clause of its own stays whole. */
function firstClause(words: Words, message: string): string {
  const m = /^(.{12,}?)(?::\s|：)/.exec(message);
  return m ? words.t('area.below', { text: m[1]! }) : message;
}

/** True when no GPU was visible and nothing else was wrong: the run judged no GPU at all. */
export function noGpuSeen(s: Snapshot, findings: readonly Finding[]): boolean {
  return !s.nvidia.ok && findings.some((f) => f.check === 'gpu.driver' && f.status === 'skip');
}

function summaryLine(
  words: Words,
  findings: readonly Finding[],
  s: Snapshot,
  c: Colors,
  threshold: 'error' | 'warn',
  ignored: number,
  ignoredNote?: string,
): string {
  const errors = findings.filter((f) => f.severity === 'error' && isProblem(f, 'error')).length;
  const warns = findings.filter((f) => f.severity === 'warn' && isProblem(f, 'warn')).length;
  const unknown = findings.filter((f) => f.status === 'unknown' && !isProblem(f, 'warn')).length;
  const checks = new Set(findings.map((f) => f.check)).size;
  const ms = s.probes.reduce((a, p) => Math.max(a, p.durationMs), 0);
  const parts = [summaryOf(words).counts(errors, warns)];
  if (unknown > 0) parts.push(summaryOf(words).unknown(unknown));
  if (ignored > 0) parts.push(summaryOf(words).ignored(ignored));
  if (ignoredNote) parts.push(visibleLine(ignoredNote));
  const noGpu = errors === 0 && warns === 0 && noGpuSeen(s, findings);
  // A machine where nothing GPU-related could be judged is not a pass: "-", never a green tick.
  const mark: LineMark = errors > 0 ? 'fail' : warns > 0 ? 'warn' : noGpu ? 'skip' : unknown > 0 ? 'unknown' : 'ok';
  const failing = findings.some((f) => isProblem(f, threshold));
  const tail = [summaryOf(words).checks(checks), summaryOf(words).slowest(Math.round(ms))];
  if (noGpu) tail.unshift(summaryOf(words).noGpu);
  if (!failing && warns > 0 && threshold === 'error') tail.push(c.dim(summaryOf(words).belowThreshold(threshold)));
  return `${paintMark(mark, c)} ${words.joinList(parts, 'comma')} · ${tail.join(' · ')}`;
}

function renderFacts(words: Words, s: Snapshot, c: Colors): string[] {
  const out: string[] = [c.bold(words.t('facts.title'))];
  const v = visibleLine;
  out.push(
    `  ` +
      words.t('facts.system', {
        os: v(s.system.os ?? '?'),
        kernel: v(s.system.kernel ?? '?'),
        arch: s.system.arch,
        container: s.system.container.kind,
        wsl: s.system.wsl,
      }),
  );
  if (s.nvidia.ok) {
    out.push(
      `  ` +
        words.t(s.system.kernelModule ? 'facts.driverModule' : 'facts.driver', {
          driver: s.nvidia.driverVersion,
          cuda: s.nvidia.cudaVersion ?? '?',
          module: s.system.kernelModule?.version ?? '?',
        }),
    );
    for (const g of s.nvidia.gpus) {
      out.push(
        `  ` +
          words.t('facts.gpu', {
            index: g.index,
            name: v(g.name),
            sm: g.computeCapability ?? '?',
            bus: g.busId,
            uuid: v(g.uuid),
            used: fmtMiB(g.memory.usedMiB),
            total: fmtMiB(g.memory.totalMiB),
            free: fmtMiB(g.memory.freeMiB),
            persistence: g.persistenceMode ?? '?',
            computeMode: g.computeMode ?? '?',
            mig: g.migMode ?? 'n/a',
            ecc: g.ecc.mode ?? 'n/a',
          }),
      );
    }
  } else {
    out.push(`  nvidia-smi: ${v(s.nvidia.failure.message)}`);
  }
  for (const p of s.processes.list) {
    const fw = p.framework ? ` ${frameworkLabel(p.framework.name)} (${v(p.framework.evidence[0] ?? 'maps')})` : '';
    out.push(
      `  ` +
        words.t('facts.process', {
          pid: p.pid,
          user: v(p.user ?? '?'),
          state: p.state ?? '?',
          gpus: p.gpus.join(',') || '-',
          mib: fmtMiB(p.usedMiB),
          age: fmtAge(p.ageSeconds),
          ppid: p.ppid ?? '?',
          orphaned: p.orphaned,
          framework: fw,
          cmd: v(fmtCmdline(p.cmdline)),
        }),
    );
  }
  const envKeys = Object.keys(s.env).filter((k) => k !== 'PATH');
  if (envKeys.length > 0)
    out.push(`  ${words.t('facts.env', { vars: envKeys.map((k) => `${v(k)}=${v(s.env[k] ?? '')}`).join(' ') })}`);
  out.push(
    `  ` +
      (c.bold(words.t('facts.probes')) +
        `${words.t('facts.colon')}` +
        s.probes
          .map((p) =>
            p.ok
              ? words.t('facts.probe', { id: p.id, ms: p.durationMs })
              : words.t('facts.probeFailed', {
                  id: p.id,
                  ms: p.durationMs,
                  message: v(p.message ?? words.t('facts.failed')),
                }),
          )
          .join(words.t('list.comma'))),
  );
  return out;
}

export { markOfFinding };
