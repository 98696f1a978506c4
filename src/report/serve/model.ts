// The live page's model: what `serve` shows, built from the latest process sample, the last hour of memory,
// and the latest findings of the checks. Pure: facts and times in, a JSON-able model out (the renderer draws
// it, /state.json serves it, --redact rewrites it).
//
// Facts and consequences are kept apart: a process's memory, user, age and command are facts (nvidia-smi,
// /proc); its verdict comes with the reason the verdict module gives; a framework's memory policy is a
// consequence of the framework seen (what it does by default), said with "by default".
import type { Words } from '../../base/i18n/words.js';
import type { Finding } from '../../judge/finding.js';
import { fmtAge, fmtCmdline, fmtMiB } from '../../base/format.js';
import { frameworkLabel, holderPolicy } from '../../gather/procfs/framework.js';
import { procRows } from '../views/procs.js';
import { isStale, type Verdict } from '../../judge/procs/verdict.js';
import type { HolderProcess, Snapshot } from '../../gather/snapshot/schema.js';
import type { HistoryPoint } from './history.js';
import { freeGpus, freeness, visibleDevicesLine } from '../../judge/free-gpus.js';

export { FREE_MAX_USED_MIN_MIB, FREE_MAX_USED_SHARE } from '../../judge/free-gpus.js';

/** How a verdict is drawn: the verdict text itself is shown as it comes (new verdicts need no change here). */
export type VerdictGroup = 'stale' | 'active' | 'other' | 'invisible' | 'unknown';

export interface FrameworkInfo {
  /** "jax", "torch", … as the process probe names it */
  name: string;
  /** "JAX", "PyTorch", … */
  label: string;
  /** the mapped files that show it */
  evidence: string[];
}

export interface ProcView {
  pid: number;
  user: string;
  /** on this GPU (nvidia-smi's figure); null for a holder of the device file only */
  miB: number | null;
  framework: FrameworkInfo | null;
  verdict: string;
  reason: string;
  group: VerdictGroup;
  stale: boolean;
  age: string;
  name: string;
  /** the command line as shown (cut at 160 characters), or the process name when /proc cannot show it */
  command: string;
  /** the whole command line (a tooltip), at most 4 KiB */
  commandFull: string;
  /** what its framework does with GPU memory (src/gather/procfs/framework.ts), when the framework is known */
  policy: { summary: string; remedy: string; reserve: boolean } | null;
}

export interface Segment {
  kind: 'proc' | 'unattributed' | 'free';
  group?: VerdictGroup;
  miB: number;
  pid?: number;
  label: string;
}

export interface PolicyNote {
  pid: number;
  framework: string;
  /** e.g. "JAX, preallocating 75% of the GPU at its first operation (…)" */
  summary: string;
  /** what would change it, for the user to judge */
  remedy: string;
}

export interface GpuView {
  index: number;
  name: string;
  uuid: string;
  totalMiB: number;
  usedMiB: number;
  freeMiB: number;
  free: boolean;
  /** why the GPU is not offered though nothing runs on it (MIG mode, compute mode) */
  freeNote?: string;
  segments: Segment[];
  procs: ProcView[];
  policies: PolicyNote[];
  history: HistoryPoint[];
}

export type StatusKind = 'ok' | 'waiting' | 'hanging' | 'failed';

export interface PageStatus {
  kind: StatusKind;
  /** one line: what the page shows and how fresh it is */
  text: string;
  /** ms since the epoch the figures were read (the "updated … ago" of the page) */
  updatedAt: number | null;
  /** ms since the epoch nvidia-smi was last asked and has not answered, or first failed in a row */
  since?: number;
  /** why nvidia-smi failed, in its words or ours */
  failure?: string;
}

export interface FindingItem {
  mark: 'fail' | 'warn' | 'unknown';
  check: string;
  message: string;
  fixText?: string;
  commands: string[];
  manual: string[];
}

export interface PageModel {
  host: string;
  title: string;
  intervalMs: number;
  status: PageStatus;
  /** the GPUs as last read; empty when nvidia-smi never answered */
  gpus: GpuView[];
  free: { known: boolean; indexes: number[]; line: string | null; allLine: string | null };
  /** processes holding /dev/nvidia* open without being listed by nvidia-smi */
  deviceHolders: ProcView[];
  stale: number;
  /** processes.message of the probe (e.g. open files unreadable without root) */
  note?: string;
  checks: { at: number | null; everyMs: number; count: number; items: FindingItem[]; note?: string };
  redacted: boolean;
  /** where /proc hides other users' processes: how many of their command lines the page does not show */
  othersHidden?: number;
}

