// The long-lived child port, for `run -- CMD` and the memory sampler. (The runner port is for short probes:
// it buffers everything and kills at a timeout; a training job needs neither.) argv in, never a shell.
//
// Pass-through trade-off, chosen per stream:
// - stdin is always inherited: the job reads our terminal or pipe directly, exactly as without us.
// - stdout is inherited when it is a terminal (colours, progress bars and isatty() stay as they are; we keep
//   no tail of it), and piped and forwarded byte for byte otherwise (the job would not see a terminal anyway).
// - stderr is piped and forwarded, because that is where tracebacks and framework errors go and `run`
//   exists to read them. The price: the job sees isatty(2) false, so libraries that colour only on a
//   terminal (Python's rich/colorlog, some C++ loggers) print stderr without colour. tqdm's bars still work
//   (they do not require a terminal). `--no-capture` inherits stderr too, for jobs where that matters.
// The child stays in our process group, so the terminal's job control and Ctrl-C reach it as before.
// Forwarding honours back-pressure (a slow reader slows the job, as it would without us), and a reader that
// goes away closes the job's pipe too (it meets SIGPIPE as it would without us).
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';

export type ChildExit =
  | { kind: 'exited'; code: number }
  | { kind: 'signaled'; signal: NodeJS.Signals; signalNumber: number }
  | { kind: 'spawn-failed'; reason: 'not-found' | 'permission' | 'other'; message: string };

export interface ChildHandle {
  readonly pid: number | undefined;
  /** when the program itself has ended (not when its pipes close: a background process may keep them) */
  readonly exited: Promise<ChildExit>;
  /** true when the signal was delivered */
  kill(signal: NodeJS.Signals): boolean;
  /**
   * After the exit: read what is left in the pipes for at most `ms`, then let go of them (a background process
   * the job started, e.g. with nohup, may hold them for as long as it lives). Resolves when done.
   */
  drain(ms: number): Promise<void>;
  /** true once the reader of our stdout (or stderr) went away (EPIPE): the job was cut off from it */
  readonly readerGone: boolean;
}

