// Verdicts: does a target (a framework build) work on a machine? One function per fact (driver, GPU
// architecture, Python, cuDNN, nvcc), shared by the `versions.*` checks and `compat`. Pure.
import type { Evidence } from '../finding.js';
import type { RootCauseId } from '../../knowledge/root-causes.js';
import { archCoverage, cudaSupportsComputeCapability, maxCudaForDriver } from './cuda.js';
import { compareCudnn, cudnnRelease, cudnnTolerated } from './cudnn.js';
import type { EnvFacts, FrameworkFacts, MachineFacts } from './facts.js';
import type { Target } from './target.js';
import { compareVersions, majorMinor, majorOf, truncateVersion } from './version.js';
import { t as tr } from '../../base/i18n/index.js';

export type VerdictId = 'driver' | 'gpu-arch' | 'python' | 'cudnn' | 'nvcc';
export type VerdictStatus = 'ok' | 'warn' | 'fail' | 'unknown';

export interface Verdict {
  id: VerdictId;
  status: VerdictStatus;
  rootCause: RootCauseId | null;
  message: string;
  required?: string;
  found?: string;
  gpu?: number;
  evidence: Evidence[];
}

/** "torch 2.11.0+cu130", "tensorflow 2.12.0", "jax 0.4.30 (cuda12)", "paddlepaddle-gpu 2.6.1 (cu120)" */
export function targetLabel(t: Pick<Target, 'framework' | 'version' | 'build'>): string {
  const v = t.version ?? tr('judge.unknownVersion');
  if (t.framework === 'torch') return `torch ${v}${t.build ? `+${t.build}` : ''}`;
  if (t.framework === 'jax') return `jax ${v}${t.build ? ` (${t.build})` : ''}`;
  if (t.framework === 'paddle') return `paddlepaddle-gpu ${v}${t.build ? ` (${t.build})` : ''}`;
  return `tensorflow ${v}`;
}

const SMI = 'nvidia-smi';

/** Is the driver new enough for the CUDA runtime the build brings (minor-version compatibility included)? */
export function judgeDriver(t: Target, m: MachineFacts): Verdict | null {
  if (!t.gpu || !t.cuda) return null;
  const label = targetLabel(t);
  const min = t.driverMin[m.os];
  const full = t.driverFull[m.os];
  if (m.driver === null) {
    return {
      id: 'driver',
      status: 'unknown',
      rootCause: null,
      message: tr('judge.driverNone', { cuda: t.cuda, label }),
      required: min ? `>=${min}` : undefined,
      evidence: [],
    };
  }
  const ev: Evidence[] = [
    { text: `driver_version ${m.driver}${m.driverCuda ? `, CUDA Version ${m.driverCuda}` : ''}`, source: SMI },
  ];
  if (min === null) {
    return {
      id: 'driver',
      status: 'unknown',
      rootCause: null,
      message: tr('judge.driverNoData', { os: m.os, cuda: t.cuda, label }),
      found: m.driver,
      evidence: ev,
    };
  }
  if (compareVersions(m.driver, min) < 0) {
    const limit = maxCudaForDriver(m.driver, m.os);
    return {
      id: 'driver',
      status: 'fail',
      rootCause: 'driver_too_old',
      message: limit
        ? tr('judge.driverOldLimit', { label, cuda: t.cuda, min, driver: m.driver, limit })
        : tr('judge.driverOld', { label, cuda: t.cuda, min, driver: m.driver }),
      required: `>=${min}`,
      found: m.driver,
      evidence: ev,
    };
  }
  const viaCompat = full !== null && compareVersions(m.driver, full) < 0;
  return {
    id: 'driver',
    status: 'ok',
    rootCause: null,
    message: viaCompat
      ? tr('judge.driverCompat', { driver: m.driver, cuda: t.cuda, label, min, full })
      : tr('judge.driverOk', { driver: m.driver, cuda: t.cuda, label, min }),
    required: `>=${min}`,
    found: m.driver,
    evidence: ev,
  };
}

const uncertain = (conf: string) => /approximate|unconfirmed|inferred|recalled|assumed/i.test(conf);