export interface LiveState {
  host: string;
  now: number;
  intervalMs: number;
  /** the latest sample in which nvidia-smi answered, and when */
  good: { snapshot: Snapshot; at: number } | null;
  /** the latest sample of any kind (nvidia-smi may have failed in it) */
  latest: { snapshot: Snapshot; at: number } | null;
  /** nvidia-smi asked since this time and not answered yet */
  inFlightSince: number | null;
  /** in flight for longer than this: say it hangs */
  hangAfterMs: number;
  /** the first failure of the current run of failures */
  failingSince: number | null;
  history: { uuid: string; index: number; points: HistoryPoint[] }[];
  checks: {
    at: number | null;
    findings: readonly Finding[] | null;
    everyMs: number;
    runningSince: number | null;
    error?: string;
  };
  redacted?: boolean;
}

export function buildPageModel(words: Words, st: LiveState): PageModel {
  const status = pageStatus(words, st);
  const shown = st.good?.snapshot ?? null;
  const gpus = shown && shown.nvidia.ok ? gpuViews(words, shown, st) : [];
  const freeViews = gpus.filter((g) => g.free);
  const freeGpus = freeViews.map((g) => g.index);
  const nvidiaAnswering = status.kind === 'ok';
  const line = (views: readonly GpuView[]) => freeGpuLine(views.map((g) => ({ index: g.index, uuid: g.uuid })));
  const latest = st.latest?.snapshot ?? null;
  const holdersSource = latest ?? shown;
  const deviceHolders = holdersSource
    ? procRows(holdersSource)
        .filter((r) => !r.p.listedByNvidiaSmi)
        .map((r) => procView(r.p, r.verdict, r.reason, null, null))
    : [];
  const staleCount = shown ? procRows(shown).filter((r) => r.p.listedByNvidiaSmi && isStale(r.verdict)).length : 0;
  const note =
    holdersSource?.processes.message ??
    (holdersSource && !holdersSource.processes.ok ? words.t('serve.noProcesses') : undefined);
  return {
    host: st.host,
    title: words.t('serve.title', { host: st.host }),
    intervalMs: st.intervalMs,
    status,
    gpus,
    free: {
      known: nvidiaAnswering && gpus.length > 0,
      indexes: freeGpus,
      line: line(freeViews.slice(0, 1)),
      allLine: freeViews.length > 1 ? line(freeViews) : null,
    },
    deviceHolders,
    stale: staleCount,
    ...(note ? { note } : {}),
    checks: checksView(words, st),
    redacted: st.redacted === true,
  };
}

function pageStatus(words: Words, st: LiveState): PageStatus {
  const good = st.good;
  const updatedAt = good?.at ?? null;
  const figures = good ? ` The figures below are from ${clock(good.at)}.` : '';
  if (st.inFlightSince !== null && st.now - st.inFlightSince >= st.hangAfterMs) {
    return {
      kind: 'hanging',
      text:
        `nvidia-smi has not answered for ${secs(words, st.now - st.inFlightSince)}: the driver may be hung (a GPU ` +
        `fallen off the bus, or a process stuck in the kernel).${figures}`,
      updatedAt,
      since: st.inFlightSince,
    };
  }
  const latest = st.latest?.snapshot;
  if (latest && !latest.nvidia.ok) {
    const failure = latest.nvidia.failure.message.replace(/\.$/, '');
    return {
      kind: 'failed',
      text: `nvidia-smi could not answer: ${failure}.${figures}`,
      updatedAt,
      since: st.failingSince ?? st.latest!.at,
      failure,
    };
  }
  if (!good)
    return {
      kind: 'waiting',
      text: 'Waiting for the first answer from nvidia-smi.',
      updatedAt: null,
      ...(st.inFlightSince !== null ? { since: st.inFlightSince } : {}),
    };
  return { kind: 'ok', text: `Live: read every ${secs(words, st.intervalMs)}.`, updatedAt };
}

