// libs.cudnn-smoke (check --deep): can cuDNN initialise here, now, with the files the frameworks would load?
// Judges the native smoke test's facts (src/python/smoke-schema.ts): one finding per failure, with the status
// CUDA or cuDNN gave and what it means (src/python/smoke-statuses.json), and the success as a fact (shown with
// -v). "cuDNN is broken" and "no memory" are told apart by the retries the test made with smaller workspaces.
// Where --deep=frameworks also ran a framework's own convolution, the framework's result wins.
import * as nodePath from 'node:path';
import { finding, type Evidence, type Finding, type Fix } from '../../core/finding.js';
import { fmtMiB } from '../../core/format.js';
import type { RootCauseId } from '../../core/root-causes.js';
import { statusMeaning, isMemoryStatus } from '../../python/smoke-status.js';
import type { SmokeConv, SmokeGpu, SmokeRun, SmokeStatus } from '../../python/smoke-schema.js';
import type { Snapshot } from '../../snapshot/schema.js';
import type { Check } from '../check.js';
import { FRAMEWORK_LABEL } from './common.js';

const ID = 'libs.cudnn-smoke';
const SOURCE = 'cuDNN smoke test';
/** Free memory under this after a CUDA context: cuDNN's own start-up (handle, first kernels) cannot be served. */
const TOO_LITTLE_FREE_MIB = 256;

export const cudnnSmokeCheck: Check = {
  id: ID,
  category: 'libraries',
  title: 'cuDNN runs a convolution on each GPU (--deep)',
  applies: (s) => {
    const smoke = s.smoke;
    if (!smoke) return 'run check --deep to load cuDNN and run a convolution on each GPU';
    if (smoke.runs.length === 0) return smoke.skipped ?? 'nothing to test';
    return true;
  },
  evaluate(s: Snapshot): Finding[] {
    return (s.smoke?.runs ?? []).flatMap((run) => judgeRun(s, run));
  },
};

function judgeRun(s: Snapshot, run: SmokeRun): Finding[] {
  const who = consumersLabel(run);
  const files = filesEvidence(run);
  const base = { check: ID, affects: { library: 'libcudnn', ...(run.consumers[0]?.framework ? { framework: run.consumers[0].framework } : {}) } };
  // The process did not get as far as loading the files.
  if (!run.load) {
    if (run.exit === 'not-found' || run.exit === 'permission')
      return [finding({ ...base, severity: 'warn', status: 'unknown', rootCause: null, message: `The cuDNN smoke test could not start: ${run.exitDetail ?? run.interpreter}`, evidence: files })];
    const crashed = run.exit === 'signal';
    return [
      finding({
        ...base,
        severity: crashed ? 'error' : 'warn',
        status: crashed ? 'fail' : 'unknown',
        rootCause: crashed ? 'library_conflict' : null,
        message: crashed
          ? `Loading ${who}'s CUDA libraries crashed the process (${run.exitDetail ?? 'killed by a signal'})`
          : `The cuDNN smoke test did not report (${run.exitDetail ?? 'no output'})`,
        evidence: [...files, ...stderrEvidence(run)],
      }),
    ];
  }
  if (!run.load.ok) {
    const text = run.load.error ?? 'refused';
    const conflict = /undefined symbol|version `[^']*' not found|wrong ELF class/.test(text);
    return [
      finding({
        ...base,
        severity: 'error',
        status: 'fail',
        rootCause: conflict ? 'library_conflict' : 'library_missing',
        message: `${who}'s CUDA libraries do not load: ${text.split('\n')[0]}`,
        evidence: [{ text, source: `dlopen of ${run.load.file ?? 'the files'} (${SOURCE})` }, ...files],
        fix: { text: 'See which copy of each library is chosen and why.', commands: ['gpu-env-doctor libs'] },
      }),
    ];
  }
  const out: Finding[] = [];
  const mixed = mixedVersions(run);
  if (mixed) out.push(finding({ ...base, ...mixed, evidence: [...mixed.evidence, ...files] }));
  if (run.devices && !run.devices.ok && run.devices.error) {
    out.push(statusFinding(s, run, null, run.devices.error, `CUDA could not start with ${who}'s files`, files));
    return out;
  }
  if (run.gpus.length === 0) {
    out.push(finding({ ...base, severity: 'warn', status: 'unknown', rootCause: null, message: `The cuDNN smoke test reported no GPU (${run.exitDetail ?? `${run.devices?.count ?? 0} visible`})`, evidence: [...files, ...stderrEvidence(run)] }));
    return out;
  }
  for (const g of run.gpus) out.push(...judgeGpu(s, run, g, files));
  return out;
}