export interface PassThroughOptions {
  /** 'pipe' forwards the bytes to our own stream and hands them to onData too */
  stdout: 'inherit' | 'pipe';
  stderr: 'inherit' | 'pipe';
  onData?(stream: 'stdout' | 'stderr', chunk: Buffer): void;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

export function startPassThrough(argv: readonly string[], o: PassThroughOptions): ChildHandle {
  const [command, ...args] = argv;
  if (command === undefined) throw new Error('startPassThrough: empty argv');
  let child;
  try {
    child = spawn(command, args, {
      shell: false,
      stdio: ['inherit', o.stdout, o.stderr],
      env: o.env ? cleanEnv(o.env) : process.env,
      cwd: o.cwd,
    });
  } catch (err) {
    return failedHandle(spawnFailure(command, err));
  }
  let readerGone = false;
  const detach: (() => void)[] = [];
  const forward = (
    stream: 'stdout' | 'stderr',
    source: (NodeJS.ReadableStream & { destroy(): void }) | null,
    target: NodeJS.WriteStream,
  ) => {
    if (!source) return;
    let cut = false;
    // The reader of our stream went away (`run … | head`): stop writing. Without us the job would meet
    // SIGPIPE (or EPIPE where it ignores SIGPIPE, as Python does) at its next write; so at its next write we
    // send it SIGPIPE and close its pipe. (Node gives the job a socket, not a pipe: closed with unread data
    // in it, the job's write fails with ECONNRESET rather than EPIPE.)
    const onError = (err: NodeJS.ErrnoException) => {
      if (cut) return;
      cut = true;
      if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') readerGone = true;
      source.resume(); // it may be paused waiting for a 'drain' that will not come
    };
    target.on('error', onError);
    detach.push(() => target.off('error', onError));
    let piped = false;
    source.on('data', (chunk: Buffer) => {
      o.onData?.(stream, chunk);
      if (cut) {
        if (!piped) {
          piped = true;
          try {
            child.kill('SIGPIPE');
          } catch {
            /* gone */
          }
          source.destroy();
        }
        return;
      }
      // Back-pressure: while our stream is full, stop reading the job's pipe, so the job waits on its writes
      // as it would on a slow reader without us (instead of us holding gigabytes for it).
      if (!target.write(chunk)) {
        source.pause();
        target.once('drain', () => source.resume());
      }
    });
  };
  forward('stdout', child.stdout, process.stdout);
  forward('stderr', child.stderr, process.stderr);
  const exited = new Promise<ChildExit>((resolve) => {
    let done = false;
    const finish = (e: ChildExit) => {
      if (!done) {
        done = true;
        resolve(e);
      }
    };
    child.on('error', (err) => finish(spawnFailure(command, err)));
    // 'exit', not 'close': 'close' waits for every holder of the pipes, which a background process may be.
    child.on('exit', (code, signal) => {
      if (signal) finish({ kind: 'signaled', signal, signalNumber: signalNumber(signal) });
      else finish({ kind: 'exited', code: code ?? 1 });
    });
  });
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return {
    get pid() {
      return child.pid;
    },
    exited,
    get readerGone() {
      return readerGone;
    },
    kill(signal) {
      try {
        return child.kill(signal);
      } catch {
        return false;
      }
    },
    async drain(ms) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([closed, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
      clearTimeout(timer);
      // Let go of the pipes: a process still holding them no longer keeps us (or our report) waiting.
      child.stdout?.destroy();
      child.stderr?.destroy();
      for (const d of detach) d();
    },
  };
}

/** A long-lived helper (nvidia-smi -lms) whose stdout we read line by line. stdin closed, stderr dropped. */
export interface LineStream {
  readonly exited: Promise<ChildExit>;
  /** SIGTERM; with `force`, SIGKILL and let go of it (its pipe and handle no longer keep us alive) */
  stop(force?: boolean): void;
}

export function streamLines(command: string, args: readonly string[], onLine: (line: string) => void): LineStream {
  let child;
  try {
    // Its own process group: a wrapper script's children (a sleep in a loop) are stopped with it.
    child = spawn(command, [...args], { shell: false, stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  } catch (err) {
    const f = failedHandle(spawnFailure(command, err));
    return { exited: f.exited, stop: () => undefined };
  }
  const decoder = new StringDecoder('utf8');
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = partial + decoder.write(chunk);
    const parts = text.split('\n');
    partial = (parts.pop() ?? '').slice(-4096);
    for (const p of parts) onLine(p);
  });
  const exited = new Promise<ChildExit>((resolve) => {
    let done = false;
    child.on('error', (err) => {
      if (!done) (done = true), resolve(spawnFailure(command, err));
    });
    child.on('close', (code, signal) => {
      if (done) return;
      done = true;
      resolve(
        signal ? { kind: 'signaled', signal, signalNumber: signalNumber(signal) } : { kind: 'exited', code: code ?? 1 },
      );
    });
  });
  return {
    exited,
    stop(force = false) {
      const sig = force ? 'SIGKILL' : 'SIGTERM';
      try {
        if (child.pid) process.kill(-child.pid, sig);
      } catch {
        try {
          child.kill(sig);
        } catch {
          /* already gone */
        }
      }
      if (force) {
        child.stdout?.destroy();
        child.unref();
      }
    },
  };
}

/** Installs handlers for signals sent to us; returns the function that removes them. */
export function onSignals(signals: readonly NodeJS.Signals[], handler: (s: NodeJS.Signals) => void): () => void {
  const installed = signals.map((s) => {
    const h = () => handler(s);
    process.on(s, h);
    return [s, h] as const;
  });
  return () => {
    for (const [s, h] of installed) process.off(s, h);
  };
}

export function signalNumber(signal: NodeJS.Signals): number {
  const n = (SIGNAL_NUMBERS as Record<string, number | undefined>)[signal];
  return n ?? 0;
}

// os.constants.signals without importing node:os here; Linux numbering (the tool targets Linux GPU hosts).
const SIGNAL_NUMBERS = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGILL: 4,
  SIGTRAP: 5,
  SIGABRT: 6,
  SIGBUS: 7,
  SIGFPE: 8,
  SIGKILL: 9,
  SIGUSR1: 10,
  SIGSEGV: 11,
  SIGUSR2: 12,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
  SIGSTKFLT: 16,
  SIGCHLD: 17,
  SIGCONT: 18,
  SIGSTOP: 19,
  SIGTSTP: 20,
  SIGTTIN: 21,
  SIGTTOU: 22,
  SIGURG: 23,
  SIGXCPU: 24,
  SIGXFSZ: 25,
  SIGVTALRM: 26,
  SIGPROF: 27,
  SIGWINCH: 28,
  SIGIO: 29,
  SIGPWR: 30,
  SIGSYS: 31,
} as const;

function spawnFailure(command: string, err: unknown): ChildExit {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { kind: 'spawn-failed', reason: 'not-found', message: `${command}: command not found` };
  if (code === 'EACCES')
    return { kind: 'spawn-failed', reason: 'permission', message: `${command}: permission denied` };
  return { kind: 'spawn-failed', reason: 'other', message: `${command}: ${(err as Error).message ?? String(err)}` };
}

function failedHandle(e: ChildExit): ChildHandle {
  return {
    pid: undefined,
    exited: Promise.resolve(e),
    kill: () => false,
    drain: () => Promise.resolve(),
    readerGone: false,
  };
}

function cleanEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
}
