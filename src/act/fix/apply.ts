// Carrying out the safe part of a plan: ending processes and writing the env file.
//
// Ending a process: SIGTERM (plus SIGCONT when it is stopped, since a stopped process does not act on
// SIGTERM until resumed), a grace period, then SIGKILL. Before every signal the PID's start time (and owner)
// is read again and must equal the snapshot's, so a PID that the kernel has given to another process in the
// meantime is never hit. Signals go through the Signals port; waiting and the clock are injected.
import { t } from '../../base/i18n/index.js';
import type { UserFiles } from '../../ports/context.js';
import type { FileSystem } from '../../ports/fs.js';
import type { SignalName, Signals } from '../../ports/signals.js';
import { mergeEnvFile } from '../../judge/fix/env-file.js';
import { readIdentity, type LiveIdentity } from '../../gather/procfs/identity.js';
import { neverSignal, type EndProcessStep, type Plan } from '../../judge/fix/plan.js';
import type { EnvFileOutcome, ProcessOutcome } from '../../judge/fix/outcome.js';

export type { EnvFileOutcome, ProcessOutcome } from '../../judge/fix/outcome.js';

export const DEFAULT_GRACE_MS = 5000;
/** After SIGKILL: a process stuck in the driver (D state) can take a moment to release the GPU. */
export const KILL_WAIT_MS = 3000;
const POLL_MS = 100;

export interface ApplyDeps {
  fs: FileSystem;
  signals: Signals;
  sleep(ms: number): Promise<void>;
  now(): number;
  graceMs: number;
  killWaitMs?: number;
  /** gpu-env-doctor and its ancestors, read again before acting: never signalled */
  ancestors?: ReadonlySet<number>;
}

type Check = { kind: 'same'; id: LiveIdentity } | { kind: 'gone' } | { kind: 'other'; id: LiveIdentity };

/** Is the PID still the process the plan was made for? */
function recheck(step: EndProcessStep, fs: FileSystem): Check {
  const id = readIdentity(fs, step.pid);
  if (id === null) return { kind: 'gone' };
  if (
    id.startedAt === null ||
    id.startedAt !== step.startedAt ||
    (step.uid !== null && id.uid !== null && id.uid !== step.uid)
  )
    return { kind: 'other', id };
  if (step.parentOf === undefined && (id.state === 'zombie' || id.state === 'dead')) return { kind: 'gone' };
  return { kind: 'same', id };
}

export async function endProcess(step: EndProcessStep, d: ApplyDeps): Promise<ProcessOutcome> {
  if (step.blocked) return { kind: 'skipped', why: step.blocked };
  const guard = neverSignal(step.pid, d.ancestors, readIdentity(d.fs, step.pid));
  if (guard) return { kind: 'skipped', why: guard };
  if (step.startedAt === null) return { kind: 'skipped', why: t('fixr.noStartTime') };
  const first = recheck(step, d.fs);
  if (first.kind === 'gone') return { kind: 'already-gone' };
  if (first.kind === 'other') {
    return {
      kind: 'refused',
      why: t('fixr.reused', {
        pid: step.pid,
        comm: first.id.comm,
        now: new Date(first.id.startedAt ?? 0).toISOString(),
        then: new Date(step.startedAt).toISOString(),
      }),
    };
  }
  const send = (sig: SignalName): ProcessOutcome | null => {
    const r = d.signals.send(step.pid, sig);
    if (r === 'sent') return null;
    if (r === 'no-such-process') return { kind: 'already-gone' };
    if (r === 'permission') return { kind: 'failed', why: t('fixr.denied', { sig, pid: step.pid }) };
    return { kind: 'failed', why: t('fixr.sigFailed', { sig, pid: step.pid }) };
  };
  const stopped = first.id.state === 'stopped' || first.id.state === 'tracing-stop';

  const term = send('SIGTERM');
  if (term) return term;
  if (stopped) {
    // SIGTERM stays pending while the process is stopped; SIGCONT lets it act on it.
    const again = recheck(step, d.fs);
    if (again.kind !== 'same') return { kind: 'ended', by: 'SIGTERM' };
    const cont = send('SIGCONT');
    if (cont) return cont.kind === 'already-gone' ? { kind: 'ended', by: 'SIGTERM' } : cont;
  }
  if (await waitForEnd(step, d, d.graceMs)) return { kind: 'ended', by: 'SIGTERM' };

  // The grace period is over. Check identity once more: the PID could have been reused during it.
  if (recheck(step, d.fs).kind !== 'same') return { kind: 'ended', by: 'SIGTERM' };
  const kill = send('SIGKILL');
  if (kill) return kill.kind === 'already-gone' ? { kind: 'ended', by: 'SIGTERM' } : kill;
  if (await waitForEnd(step, d, d.killWaitMs ?? KILL_WAIT_MS)) return { kind: 'ended', by: 'SIGKILL' };
  return { kind: 'failed', why: t('fixr.stuck', { pid: step.pid, state: readIdentity(d.fs, step.pid)?.state ?? '?' }) };
}

async function waitForEnd(step: EndProcessStep, d: ApplyDeps, ms: number): Promise<boolean> {
  const deadline = d.now() + ms;
  for (;;) {
    if (recheck(step, d.fs).kind !== 'same') return true;
    if (d.now() >= deadline) return false;
    await d.sleep(Math.min(POLL_MS, Math.max(1, deadline - d.now())));
  }
}

/** The largest env file fix rewrites: its own is a few hundred bytes. */
const MAX_ENV_FILE_BYTES = 1024 * 1024;

/**
 * Writes the plan's settings into the env file, keeping what else is there; no write when nothing changes.
 * The user sources this file, so it is never written through a link, into another user's file or into a
 * folder others can write (UserFiles.writePrivate). Never throws: the processes already ended must still be
 * reported when this fails.
 */
export function writeEnvFile(plan: Plan, files: UserFiles): EnvFileOutcome {
  if (plan.env.length === 0) return { kind: 'none' };
  if (plan.envBlocked) return { kind: 'not-written', path: plan.envFile, why: plan.envBlocked };
  try {
    // No file yet is fine; any other failure to read one throws, so that we never overwrite what we could not read.
    const existing = files.readPrivate(plan.envFile, MAX_ENV_FILE_BYTES) ?? '';
    const content = mergeEnvFile(existing, plan.env, plan.envFile);
    if (content === existing) return { kind: 'unchanged', path: plan.envFile };
    files.writePrivate(plan.envFile, content);
    return { kind: 'written', path: plan.envFile, content };
  } catch (err) {
    return { kind: 'not-written', path: plan.envFile, why: err instanceof Error ? err.message : String(err) };
  }
}