function judgeGpu(s: Snapshot, run: SmokeRun, g: SmokeGpu, files: Evidence[]): Finding[] {
  const where = gpuLabel(s, g);
  const who = consumersLabel(run);
  const memEv = memoryEvidence(g);
  if (g.error) return [overruled(s, run, statusFinding(s, run, g, g.error, `cuDNN could not start on ${where}`, [...memEv, ...files]))];
  if (g.crash && g.conv.length === 0)
    return [finding({ check: ID, severity: 'warn', status: 'unknown', rootCause: null, message: `The cuDNN smoke test stopped on ${where}: ${g.crash}`, evidence: [...memEv, ...files, ...stderrEvidence(run)], affects: { gpu: g.device, library: 'libcudnn' } })];
  const out: Finding[] = [];
  if (g.cublas && g.cublas.code !== 0) {
    const name = g.cublas.name ?? `status ${g.cublas.code}`;
    out.push(overruled(s, run, statusFinding(s, run, g, { api: 'cublas', call: 'cublasCreate_v2', code: g.cublas.code, name }, `cuBLAS could not start on ${where}`, [...memEv, ...files])));
  }
  const ran = g.conv.find((c) => c.ok);
  const first = g.conv[0];
  const version = cudnnVersion(run);
  if (ran && first && ran === first) {
    out.push(
      finding({
        check: ID,
        severity: 'info',
        status: 'ok',
        rootCause: null,
        message: `cuDNN${version ? ` ${version}` : ''} ran a convolution on ${where} with ${who}'s files (${timeText(run, g)})`,
        evidence: [...convEvidence(g), ...memEv, ...files],
        affects: { gpu: g.device, library: 'libcudnn' },
      }),
    );
    return out;
  }
  const failures = g.conv.filter((c) => !c.ok);
  const lastFail = failures[failures.length - 1];
  if (ran) {
    // It ran once the workspace was smaller: cuDNN works; memory is short.
    const big = failures[0]!;
    out.push(
      overruled(
        s,
        run,
        finding({
          check: ID,
          severity: 'warn',
          status: 'warn',
          rootCause: memoryCause(s, g),
          message: `cuDNN works on ${where}, but with ${fmtMiB(big.freeAtFailureMiB ?? g.freeBeforeMiB)} free after its CUDA context it could not get the ${fmtMiB(needMiB(big))} that a convolution trying every algorithm asks for (TensorFlow and JAX autotuning, torch.backends.cudnn.benchmark); with the smallest workspace (${fmtMiB(ran.workspaceMiB)}) it ran`,
          details: 'Jobs that do not autotune (PyTorch by default picks one algorithm by heuristics) may still start; the ones that do fail with "Failed to get convolution algorithm" or CUDNN_STATUS_ALLOC_FAILED / NOT_INITIALIZED.',
          evidence: [...convEvidence(g), ...memEv, ...files],
          affects: { gpu: g.device, library: 'libcudnn' },
          fix: memoryFix(s, g),
        }),
      ),
    );
    return out;
  }
  if (!lastFail) return out;
  if (lastFail.error && isMemoryStatus(lastFail.error.name)) {
    out.push(
      overruled(
        s,
        run,
        finding({
          check: ID,
          severity: 'error',
          status: 'fail',
          rootCause: memoryCause(s, g),
          message: `cuDNN could not run even a tiny convolution on ${where}: ${fmtMiB(lastFail.freeAtFailureMiB ?? g.freeBeforeMiB)} free after the CUDA context (${lastFail.error.name})`,
          evidence: [...convEvidence(g), ...memEv, ...files],
          affects: { gpu: g.device, library: 'libcudnn' },
          fix: memoryFix(s, g),
        }),
      ),
    );
    return out;
  }
  if (lastFail.error) out.push(overruled(s, run, statusFinding(s, run, g, lastFail.error, `cuDNN failed a convolution on ${where}`, [...convEvidence(g), ...memEv, ...files])));
  return out;
}

