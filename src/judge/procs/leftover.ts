// Once the process that started it has exited (adoption.ts), is a process a leftover? "Its parent exited" only
// says that the launching shell is gone: people start servers and training runs with nohup, setsid, a daemon's
// double fork or tmux exactly so that they outlive it. A leftover is what nobody is served by: nothing shows
// work or service (a listening socket, a connection, output written lately), and it did not detach on purpose.
// Parts of a job whose main process died (multiprocessing children, DataLoader workers, a Jupyter kernel whose
// server is gone) served only that process: their detachment and their listening sockets say nothing.
// Pure: facts from probes/procfs in, words out.
import type { HolderProcess } from '../../gather/snapshot/schema.js';
import { t } from '../../base/i18n/index.js';
import { eitherOf, regexOf } from '../../base/regex.js';

/** Output written to its log within this long before the snapshot counts as work. */
export const RECENT_OUTPUT_S = 60;

export type JobPart = 'multiprocessing' | 'jupyter';

type Facts = Pick<
  HolderProcess,
  | 'pid'
  | 'pgid'
  | 'sid'
  | 'ttyNr'
  | 'cmdline'
  | 'sigHupIgnored'
  | 'cwdIsRoot'
  | 'stdio'
  | 'outputWrittenAt'
  | 'listening'
  | 'connections'
  | 'ancestors'
  | 'sessionLeaderAlive'
  | 'startedAt'
  | 'ageSeconds'
>;

/** the command line of a multiprocessing worker (fork server, spawn) or of loky's (joblib's) */
const MULTIPROCESSING_WORKER = regexOf([
  eitherOf([
    /--multiprocessing-fork|from multiprocessing\.(spawn|forkserver) import/,
    /loky\.backend\.popen_loky|joblib\.externals\.loky/,
  ]),
]);

/** A worker of a Python job (multiprocessing spawn/forkserver, loky) or a Jupyter kernel: it serves one parent. */
export function jobPartOf(p: Pick<HolderProcess, 'cmdline'>): JobPart | null {
  const cmd = (p.cmdline ?? []).join(' ');
  if (MULTIPROCESSING_WORKER.test(cmd)) return 'multiprocessing';
  if (/\bipykernel_launcher\b|\bipykernel\.kernelapp\b|-m ipykernel\b/.test(cmd)) return 'jupyter';
  return null;
}

/** multiprocessing's resource sharer listens under its own temp folder, only for its parent's requests. */
const MP_LISTENER = /^unix \/.*\/pymp-[^/]+\/listener-/;

/** The CUDA driver's own socket for handing over UVM file descriptors: every CUDA process listens on one
 *  ("unix @cuda-uvmfd-<namespace>-<pid>@", seen on every holder on a real GPU), so it shows no one is served. */
const CUDA_DRIVER_LISTENER = /^unix @cuda-uvmfd-/;

/** Signs that it works or serves someone, in words; empty when none. */
export function workSigns(p: Facts, part: JobPart | null): string[] {
  const out: string[] = [];
  // A kernel's ports and a worker's sharer serve only the process that is gone; a connection is someone else.
  const listening = part
    ? []
    : (p.listening ?? []).filter((a) => !MP_LISTENER.test(a) && !CUDA_DRIVER_LISTENER.test(a));
  if (listening.length > 0) out.push(t('reason.listens', { addresses: listening.slice(0, 3).join(', ') }));
  if ((p.connections ?? 0) > 0) out.push(t('reason.connections', { n: p.connections ?? 0 }));
  const ago = outputAgeSeconds(p);
  if (ago !== null && ago <= RECENT_OUTPUT_S) out.push(t('reason.wroteOutput', { s: ago }));
  return out;
}

/** Seconds between the last write to its output file and the snapshot; null: no output file. */
export function outputAgeSeconds(
  p: Pick<HolderProcess, 'outputWrittenAt' | 'startedAt' | 'ageSeconds'>,
): number | null {
  if (p.outputWrittenAt === null || p.outputWrittenAt === undefined || p.startedAt === null || p.ageSeconds === null)
    return null;
  const snapshotAt = p.startedAt + p.ageSeconds * 1000;
  return Math.max(0, Math.round((snapshotAt - p.outputWrittenAt) / 1000));
}

/** How it detached from its terminal on purpose, in words; null when nothing shows it did. */
export function detachedHow(p: Facts): string | null {
  if (p.sigHupIgnored === true) return t('reason.byNohup');
  if (p.sid !== null && p.sid !== undefined && p.sid === p.pid) return t('reason.bySetsid');
  if (p.pgid !== null && p.pgid !== undefined && p.pgid === p.pid) return t('reason.byGroup');
  const mux = (p.ancestors ?? []).find((a) => /^(tmux|screen|SCREEN)\b/.test(a.name));
  if (mux) return t('reason.byMux', { name: mux.name, pid: mux.pid });
  // daemon(3) and the classic double fork: no terminal, working folder /, nothing to read, the session's
  // first process gone (it existed only to start this one).
  const stdin = p.stdio?.[0];
  if (
    p.cwdIsRoot === true &&
    p.sessionLeaderAlive === false &&
    (p.ttyNr ?? 0) === 0 &&
    (stdin === 'null' || stdin === 'closed')
  )
    return t('reason.byDaemon');
  // A session whose first process is gone, with no terminal: `job &` and then logging out, `setsid sh -c 'job &'`,
  // a double fork that keeps its folder. Each outlives its shell on purpose as often as by accident, so it is no
  // evidence of a finished job (a crashed job's own workers are judged as parts of it, above).
  if (p.sessionLeaderAlive === false && (p.ttyNr ?? 0) === 0) return t('reason.byLostSession');
  return null;
}

export type LeftoverJudgement =
  | { kind: 'working'; signs: string[] }
  | { kind: 'detached'; how: string }
  | { kind: 'leftover'; part: JobPart | null };

/** For a process whose starter has exited: working, detached on purpose, or a leftover. */
export function judgeAdopted(p: Facts): LeftoverJudgement {
  const part = jobPartOf(p);
  const signs = workSigns(p, part);
  if (signs.length > 0) return { kind: 'working', signs };
  const how = part ? null : detachedHow(p);
  if (how) return { kind: 'detached', how };
  return { kind: 'leftover', part };
}
