// The fix plan: what `fix` would do about the current findings and the GPU processes' verdicts.
// Pure: the live facts it needs (each candidate's identity and CPU use now) are read beforehand and passed in.
//
// Three kinds of item: processes to end (stale GPU holders, after checks that make it safe), environment
// settings to write to a file the user sources, and everything else printed for the user to run or judge
// (package installs, driver changes, the clean rebuild). Nothing in the last group is ever run.
import type { Finding, Severity } from '../finding.js';
import { isProblem } from '../result.js';
import { SUPERVISOR_NAMES } from '../procs/adoption.js';
import { assess, isStale, protectionOf, type Assessment, type Verdict } from '../procs/verdict.js';
import type { HolderProcess, ProcState, Snapshot } from '../../gather/snapshot/schema.js';
import { dedupe } from './env-file.js';
import { isAbsorbedCommand, settingsFor, type EnvSetting } from './env-settings.js';
import type { LiveIdentity } from '../../gather/procfs/identity.js';
import type { GpuWork } from '../../gather/nvidia/gpu-activity.js';
import { needsRebuild, rebuildPlan, type RebuildPlan } from './rebuild.js';
import { t } from '../../base/i18n/index.js';
import { eitherOf, regexOf } from '../../base/regex.js';

/** A process using more than this share of one CPU since the snapshot is working, whatever its parent: not ended. */
export const BUSY_CPU_SHARE = 0.05;

/** Parents that must never be ended to clear a zombie: shells, terminals, session and service managers. */
const PROTECTED_PARENTS = regexOf([
  '^(',
  eitherOf([
    /bash|sh|dash|zsh|fish|ksh|tcsh|csh/, // shells
    /tmux.*|screen|sshd.*|login|su|sudo/, // terminals and sessions
    /systemd.*|init/, // service managers
    /containerd.*|dockerd|conmon|tini|dumb-init|docker-init|catatonit/, // containers and their init
    /supervisord|runsv|s6-.*/, // supervisors
    /cron|crond|slurmstepd|slurmd/, // schedulers
    /jupyter.*|code|node/, // notebooks and editors
  ]),
  ')$',
]);

export interface LiveSample {
  identity: LiveIdentity | null;
  /** CPU used since the snapshot, as a share of one CPU; null when unknown */
  cpuShare: number | null;
  /** its output file (fd 1/2) changed during the window; null: it has none, or it was not read */
  outputWritten?: boolean | null;
  /** what the GPU readings of the window say about it; absent: not read */
  gpu?: GpuWork;
}

/** The window over which the candidates were watched, stated in the plan. */
export interface SampleWindow {
  ms: number;
  /** how GPU activity was read: per process (pmon), per GPU (utilization), or not at all */
  gpu: 'process' | 'gpu' | 'none';
}

export interface EndProcessStep {
  pid: number;
  /** the start time the PID must still have (ms since the epoch) */
  startedAt: number | null;
  uid: number | null;
  user: string | null;
  name: string | null;
  cmdline: string[] | null;
  /** state at planning time: a stopped process needs SIGCONT to act on SIGTERM */
  state: ProcState | null;
  /** the GPU holder's verdict (for a zombie's parent: "zombie") */
  verdict: Verdict;
  why: string;
  /** the technical facts behind why (session, fork), for the JSON */
  evidence?: string;
  usedMiB: number | null;
  gpus: number[];
  /** set when this step ends the parent of zombie PID parentOf */
  parentOf?: number;
  /** why it will not be done; absent: it will */
  blocked?: string;
}

export interface ManualItem {
  check: string;
  severity: Severity;
  message: string;
  text: string;
  commands: string[];
  manual: string[];
}

/** A GPU holder that fix does not end, and why: shown in the plan so that nothing is left alone silently. */
export interface LeftAlone {
  pid: number;
  name: string | null;
  user: string | null;
  cmdline: string[] | null;
  usedMiB: number | null;
  gpus: number[];
  verdict: Verdict;
  why: string;
  /** the technical facts behind why, for the JSON */
  evidence?: string;
}