/** A finding for one CUDA/cuDNN/cuBLAS status, with its meaning and cause from the table. */
function statusFinding(s: Snapshot, run: SmokeRun, g: SmokeGpu | null, st: SmokeStatus, head: string, evidence: Evidence[]): Finding {
  const m = statusMeaning(st.name);
  const lowFree = g?.freeBeforeMiB !== null && g?.freeBeforeMiB !== undefined && g.freeBeforeMiB < TOO_LITTLE_FREE_MIB;
  let rootCause: RootCauseId = m?.rootCause ?? 'other';
  let meaning = m?.meaning ?? 'not a status gpu-env-doctor knows';
  if (m?.kind === 'memory' || (m?.kind === 'init' && lowFree)) {
    rootCause = g ? memoryCause(s, g) : 'gpu_memory_exhausted';
    if (m.kind === 'init') meaning = `${m.meaning}; with ${fmtMiB(g!.freeBeforeMiB)} free after the CUDA context, memory is the likely reason`;
  }
  const code = `${st.name} (${st.code}${st.api === 'cuda' ? '' : `, ${st.api}`})`;
  return finding({
    check: ID,
    severity: 'error',
    status: 'fail',
    rootCause,
    message: `${head}: ${code} from ${st.call}: ${meaning}`,
    evidence: [
      { text: `${st.call} returned ${st.name} = ${st.code}${st.text ? ` "${st.text}"` : ''}${st.requestedMiB !== undefined ? `, asking for ${fmtMiB(st.requestedMiB)}` : ''}`, source: SOURCE },
      ...(m ? [{ text: m.meaning, source: m.source }] : []),
      ...evidence,
      ...stderrEvidence(run),
    ],
    affects: { ...(g ? { gpu: g.device } : {}), library: st.api === 'cublas' ? 'libcublas' : st.api === 'cuda' ? 'libcudart' : 'libcudnn' },
    fix: fixFor(s, rootCause, g),
  });
}

/** cuDNN 9 reports the version of the sub-libraries it loaded: a version other than the main file's is a mix. */
function mixedVersions(run: SmokeRun): Omit<Finding, 'check' | 'affects'> | null {
  const reported = cudnnVersion(run);
  const main = run.files.find((f) => f.role === 'libcudnn');
  if (!reported || !main?.version || sameRelease(reported, main.version)) return null;
  const subs = run.mapped.filter((p) => /\/libcudnn_[a-z_]+\.so/.test(p));
  const otherDirs = [...new Set(subs.map((p) => nodePath.posix.dirname(p)).filter((d) => d !== nodePath.posix.dirname(main.path)))];
  return {
    severity: 'warn',
    status: 'warn',
    rootCause: 'cudnn_version_mismatch',
    message: `cuDNN reports version ${reported} although libcudnn is ${main.version}: its sub-libraries came from ${otherDirs.length > 0 ? otherDirs.join(', ') : 'another copy'}`,
    details:
      'cuDNN 9 reports the version of the sub-libraries it runs. A framework that compares it with the version it was built with refuses to go on (PyTorch raises "cuDNN version incompatibility" at torch.backends.cudnn.version(); seen on the H200 with the system cuDNN first on LD_LIBRARY_PATH).',
    evidence: [
      { text: `cudnnGetVersion() = ${run.versions?.cudnn}`, source: SOURCE },
      { text: `${main.path} (${main.version})`, source: 'loader emulation' },
      ...subs.map((p) => ({ text: p, source: `/proc/self/maps of the ${SOURCE}` })),
    ],
  };
}

