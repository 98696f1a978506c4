// One model the HTML and Markdown reports render from, built from what `check`, `explain` and `run` have:
// a snapshot, findings, a diagnosis of a log, a run's memory timeline and output tail. Pure.
// Sections whose facts are absent are left out (a `check --from` of an old snapshot has no libraries).
import { CATEGORIES, type Category } from '../judge/checks/check.js';
import type { Consequence, Finding } from '../judge/finding.js';
import { isProblem } from '../judge/result.js';
import { ROOT_CAUSE_TITLES, isRootCauseId } from '../knowledge/root-causes.js';
import type { Snapshot } from '../gather/snapshot/schema.js';
import { holderFrameworkLabel } from '../gather/procfs/framework.js';
import type { MemoryTimeline } from '../gather/nvidia/memory-timeline.js';
import { causeLines, findingLines, type CauseLike, type FindingLines } from './finding-lines.js';
import { titlesOf } from './labels.js';
import { fmtTaken, type ReportSource } from './provenance.js';
import { fmtAge } from '../base/format.js';
import type { Words } from '../base/i18n/words.js';
import { answerOf, titleOf as causeTitle, type Answer } from './views/explain/answer.js';

/** What the explain engine returns (CONTRACT.md `explain --json`); only these fields are read. */
export interface DiagnosisCause {
  id: string;
  confidence: number;
  summary: string;
  /** what tells this cause from the others, when the input cannot */
  test?: { text: string; command?: string; cost: number };
  setting?: string;
  /** `source: "machine"` marks a fact of the snapshot rather than a line of the log (line is then 0) */
  evidence: { line: number; text: string; source?: string }[];
  fix?: { text: string; commands?: string[]; manual?: string[] };
}
export interface DiagnosisLike {
  causes: DiagnosisCause[];
  /** explain's own words for its verdict, and whether the input could decide (absent: decided) */
  verdict?: string;
  ambiguous?: boolean;
  unknownMessage?: boolean;
  machine?: { used: boolean };
  signals?: ReadonlyArray<{ signature: string }>;
  /** the framework the input shows (a cause's title may name it) */
  environment?: { framework?: { value: string } };
}

export interface RunRecord {
  argv: string[];
  /** how it ended, e.g. "exit code 1", "killed by SIGKILL" */
  exitText: string;
  exitCode: number;
  failed: boolean;
  durationMs: number;
  timeline: MemoryTimeline;
  /** PIDs of the job (the command and its descendants) */
  jobPids: number[];
  /** how many lines the job printed, and how many of the first were not kept */
  totalLines: number;
  droppedLines: number;
}

export interface LogLine {
  n: number;
  text: string;
  stream?: 'stdout' | 'stderr';
}

export interface ReportInput {
  kind: 'check' | 'explain' | 'run';
  generatedAt: string;
  tool: { name: string; version: string };
  snapshot?: Snapshot | null;
  findings?: readonly Finding[];
  categoryOf?: (checkId: string) => Category;
  /** check id → its title, for tables a reader reads (ids stay in -v, --json and the finding pages) */
  titleOf?: (checkId: string) => string;
  diagnosis?: DiagnosisLike | null;
  run?: RunRecord;
  /** the log that was explained, or the tail of the run's output */
  log?: { title: string; lines: LogLine[] };
  /** where the facts come from (a saved snapshot: which file, host, when); absent: this machine, now */
  source?: ReportSource;
  /** what was read, in words ("train.log: 18 lines, with the facts of vm"): explain's input line */
  inputLine?: string;
}

export type Mark = 'ok' | 'warn' | 'fail' | 'unknown' | 'skip';

export interface BarSegment {
  kind: 'job' | 'other' | 'unattributed' | 'reserved' | 'free';
  label: string;
  miB: number;
  pid?: number;
}
export interface GpuBar {
  index: number;
  name: string;
  uuid: string;
  totalMiB: number;
  segments: BarSegment[];
}

export interface FindingView {
  check: string;
  category: string;
  mark: Mark;
  severity: Finding['severity'];
  status: Finding['status'];
  rootCause: string | null;
  rootCauseTitle: string | null;
  message: string;
  details?: string;
  evidence: { text: string; source?: string; line?: number }[];
  /** what frameworks do with the fact, each at its certainty, with its source */
  consequences: Consequence[];
  fix?: { text: string; commands: string[]; manual: string[] };
  /** what every reporter shows: the one finding model */
  lines: FindingLines;
  /** the runner's bare "<title>: ok" line */
  bare?: true;
}