export interface Plan {
  processes: EndProcessStep[];
  /** GPU holders (listed by nvidia-smi) that are not candidates: not stale, or protected; with why */
  leftAlone: LeftAlone[];
  /** stale holders that exited between the snapshot and now: nothing to do */
  alreadyGone: { pid: number; why: string }[];
  env: EnvSetting[];
  envConflicts: EnvSetting[];
  envFile: string;
  /** set when the settings will not be written, and why */
  envBlocked: string | null;
  rebuild: RebuildPlan | null;
  manual: ManualItem[];
  /** how the candidates were watched before the plan was made; null: not watched (no candidate, a saved snapshot) */
  window: SampleWindow | null;
  /** problem findings (at warn or above) and which part of the plan answers each */
  coverage: { finding: Finding; by: 'process' | 'env' | 'rebuild' | 'manual'; pids?: number[] }[];
}

export interface PlanInput {
  snapshot: Snapshot;
  findings: readonly Finding[];
  /** live facts per PID (candidates and zombies' parents); see candidatePids */
  live: ReadonlyMap<number, LiveSample>;
  /** true, or why no process may be signalled in this run (a saved snapshot, --root) */
  signalling: true | string;
  force: boolean;
  envFile: string;
  /** gpu-env-doctor's own PID and its ancestors, read live: never signalled, whatever path leads to them */
  ancestors?: ReadonlySet<number>;
  /** why the env file must not be written (UserFiles.privateFileProblem), read before the plan is shown */
  envBlocked?: string | null;
  /** how the live facts were gathered */
  window?: SampleWindow | null;
}

/**
 * GPU holders whose verdict makes them candidates to end: listed by nvidia-smi (they hold memory), stale, not
 * protected.
 */
export function staleHolders(s: Snapshot): { p: HolderProcess; v: Verdict }[] {
  return assessed(s)
    .filter(({ p, a }) => p.listedByNvidiaSmi && isStale(a.verdict) && a.protectedBy === undefined)
    .map(({ p, a }) => ({ p, v: a.verdict }));
}

function assessed(s: Snapshot): { p: HolderProcess; a: Assessment }[] {
  return s.processes.list.map((p) => ({ p, a: assess(p, s.self) }));
}

/** The PIDs whose live facts the plan needs: stale holders, and the parents of zombies. */
export function candidatePids(s: Snapshot): number[] {
  const out = new Set<number>();
  for (const { p, v } of staleHolders(s)) {
    if (v === 'zombie') {
      if (p.ppid !== null && p.ppid > 1) out.add(p.ppid);
    } else out.add(p.pid);
  }
  return [...out];
}

export function buildPlan(input: PlanInput): Plan {
  const { snapshot: s } = input;
  const processes: EndProcessStep[] = [];
  const planned = new Set<number>();
  const alreadyGone: Plan['alreadyGone'] = [];
  const leftAlone: LeftAlone[] = [];
  for (const { p, a } of assessed(s)) {
    if (!p.listedByNvidiaSmi) continue;
    if (!isStale(a.verdict) || a.protectedBy !== undefined) {
      leftAlone.push({
        pid: p.pid,
        name: p.name,
        user: p.user,
        cmdline: p.cmdline,
        usedMiB: p.usedMiB,
        gpus: p.gpus,
        verdict: a.verdict,
        why: a.protectedBy ?? a.reason,
        ...(a.evidence ? { evidence: a.evidence } : {}),
      });
      continue;
    }
    const step = a.verdict === 'zombie' ? zombieParentStep(p, input) : holderStep(p, a, input);
    if (step === 'gone')
      alreadyGone.push({ pid: p.pid, why: t('plan.exitedSince', { pid: p.pid, name: p.name ?? '?' }) });
    else if (planned.has(step.pid))
      continue; // two zombies of one parent
    else {
      planned.add(step.pid);
      processes.push(step);
    }
  }

  const problems = input.findings.filter((f) => isProblem(f, 'warn'));
  const lib = needsRebuild(problems, s);
  const rebuild = lib ? rebuildPlan(lib, problems, s) : null;
  const coverage: Plan['coverage'] = [];
  const settings: EnvSetting[] = [];
  const manual: ManualItem[] = [];
  const answers = processAnswers(processes, s);
  for (const f of problems) {
    if (lib?.includes(f)) {
      coverage.push({ finding: f, by: 'rebuild' });
      continue;
    }
    const pids = answers(f);
    if (pids.length > 0) {
      coverage.push({ finding: f, by: 'process', pids });
      continue;
    }
    const wanted = settingsFor(f);
    if (wanted.length > 0) {
      settings.push(...wanted);
      coverage.push({ finding: f, by: 'env' });
      const rest = (f.fix?.commands ?? []).filter((c) => !isAbsorbedCommand(c));
      if (rest.length > 0 || (f.fix?.manual ?? []).length > 0) manual.push(manualItem(f, rest));
      continue;
    }
    coverage.push({ finding: f, by: 'manual' });
    manual.push(manualItem(f, f.fix?.commands ?? []));
  }
  const { kept, conflicts } = dedupe(settings);
  const envBlocked = kept.length > 0 ? (input.envBlocked ?? null) : null;
  return {
    processes,
    leftAlone,
    alreadyGone,
    env: kept,
    envConflicts: conflicts,
    envFile: input.envFile,
    envBlocked,
    rebuild,
    manual,
    window: input.window ?? null,
    coverage,
  };
}

