// Runs the native cuDNN smoke test (src/gather/python/assets/cudnn_smoke.py) for each plan
// (src/gather/python/smoke-plan.ts), and turns what it printed into facts (pure: interpretSmokeRun). The process starts
// early and loads its libraries while the other probes read the machine; it touches the GPU only after `go()`, once
// nvidia-smi and the process scan are done, so that they never see it holding memory. A crash, a hang or a refused
// library is data, with the exact text, never an exception.
import smokeSource from './assets/cudnn_smoke.py?raw';
import { describeFailure, type ProcessRunner, type RunResult } from '../../ports/runner.js';
import type { SmokePlan } from './smoke-plan.js';
import type { SmokeConv, SmokeGpu, SmokeRun, SmokeStatus } from '../snapshot/schema-smoke.js';

export const SMOKE_MARK = '@@gpu-env-doctor-smoke@@ ';
export const SMOKE_SOURCE: string = smokeSource;
const STDERR_KEEP = 4000;

export interface SmokeOptions {
  runner: ProcessRunner;
  /** the user's environment: LD_LIBRARY_PATH and CUDA_VISIBLE_DEVICES apply to the test as to a job */
  env: Record<string, string | undefined>;
  timeoutMs: number;
}

export interface StartedSmoke {
  /** lets the processes touch the GPU, one after the other (two at once would compete for memory) */
  go(): void;
  /** tells them to leave without touching the GPU */
  stop(): void;
  results: Promise<SmokeRun[]>;
}

/** Starts one process per plan; each loads its files, then waits for go(). */
export function startSmokeTests(
  plans: readonly SmokePlan[],
  interpreterOf: (p: SmokePlan) => string,
  o: SmokeOptions,
): StartedSmoke {
  let open!: (word: string) => void;
  const started = new Promise<string>((resolve) => (open = resolve));
  let previous: Promise<unknown> = started;
  const runs = plans.map((plan) => {
    const interpreter = interpreterOf(plan);
    const turn = previous;
    let finished!: () => void;
    previous = new Promise<void>((resolve) => (finished = resolve));
    const t0 = performance.now();
    const arg = JSON.stringify({
      load: plan.files.map((f) => f.path),
      cudart: plan.cudart,
      cudnn: plan.cudnn,
      cublas: plan.cublas,
      wait: true,
    });
    const run = o.runner
      .run(interpreter, ['-I', '-S', '-c', SMOKE_SOURCE, arg], {
        timeoutMs: o.timeoutMs,
        env: o.env,
        maxBytes: 1024 * 1024,
        input: Promise.all([started, turn]).then(([word]) => `${word}\n`),
      })
      .then((r) => interpretSmokeRun(plan, interpreter, r, performance.now() - t0));
    void run.finally(finished);
    return run;
  });
  return { go: () => open('go'), stop: () => open('stop'), results: Promise.all(runs) };
}

type Line = Record<string, unknown> & { step?: string };

export function parseSmokeLines(stdout: string): Line[] {
  const out: Line[] = [];
  for (const line of stdout.split('\n')) {
    const i = line.indexOf(SMOKE_MARK);
    if (i < 0) continue;
    try {
      const v: unknown = JSON.parse(line.slice(i + SMOKE_MARK.length));
      if (v && typeof v === 'object' && !Array.isArray(v)) out.push(v as Line);
    } catch {
      /* a line cut by a crash */
    }
  }
  return out;
}

/** Pure: a finished run (any outcome) → the facts it established. Exported for tests and replays of captures. */
export function interpretSmokeRun(plan: SmokePlan, interpreter: string, r: RunResult, durationMs: number): SmokeRun {
  const stdout = 'stdout' in r ? r.stdout : '';
  const stderr = 'stderr' in r ? r.stderr : '';
  const run: SmokeRun = {
    consumers: plan.consumers,
    interpreter,
    files: plan.files,
    exit: r.kind === 'ok' ? 'ok' : r.kind,
    exitDetail: r.kind === 'ok' ? null : describeFailure(interpreter, r),
    load: null,
    versions: null,
    devices: null,
    gpus: [],
    mapped: [],
    durationMs: Math.round(durationMs),
    stderrTail: stderr.slice(-STDERR_KEEP),
  };
  for (const l of parseSmokeLines(stdout)) {
    switch (l.step) {
      case 'load':
        run.load = { ok: l.ok === true, error: str(l.error), file: str(l.file) };
        if (isObj(l.versions))
          run.versions = Object.fromEntries(
            Object.entries(l.versions).filter((e): e is [string, number] => typeof e[1] === 'number'),
          );
        if (Array.isArray(l.files)) run.mapped = strings(l.files);
        break;
      case 'devices':
        run.devices = { ok: l.ok === true, count: num(l.count), error: status(l.error) };
        break;
      case 'device':
        run.gpus.push(gpu(l));
        break;
      case 'done':
        if (Array.isArray(l.files)) run.mapped = strings(l.files);
        break;
    }
  }
  run.gpus.sort((a, b) => a.device - b.device);
  return run;
}

function gpu(l: Line): SmokeGpu {
  const cub = isObj(l.cublas) ? l.cublas : null;
  return {
    device: num(l.device) ?? 0,
    busId: str(l.busId),
    contextMs: num(l.contextMs),
    freeBeforeMiB: mib(l.freeBefore),
    totalMiB: mib(l.total),
    handle: l.handle === true,
    cublas: cub && typeof cub.code === 'number' ? { code: cub.code, name: str(cub.name) } : null,
    conv: Array.isArray(l.conv) ? l.conv.filter(isObj).map(conv) : [],
    freeAfterMiB: mib(l.freeAfter),
    error: status(l.error),
    ...(typeof l.crash === 'string' ? { crash: l.crash } : {}),
    ms: num(l.ms),
  };
}

function conv(c: Record<string, unknown>): SmokeConv {
  return {
    shape: Array.isArray(c.shape) ? c.shape.filter((x): x is number => typeof x === 'number') : [],
    workspace: c.workspace === 'smallest' ? 'smallest' : 'largest',
    algo: num(c.algo),
    workspaceMiB: mib(c.workspaceBytes),
    tensorsMiB: mib(c.tensorBytes),
    ok: c.ok === true,
    error: status(c.error),
    freeAtFailureMiB: mib(c.freeAtFailure),
  };
}

function status(v: unknown): SmokeStatus | null {
  if (!isObj(v) || typeof v.code !== 'number' || typeof v.name !== 'string') return null;
  const api = v.api === 'cudnn' || v.api === 'cublas' ? v.api : 'cuda';
  const requested = mib(v.bytes);
  return {
    api,
    call: str(v.call) ?? '?',
    code: v.code,
    name: v.name,
    ...(typeof v.text === 'string' ? { text: v.text } : {}),
    ...(requested !== null ? { requestedMiB: requested } : {}),
  };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const strings = (v: unknown[]): string[] => v.filter((x): x is string => typeof x === 'string');
/** bytes → MiB, one decimal */
const mib = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? Math.round((v / 1048576) * 10) / 10 : null;