/** A ranked cause as the reports show it (evidence `line` null: a fact of the machine, not a line of the log). */
export interface CauseView extends CauseLike {
  lines: FindingLines;
}

export interface LibraryRow {
  consumer: string;
  framework: string | null;
  name: string;
  path: string | null;
  version: string | null;
  via: string;
  /** the consumer's Python environment: paths inside it are shown relative to it */
  environment?: string | null;
}

export interface VersionRow {
  item: string;
  value: string;
  mark: Mark | null;
  note?: string;
}

export interface ReportModel {
  kind: ReportInput['kind'];
  title: string;
  generatedAt: string;
  tool: { name: string; version: string };
  host: string | null;
  /** for a report made from a saved snapshot: "host vm, taken 2026-12-02 13:04 UTC (2h 10m ago)" */
  sourceLine: string | null;
  /** what was read (explain): the input files and their lines */
  inputLine?: string;
  verdict: { mark: Mark; text: string };
  counts: { errors: number; warnings: number; unknown: number; checks: number };
  run?: RunRecord;
  /** when the bars were measured, in words */
  barsCaption: string;
  bars: GpuBar[];
  timeline?: MemoryTimeline;
  causes: CauseView[];
  /** the diagnosis' one answer (headline, evidence once, next step, candidates): what every format shows */
  answer?: Answer;
  /** true when a diagnosis was made (an empty `causes` then means "nothing recognised") */
  diagnosed: boolean;
  libraries: LibraryRow[] | null;
  versions: VersionRow[];
  findings: FindingView[];
  log?: { title: string; lines: (LogLine & { evidence: boolean })[] };
  facts: { label: string; value: string }[];
}

export function buildReportModel(words: Words, input: ReportInput): ReportModel {
  const s = input.snapshot ?? null;
  const findings = input.findings ?? [];
  const categoryOf = input.categoryOf ?? (() => 'system' as Category);
  const views = findings.map((f) => findingView(words, f, categoryOf(f.check), s));
  views.sort((a, b) => markRank(b.mark) - markRank(a.mark));
  const diagnosis = input.diagnosis
    ? { ...input.diagnosis, causes: [...input.diagnosis.causes].sort((a, b) => b.confidence - a.confidence) }
    : null;
  const answer = diagnosis && diagnosis.causes.length > 0 ? answerOf(words, diagnosis, { snapshot: s }) : undefined;
  // each cause as the answer shows it: a log line under the first cause that cites it, a fix said once
  const causes = (diagnosis?.causes ?? []).map((c, i) => {
    const v = causeView(words, c, s, diagnosis?.environment?.framework?.value);
    const a = answer?.causes[i];
    return a && !answer.undecided ? { ...v, lines: a.lines } : v;
  });
  const counts = {
    errors: findings.filter((f) => f.severity === 'error' && isProblem(f, 'error')).length,
    warnings: findings.filter((f) => f.severity === 'warn' && isProblem(f, 'warn')).length,
    unknown: findings.filter((f) => f.status === 'unknown').length,
    checks: new Set(findings.map((f) => f.check)).size,
  };
  const evidenceLines = new Set(
    causes.flatMap((c) => c.evidence.map((e) => e.line)).filter((n): n is number => n !== null),
  );
  const jobPids = new Set(input.run?.jobPids ?? []);
  const host = s?.host.name ?? null;
  const src = input.source && input.source.file !== null ? input.source : null;
  return {
    kind: input.kind,
    title: titleOf(words, input, host, src?.file ?? null),
    generatedAt: input.generatedAt,
    tool: input.tool,
    host,
    sourceLine: src
      ? titlesOf(words).snapshotLine(
          src.host,
          fmtTaken(src.takenAt),
          src.agoSeconds === null ? '?' : fmtAge(src.agoSeconds),
        )
      : null,
    ...(input.inputLine ? { inputLine: input.inputLine } : {}),
    verdict: verdictOf(words, input, counts, causes, s, findings, answer),
    counts,
    ...(input.run ? { run: input.run } : {}),
    barsCaption:
      input.kind === 'run'
        ? input.run?.failed
          ? words.t('model.whenFailed')
          : words.t('model.afterEnded')
        : s
          ? words.t('model.at', { time: fmtTaken(s.collectedAt) })
          : '',
    bars: s ? gpuBars(words, s, jobPids, input.run?.timeline) : [],
    ...(input.run ? { timeline: input.run.timeline } : {}),
    causes,
    ...(answer ? { answer } : {}),
    diagnosed: input.diagnosis !== undefined && input.diagnosis !== null,
    libraries: s ? libraryRows(s) : null,
    versions: s
      ? versionRows(words, s, findings, categoryOf, input.titleOf)
      : versionRowsFromFindings(findings, categoryOf, input.titleOf),
    findings: views,
    ...(input.log
      ? {
          log: {
            title: input.log.title,
            lines: input.log.lines.map((l) => ({ ...l, evidence: evidenceLines.has(l.n) })),
          },
        }
      : {}),
    facts: s ? facts(words, s) : [],
  };
}

