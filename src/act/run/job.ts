// Runs the wrapped command: pass-through I/O, signals forwarded, the output's tail kept, GPU memory sampled,
// and a snapshot of the machine taken the moment the job shows it is failing (an out-of-memory line) or,
// at the latest, right after it exits non-zero. Returns everything the report needs; renders nothing.
import { onSignals, startPassThrough, type ChildExit, type ChildHandle } from '../../ports/child.js';
import { readTextOr, type FileSystem } from '../../ports/fs.js';
import { parseProcStat } from '../../gather/procfs/parse.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';
import type { MemoryTimeline } from '../../gather/nvidia/memory-timeline.js';
import { secondsSinceBoot, withJobWindow } from './job-window.js';
import { descendantTest } from './process-tree.js';
import { startSampler } from './sampler.js';
import { OutputTail, type TailLine } from './tail.js';
import { eitherOf, regexOf } from '../../base/regex.js';

export interface JobOptions {
  argv: string[];
  fs: FileSystem;
  env: Record<string, string | undefined>;
  cwd: string;
  intervalMs: number;
  tailLines: number;
  /** inherit stderr too (no tail of it): for jobs that must see a terminal on stderr */
  noCapture: boolean;
  /** is our stdout a terminal? then the job writes to it directly */
  stdoutIsTTY: boolean;
  /** any of our streams is a terminal: Ctrl-C already reaches the job through the terminal */
  attachedToTerminal: boolean;
  /** the snapshot of the machine now (called at most once) */
  snapshot(): Promise<Snapshot>;
  /** the sampler's program (tests point it elsewhere) */
  nvidiaSmi?: string;
}

export interface JobResult {
  exit: ChildExit;
  exitCode: number;
  exitText: string;
  failed: boolean;
  durationMs: number;
  timeline: MemoryTimeline;
  tail: TailLine[];
  totalLines: number;
  droppedLines: number;
  jobPids: number[];
  /** taken when the job failed; null when it succeeded (or could not be taken) */
  snapshot: Snapshot | null;
  snapshotError?: string;
  /** what triggered the snapshot: the line that looked like a failure, or the exit */
  snapshotTrigger?: string;
}

/** After the job exits, how long to read what is left in its pipes before letting go of them (M8). */
export const PIPE_DRAIN_MS = 1000;

/**
 * A line that means the job is about to fail for lack of GPU memory: take the snapshot now, while it still holds its
 * share.
 */
const FAILING = regexOf(
  [
    eitherOf([
      /out of memory|OutOfMemoryError/, // PyTorch's words, and any framework's
      /RESOURCE_EXHAUSTED/, // TensorFlow / XLA
      /CUDA_ERROR_OUT_OF_MEMORY|cudaErrorMemoryAllocation|CUBLAS_STATUS_ALLOC_FAILED/, // CUDA's driver, runtime, cuBLAS
    ]),
  ],
  'i',
);

