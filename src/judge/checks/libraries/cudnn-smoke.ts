// libs.cudnn-smoke (check --deep): can cuDNN initialise here, now, with the files the frameworks would load? Judges the
// native smoke test's facts (src/gather/snapshot/schema-smoke.ts): one finding per failure, with the status CUDA or
// cuDNN gave and what it means (src/knowledge/python/smoke-statuses.json), and the success as a fact (shown with -v).
// "cuDNN is broken" and "no memory" are told apart by the retries the test made with smaller workspaces. Where
// --deep=frameworks also ran a framework's own convolution, the framework's result wins.
import * as nodePath from 'node:path';
import { fail, ok, skip, unknown, warn, type Evidence, type Finding, type Fix } from '../../finding.js';
import { fmtMiB } from '../../../base/format.js';
import type { RootCauseId } from '../../../knowledge/root-causes.js';
import { statusMeaning, isMemoryStatus, meaningText } from './smoke-status.js';
import type { SmokeConv, SmokeGpu, SmokeRun, SmokeStatus } from '../../../gather/snapshot/schema-smoke.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { FRAMEWORK_LABEL } from './common.js';
import { joinList, t } from '../../../base/i18n/index.js';

const ID = 'libs.cudnn-smoke';
const SOURCE = 'cuDNN smoke test';
/** Free memory under this after a CUDA context: cuDNN's own start-up (handle, first kernels) cannot be served. */
const TOO_LITTLE_FREE_MIB = 256;

export const cudnnSmokeCheck: Check = {
  id: ID,
  category: 'libraries',
  get title() {
    return t('title.libs.cudnn-smoke');
  },
  applies: (s) => {
    const smoke = s.smoke;
    if (!smoke) return t('smoke.applies');
    if (smoke.runs.length === 0 && (smoke.notRun ?? []).length === 0) return smoke.skipped ?? t('smoke.nothing');
    return true;
  },
  evaluate(s: Snapshot): Finding[] {
    // Environments left out on purpose (not named by the caller, or another user's): said, never run. When that
    // left --deep with nothing to test, the result is unknown (shown), else a remark (-v).
    const nothingRan = (s.smoke?.runs ?? []).length === 0;
    const notRun = (s.smoke?.notRun ?? []).map((n) => {
      const said = {
        check: ID,
        rootCause: null,
        message: t('smoke.notRun', { env: n.environment, why: n.reason }),
        evidence: [{ text: n.reason, source: n.environment }],
        affects: { library: 'libcudnn' },
      };
      return nothingRan ? unknown({ ...said, severity: 'info' }) : skip(said);
    });
    return [...(s.smoke?.runs ?? []).flatMap((run) => judgeRun(s, run)), ...notRun];
  },
};