function titleOf(words: Words, input: ReportInput, host: string | null, file: string | null): string {
  if (file !== null && input.kind !== 'run') return titlesOf(words).fromSnapshot(input.kind, file);
  if (input.kind === 'run') {
    const failed = input.run?.failed === true;
    if (host)
      return failed ? words.t('model.titleRunFailedOn', { host }) : words.t('model.titleRunSucceededOn', { host });
    return failed ? words.t('model.titleRunFailed') : words.t('model.titleRunSucceeded');
  }
  return host
    ? words.t('model.titleCommandOn', { command: input.kind, host })
    : words.t('model.titleCommand', { command: input.kind });
}

function verdictOf(
  words: Words,
  input: ReportInput,
  counts: ReportModel['counts'],
  causes: CauseView[],
  s: Snapshot | null,
  findings: readonly Finding[],
  answer: Answer | undefined,
): ReportModel['verdict'] {
  if (input.kind === 'run' && input.run) {
    if (!input.run.failed) return { mark: 'ok', text: words.t('model.runSucceeded', { exit: input.run.exitText }) };
    const top = causes[0];
    // an undecided diagnosis names no likely cause: the run failed, and the next step decides
    return {
      mark: 'fail',
      text:
        top && !answer?.undecided
          ? words.t('model.runFailedLikely', { exit: input.run.exitText, cause: lowerFirst(top.title) })
          : words.t('model.runFailed', { exit: input.run.exitText }),
    };
  }
  if (input.kind === 'explain') {
    // the explain headline itself; undecided is not a red "most likely"
    if (answer) return { mark: answer.undecided ? 'unknown' : 'fail', text: answer.headline };
    return { mark: 'unknown', text: words.t('model.nothingInLog') };
  }
  if (counts.errors > 0) return { mark: 'fail', text: words.t('model.errorsWarnings', counts) };
  if (counts.warnings > 0) return { mark: 'warn', text: words.t('model.warningsNoErrors', counts) };
  // Nothing GPU-related could be judged: never a green "no problems".
  if (s && !s.nvidia.ok && findings.some((f) => f.check === 'gpu.driver' && f.status === 'skip'))
    return { mark: 'skip', text: words.t('model.noGpuVerdict') };
  return { mark: 'ok', text: words.t('label.noProblems') };
}

function markOf(f: Finding): Mark {
  if (f.status === 'skip') return 'skip';
  if (f.status === 'unknown' || f.status === 'crash') return 'unknown';
  if (f.status === 'ok' || f.severity === 'info') return 'ok';
  return f.severity === 'error' && f.status === 'fail' ? 'fail' : 'warn';
}

function markRank(m: Mark): number {
  return m === 'fail' ? 3 : m === 'warn' ? 2 : m === 'unknown' ? 1 : m === 'ok' ? 0 : -1;
}

function findingView(words: Words, f: Finding, cat: Category, s: Snapshot | null): FindingView {
  return {
    check: f.check,
    category: CATEGORIES[cat] ?? cat,
    mark: markOf(f),
    severity: f.severity,
    status: f.status,
    rootCause: f.rootCause,
    rootCauseTitle: f.rootCause && isRootCauseId(f.rootCause) ? ROOT_CAUSE_TITLES[f.rootCause] : null,
    message: f.message,
    ...(f.details !== undefined ? { details: f.details } : {}),
    evidence: f.evidence.map((e) => ({
      text: e.text,
      ...(e.source !== undefined ? { source: e.source } : {}),
      ...(e.line !== undefined ? { line: e.line } : {}),
    })),
    consequences: [...(f.consequences ?? [])],
    ...(f.fix ? { fix: { text: f.fix.text, commands: [...f.fix.commands], manual: [...(f.fix.manual ?? [])] } } : {}),
    lines: findingLines(words, f, { snapshot: s }),
    ...(f.bare ? { bare: true as const } : {}),
  };
}

