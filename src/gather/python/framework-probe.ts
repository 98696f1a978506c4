// Runs the shipped probe (src/gather/python/assets/probe.py) under one interpreter for one framework, as a subprocess
// with a time limit (the runner kills its whole process group at the limit), and turns what it printed into facts. A
// crash, a hang or an import error is data, with the exact text, never an exception.
import probeSource from './assets/probe.py?raw';
import { describeFailure, type ProcessRunner, type RunResult } from '../../ports/runner.js';
import { MEMORY_GROWTH_ENV } from './memory-modes.js';
import type { ConvAttempt, FrameworkProbe } from '../snapshot/schema-python.js';

export type Framework = FrameworkProbe['framework'];
export const PROBE_MARK = '@@gpu-env-doctor@@ ';
export const PROBE_SOURCE: string = probeSource;

export interface ProbeRunOptions {
  conv: boolean;
  mode: 'configured' | 'memory-growth';
  timeoutMs: number;
  /** the full environment of the subprocess */
  env: Record<string, string | undefined>;
  /** no other framework probe runs at the same time */
  alone: boolean;
}

const STDERR_KEEP_OK = 2000;
const STDERR_KEEP_FAILED = 8000;

export async function runFrameworkProbe(
  runner: ProcessRunner,
  interpreter: string,
  framework: Framework,
  o: ProbeRunOptions,
): Promise<FrameworkProbe> {
  const args = ['-c', PROBE_SOURCE, framework, ...(o.conv ? ['--conv'] : []), '--mode', o.mode];
  // `python -c` searches the working directory before anything else, so a json.py there would run as the
  // caller before the probe's first line: start in a new empty folder, and ask Python 3.11+ not to add it
  // at all (PYTHONSAFEPATH; older versions ignore it). -I would also drop PYTHONPATH and the user's site
  // packages, which change what the job imports, so it is not used.
  const env = { ...(o.mode === 'memory-growth' ? { ...o.env, ...MEMORY_GROWTH_ENV } : o.env), PYTHONSAFEPATH: '1' };
  const r = await runner.run(interpreter, args, {
    timeoutMs: o.timeoutMs,
    env,
    maxBytes: 4 * 1024 * 1024,
    isolatedCwd: true,
  });
  return interpretProbeRun(framework, interpreter, r, o);
}

interface Line {
  stage?: string;
  [k: string]: unknown;
}

/** The marked JSON lines of the probe's stdout, in order; anything else a library printed is ignored. */
export function parseProbeLines(stdout: string): Line[] {
  const out: Line[] = [];
  for (const line of stdout.split('\n')) {
    const i = line.indexOf(PROBE_MARK);
    if (i < 0) continue;
    try {
      const v: unknown = JSON.parse(line.slice(i + PROBE_MARK.length));
      if (v && typeof v === 'object') out.push(v as Line);
    } catch {
      /* a line cut by a crash */
    }
  }
  return out;
}

/** Pure: a finished run (any outcome) → the facts it established. Exported for tests and replays. */
export function interpretProbeRun(
  framework: Framework,
  interpreter: string,
  r: RunResult,
  o: Pick<ProbeRunOptions, 'conv' | 'mode' | 'alone'>,
): FrameworkProbe {
  const stdout = 'stdout' in r ? r.stdout : '';
  const stderr = 'stderr' in r ? r.stderr : '';
  const lines = parseProbeLines(stdout);
  let imported: boolean | null = null;
  let importError: FrameworkProbe['importError'] = null;
  let info: Record<string, unknown> | null = null;
  const conv: ConvAttempt[] = [];
  let loadedLibraries: string[] = [];
  let done = false;
  let convSkipped: string | null = null;
  for (const l of lines) {
    switch (l.stage) {
      case 'import': {
        imported = l.ok === true;
        if (!imported) {
          const e = asError(l.error);
          importError = {
            type: e.type,
            message: e.message,
            traceback: typeof l.traceback === 'string' ? l.traceback : '',
          };
        }
        break;
      }
      case 'info': {
        // Several info lines (the facts read before the convolution, then the rest) add up.
        const prevErrors = isObject(info?.errors) ? info.errors : {};
        info = { ...(info ?? {}), ...(isObject(l.info) ? l.info : {}) };
        const errors = { ...prevErrors, ...(isObject(l.errors) ? l.errors : {}) };
        if (Object.keys(errors).length > 0) info.errors = errors;
        break;
      }
      case 'conv': {
        if (typeof l.skipped === 'string') {
          // The convolution was tried (the user's path) and failed because no GPU is visible: keep its error.
          const e = l.error ? asError(l.error) : null;
          convSkipped = e
            ? `${l.skipped}; the convolution raised ${e.type}: ${e.message.split('\n')[0]!.slice(0, 300)}`
            : l.skipped;
          break;
        }
        const mode = l.mode === 'no-cache' || l.mode === 'memory-growth' ? l.mode : 'configured';
        const e = l.error ? asError(l.error) : null;
        conv.push({
          mode,
          ok: l.ok === true,
          error: e ? { type: e.type, message: e.message, ...(e.traceback ? { traceback: e.traceback } : {}) } : null,
          alone: o.alone,
          durationMs: typeof l.seconds === 'number' ? Math.round(l.seconds * 1000) : null,
          freeMiB: typeof l.freeMiB === 'number' ? l.freeMiB : null,
          totalMiB: typeof l.totalMiB === 'number' ? l.totalMiB : null,
        });
        break;
      }
      case 'libraries':
        loadedLibraries = Array.isArray(l.loaded) ? l.loaded.filter((x): x is string => typeof x === 'string') : [];
        break;
      case 'done':
        done = true;
        break;
    }
  }
  if (convSkipped !== null) info = { ...(info ?? {}), convSkipped };
  // The process died (segfault, abort, timeout) after the import but before the convolution reported:
  // that death is the convolution's result.
  if (
    o.conv &&
    imported === true &&
    !done &&
    convSkipped === null &&
    !conv.some((c) => c.mode === o.mode || (o.mode === 'configured' && c.mode === 'no-cache'))
  ) {
    conv.push({
      mode: o.mode,
      ok: false,
      error: {
        type: 'ProcessDied',
        message: r.kind === 'ok' ? 'the probe stopped without reporting' : describeFailure('the probe', r),
      },
      alone: o.alone,
      durationMs: null,
      freeMiB: null,
      totalMiB: null,
    });
  }
  const failed = r.kind !== 'ok' || imported === false || conv.some((c) => !c.ok);
  const keep = failed ? STDERR_KEEP_FAILED : STDERR_KEEP_OK;
  return {
    framework,
    interpreter,
    exit: r.kind,
    exitDetail: r.kind === 'ok' ? null : describeFailure(interpreter, r),
    durationMs: r.durationMs,
    imported,
    importError,
    info,
    conv,
    loadedLibraries,
    stderrTail: stderr.length > keep ? stderr.slice(-keep) : stderr,
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asError(v: unknown): { type: string; message: string; traceback?: string } {
  if (!isObject(v)) return { type: 'Error', message: String(v) };
  return {
    type: typeof v.type === 'string' ? v.type : 'Error',
    message: typeof v.message === 'string' ? v.message : '',
    ...(typeof v.traceback === 'string' ? { traceback: v.traceback } : {}),
  };
}