/** Does the build have code for each GPU (own SASS, same-major SASS, PTX to JIT, or JAX's minimum)? */
export function judgeArch(t: Target, m: MachineFacts): Verdict[] {
  if (!t.gpu) return [];
  const label = targetLabel(t);
  const out: Verdict[] = [];
  for (const g of m.gpus) {
    const ev: Evidence[] = [
      {
        text: tr('judge.gpuLine', { gpu: g.index, name: g.name, cc: g.cc ?? '?' }),
        source: 'nvidia-smi --query-gpu=name,compute_cap',
      },
    ];
    if (!g.cc) {
      out.push({
        id: 'gpu-arch',
        status: 'unknown',
        rootCause: null,
        gpu: g.index,
        message: tr('judge.ccUnknown', { gpu: g.index, name: g.name }),
        evidence: ev,
      });
      continue;
    }
    if (t.minComputeCapability) {
      const ok = compareVersions(g.cc, t.minComputeCapability) >= 0;
      // Paddle states a floor only; a build cannot hold code for a GPU newer than its CUDA knows, and whether it
      // ships PTX to JIT is not documented: say so at that certainty (its docs point Ampere to CUDA 11, Hopper to 12)
      if (ok && t.framework === 'paddle' && t.cuda && cudaSupportsComputeCapability(t.cuda, g.cc) === false) {
        out.push({
          id: 'gpu-arch',
          status: 'warn',
          rootCause: 'gpu_arch_unsupported',
          gpu: g.index,
          found: g.cc,
          message: tr('judge.paddleNoCode', { cuda: t.cuda, gpu: g.index, name: g.name, cc: g.cc, label }),
          evidence: ev,
        });
        continue;
      }
      out.push({
        id: 'gpu-arch',
        status: ok ? 'ok' : 'fail',
        rootCause: ok ? null : 'gpu_arch_unsupported',
        gpu: g.index,
        required: `>=${t.minComputeCapability}`,
        found: g.cc,
        message: ok
          ? tr('judge.minCcOk', { gpu: g.index, name: g.name, cc: g.cc, label, min: t.minComputeCapability })
          : tr('judge.minCcFail', { label, min: t.minComputeCapability, gpu: g.index, name: g.name, cc: g.cc }),
        evidence: ev,
      });
      continue;
    }
    if (t.sass === null || (t.sass.length === 0 && (t.ptx ?? []).length === 0)) {
      out.push({
        id: 'gpu-arch',
        status: 'unknown',
        rootCause: null,
        gpu: g.index,
        found: g.cc,
        message: tr('judge.archsUnknown', { label }),
        evidence: ev,
      });
      continue;
    }
    const cov = archCoverage(g.cc, t.sass, t.ptx ?? []);
    const list = [
      ...t.sass.map((c) => `sm_${c.replace('.', '')}`),
      ...(t.ptx ?? []).map((c) => `compute_${c.replace('.', '')}`),
    ].join(' ');
    ev.push({ text: tr('judge.targets', { label, list }), source: t.archsConfidence || 'gpu-env-doctor data' });
    const fullDriver = t.driverFull[m.os];
    if (cov.kind === 'none') {
      const soft = uncertain(t.archsConfidence);
      out.push({
        id: 'gpu-arch',
        status: soft ? 'warn' : 'fail',
        rootCause: 'gpu_arch_unsupported',
        gpu: g.index,
        required: list,
        found: g.cc,
        message: tr(soft ? 'judge.noKernelsSoft' : 'judge.noKernels', {
          label,
          gpu: g.index,
          name: g.name,
          sm: `sm_${g.cc.replace('.', '')}`,
        }),
        evidence: ev,
      });
    } else if (cov.kind === 'ptx-jit') {
      const driverOld = m.driver !== null && fullDriver !== null && compareVersions(m.driver, fullDriver) < 0;
      out.push({
        id: 'gpu-arch',
        status: driverOld ? 'fail' : 'warn',
        rootCause: driverOld ? 'driver_too_old' : null,
        gpu: g.index,
        required: list,
        found: g.cc,
        message: driverOld
          ? tr('judge.ptxOld', {
              label,
              gpu: g.index,
              cc: g.cc,
              ptx: `compute_${cov.via!.replace('.', '')}`,
              full: fullDriver,
              driver: m.driver,
            })
          : tr('judge.ptxJit', { label, gpu: g.index, cc: g.cc, ptx: `compute_${cov.via!.replace('.', '')}` }),
        evidence: ev,
      });
    } else {
      out.push({
        id: 'gpu-arch',
        status: 'ok',
        rootCause: null,
        gpu: g.index,
        found: g.cc,
        message:
          cov.kind === 'sass'
            ? tr('judge.sass', { label, sm: `sm_${g.cc.replace('.', '')}`, gpu: g.index, name: g.name })
            : tr('judge.sameFamily', { label, gpu: g.index, cc: g.cc, sm: `sm_${cov.via!.replace('.', '')}` }),
        evidence: ev,
      });
    }
  }
  return out;
}

