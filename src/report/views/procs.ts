// The GPU process table of `procs`: one row per process that holds GPU memory or a GPU device file,
// culprits first, with the verdict from ./verdict.ts. Pure: rows from a Snapshot, text and JSON from rows.
import { fmtAge, fmtCmdline, fmtMiB, plural } from '../../base/format.js';
import { visibleLine } from '../escape.js';
import { displayWidth, fitCommandLine, palette, wrap, type Colors } from '../layout.js';
import type { HolderProcess, Snapshot } from '../../gather/snapshot/schema.js';
import { assess, culpritOrder, isStale, type Verdict } from '../../judge/procs/verdict.js';
import { adoptionOf } from '../../judge/procs/adoption.js';
import { frameworkLabel, holderPolicy, type HolderPolicy } from '../../gather/procfs/framework.js';
import type { Words } from '../../base/i18n/words.js';
import { findingLines } from '../finding-lines.js';
import { firstCommand, memoryFinding } from '../next-step.js';

export interface ProcRow {
  p: HolderProcess;
  verdict: Verdict;
  reason: string;
  /** the technical facts behind the reason (-v) */
  evidence?: string;
  /** what its framework does with GPU memory (from /proc/PID/maps), when one is recognised */
  policy: HolderPolicy | null;
}

export function procRows(s: Snapshot): ProcRow[] {
  const totalOf = (p: HolderProcess) =>
    s.nvidia.ok ? (s.nvidia.gpus.find((g) => g.index === p.gpus[0])?.memory.totalMiB ?? null) : null;
  return s.processes.list
    .filter((p) => p.listedByNvidiaSmi || p.holdsDeviceFiles)
    .map((p) => {
      const { verdict, reason, evidence } = assess(p, s.self);
      return { p, verdict, reason, ...(evidence ? { evidence } : {}), policy: holderPolicy(p, totalOf(p)) };
    })
    .sort(
      (a, b) =>
        culpritOrder({ verdict: a.verdict, usedMiB: a.p.usedMiB }, { verdict: b.verdict, usedMiB: b.p.usedMiB }) ||
        a.p.pid - b.p.pid,
    );
}

/** Stale holders of GPU memory: what makes `procs` exit with 1. */
export function staleCount(rows: readonly ProcRow[]): number {
  return rows.filter((r) => r.p.listedByNvidiaSmi && isStale(r.verdict)).length;
}

// The column heads in the chosen language; columns are padded by display width (a CJK character takes two).
const HEAD_KEYS = [
  'procs.col.gpu',
  'procs.col.pid',
  'procs.col.user',
  'procs.col.memory',
  'procs.col.age',
  'procs.col.state',
  'procs.col.parent',
  'procs.col.container',
  'procs.col.verdict',
  'procs.col.framework',
  'procs.col.command',
] as const;
const padEnd = (s: string, w: number) => s + ' '.repeat(Math.max(0, w - displayWidth(s)));

function cells(words: Words, r: ProcRow, cmdMax: number): string[] {
  const p = r.p;
  return [
    p.gpus.length > 0 ? p.gpus.join(',') : '-',
    String(p.pid),
    visibleLine(p.user ?? (p.uid !== null ? String(p.uid) : '?')),
    p.listedByNvidiaSmi ? fmtMiB(p.usedMiB) : words.t('procs.cell.devFile'),
    p.visible ? fmtAge(p.ageSeconds) : '?',
    p.state ?? '?',
    // "gone→NAME": evidence that the process that started it exited and NAME adopted it (procs/adoption.ts),
    // judged as the verdict is, so the column and the verdict line never disagree
    visibleLine(
      !p.visible
        ? '?'
        : adoptionOf(p).kind === 'adopted'
          ? words.t('procs.cell.gone', { parent: `${p.parentName ?? p.ppid ?? '?'}` })
          : `${p.parentName ?? p.ppid ?? '?'}`,
    ),
    p.exited
      ? '-'
      : !p.visible
        ? words.t('procs.cell.otherMaybe')
        : p.otherPidNamespace === null
          ? '?'
          : p.otherPidNamespace
            ? words.t('procs.cell.other')
            : words.t('procs.cell.same'),
    words.t(`verdict.${r.verdict}` as const),
    // "-" when none is recognised, "?" when its files could not be read (another user's process, not root)
    p.framework ? frameworkLabel(p.framework.name) : p.framework === null ? '-' : '?',
    // Command lines are set by whoever started the process: their control characters are shown, never sent.
    visibleLine(p.visible ? shortCmdline(p.cmdline, cmdMax) : (p.name ?? '?')),
  ];
}