function causeView(words: Words, c: DiagnosisCause, s: Snapshot | null, framework?: string): CauseView {
  const v = { ...causeViewBare(c), title: causeTitle(words, c, framework) };
  return { ...v, lines: causeLines(words, v, { snapshot: s }) };
}

function causeViewBare(c: DiagnosisCause): Omit<CauseView, 'lines'> {
  return {
    id: c.id,
    title: isRootCauseId(c.id) ? ROOT_CAUSE_TITLES[c.id] : c.id,
    confidence: Math.max(0, Math.min(1, Number.isFinite(c.confidence) ? c.confidence : 0)),
    summary: c.summary,
    evidence: (c.evidence ?? []).map((e) => ({
      line: e.source === 'machine' || !(e.line > 0) ? null : e.line,
      text: e.text,
    })),
    ...(c.fix
      ? { fix: { text: c.fix.text, commands: [...(c.fix.commands ?? [])], manual: [...(c.fix.manual ?? [])] } }
      : {}),
  };
}

/**
 * Per GPU: the job's memory, each other process by name, memory no listed process accounts for, and free.
 * For a run, the job has usually exited by the time the snapshot is taken: its segment is its last sample.
 */
export function gpuBars(words: Words, s: Snapshot, jobPids: ReadonlySet<number>, timeline?: MemoryTimeline): GpuBar[] {
  if (!s.nvidia.ok) return [];
  const byPid = new Map(s.processes.list.map((p) => [p.pid, p]));
  return s.nvidia.gpus.map((g) => {
    const segs: BarSegment[] = [];
    let jobSnap = 0;
    let others = 0;
    for (const p of g.processes) {
      const used = p.usedMiB ?? 0;
      if (jobPids.has(p.pid)) {
        jobSnap += used;
        continue;
      }
      const h = byPid.get(p.pid);
      const name = h?.name ?? (p.name.split('/').pop() || p.name);
      const fw = h ? holderFrameworkLabel(h) : null;
      segs.push({
        kind: 'other',
        label: `${fw ? `${fw} ` : ''}${name} (PID ${p.pid}${h?.user ? `, ${h.user}` : ''})`,
        miB: used,
        pid: p.pid,
      });
      others += used;
    }
    const sampled = (timeline?.processes ?? [])
      .filter((p) => p.isJob && p.gpuUuid === g.uuid)
      .reduce((a, p) => a + p.lastMiB, 0);
    const job = Math.max(jobSnap, sampled);
    if (job > 0 || jobPids.size > 0) segs.unshift({ kind: 'job', label: words.t('model.thisJob'), miB: job });
    const unattributed = Math.max(0, g.memory.usedMiB - others - jobSnap);
    if (unattributed > 0) segs.push({ kind: 'unattributed', label: words.t('model.notAttributed'), miB: unattributed });
    // One source per figure: free is nvidia-smi's free (what the findings quote), not total minus the rest;
    // what nvidia-smi counts neither used nor free is the driver's reserve.
    const free = Math.max(0, Math.min(g.memory.freeMiB, g.memory.totalMiB - segs.reduce((a, x) => a + x.miB, 0)));
    const reserved = Math.max(0, g.memory.totalMiB - segs.reduce((a, x) => a + x.miB, 0) - free);
    if (reserved > 0) segs.push({ kind: 'reserved', label: words.t('model.reserved'), miB: reserved });
    segs.push({ kind: 'free', label: words.t('model.free'), miB: free });
    return {
      index: g.index,
      name: g.name,
      uuid: g.uuid,
      totalMiB: g.memory.totalMiB,
      segments: segs.filter((x) => x.miB > 0 || x.kind === 'free' || x.kind === 'job'),
    };
  });
}

/** snapshot.libraries (added by the library inventory; shaped like `libs --json`), read defensively. */
export function libraryRows(s: Snapshot): LibraryRow[] | null {
  const libs = (s as Record<string, unknown>).libraries;
  if (!isObj(libs) || !Array.isArray(libs.consumers)) return null;
  const rows: LibraryRow[] = [];
  for (const c of libs.consumers) {
    if (!isObj(c) || !Array.isArray(c.resolved)) continue;
    for (const r of c.resolved) {
      if (!isObj(r)) continue;
      rows.push({
        consumer: str(c.path) ?? '?',
        framework: str(c.framework) ?? null,
        name: str(r.name) ?? '?',
        path: str(r.path) ?? null,
        version: str(r.version) ?? null,
        via: str(r.via) ?? '?',
        environment: str(c.environment) ?? null,
      });
    }
  }
  return rows;
}