/** Is the environment's Python one the build supports? */
export function judgePython(t: Target, python: string | null, where: string): Verdict | null {
  const label = targetLabel(t);
  if (python === null) return null;
  const ev: Evidence[] = [{ text: `Python ${python}`, source: where }];
  if (t.pythonMin) {
    const ok = compareVersions(python, t.pythonMin) >= 0;
    return {
      id: 'python',
      status: ok ? 'ok' : 'fail',
      rootCause: ok ? null : 'other',
      required: `>=${t.pythonMin}`,
      found: python,
      message: ok
        ? tr('judge.pyOk', { py: python, label })
        : tr('judge.pyMin', { label, min: t.pythonMin, py: python }),
      evidence: ev,
    };
  }
  if (!t.python || t.python.length === 0) return null;
  const mm = majorMinor(python);
  const range = `${t.python[0]}–${t.python[t.python.length - 1]}`;
  if (t.python.includes(mm))
    return {
      id: 'python',
      status: 'ok',
      rootCause: null,
      required: range,
      found: mm,
      message: tr('judge.pyOkRange', { py: mm, label, range }),
      evidence: ev,
    };
  if (t.pythonExperimental.includes(mm))
    return {
      id: 'python',
      status: 'warn',
      rootCause: null,
      required: range,
      found: mm,
      message: tr('judge.pyExperimental', { py: mm, label, range }),
      evidence: ev,
    };
  return {
    id: 'python',
    status: 'fail',
    rootCause: 'other',
    required: range,
    found: mm,
    message: tr('judge.pyFail', { label, range, py: mm }),
    evidence: ev,
  };
}

/** Does the cuDNN that loads suit the build: major, minor direction, CUDA major, and the GPUs it still supports? */
export function judgeCudnn(t: Target, f: FrameworkFacts, m: MachineFacts): Verdict[] {
  if (!t.gpu || !f.cudnnLoaded) return [];
  const label = targetLabel(t);
  const loaded = f.cudnnLoaded.value;
  const ev: Evidence[] = [{ text: `cuDNN ${loaded}`, source: f.cudnnLoaded.source }];
  const out: Verdict[] = [];
  if (f.cudnnPackage?.cudaMajor && t.cuda && f.cudnnPackage.cudaMajor !== majorOf(t.cuda)) {
    out.push({
      id: 'cudnn',
      status: 'fail',
      rootCause: 'cudnn_version_mismatch',
      required: `a CUDA ${majorOf(t.cuda)} build of cuDNN`,
      found: `${f.cudnnPackage.name} ${f.cudnnPackage.version}`,
      message: tr('judge.cudnnCudaMajor', {
        pkg: f.cudnnPackage.name,
        pkgCuda: f.cudnnPackage.cudaMajor,
        label,
        cuda: t.cuda,
      }),
      evidence: [...ev, { text: `${f.cudnnPackage.name} ${f.cudnnPackage.version}`, source: 'site-packages metadata' }],
    });
  }
  if (t.cudnnMin) {
    const sameMajor = majorOf(loaded) === majorOf(t.cudnnMin);
    // the 4th part is a build number (9.12.0.46); a loaded library reports three parts
    const ok = sameMajor && compareVersions(truncateVersion(loaded, 3), truncateVersion(t.cudnnMin, 3)) >= 0;
    out.push({
      id: 'cudnn',
      status: ok ? 'ok' : 'fail',
      rootCause: ok ? null : 'cudnn_version_mismatch',
      required: `>=${t.cudnnMin},<${majorOf(t.cudnnMin) + 1}`,
      found: loaded,
      message: ok
        ? tr('judge.cudnnMinOk', { loaded, label, min: t.cudnnMin, major: majorOf(t.cudnnMin) })
        : tr('judge.cudnnMinFail', { label, min: t.cudnnMin, major: majorOf(t.cudnnMin), loaded }),
      evidence: ev,
    });
  } else if (t.cudnnBuilt) {
    const rel = compareCudnn(t.cudnnBuilt, loaded);
    const tol = cudnnTolerated(t.framework, rel);
    const built = t.cudnnBuilt;
    const detail = tr(
      rel === 'other-major'
        ? 'judge.cudnnOtherMajor'
        : rel === 'older-minor'
          ? 'judge.cudnnOlder'
          : rel === 'newer-minor'
            ? 'judge.cudnnNewer'
            : 'judge.cudnnSame',
      { built },
    );
    out.push({
      id: 'cudnn',
      status: tol.ok ? 'ok' : 'fail',
      rootCause: tol.ok ? null : 'cudnn_version_mismatch',
      required:
        rel === 'other-major' || rel === 'older-minor' ? `>=${majorMinor(built)},<${majorOf(built) + 1}` : undefined,
      found: loaded,
      message: tol.ok
        ? tr('judge.cudnnLoads', { label, loaded, detail })
        : tr('judge.cudnnLoadsFail', { label, loaded, detail, why: tol.text }),
      evidence: tol.ok ? ev : [...ev, { text: tol.text, source: tol.source }],
    });
  }
  const rel = cudnnRelease(loaded);
  if (rel) {
    for (const g of m.gpus) {
      if (g.cc && compareVersions(g.cc, rel.minComputeCapability) < 0) {
        out.push({
          id: 'cudnn',
          status: 'fail',
          rootCause: 'gpu_arch_unsupported',
          gpu: g.index,
          required: `compute capability >=${rel.minComputeCapability}`,
          found: g.cc,
          message: tr('judge.cudnnCc', { loaded, min: rel.minComputeCapability, gpu: g.index, name: g.name, cc: g.cc }),
          evidence: [
            ...ev,
            {
              text: `cuDNN ${rel.from}–${rel.to}: compute capability ${rel.minComputeCapability}+`,
              source: rel.source,
            },
          ],
        });
      }
    }
  }
  return out;
}