function manualItem(f: Finding, commands: string[]): ManualItem {
  return {
    check: f.check,
    severity: f.severity,
    message: f.message,
    text: f.fix?.text ?? '',
    commands,
    manual: f.fix?.manual ?? [],
  };
}

/**
 * For each memory finding, the steps that answer it: the one for its PID (or its zombie's parent), when not
 * blocked. Look-ups are prepared once, so planning stays linear in the number of processes.
 */
function processAnswers(steps: readonly EndProcessStep[], s: Snapshot): (f: Finding) => number[] {
  const byTarget = new Map<number, EndProcessStep>();
  for (const st of steps) {
    byTarget.set(st.pid, st);
    if (st.parentOf !== undefined) byTarget.set(st.parentOf, st);
  }
  const ended = new Set(
    steps.filter((st) => !st.blocked).flatMap((st) => [st.pid, ...(st.parentOf !== undefined ? [st.parentOf] : [])]),
  );
  // Per GPU: does every holder other than this job get ended?
  const gpuCleared = new Map<number, boolean>();
  for (const p of s.processes.list) {
    if ((p.usedMiB ?? 0) <= 0 || p.isSelfOrAncestor) continue;
    for (const g of p.gpus) gpuCleared.set(g, (gpuCleared.get(g) ?? true) && ended.has(p.pid));
  }
  return (f) => {
    if (f.rootCause !== 'memory_held_by_other_process' && f.rootCause !== 'gpu_memory_exhausted') return [];
    const pid = f.affects?.pid;
    if (pid === undefined) return [];
    const step = byTarget.get(pid);
    if (!step || step.blocked) return [];
    // The finding names the biggest holder; it is answered only if every holder on that GPU is being ended
    // or is this job (otherwise memory stays taken and the finding stands).
    const gpu = f.affects?.gpu;
    if (gpu !== undefined && f.check !== 'memory.holders' && gpuCleared.get(gpu) === false) return [];
    return [step.pid];
  };
}

function holderStep(p: HolderProcess, a: Assessment, input: PlanInput): EndProcessStep | 'gone' {
  const step: EndProcessStep = {
    pid: p.pid,
    startedAt: p.startedAt,
    uid: p.uid,
    user: p.user,
    name: p.name,
    cmdline: p.cmdline,
    state: p.state,
    verdict: a.verdict,
    why: a.reason,
    ...(a.evidence ? { evidence: a.evidence } : {}),
    usedMiB: p.usedMiB,
    gpus: p.gpus,
  };
  const blocked = blockReason(step, input);
  if (blocked === 'gone') return 'gone';
  return blocked ? { ...step, blocked } : step;
}

