// The process-runner port. argv in, never a shell; a discriminated union out.
// This file and ./fs.ts are the only modules that touch node:child_process / node:fs for probing.
import { closeSync, fstatSync, mkdtempSync, openSync, readSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as ChildProcess from 'node:child_process';
import { createRequire } from 'node:module';

// node:child_process is loaded on the first run, synchronously (the spawn must happen before the caller's
// synchronous file probes start, so that the program works while they do): commands that run nothing
// (`explain --no-machine`, `diff`, `fleet`) do not load it at all.
const requireBuiltin = createRequire(import.meta.url);
let childProcess: typeof ChildProcess | undefined;
function spawn(...args: Parameters<typeof ChildProcess.spawn>): ReturnType<typeof ChildProcess.spawn> {
  childProcess ??= requireBuiltin('node:child_process') as typeof ChildProcess;
  return childProcess.spawn(...args);
}

export type RunResult =
  | { kind: 'ok'; stdout: string; stderr: string; durationMs: number }
  | { kind: 'not-found'; command: string; durationMs: number }
  | { kind: 'permission'; command: string; durationMs: number }
  | { kind: 'non-zero'; code: number; stdout: string; stderr: string; durationMs: number }
  | { kind: 'timeout'; stdout: string; stderr: string; durationMs: number }
  | { kind: 'signal'; signal: string; stdout: string; stderr: string; durationMs: number };

export interface RunOptions {
  timeoutMs?: number;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Output past this many bytes is dropped (a probe never needs megabytes). */
  maxBytes?: number;
  /** written to stdin, which is then closed; a promise is written when it settles (a go-ahead for a child that
   *  prepared itself and waits: the native cuDNN smoke test loads its libraries while the other probes run) */
  input?: string | Promise<string>;
  /**
   * Run in a new empty folder only we can write (removed afterwards), instead of the current one: for
   * interpreters that import from their working directory before anything else runs (`python -c` puts it
   * first on sys.path, so a json.py there would run as the caller). Ignored when `cwd` is given.
   */
  isolatedCwd?: boolean;
  /**
   * Standard output into a private unlinked file, read when the program exits, instead of a socket: a program
   * that writes its answer in many small writes (nvidia-smi -q -x) blocks on a socket whose buffer fills, until our
   * event loop reads it, which our own synchronous work delays. A program writing past maxBytes is ended there
   * (its answer is what it wrote up to the limit). Falls back to the socket where no temporary file can be made.
   */
  stdoutToFile?: boolean;
}

export interface ProcessRunner {
  run(command: string, args: readonly string[], options?: RunOptions): Promise<RunResult>;
}

export const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/**
 * After the program itself has exited, how long to wait for its output pipes to close. A descendant that left
 * the process group (setsid) may keep them open for as long as it lives; the program's answer is complete
 * when it exits, so we take what came and let go of the pipes.
 */
export const PIPE_DRAIN_MS = 300;

/** The process groups of the children the real runner started and has not yet seen end. */
const inFlight = new Set<number>();

/**
 * Ends every child still running (its whole process group), for a long-lived command that stops: a hung
 * nvidia-smi or a wrapper script's sleep would otherwise outlive us, adopted by init. Returns how many.
 */
export function endChildrenInFlight(): number {
  const n = inFlight.size;
  for (const pid of inFlight) killGroup(pid, 'SIGKILL');
  return n;
}

/**
 * Runs started before the command that reads them was loaded (src/cli/early.ts): each is handed, once, to the first
 * request of the real runner with the same program, arguments and options, as if that request had started it.
 */
interface EarlyRun {
  key: string;
  pid: number | undefined;
  result: Promise<RunResult>;
}
const earlyRuns: EarlyRun[] = [];
/** performance.now() at the spawn of a run handed over: the probe's timing counts from there, not from the hand-over */
const earlyStarts = new WeakMap<Promise<RunResult>, number>();

/** Only plain options can be matched: an input, an environment or a working folder of their own are never early. */
type EarlyOptions = Pick<RunOptions, 'timeoutMs' | 'maxBytes' | 'stdoutToFile'>;
const earlyKey = (command: string, args: readonly string[], o: RunOptions): string | undefined =>
  o.input !== undefined || o.env !== undefined || o.cwd !== undefined || o.isolatedCwd
    ? undefined
    : JSON.stringify([
        command,
        args,
        o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        o.maxBytes ?? DEFAULT_MAX_BYTES,
        !!o.stdoutToFile,
      ]);

/** Starts `command` now, for a later identical realRunner.run to take over (the same spawn, timeout and result). */
export function startEarly(command: string, args: readonly string[], options: EarlyOptions): void {
  const key = earlyKey(command, args, options);
  if (key === undefined) return;
  const startedAt = performance.now();
  const { pid, result } = spawnRun(command, args, options);
  earlyRuns.push({ key, pid, result });
  earlyStarts.set(result, startedAt);
}

/** When the run behind `result` was spawned, if it was started early and handed over; else undefined. */
export function earlyStartOf(result: Promise<RunResult>): number | undefined {
  return earlyStarts.get(result);
}

/**
 * Ends the early runs no request took (a command that stopped before asking, on a refused option): they must not
 * outlive the command, nor hold its exit until their timeout. Returns how many.
 */
export function endEarlyRuns(): number {
  const n = earlyRuns.length;
  for (const r of earlyRuns.splice(0)) if (r.pid !== undefined && inFlight.has(r.pid)) killGroup(r.pid, 'SIGKILL');
  return n;
}

/** The real runner: spawn without a shell, stdin closed, killed (with its process group) at the timeout. */
export const realRunner: ProcessRunner = {
  run(command, args, options = {}) {
    const key = earlyRuns.length > 0 ? earlyKey(command, args, options) : undefined;
    const i = key === undefined ? -1 : earlyRuns.findIndex((r) => r.key === key);
    if (i >= 0) return earlyRuns.splice(i, 1)[0]!.result;
    return spawnRun(command, args, options).result;
  },
};

function spawnRun(
  command: string,
  args: readonly string[],
  options: RunOptions,
): { pid: number | undefined; result: Promise<RunResult> } {
  let spawnedPid: number | undefined;
  const result = run(command, args, options, (pid) => {
    spawnedPid = pid;
  });
  return { pid: spawnedPid, result };
}

/** Spawns at once (the promise's executor runs before this returns) and tells `onSpawn` the child's pid. */
function run(
  command: string,
  args: readonly string[],
  options: RunOptions,
  onSpawn: (pid: number | undefined) => void,
): Promise<RunResult> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let privateDir: string | undefined;
  if (options.isolatedCwd && options.cwd === undefined) {
    try {
      privateDir = mkdtempSync(join(tmpdir(), 'gpu-env-doctor-'));
    } catch {
      privateDir = '/'; // not writable by other users either
    }
  }
  return new Promise<RunResult>((resolve) => {
    const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
    const cleanup = () => {
      if (privateDir && privateDir !== '/') rmSync(privateDir, { recursive: true, force: true });
    };
    const outFile = options.stdoutToFile ? openPrivateFile() : undefined;
    const closeOutFile = () => {
      if (outFile !== undefined) closeSync(outFile);
    };
    let child;
    try {
      child = spawn(command, [...args], {
        shell: false,
        stdio: [options.input === undefined ? 'ignore' : 'pipe', outFile ?? 'pipe', 'pipe'],
        env: options.env
          ? (Object.fromEntries(Object.entries(options.env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv)
          : process.env,
        cwd: options.cwd ?? privateDir,
        detached: true, // own process group, so a timeout kills the children too
      });
    } catch (err) {
      cleanup();
      closeOutFile();
      const code = (err as NodeJS.ErrnoException).code;
      resolve(
        code === 'EACCES'
          ? { kind: 'permission', command, durationMs: elapsed() }
          : { kind: 'not-found', command, durationMs: elapsed() },
      );
      return;
    }
    const pid = child.pid;
    if (pid !== undefined) inFlight.add(pid);
    onSpawn(pid);
    const out: Buffer[] = [];
    const errb: Buffer[] = [];
    let outLen = 0;
    let errLen = 0;
    let timedOut = false;
    let settled = false;
    // Keep at most maxBytes of each stream: the rest is counted and dropped.
    const keep = (into: Buffer[], have: number, d: Buffer) => {
      if (have < maxBytes) into.push(have + d.length > maxBytes ? d.subarray(0, maxBytes - have) : d);
    };
    child.stdout?.on('data', (d: Buffer) => {
      keep(out, outLen, d);
      outLen += d.length;
    });
    child.stderr?.on('data', (d: Buffer) => {
      keep(errb, errLen, d);
      errLen += d.length;
    });
    if (options.input !== undefined && child.stdin) {
      const stdin = child.stdin;
      stdin.on('error', () => undefined);
      if (typeof options.input === 'string') stdin.end(options.input);
      else
        options.input.then(
          (s) => stdin.end(s),
          () => stdin.end(),
        );
    }
    let drainTimer: ReturnType<typeof setTimeout> | undefined;
    let sizeWatch: ReturnType<typeof setInterval> | undefined;
    let overLimit = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, 'SIGKILL');
      // The group is gone; a descendant outside it may still hold the pipes: do not wait for it.
      drainTimer ??= setTimeout(() => conclude(null, 'SIGKILL'), PIPE_DRAIN_MS);
    }, timeoutMs);
    // the file has no reader to stop a runaway writer: end the program once it is past what we keep
    if (outFile !== undefined)
      sizeWatch = setInterval(() => {
        if (fileSize(outFile) <= maxBytes) return;
        overLimit = true;
        killGroup(child.pid, 'SIGKILL');
      }, FILE_WATCH_MS);
    const finish = (r: RunResult) => {
      if (settled) return;
      settled = true;
      if (pid !== undefined) inFlight.delete(pid);
      clearTimeout(timer);
      clearTimeout(drainTimer);
      clearInterval(sizeWatch);
      closeOutFile();
      child.stdout?.destroy();
      child.stderr?.destroy();
      cleanup();
      resolve(r);
    };
    const conclude = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      if (outFile !== undefined) keep(out, 0, readHead(outFile, maxBytes));
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(errb).toString('utf8');
      const durationMs = elapsed();
      if (timedOut) finish({ kind: 'timeout', stdout, stderr, durationMs });
      // ended by us past the limit: what it wrote up to there is its answer, as through a socket, which drops
      // the rest and lets the program finish
      else if (overLimit) finish({ kind: 'ok', stdout, stderr, durationMs });
      else if (signal) finish({ kind: 'signal', signal, stdout, stderr, durationMs });
      else if (code === 0) finish({ kind: 'ok', stdout, stderr, durationMs });
      else finish({ kind: 'non-zero', code: code ?? -1, stdout, stderr, durationMs });
    };
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') finish({ kind: 'not-found', command, durationMs: elapsed() });
      else if (err.code === 'EACCES') finish({ kind: 'permission', command, durationMs: elapsed() });
      else finish({ kind: 'non-zero', code: -1, stdout: '', stderr: String(err.message), durationMs: elapsed() });
    });
    // 'exit': the program has ended; 'close' follows once every holder of its pipes has closed them.
    child.on('exit', (code, signal) => {
      drainTimer ??= setTimeout(() => conclude(code, signal), PIPE_DRAIN_MS);
    });
    child.on('close', (code, signal) => conclude(code, signal));
  });
}