function gpuViews(words: Words, s: Snapshot, st: LiveState): GpuView[] {
  if (!s.nvidia.ok) return [];
  const rows = procRows(s);
  // nvidia-smi names the PID it sees; the probe may have paired it with a local PID (containers)
  const bySmiPid = new Map(rows.map((r) => [r.p.nvidiaSmiPid ?? r.p.pid, r]));
  const order = new Map(rows.map((r, i) => [r, i]));
  return s.nvidia.gpus.map((g) => {
    const listed = g.processes
      .map((gp) => ({ gp, row: bySmiPid.get(gp.pid) }))
      .sort(
        (a, b) =>
          (a.row ? order.get(a.row)! : 1e9) - (b.row ? order.get(b.row)! : 1e9) ||
          (b.gp.usedMiB ?? 0) - (a.gp.usedMiB ?? 0),
      );
    const procs = listed.map(({ gp, row }) =>
      row
        ? procView(row.p, row.verdict, row.reason, gp.usedMiB, g.memory.totalMiB, gp.name)
        : unknownProc(words, gp.pid, gp.name, gp.usedMiB),
    );
    const segments: Segment[] = procs.map((p) => ({
      kind: 'proc',
      group: p.group,
      miB: Math.max(0, p.miB ?? 0),
      pid: p.pid,
      label: words.t('serve.segment', {
        pid: p.pid,
        name: p.name,
        user: p.user,
        verdict: verdictWord(words, p.verdict),
      }),
    }));
    const attributed = procs.reduce((a, p) => a + Math.max(0, p.miB ?? 0), 0);
    const unattributed = Math.max(0, g.memory.usedMiB - attributed);
    if (unattributed > 0)
      segments.push({ kind: 'unattributed', miB: unattributed, label: words.t('serve.unattributed') });
    const free = Math.max(0, g.memory.totalMiB - attributed - unattributed);
    segments.push({ kind: 'free', miB: free, label: words.t('serve.badgeFree') });
    const fr = freeness(g, procs.length);
    const isFree = fr.free;
    const note = fr.free || !fr.why ? undefined : words.t(fr.why === 'mig' ? 'serve.migOn' : 'serve.prohibited');
    const hist = st.history.find((h) => (g.uuid ? h.uuid === g.uuid : h.index === g.index));
    return {
      index: g.index,
      name: g.name,
      uuid: g.uuid,
      totalMiB: g.memory.totalMiB,
      usedMiB: g.memory.usedMiB,
      freeMiB: g.memory.freeMiB,
      free: isFree,
      ...(note ? { freeNote: note } : {}),
      segments: segments.filter((x) => x.miB > 0 || x.kind === 'free'),
      procs,
      policies: policyNotes(procs),
      history: hist?.points ?? [],
    };
  });
}

/** The GPUs of a snapshot that are free, by the one rule of judge/free-gpus.ts. */
export function freeGpuIndexes(s: Snapshot): number[] {
  return freeGpus(s).map((g) => g.index);
}

/** The line that puts a job on these GPUs, spelled as check's fix spells it (judge/free-gpus.ts). */
export const freeGpuLine = visibleDevicesLine;