/** A command line in at most `max` columns, keeping what names the job. When the whole line does not fit, each
 *  step gives up a little more: the program by its basename, path arguments as `…/NAME`, then bare names, then
 *  the interpreter in front of a script; only then is the line cut. The script and its arguments tell jobs apart. */
export function shortCmdline(argv: readonly string[] | null | undefined, max: number): string {
  if (!argv || argv.length === 0) return '?';
  const quote = (a: string) => fmtCmdline([a], Number.POSITIVE_INFINITY);
  const base = (a: string) => a.slice(a.lastIndexOf('/') + 1) || a;
  const isPath = (a: string, i: number) => i > 0 && !a.startsWith('-') && a.includes('/') && base(a) !== a;
  const quoted = argv.map(quote);
  const prog = quote(base(argv[0]!));
  const steps = [
    quoted,
    [prog, ...quoted.slice(1)],
    [prog, ...argv.slice(1).map((a, i) => (isPath(a, i + 1) ? `…/${quote(base(a))}` : quoted[i + 1]!))],
    [prog, ...argv.slice(1).map((a, i) => (isPath(a, i + 1) ? quote(base(a)) : quoted[i + 1]!))],
  ];
  // the interpreter goes before the script does: `hog.py 1200 120` still names the job
  if (argv.length > 1 && isPath(argv[1]!, 1)) steps.push(steps[3]!.slice(1));
  for (const parts of steps) {
    const s = parts.join(' ');
    if (s.length <= max) return s;
  }
  const s = steps[steps.length - 1]!.join(' ');
  return `${s.slice(0, Math.max(1, max - 1))}…`;
}

export interface TableOptions {
  color: boolean;
  verbose: boolean;
  /** columns: the command line is cut to fit (whole with -v) */
  width?: number;
  /** --gpu / --user left some processes out */
  filtered?: boolean;
}