const FILE_WATCH_MS = 50;

/** A new file only we can read, already unlinked (nothing to clean up), or undefined where none can be made. */
function openPrivateFile(): number | undefined {
  for (let attempt = 0; attempt < 3; attempt++) {
    const name = join(tmpdir(), `gpu-env-doctor-${process.pid}-${(fileSerial++).toString(36)}-${attempt}.out`);
    try {
      // wx: O_CREAT|O_EXCL, so a file or link planted under that name is never opened or followed
      const fd = openSync(name, 'wx+', 0o600);
      try {
        unlinkSync(name);
      } catch {
        /* left behind in the temp folder: harmless, and still private */
      }
      return fd;
    } catch {
      /* taken or unwritable: try another name, then give up */
    }
  }
  return undefined;
}
let fileSerial = 0;

function fileSize(fd: number): number {
  try {
    return fstatSync(fd).size;
  } catch {
    return 0;
  }
}

/** The first `max` bytes the program wrote to the file. */
function readHead(fd: number, max: number): Buffer {
  const size = Math.min(fileSize(fd), max);
  const buf = Buffer.alloc(size);
  let got = 0;
  try {
    while (got < size) {
      const n = readSync(fd, buf, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
  } catch {
    /* what was read so far */
  }
  return buf.subarray(0, got);
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

/** One line saying why a run did not give output, for "could not collect" results. */
export function describeFailure(command: string, r: Exclude<RunResult, { kind: 'ok' }>): string {
  switch (r.kind) {
    case 'not-found':
      return `${command} not found`;
    case 'permission':
      return `${command}: permission denied`;
    case 'timeout':
      return `${command} did not answer within the time limit`;
    case 'signal':
      return `${command} was killed by ${r.signal}`;
    case 'non-zero': {
      const msg = firstLine(r.stderr) || firstLine(r.stdout);
      return `${command} exited with ${r.code}${msg ? `: ${msg}` : ''}`;
    }
  }
}

function firstLine(s: string): string {
  return (s.split('\n').find((l) => l.trim() !== '') ?? '').trim().slice(0, 300);
}