export async function runJob(o: JobOptions): Promise<JobResult> {
  const t0 = performance.now();
  const bootStart = secondsSinceBoot(o.fs, Date.now());
  const elapsed = () => Math.round(performance.now() - t0);
  const tail = new OutputTail({ maxLines: o.tailLines });
  let early: Promise<Snapshot | Error> | null = null;
  let trigger: string | undefined;
  const takeSnapshot = () => o.snapshot().catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
  tail.onLine((l) => {
    if (early === null && FAILING.test(l.text)) {
      trigger = `line ${l.n}: ${l.text.slice(0, 200)}`;
      early = takeSnapshot();
    }
  });

  // Signals sent to us go to the job. Ctrl-C (SIGINT) and Ctrl-\ (SIGQUIT) typed on our terminal already
  // reach the job, which shares our process group: forwarding them again would interrupt its cleanup (Python
  // raises KeyboardInterrupt a second time). So those two are forwarded unless the terminal could have sent
  // them: only a terminal that is our controlling one, with our process group in its foreground, can. A
  // SIGINT sent with kill(1) to a run that merely writes to a terminal (no controlling terminal, or in the
  // background) is forwarded. (One case stays ambiguous: kill -INT to a run in the foreground of its own
  // terminal is taken for Ctrl-C, which already reached the job.)
  // Installed before the job starts: a Ctrl-C right after its first output must not end us instead.
  let child: ChildHandle | undefined;
  const pending: NodeJS.Signals[] = [];
  const send = (s: NodeJS.Signals) => (child ? void child.kill(s) : void pending.push(s));
  const offForward = onSignals(['SIGTERM', 'SIGHUP', 'SIGUSR1', 'SIGUSR2'], send);
  const offInterrupt = onSignals(['SIGINT', 'SIGQUIT'], (s) => {
    if (!o.attachedToTerminal || !terminalDeliversToUs(o.fs)) send(s);
  });

  child = startPassThrough(o.argv, {
    stdout: o.stdoutIsTTY ? 'inherit' : 'pipe',
    stderr: o.noCapture ? 'inherit' : 'pipe',
    onData: (stream, chunk) => tail.push(stream, chunk),
    env: o.env,
    cwd: o.cwd,
  });
  const job = child;
  for (const s of pending) job.kill(s);
  const isJob = descendantTest(o.fs, () => job.pid);
  const sampler = startSampler({
    intervalMs: o.intervalMs,
    elapsed,
    isJob,
    ...(o.nvidiaSmi ? { command: o.nvidiaSmi } : {}),
  });
  let exit: ChildExit;
  try {
    exit = await job.exited;
  } finally {
    offForward();
    offInterrupt();
  }
  const durationMs = elapsed();
  // The job has exited; a background process it started may still hold its pipes: take what is there, then let go.
  await job.drain(PIPE_DRAIN_MS);
  tail.end();
  // Killed by SIGPIPE because the reader of our output went away (`run -- yes | head`): the job ended as it would
  // have without us, not a failure to explain.
  const cutOff = job.readerGone && exit.kind === 'signaled' && exit.signal === 'SIGPIPE';
  const failed = (exit.kind !== 'exited' || exit.code !== 0) && !cutOff;
  const timeline = await sampler.stop(failed && exit.kind !== 'spawn-failed' ? durationMs : undefined);

  let snapshot: Snapshot | null = null;
  let snapshotError: string | undefined;
  if (failed && exit.kind !== 'spawn-failed') {
    const got = await (early ?? ((trigger = 'the exit'), takeSnapshot()));
    if (got instanceof Error) snapshotError = got.message;
    else snapshot = withJobWindow(got, bootStart, durationMs);
  }
  const jobPids = [
    ...new Set([
      ...(job.pid !== undefined ? [job.pid] : []),
      ...timeline.processes.filter((p) => p.isJob).map((p) => p.pid),
    ]),
  ];
  return {
    exit,
    exitCode: exitCodeOf(exit),
    exitText: exitTextOf(exit),
    failed,
    durationMs,
    timeline,
    tail: tail.lines(),
    totalLines: tail.totalLines,
    droppedLines: tail.droppedLines,
    jobPids,
    snapshot,
    ...(snapshotError !== undefined ? { snapshotError } : {}),
    ...(trigger !== undefined && failed ? { snapshotTrigger: trigger } : {}),
  };
}

/** Could a Ctrl-C typed on a terminal have reached us? Our controlling terminal's foreground group is ours. */
function terminalDeliversToUs(fs: FileSystem): boolean {
  const st = parseProcStat(readTextOr(fs, '/proc/self/stat') ?? '');
  if (!st) return true; // cannot tell: keep the old, safe behaviour (the job got it from the terminal)
  return st.ttyNr !== 0 && st.tpgid === st.pgid;
}

/** The exit code `run` passes on: the job's, 128+N for a signal (as shells do), 127/126 when it could not start. */
export function exitCodeOf(e: ChildExit): number {
  if (e.kind === 'exited') return e.code;
  if (e.kind === 'signaled') return 128 + e.signalNumber;
  return e.reason === 'not-found' ? 127 : 126;
}

export function exitTextOf(e: ChildExit): string {
  if (e.kind === 'exited') return `exit code ${e.code}`;
  if (e.kind === 'signaled') return `killed by ${e.signal}`;
  return e.message;
}