/** The framework field of the process probe (name and evidence), read defensively. */
export function asFramework(v: unknown): FrameworkInfo | null {
  if (v === null || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (typeof o.name !== 'string' || o.name === '') return null;
  const evidence = Array.isArray(o.evidence)
    ? o.evidence.filter((e): e is string => typeof e === 'string').slice(0, 8)
    : [];
  return { name: o.name, label: frameworkLabel(o.name), evidence };
}

export function groupOf(verdict: string): VerdictGroup {
  if (isStale(verdict as Verdict)) return 'stale';
  if (verdict === 'active' || verdict === 'this job') return 'active';
  if (verdict === 'other user') return 'other';
  if (verdict === 'invisible') return 'invisible';
  return 'unknown';
}

function procView(
  p: HolderProcess,
  verdict: string,
  reason: string,
  miB: number | null,
  gpuTotalMiB: number | null,
  smiName?: string,
): ProcView {
  // /proc's name when the process is visible here, nvidia-smi's (its executable) when it is not
  const name = p.name ?? (smiName ? smiName.split('/').pop() || smiName : '?');
  const full = p.visible && p.cmdline && p.cmdline.length > 0 ? fmtCmdline(p.cmdline, 4096) : name;
  return {
    pid: p.pid,
    user: p.user ?? (p.uid !== null ? String(p.uid) : '?'),
    miB: miB ?? (p.listedByNvidiaSmi ? p.usedMiB : null),
    framework: asFramework(p.framework),
    verdict,
    reason,
    group: groupOf(verdict),
    stale: isStale(verdict as Verdict),
    age: p.visible ? fmtAge(p.ageSeconds) : '?',
    name,
    command: p.visible && p.cmdline && p.cmdline.length > 0 ? fmtCmdline(p.cmdline, 160) : name,
    commandFull: full,
    policy: p.framework ? (holderPolicy(p, gpuTotalMiB) ?? null) : null,
  };
}

/** A PID nvidia-smi lists that the process probe did not describe (it should not happen; shown, not hidden). */
function unknownProc(words: Words, pid: number, smiName: string, miB: number | null): ProcView {
  const name = smiName.split('/').pop() || smiName || '?';
  return {
    pid,
    user: '?',
    miB,
    framework: null,
    verdict: 'unknown',
    reason: words.t('serve.notDescribed'),
    group: 'unknown',
    stale: false,
    age: '?',
    name,
    command: name,
    commandFull: smiName || name,
    policy: null,
  };
}

function policyNotes(procs: ProcView[]): PolicyNote[] {
  return procs.flatMap((p) =>
    p.policy && p.framework
      ? [{ pid: p.pid, framework: p.framework.name, summary: p.policy.summary, remedy: p.policy.remedy }]
      : [],
  );
}

function checksView(words: Words, st: LiveState): PageModel['checks'] {
  const c = st.checks;
  const problems = (c.findings ?? []).filter((f) => f.status !== 'ok' && f.status !== 'skip' && f.severity !== 'info');
  const unknowns = (c.findings ?? []).filter((f) => f.status === 'unknown' || f.status === 'crash');
  const items = [...problems, ...unknowns.filter((f) => !problems.includes(f))]
    .map(
      (f): FindingItem => ({
        mark:
          f.status === 'unknown' || f.status === 'crash'
            ? 'unknown'
            : f.severity === 'error' && f.status === 'fail'
              ? 'fail'
              : 'warn',
        check: f.check,
        message: f.message,
        ...(f.fix ? { fixText: f.fix.text } : {}),
        commands: [...(f.fix?.commands ?? [])],
        manual: [...(f.fix?.manual ?? [])],
      }),
    )
    .sort((a, b) => rank(b.mark) - rank(a.mark));
  let note: string | undefined;
  if (c.findings === null)
    note = c.runningSince !== null ? words.t('serve.checksRunning') : (c.error ?? words.t('serve.checksNotRun'));
  else if (c.runningSince !== null && st.now - c.runningSince > Math.max(60_000, st.hangAfterMs * 4))
    note = words.t('serve.checksLong', { running: secs(words, st.now - c.runningSince), clock: clock(c.at ?? st.now) });
  else if (c.error) note = c.error;
  return {
    at: c.at,
    everyMs: c.everyMs,
    count: new Set((c.findings ?? []).map((f) => f.check)).size,
    items,
    ...(note ? { note } : {}),
  };
}

function rank(m: FindingItem['mark']): number {
  return m === 'fail' ? 3 : m === 'warn' ? 2 : 1;
}

export function secs(words: Words, ms: number): string {
  if (ms > 0 && ms < 1000) return unit(words, (ms / 1000).toFixed(1), 's');
  return agoText(words, ms);
}

/** a duration in the output's language: "7 min", "7 分钟" (Chinese writes its units as words) */
export function agoText(words: Words, ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return unit(words, String(s), 's');
  const m = Math.floor(s / 60);
  if (m < 120) return unit(words, String(m), 'min');
  return `${unit(words, String(Math.floor(m / 60)), 'h')} ${unit(words, String(m % 60), 'min')}`;
}

/** the units agoText uses, for the page's script: "s|min|h" */
export function timeUnits(words: Words): string {
  return words.lang === 'zh' ? '秒|分钟|小时' : 's|min|h';
}

function unit(words: Words, n: string, u: 's' | 'min' | 'h'): string {
  if (words.lang === 'zh') return `${n} ${u === 's' ? '秒' : u === 'min' ? '分钟' : '小时'}`;
  return `${n} ${u}`;
}

/** "14:03:07 UTC": the server's clock, said as UTC so readers in other zones are not misled. */
export function clock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)} UTC`;
}

/** The verdict word in the chosen language (the model keeps the English one: it is the page's data id too). */
export function verdictWord(words: Words, v: string): string {
  return VERDICTS.has(v) ? words.t(`verdict.${v as Verdict}`) : v;
}
const VERDICTS: ReadonlySet<string> = new Set([
  'this job',
  'active',
  'idle',
  'orphaned',
  'stopped',
  'zombie',
  'other user',
  'invisible',
  'unknown',
]);

export { fmtMiB };