function zombieParentStep(z: HolderProcess, input: PlanInput): EndProcessStep | 'gone' {
  const ppid = z.ppid;
  const live = ppid !== null ? input.live.get(ppid) : undefined;
  const parent = live?.identity ?? null;
  const step: EndProcessStep = {
    pid: ppid ?? 0,
    startedAt: parent?.startedAt ?? null,
    uid: parent?.uid ?? null,
    user: parent === null || parent.uid === null ? null : parent.uid === z.uid ? z.user : String(parent.uid),
    name: parent?.comm ?? z.parentName,
    cmdline: null,
    state: parent?.state ?? null,
    verdict: 'zombie',
    why: t('plan.zombieParent', { pid: z.pid }),
    usedMiB: z.usedMiB,
    gpus: z.gpus,
    parentOf: z.pid,
  };
  if (ppid === null || ppid <= 1) return { ...step, blocked: t('fixr.parentInit') };
  if (z.orphaned) return { ...step, blocked: t('fixr.adopted', { parent: `${z.parentName ?? ppid}` }) };
  if (step.name !== null && (PROTECTED_PARENTS.test(step.name) || SUPERVISOR_NAMES.test(step.name))) {
    return { ...step, blocked: t('fixr.parentShell', { name: `${step.name}`, ppid }) };
  }
  // nvidia-smi reports the host's PIDs; when some of its PIDs are not this namespace's, this one may not be either,
  // and its "parent" would be an unrelated process.
  const foreign = input.snapshot.processes.list.find(
    (q) => q.listedByNvidiaSmi && (q.gpuNotOpenHere || !q.visible || q.nvidiaSmiPid !== undefined),
  );
  if (foreign)
    return { ...step, blocked: t('fixr.foreignNs', { pid: foreign.nvidiaSmiPid ?? foreign.pid, zombie: z.pid }) };
  const blocked = blockReason(step, input);
  if (blocked === 'gone') return { ...step, blocked: t('fixr.parentGone', { ppid }) };
  return blocked ? { ...step, blocked } : step;
}

/** Why a step must not be done; 'gone' when the process has exited since the snapshot; null: safe. */
function blockReason(step: EndProcessStep, input: PlanInput): string | 'gone' | null {
  const self = input.snapshot.self;
  if (input.signalling !== true) return input.signalling;
  const guard = neverSignal(step.pid, input.ancestors, input.live.get(step.pid)?.identity ?? null);
  if (guard) return guard;
  if (step.startedAt === null) return t('fixr.noStart');
  const live = input.live.get(step.pid);
  if (!live) return t('fixr.notRead');
  const now = live.identity;
  if (now === null || now.startedAt !== step.startedAt) return 'gone';
  if (step.parentOf === undefined && (now.state === 'zombie' || now.state === 'dead')) return 'gone';
  const uid = now.uid ?? step.uid;
  if (uid === null || self.uid === null) return t('fixr.ownerUnknown');
  if (uid !== self.uid) {
    const owner = step.user ?? String(uid);
    if (self.uid !== 0) return t('fixr.otherUserRoot', { owner });
    if (!input.force) return t('fixr.otherUserForce', { owner });
  }
  const stopped = now.state === 'stopped' || now.state === 'tracing-stop';
  if (live.cpuShare === null && !stopped) return t('fixr.cpuUnknown');
  if (live.cpuShare !== null && live.cpuShare > BUSY_CPU_SHARE) {
    return t('fixr.working', { pct: Math.round(live.cpuShare * 100), pid: step.pid });
  }
  // A stopped process cannot work: what its GPU or its log show comes from elsewhere.
  if (stopped || step.parentOf !== undefined) return null;
  if (live.gpu?.kind === 'busy')
    return t(live.gpu.how === 'process' ? 'fixr.gpuWorking' : 'fixr.gpuBusyAlone', {
      pct: live.gpu.pct,
      pid: step.pid,
    });
  if (live.gpu?.kind === 'shared') return t('fixr.gpuShared', { pct: live.gpu.pct, pid: step.pid });
  if (live.outputWritten === true) return t('fixr.wrote', { pid: step.pid });
  return null;
}

/**
 * The processes fix never signals, whatever the plan says: itself and its ancestors, PID 1, kernel threads.
 * Checked at planning time and again right before each signal (apply.ts), on live facts.
 */
export function neverSignal(
  pid: number,
  ancestors: ReadonlySet<number> | undefined,
  now: { kernelThread?: boolean } | null,
): string | null {
  if (ancestors?.has(pid)) return t('fixr.self');
  return protectionOf({
    pid,
    isSelfOrAncestor: false,
    kernelThread: now?.kernelThread ?? false,
    gpuNotOpenHere: false,
    name: null,
  });
}