function versionRows(
  words: Words,
  s: Snapshot,
  findings: readonly Finding[],
  categoryOf: (id: string) => Category,
  titleOf?: (id: string) => string,
): VersionRow[] {
  const rows: VersionRow[] = [];
  const problemsAbout = (pred: (f: Finding) => boolean) => findings.filter((f) => pred(f) && isProblem(f, 'warn'));
  // Without any version check, a fact with no complaint is not "✓": nothing judged it.
  const hasVersionChecks = findings.some((f) => categoryOf(f.check) === 'versions');
  const markFrom = (ps: Finding[]): Mark | null =>
    ps.length === 0 ? (hasVersionChecks ? 'ok' : null) : ps.some((f) => f.severity === 'error') ? 'fail' : 'warn';
  if (s.nvidia.ok) {
    const ps = problemsAbout((f) => f.rootCause === 'driver_too_old' || f.rootCause === 'hardware_or_driver_fault');
    rows.push({
      item: words.t('model.nvidiaDriver'),
      value: `${s.nvidia.driverVersion} (CUDA ≤ ${s.nvidia.cudaVersion ?? '?'})`,
      mark: markFrom(ps),
      ...(ps[0] ? { note: ps[0].message } : {}),
    });
  }
  const py = (s as Record<string, unknown>).python;
  if (isObj(py) && Array.isArray(py.environments)) {
    for (const env of py.environments) {
      if (!isObj(env) || !Array.isArray(env.frameworks)) continue;
      const where = str(env.prefix) ?? '?';
      if (str(env.pythonVersion))
        rows.push({ item: words.t('model.pythonAt', { where }), value: str(env.pythonVersion)!, mark: null });
      for (const fw of env.frameworks) {
        if (!isObj(fw)) continue;
        const name = str(fw.framework) ?? '?';
        const parts = [str(fw.version) ?? '?'];
        if (str(fw.cuda)) parts.push(`CUDA ${str(fw.cuda)}`);
        if (str(fw.cudnn)) parts.push(`cuDNN ${str(fw.cudnn)}`);
        if (fw.gpuBuild === false) parts.push(words.t('model.cpuOnly'));
        const ps = problemsAbout(
          (f) => f.affects?.framework === name && ['versions', 'libraries', 'python'].includes(categoryOf(f.check)),
        );
        rows.push({
          item: name,
          value: parts.join(words.t('list.comma')),
          mark: fw.gpuBuild === false ? 'warn' : markFrom(ps),
          ...(ps[0] ? { note: ps[0].message } : {}),
        });
      }
    }
  }
  return [...rows, ...versionRowsFromFindings(findings, categoryOf, titleOf)];
}

function versionRowsFromFindings(
  findings: readonly Finding[],
  categoryOf: (id: string) => Category,
  titleOf?: (id: string) => string,
): VersionRow[] {
  return findings
    .filter((f) => categoryOf(f.check) === 'versions' && f.status !== 'skip')
    .map((f) => ({ item: titleOf?.(f.check) ?? f.check, value: f.message, mark: markOf(f) }));
}

function facts(words: Words, s: Snapshot): { label: string; value: string }[] {
  const out = [
    { label: words.t('model.fact.host'), value: s.host.name },
    { label: words.t('model.fact.collected'), value: fmtTaken(s.collectedAt) },
    {
      label: words.t('model.fact.system'),
      value:
        `${s.system.os ?? '?'}, kernel ${s.system.kernel ?? '?'}, ` +
        `${s.system.arch}${
          s.system.container.kind !== 'none' ? `, ` + `container ${s.system.container.kind}` : ''
        }${s.system.wsl ? ', WSL' : ''}`,
    },
  ];
  if (s.nvidia.ok) {
    out.push({
      label: words.t('model.fact.driver'),
      value: `${s.nvidia.driverVersion}, CUDA ≤ ${s.nvidia.cudaVersion ?? '?'}`,
    });
    for (const g of s.nvidia.gpus)
      out.push({
        label: `GPU ${g.index}`,
        value:
          `${g.name}, sm ${g.computeCapability ?? '?'}, ${g.busId}, ` +
          `${g.uuid}${g.serial ? `, serial ${g.serial}` : ''}`,
      });
  } else {
    out.push({ label: 'nvidia-smi', value: s.nvidia.failure.message });
  }
  for (const [k, v] of Object.entries(s.env)) out.push({ label: k, value: v });
  return out;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}