export function renderProcs(words: Words, s: Snapshot, rows: readonly ProcRow[], o: TableOptions): string {
  const c = palette(o.color);
  const width = o.width ?? 80;
  const out: string[] = [];
  if (s.nvidia.ok) {
    for (const g of s.nvidia.gpus) {
      out.push(
        words.t('procs.gpuLine', {
          gpu: g.index,
          name: visibleLine(g.name),
          used: fmtMiB(g.memory.usedMiB),
          total: fmtMiB(g.memory.totalMiB),
          free: fmtMiB(g.memory.freeMiB),
        }),
      );
    }
  } else {
    out.push(
      ...wrap(
        words,
        c.yellow(words.t('procs.noSmi', { message: visibleLine(s.nvidia.failure.message) })),
        width,
        '',
        '  ',
      ),
    );
  }
  if (s.processes.message) out.push(...wrap(words, c.dim(visibleLine(s.processes.message)), width, '', '  '));
  if (!s.processes.ok)
    out.push(c.yellow(words.t('procs.noProc', { message: visibleLine(s.processes.message ?? 'no /proc') })));
  if (rows.length === 0) {
    out.push('', o.filtered ? words.t('procs.noneFiltered') : words.t('procs.none'));
    return `${out.join('\n')}\n`;
  }
  // The command line takes what is left of the width (at least 20 columns); -v shows it whole.
  const HEAD = HEAD_KEYS.map((k) => words.t(k));
  const fixed = rows.map((r) => cells(words, r, 10_000));
  const used = HEAD.slice(0, -1).reduce(
    (a, h, i) => a + Math.max(displayWidth(h), ...fixed.map((t) => displayWidth(t[i] ?? ''))) + 2,
    0,
  );
  const table = rows.map((r) => cells(words, r, o.verbose ? 10_000 : Math.max(20, width - used)));
  const widths = HEAD.map((h, i) => Math.max(displayWidth(h), ...table.map((t) => displayWidth(t[i] ?? ''))));
  const line = (t: readonly string[], paint?: (v: string) => string) =>
    t
      .map((v, i) => {
        const padded = i === t.length - 1 ? v : padEnd(v, widths[i]!);
        return i === 8 && paint ? paint(padded) : padded;
      })
      .join('  ')
      .trimEnd();
  out.push('', c.bold(line(HEAD)));
  rows.forEach((r, i) => out.push(line(table[i]!, paintFor(r.verdict, c))));

  // An active process is explained only when its parent has exited: why it is kept is then worth saying.
  const explained = rows.filter(
    (r) => (r.verdict !== 'active' || r.evidence !== undefined) && r.verdict !== 'this job',
  );
  if (explained.length > 0) {
    out.push('');
    for (const r of explained) {
      out.push(
        ...wrap(
          words,
          words.t('procs.reasonLine', {
            pid: r.p.pid,
            verdict: words.t(`verdict.${r.verdict}` as const),
            reason: visibleLine(r.reason),
          }),
          width,
          '',
          '  ',
        ),
      );
      if (o.verbose && r.evidence)
        out.push(
          ...wrap(
            words,
            c.dim(words.t('procs.evidenceLine', { evidence: visibleLine(r.evidence) })),
            width,
            '  ',
            '    ',
          ),
        );
    }
  }
  // What each holder's framework does with its memory, and so what would give it back.
  const policies = rows.filter((r) => r.policy && r.p.listedByNvidiaSmi && r.verdict !== 'this job');
  if (policies.length > 0) {
    out.push('');
    for (const r of policies)
      out.push(
        ...wrap(
          words,
          words.t('procs.policyLine', { pid: r.p.pid, mib: fmtMiB(r.p.usedMiB), summary: r.policy!.summary }) +
            `${words.t('list.sentence')}` +
            c.dim(words.t('procs.giveBack', { remedy: r.policy!.remedy })),
          width,
          '',
          '  ',
        ),
      );
  }
  const stale = staleCount(rows);
  // with no stale holder, a GPU short of memory still calls for a step: check's, word for word
  const short = stale > 0 || o.filtered ? null : memoryFinding(s);
  const first = short ? firstCommand(findingLines(words, short, { snapshot: s }).fix) : null;
  if (short && first) {
    // its first clause: the fact (check's block says the rest)
    const headline = short.message.split(/: |：/)[0]!.replace(/[.。]$/, '');
    out.push('', ...wrap(words, words.t('procs.nextShort', { headline: visibleLine(headline) }), width));
    out.push(...fitCommandLine(`  ${c.cyan('$')} ${visibleLine(first)}`, width));
  } else
    out.push('', ...wrap(words, stale > 0 ? words.t('procs.stale', { n: stale }) : words.t('procs.noStale'), width));
  return `${out.join('\n')}\n`;
}

function paintFor(v: Verdict, c: Colors): (s: string) => string {
  if (isStale(v)) return c.red;
  if (v === 'other user' || v === 'invisible' || v === 'unknown') return c.yellow;
  if (v === 'this job') return c.dim;
  return c.green;
}

export function procsJson(s: Snapshot, rows: readonly ProcRow[]): unknown {
  return {
    schemaVersion: 1,
    host: s.host,
    collectedAt: s.collectedAt,
    gpus: s.nvidia.ok
      ? s.nvidia.gpus.map((g) => ({ index: g.index, name: g.name, uuid: g.uuid, memory: g.memory }))
      : [],
    ...(s.nvidia.ok ? {} : { nvidiaFailure: s.nvidia.failure }),
    ...(s.processes.message ? { message: s.processes.message } : {}),
    processes: rows.map((r) => ({
      ...r.p,
      verdict: r.verdict,
      reason: r.reason,
      ...(r.evidence ? { evidence: r.evidence } : {}),
      stale: isStale(r.verdict),
      ...(r.policy ? { policy: r.policy } : {}),
    })),
    stale: staleCount(rows),
  };
}