function judgeRun(s: Snapshot, run: SmokeRun): Finding[] {
  const who = consumersLabel(run);
  const files = filesEvidence(run);
  const base = {
    check: ID,
    affects: { library: 'libcudnn', ...(run.consumers[0]?.framework ? { framework: run.consumers[0].framework } : {}) },
  };
  // The process did not get as far as loading the files.
  if (!run.load) {
    if (run.exit === 'not-found' || run.exit === 'permission')
      return [
        unknown({
          ...base,
          severity: 'warn',
          rootCause: null,
          message: t('smoke.noStart', { detail: run.exitDetail ?? run.interpreter }),
          evidence: files,
        }),
      ];
    const crashed = run.exit === 'signal';
    const evidence = [...files, ...stderrEvidence(run)];
    const detail = run.exitDetail;
    return [
      crashed
        ? fail({
            ...base,
            severity: 'error',
            rootCause: 'library_conflict',
            message: t('smoke.crashed', { who, detail: detail ?? t('smoke.killed') }),
            evidence,
          })
        : unknown({
            ...base,
            severity: 'warn',
            rootCause: null,
            message: t('smoke.noReport', { detail: detail ?? t('smoke.noOutput') }),
            evidence,
          }),
    ];
  }
  if (!run.load.ok) {
    const text = run.load.error ?? 'refused';
    const conflict = /undefined symbol|version `[^']*' not found|wrong ELF class/.test(text);
    return [
      fail({
        ...base,
        severity: 'error',
        rootCause: conflict ? 'library_conflict' : 'library_missing',
        message: t('smoke.noLoad', { who, error: text.split('\n')[0] ?? '' }),
        evidence: [{ text, source: `dlopen of ${run.load.file ?? 'the files'} (${SOURCE})` }, ...files],
        fix: { text: t('smoke.noLoadFix'), commands: ['gpu-env-doctor libs'] },
      }),
    ];
  }
  const out: Finding[] = [];
  const mixed = mixedVersions(run);
  if (mixed) out.push(warn({ ...base, ...mixed, evidence: [...mixed.evidence, ...files] }));
  if (run.devices && !run.devices.ok && run.devices.error) {
    out.push(statusFinding(s, run, null, run.devices.error, t('smoke.head.cuda', { who }), files));
    return out;
  }
  if (run.gpus.length === 0) {
    out.push(
      unknown({
        ...base,
        severity: 'warn',
        rootCause: null,
        message: t('smoke.noGpu', { detail: run.exitDetail ?? t('smoke.visible', { n: run.devices?.count ?? 0 }) }),
        evidence: [...files, ...stderrEvidence(run)],
      }),
    );
    return out;
  }
  for (const g of run.gpus) out.push(...judgeGpu(s, run, g, files));
  return out;
}

function judgeGpu(s: Snapshot, run: SmokeRun, g: SmokeGpu, files: Evidence[]): Finding[] {
  const where = gpuLabel(s, g);
  const who = consumersLabel(run);
  const memEv = memoryEvidence(g);
  if (g.error)
    return [
      overruled(s, run, statusFinding(s, run, g, g.error, t('smoke.head.cudnn', { where }), [...memEv, ...files])),
    ];
  if (g.crash && g.conv.length === 0)
    return [
      unknown({
        check: ID,
        severity: 'warn',
        rootCause: null,
        message: t('smoke.stopped', { where, crash: g.crash }),
        evidence: [...memEv, ...files, ...stderrEvidence(run)],
        affects: { gpu: g.device, library: 'libcudnn' },
      }),
    ];
  const out: Finding[] = [];
  if (g.cublas && g.cublas.code !== 0) {
    const name = g.cublas.name ?? `status ${g.cublas.code}`;
    out.push(
      overruled(
        s,
        run,
        statusFinding(
          s,
          run,
          g,
          { api: 'cublas', call: 'cublasCreate_v2', code: g.cublas.code, name },
          t('smoke.head.cublas', { where }),
          [...memEv, ...files],
        ),
      ),
    );
  }
  const ran = g.conv.find((c) => c.ok);
  const first = g.conv[0];
  const version = cudnnVersion(run);
  if (ran && first && ran === first) {
    out.push(
      ok({
        check: ID,
        message: version
          ? t('smoke.ranVersion', { version, where, who, time: timeText(run, g) })
          : t('smoke.ran', { where, who, time: timeText(run, g) }),
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
        warn({
          check: ID,
          rootCause: memoryCause(s, g),
          message: t('smoke.workspace', {
            where,
            free: fmtMiB(big.freeAtFailureMiB ?? g.freeBeforeMiB),
            need: fmtMiB(needMiB(big)),
            ws: fmtMiB(ran.workspaceMiB),
          }),
          details: t('smoke.workspaceDetails'),
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
        fail({
          check: ID,
          severity: 'error',
          rootCause: memoryCause(s, g),
          message: t('smoke.tiny', {
            where,
            free: fmtMiB(lastFail.freeAtFailureMiB ?? g.freeBeforeMiB),
            error: lastFail.error.name,
          }),
          evidence: [...convEvidence(g), ...memEv, ...files],
          affects: { gpu: g.device, library: 'libcudnn' },
          fix: memoryFix(s, g),
        }),
      ),
    );
    return out;
  }
  if (lastFail.error)
    out.push(
      overruled(
        s,
        run,
        statusFinding(s, run, g, lastFail.error, t('smoke.head.conv', { where }), [
          ...convEvidence(g),
          ...memEv,
          ...files,
        ]),
      ),
    );
  return out;
}

/** A finding for one CUDA/cuDNN/cuBLAS status, with its meaning and cause from the table. */
function statusFinding(
  s: Snapshot,
  run: SmokeRun,
  g: SmokeGpu | null,
  st: SmokeStatus,
  head: string,
  evidence: Evidence[],
): Finding {
  const m = statusMeaning(st.name);
  const lowFree = g?.freeBeforeMiB !== null && g?.freeBeforeMiB !== undefined && g.freeBeforeMiB < TOO_LITTLE_FREE_MIB;
  let rootCause: RootCauseId = m?.rootCause ?? 'other';
  let meaning = m ? meaningText(m) : t('smoke.unknownStatus');
  if (m?.kind === 'memory' || (m?.kind === 'init' && lowFree)) {
    rootCause = g ? memoryCause(s, g) : 'gpu_memory_exhausted';
    if (m.kind === 'init')
      meaning = t('smoke.initLowFree', { meaning: meaningText(m), free: fmtMiB(g!.freeBeforeMiB) });
  }
  const code = `${st.name} (${st.code}${st.api === 'cuda' ? '' : `, ${st.api}`})`;
  return fail({
    check: ID,
    severity: 'error',
    rootCause,
    message: t('smoke.status', { head, code, call: st.call, meaning }),
    evidence: [
      {
        text: t('smoke.returned', {
          call: st.call,
          name: st.name,
          code: st.code,
          text: st.text ? ` "${st.text}"` : '',
          asking: st.requestedMiB !== undefined ? fmtMiB(st.requestedMiB) : 'none',
        }),
        source: SOURCE,
      },
      ...(m ? [{ text: meaningText(m), source: m.source }] : []),
      ...evidence,
      ...stderrEvidence(run),
    ],
    affects: {
      ...(g ? { gpu: g.device } : {}),
      library: st.api === 'cublas' ? 'libcublas' : st.api === 'cuda' ? 'libcudart' : 'libcudnn',
    },
    fix: fixFor(s, rootCause, g),
  });
}

/** cuDNN 9 reports the version of the sub-libraries it loaded: a version other than the main file's is a mix. */
function mixedVersions(
  run: SmokeRun,
): { rootCause: RootCauseId; message: string; details: string; evidence: Evidence[] } | null {
  const reported = cudnnVersion(run);
  const main = run.files.find((f) => f.role === 'libcudnn');
  if (!reported || !main?.version || sameRelease(reported, main.version)) return null;
  const subs = run.mapped.filter((p) => /\/libcudnn_[a-z_]+\.so/.test(p));
  const otherDirs = [
    ...new Set(subs.map((p) => nodePath.posix.dirname(p)).filter((d) => d !== nodePath.posix.dirname(main.path))),
  ];
  return {
    rootCause: 'cudnn_version_mismatch',
    message: t('smoke.mixed', {
      reported,
      main: main.version,
      dirs: otherDirs.length > 0 ? otherDirs.join(', ') : t('smoke.anotherCopy'),
    }),
    details: t('smoke.mixedDetails'),
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
  // the finding it was, passed: its root cause stays named, its fix goes
  const { fix: _fix, ...was } = f;
  return ok({ ...was, message: t('smoke.overruled', { label, message: f.message }) });
}

function memoryCause(s: Snapshot, g: SmokeGpu): RootCauseId {
  return othersHolding(s, g).length > 0 ? 'memory_held_by_other_process' : 'gpu_memory_exhausted';
}

function othersHolding(s: Snapshot, g: SmokeGpu) {
  const index = nvidiaIndex(s, g);
  return s.processes.list.filter(
    (p) => !p.isSelfOrAncestor && (p.usedMiB ?? 0) > 0 && (index === null || p.gpus.includes(index)),
  );
}

function memoryFix(s: Snapshot, g: SmokeGpu): Fix {
  const held = othersHolding(s, g);
  return held.length > 0
    ? {
        text: t('smoke.heldFix', { held: held.map((p) => `PID ${p.pid} ${fmtMiB(p.usedMiB)}`).join(', ') }),
        commands: ['gpu-env-doctor procs'],
      }
    : {
        text: t('smoke.freeFix'),
        commands: ['nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv'],
      };
}

function fixFor(s: Snapshot, cause: RootCauseId, g: SmokeGpu | null): Fix {
  switch (cause) {
    case 'memory_held_by_other_process':
    case 'gpu_memory_exhausted':
      return g ? memoryFix(s, g) : { text: t('smoke.freeOrOther'), commands: ['gpu-env-doctor procs'] };
    case 'driver_too_old':
      return { text: t('smoke.driverFix'), commands: ['gpu-env-doctor libs'] };
    case 'library_conflict':
    case 'library_missing':
    case 'cudnn_version_mismatch':
    case 'cuda_toolkit_mismatch':
      return { text: t('smoke.conflictFix'), commands: ['gpu-env-doctor libs'] };
    case 'no_device_visible':
      return { text: t('smoke.visibleFix'), commands: ['nvidia-smi -L'] };
    default:
      return { text: t('smoke.frameworksFix'), commands: ['gpu-env-doctor check --deep=frameworks'] };
  }
}

function consumersLabel(run: SmokeRun): string {
  const names = [
    ...new Set(
      run.consumers.map((c) =>
        c.framework ? (FRAMEWORK_LABEL[c.framework] ?? c.framework) : nodePath.posix.basename(c.path),
      ),
    ),
  ];
  return names.length > 0 ? joinList(names, 'and') : t('smoke.theFrameworks');
}

function filesEvidence(run: SmokeRun): Evidence[] {
  return run.files.map((f) => ({
    text: `${f.role}: ${f.path}${f.version ? ` (${f.version})` : ''}`,
    source: 'loader emulation: loaded by path',
  }));
}

function memoryEvidence(g: SmokeGpu): Evidence[] {
  if (g.freeBeforeMiB === null) return [];
  return [
    {
      text: t('smoke.memEvidence', {
        free: fmtMiB(g.freeBeforeMiB),
        total: fmtMiB(g.totalMiB),
        after: g.freeAfterMiB !== null ? fmtMiB(g.freeAfterMiB) : 'none',
      }),
      source: `cudaMemGetInfo in the ${SOURCE}`,
    },
  ];
}

function convEvidence(g: SmokeGpu): Evidence[] {
  return g.conv.map((c) => ({ text: convText(c), source: SOURCE }));
}

function convText(c: SmokeConv): string {
  const what = t('smoke.conv', {
    shape: c.shape.slice(0, 4).join('×'),
    channels: c.shape[4] ?? '?',
    workspace: c.workspace === 'largest' ? 'largest' : 'smallest',
    ws: fmtMiB(c.workspaceMiB),
    tensors: fmtMiB(c.tensorsMiB),
  });
  if (c.ok) return t('smoke.convRan', { what, algo: String(c.algo) });
  const e = c.error;
  const result = e
    ? t('smoke.convReturned', {
        call: e.call,
        name: e.name,
        code: e.code,
        asking: e.requestedMiB !== undefined ? fmtMiB(e.requestedMiB) : 'none',
      })
    : t('facts.failed');
  return t('smoke.convFailed', {
    what,
    result,
    free: c.freeAtFailureMiB !== null ? fmtMiB(c.freeAtFailureMiB) : 'none',
  });
}

function needMiB(c: SmokeConv): number | null {
  return (
    c.error?.requestedMiB ??
    (c.workspaceMiB !== null && c.tensorsMiB !== null ? c.workspaceMiB + c.tensorsMiB : c.workspaceMiB)
  );
}

function stderrEvidence(run: SmokeRun): Evidence[] {
  const lines = run.stderrTail
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-4);
  return lines.map((l) => ({ text: l.slice(0, 300), source: `stderr of the ${SOURCE} (${run.interpreter})` }));
}

function timeText(run: SmokeRun, g: SmokeGpu): string {
  const parts = [t('smoke.timeAll', { s: (run.durationMs / 1000).toFixed(2) })];
  if (g.contextMs !== null) parts.push(t('smoke.timeContext', { s: (g.contextMs / 1000).toFixed(2) }));
  return joinList(parts, 'comma');
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
  return gpu ? t('smoke.gpu', { index: gpu.index, name: gpu.name }) : t('smoke.device', { device: g.device });
}