/** nvcc differing from the framework's CUDA is normal: wheels bring their own runtime. Always informational. */
export function judgeNvcc(t: Target, m: MachineFacts): Verdict | null {
  if (!t.gpu || !t.cuda || !m.nvcc) return null;
  const label = targetLabel(t);
  const nv = majorMinor(m.nvcc.value);
  const ev: Evidence[] = [{ text: `nvcc: release ${m.nvcc.value}`, source: m.nvcc.source }];
  if (nv === majorMinor(t.cuda)) {
    return {
      id: 'nvcc',
      status: 'ok',
      rootCause: null,
      found: nv,
      message: tr('judge.nvccSame', { nv, label }),
      evidence: ev,
    };
  }
  // Paddle 2.x wheels bring no CUDA libraries: they open the machine's cuBLAS, cuDNN … at run time, so the
  // toolkit on the machine is the one they use (libcublas.so.11 for a CUDA 11 build)
  if (t.framework === 'paddle' && t.version && compareVersions(t.version, '3.0.0a0') < 0) {
    const same = majorOf(nv) === majorOf(t.cuda);
    return {
      id: 'nvcc',
      status: same ? 'ok' : 'warn',
      rootCause: same ? null : 'cuda_toolkit_mismatch',
      found: nv,
      message: same
        ? tr('judge.paddleNvccSame', { label, nv, cuda: t.cuda })
        : tr('judge.paddleNvccOther', { label, major: majorOf(t.cuda), nv, cuda: t.cuda }),
      evidence: ev,
    };
  }
  const ext =
    t.framework === 'torch'
      ? majorOf(nv) === majorOf(t.cuda)
        ? tr('judge.nvccTorchSame')
        : tr('judge.nvccTorchOther', { major: majorOf(t.cuda) })
      : '';
  return {
    id: 'nvcc',
    status: 'ok',
    rootCause: null,
    found: nv,
    message: tr('judge.nvccOther', { nv, label, cuda: t.cuda, ext }),
    evidence: ev,
  };
}

/** Every verdict for one installed framework in one environment. */
export function judgeInstalled(t: Target, f: FrameworkFacts, env: EnvFacts, m: MachineFacts): Verdict[] {
  return [
    judgeDriver(t, m),
    ...judgeArch(t, m),
    judgePython(t, env.python, `${env.prefix} (pythonX.Y)`),
    ...judgeCudnn(t, f, m),
    judgeNvcc(t, m),
  ].filter((v): v is Verdict => v !== null);
}
