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
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';

export type ChildExit =
  | { kind: 'exited'; code: number }
  | { kind: 'signaled'; signal: NodeJS.Signals; signalNumber: number }
  | { kind: 'spawn-failed'; reason: 'not-found' | 'permission' | 'other'; message: string };

export interface ChildHandle {
  readonly pid: number | undefined;
  readonly exited: Promise<ChildExit>;
  /** true when the signal was delivered */
  kill(signal: NodeJS.Signals): boolean;
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
  const forward = (stream: 'stdout' | 'stderr', target: NodeJS.WriteStream) => (chunk: Buffer) => {
    // Pipes and files are written synchronously by Node on Linux, so the order of the job's output is kept.
    target.write(chunk);
    o.onData?.(stream, chunk);
  };
  child.stdout?.on('data', forward('stdout', process.stdout));
  child.stderr?.on('data', forward('stderr', process.stderr));
  const exited = new Promise<ChildExit>((resolve) => {
    let done = false;
    const finish = (e: ChildExit) => {
      if (!done) {
        done = true;
        resolve(e);
      }
    };
    child.on('error', (err) => finish(spawnFailure(command, err)));
    // 'close' waits for the pipes to drain, so the tail is complete when we read it.
    child.on('close', (code, signal) => {
      if (signal) finish({ kind: 'signaled', signal, signalNumber: signalNumber(signal) });
      else finish({ kind: 'exited', code: code ?? 1 });
    });
  });
  return {
    get pid() {
      return child.pid;
    },
    exited,
    kill(signal) {
      try {
        return child.kill(signal);
      } catch {
        return false;
      }
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
    child = spawn(command, [...args], { shell: false, stdio: ['ignore', 'pipe', 'ignore'] });
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
      resolve(signal ? { kind: 'signaled', signal, signalNumber: signalNumber(signal) } : { kind: 'exited', code: code ?? 1 });
    });
  });
  return {
    exited,
    stop(force = false) {
      try {
        child.kill(force ? 'SIGKILL' : 'SIGTERM');
      } catch {
        /* already gone */
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
  SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGBUS: 7, SIGFPE: 8, SIGKILL: 9, SIGUSR1: 10,
  SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15, SIGSTKFLT: 16, SIGCHLD: 17, SIGCONT: 18, SIGSTOP: 19,
  SIGTSTP: 20, SIGTTIN: 21, SIGTTOU: 22, SIGURG: 23, SIGXCPU: 24, SIGXFSZ: 25, SIGVTALRM: 26, SIGPROF: 27, SIGWINCH: 28,
  SIGIO: 29, SIGPWR: 30, SIGSYS: 31,
} as const;

function spawnFailure(command: string, err: unknown): ChildExit {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { kind: 'spawn-failed', reason: 'not-found', message: `${command}: command not found` };
  if (code === 'EACCES') return { kind: 'spawn-failed', reason: 'permission', message: `${command}: permission denied` };
  return { kind: 'spawn-failed', reason: 'other', message: `${command}: ${(err as Error).message ?? String(err)}` };
}

function failedHandle(e: ChildExit): ChildHandle {
  return { pid: undefined, exited: Promise.resolve(e), kill: () => false };
}

function cleanEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
}