/** Where the framework's own convolution (--deep=frameworks) ran on the same files and passed, it wins. */
function overruled(s: Snapshot, run: SmokeRun, f: Finding): Finding {
  if (f.severity === 'info') return f;
  const names = new Set(run.consumers.map((c) => c.framework).filter((x): x is string => x !== null));
  const envs = new Set(run.consumers.map((c) => c.environment));
  const passed = (s.python?.environments ?? [])
    .filter((e) => envs.has(e.prefix))
    .flatMap((e) => e.probes)
    .filter((p) => names.has(p.framework) && p.conv.some((c) => c.ok));
  if (passed.length === 0) return f;
  const label = passed.map((p) => FRAMEWORK_LABEL[p.framework] ?? p.framework).join(' and ');
  return {
    ...f,
    severity: 'info',
    status: 'ok',
    message: `${label}'s own convolution ran (--deep=frameworks), so its result stands; the native test said: ${f.message}`,
    fix: undefined,
  };
}

function memoryCause(s: Snapshot, g: SmokeGpu): RootCauseId {
  return othersHolding(s, g).length > 0 ? 'memory_held_by_other_process' : 'gpu_memory_exhausted';
}

function othersHolding(s: Snapshot, g: SmokeGpu) {
  const index = nvidiaIndex(s, g);
  return s.processes.list.filter((p) => !p.isSelfOrAncestor && (p.usedMiB ?? 0) > 0 && (index === null || p.gpus.includes(index)));
}

function memoryFix(s: Snapshot, g: SmokeGpu): Fix {
  const held = othersHolding(s, g);
  return held.length > 0
    ? { text: `Other processes hold memory on this GPU (${held.map((p) => `PID ${p.pid} ${fmtMiB(p.usedMiB)}`).join(', ')}): free it (gpu-env-doctor procs shows which are stale), wait for it, or use another GPU.`, commands: ['gpu-env-doctor procs'] }
    : { text: 'Free GPU memory before the job starts, or give the job another GPU (CUDA_VISIBLE_DEVICES).', commands: ['nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv'] };
}

function fixFor(s: Snapshot, cause: RootCauseId, g: SmokeGpu | null): Fix {
  switch (cause) {
    case 'memory_held_by_other_process':
    case 'gpu_memory_exhausted':
      return g ? memoryFix(s, g) : { text: 'Free GPU memory or use another GPU.', commands: ['gpu-env-doctor procs'] };
    case 'driver_too_old':
      return { text: 'The libcuda that loads does not fit the kernel driver: see which copy loads and why (a cuda-compat folder on LD_LIBRARY_PATH is the usual reason), or update the driver.', commands: ['gpu-env-doctor libs'] };
    case 'library_conflict':
    case 'library_missing':
    case 'cudnn_version_mismatch':
    case 'cuda_toolkit_mismatch':
      return { text: 'See which copy of each library loads and why, and make every cuDNN file come from one copy.', commands: ['gpu-env-doctor libs'] };
    case 'no_device_visible':
      return { text: 'Check CUDA_VISIBLE_DEVICES and the container\'s GPU access.', commands: ['nvidia-smi -L'] };
    default:
      return { text: "Run the frameworks' own convolution for their view of it.", commands: ['gpu-env-doctor check --deep=frameworks'] };
  }
}

function consumersLabel(run: SmokeRun): string {
  const names = [...new Set(run.consumers.map((c) => (c.framework ? (FRAMEWORK_LABEL[c.framework] ?? c.framework) : nodePath.posix.basename(c.path))))];
  return names.join(' and ') || 'the frameworks';
}

function filesEvidence(run: SmokeRun): Evidence[] {
  return run.files.map((f) => ({ text: `${f.role}: ${f.path}${f.version ? ` (${f.version})` : ''}`, source: 'loader emulation: loaded by path' }));
}

function memoryEvidence(g: SmokeGpu): Evidence[] {
  if (g.freeBeforeMiB === null) return [];
  return [{ text: `after the CUDA context: ${fmtMiB(g.freeBeforeMiB)} free of ${fmtMiB(g.totalMiB)}${g.freeAfterMiB !== null ? `; after the test ${fmtMiB(g.freeAfterMiB)}` : ''}`, source: `cudaMemGetInfo in the ${SOURCE}` }];
}

function convEvidence(g: SmokeGpu): Evidence[] {
  return g.conv.map((c) => ({ text: convText(c), source: SOURCE }));
}

function convText(c: SmokeConv): string {
  const what = `convolution of ${c.shape.slice(0, 4).join('×')} (N×C×H×W) into ${c.shape[4] ?? '?'} channels, 3×3, ${c.workspace === 'largest' ? 'with the workspace to try every algorithm' : 'with the smallest workspace'} (${fmtMiB(c.workspaceMiB)}; tensors ${fmtMiB(c.tensorsMiB)})`;
  if (c.ok) return `${what}: ran (algorithm ${c.algo})`;
  const e = c.error;
  return `${what}: ${e ? `${e.call} returned ${e.name} = ${e.code}${e.requestedMiB !== undefined ? ` asking for ${fmtMiB(e.requestedMiB)}` : ''}` : 'failed'}${c.freeAtFailureMiB !== null ? `, ${fmtMiB(c.freeAtFailureMiB)} free` : ''}`;
}

function needMiB(c: SmokeConv): number | null {
  return c.error?.requestedMiB ?? (c.workspaceMiB !== null && c.tensorsMiB !== null ? c.workspaceMiB + c.tensorsMiB : c.workspaceMiB);
}

function stderrEvidence(run: SmokeRun): Evidence[] {
  const lines = run.stderrTail.split('\n').map((l) => l.trim()).filter(Boolean).slice(-4);
  return lines.map((l) => ({ text: l.slice(0, 300), source: `stderr of the ${SOURCE} (${run.interpreter})` }));
}

function timeText(run: SmokeRun, g: SmokeGpu): string {
  const parts = [`${(run.durationMs / 1000).toFixed(2)} s in all`];
  if (g.contextMs !== null) parts.push(`CUDA context ready at ${(g.contextMs / 1000).toFixed(2)} s`);
  return parts.join(', ');
}

/** 91900 → "9.19.0" (cuDNN ≥ 9: major*10000 + minor*100 + patch; ≤ 8: major*1000 + minor*100 + patch). */
export function cudnnVersion(run: SmokeRun): string | null {
  const n = run.versions?.cudnn;
  if (typeof n !== 'number' || n <= 0) return null;
  if (n >= 90000) return `${Math.floor(n / 10000)}.${Math.floor((n % 10000) / 100)}.${n % 100}`;
  return `${Math.floor(n / 1000)}.${Math.floor((n % 1000) / 100)}.${n % 100}`;
}

function sameRelease(a: string, b: string): boolean {
  const pa = a.split('.');
  const pb = b.split('.');
  const n = Math.min(pa.length, pb.length, 3);
  return pa.slice(0, n).join('.') === pb.slice(0, n).join('.');
}

function nvidiaIndex(s: Snapshot, g: SmokeGpu): number | null {
  if (!s.nvidia.ok || !g.busId) return null;
  const norm = (b: string) => b.toLowerCase().replace(/^0+/, '');
  return s.nvidia.gpus.find((x) => norm(x.busId) === norm(g.busId!))?.index ?? null;
}

function gpuLabel(s: Snapshot, g: SmokeGpu): string {
  const i = nvidiaIndex(s, g);
  const gpu = i !== null && s.nvidia.ok ? s.nvidia.gpus.find((x) => x.index === i) : undefined;
  return gpu ? `GPU ${gpu.index} (${gpu.name})` : `CUDA device ${g.device}`;
}
