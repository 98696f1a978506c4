// Verdicts: does a target (a framework build) work on a machine? One function per fact (driver, GPU
// architecture, Python, cuDNN, nvcc), shared by the `versions.*` checks and `compat`. Pure.
import type { Evidence } from '../core/finding.js';
import type { RootCauseId } from '../core/root-causes.js';
import { archCoverage, cudaSupportsComputeCapability, maxCudaForDriver } from './cuda.js';
import { compareCudnn, cudnnRelease, cudnnTolerated } from './cudnn.js';
import type { EnvFacts, FrameworkFacts, MachineFacts } from './facts.js';
import type { Target } from './target.js';
import { compareVersions, majorMinor, majorOf, truncateVersion } from './version.js';

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
  const v = t.version ?? '(unknown version)';
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
    return { id: 'driver', status: 'unknown', rootCause: null, message: `No NVIDIA driver answered, so whether it runs the CUDA ${t.cuda} runtime of ${label} is unknown`, required: min ? `>=${min}` : undefined, evidence: [] };
  }
  const ev: Evidence[] = [{ text: `driver_version ${m.driver}${m.driverCuda ? `, CUDA Version ${m.driverCuda}` : ''}`, source: SMI }];
  if (min === null) {
    return { id: 'driver', status: 'unknown', rootCause: null, message: `gpu-env-doctor's data has no ${m.os} driver minimum for CUDA ${t.cuda} (${label})`, found: m.driver, evidence: ev };
  }
  if (compareVersions(m.driver, min) < 0) {
    const limit = maxCudaForDriver(m.driver, m.os);
    return {
      id: 'driver',
      status: 'fail',
      rootCause: 'driver_too_old',
      message: `${label} brings the CUDA ${t.cuda} runtime, which needs NVIDIA driver ${min} or newer; this driver is ${m.driver}${limit ? ` (it runs CUDA up to ${limit})` : ''}`,
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
      ? `Driver ${m.driver} runs the CUDA ${t.cuda} runtime of ${label} through minor-version compatibility (needs ${min}+; the full CUDA ${t.cuda} driver is ${full})`
      : `Driver ${m.driver} runs the CUDA ${t.cuda} runtime of ${label} (needs ${min}+)`,
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
    const ev: Evidence[] = [{ text: `GPU ${g.index}: ${g.name}, compute capability ${g.cc ?? '?'}`, source: 'nvidia-smi --query-gpu=name,compute_cap' }];
    if (!g.cc) {
      out.push({ id: 'gpu-arch', status: 'unknown', rootCause: null, gpu: g.index, message: `The compute capability of GPU ${g.index} (${g.name}) is unknown`, evidence: ev });
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
          message: `CUDA ${t.cuda} cannot build code for GPU ${g.index} (${g.name}, compute capability ${g.cc}): ${label} runs there only if it ships PTX the driver can JIT-compile; otherwise expect "no kernel image is available for execution on the device". Use a build with a newer CUDA.`,
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
          ? `GPU ${g.index} (${g.name}, ${g.cc}) is supported by ${label} (needs ${t.minComputeCapability}+)`
          : `${label} needs compute capability ${t.minComputeCapability} or higher; GPU ${g.index} (${g.name}) is ${g.cc}`,
        evidence: ev,
      });
      continue;
    }
    if (t.sass === null || (t.sass.length === 0 && (t.ptx ?? []).length === 0)) {
      out.push({ id: 'gpu-arch', status: 'unknown', rootCause: null, gpu: g.index, found: g.cc, message: `Which GPU architectures ${label} was built for is not known`, evidence: ev });
      continue;
    }
    const cov = archCoverage(g.cc, t.sass, t.ptx ?? []);
    const list = [...t.sass.map((c) => `sm_${c.replace('.', '')}`), ...(t.ptx ?? []).map((c) => `compute_${c.replace('.', '')}`)].join(' ');
    ev.push({ text: `${label} targets: ${list}`, source: t.archsConfidence || 'gpu-env-doctor data' });
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
        message: `${label} has no kernels for GPU ${g.index} (${g.name}, sm_${g.cc.replace('.', '')}) and no PTX it could JIT-compile: expect "no kernel image is available for execution on the device"${soft ? ' (the architecture list of this build is not confirmed)' : ''}`,
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
          ? `${label} runs on GPU ${g.index} (${g.cc}) only by JIT-compiling its compute_${cov.via!.replace('.', '')} PTX, which needs driver ${fullDriver}+ (this is ${m.driver}): expect "the provided PTX was compiled with an unsupported toolchain"`
          : `${label} has no SASS for GPU ${g.index} (${g.cc}); the driver JIT-compiles its compute_${cov.via!.replace('.', '')} PTX (slow first start, kernels may be slower)`,
        evidence: ev,
      });
    } else {
      out.push({
        id: 'gpu-arch',
        status: 'ok',
        rootCause: null,
        gpu: g.index,
        found: g.cc,
        message: cov.kind === 'sass' ? `${label} has sm_${g.cc.replace('.', '')} code for GPU ${g.index} (${g.name})` : `${label} runs on GPU ${g.index} (${g.cc}) with its sm_${cov.via!.replace('.', '')} code (same architecture family)`,
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
    return { id: 'python', status: ok ? 'ok' : 'fail', rootCause: ok ? null : 'other', required: `>=${t.pythonMin}`, found: python, message: ok ? `Python ${python} is supported by ${label}` : `${label} needs Python ${t.pythonMin} or newer; this environment has ${python}`, evidence: ev };
  }
  if (!t.python || t.python.length === 0) return null;
  const mm = majorMinor(python);
  const range = `${t.python[0]}–${t.python[t.python.length - 1]}`;
  if (t.python.includes(mm)) return { id: 'python', status: 'ok', rootCause: null, required: range, found: mm, message: `Python ${mm} is supported by ${label} (${range})`, evidence: ev };
  if (t.pythonExperimental.includes(mm)) return { id: 'python', status: 'warn', rootCause: null, required: range, found: mm, message: `Python ${mm} is only experimental for ${label} (supported: ${range})`, evidence: ev };
  return { id: 'python', status: 'fail', rootCause: 'other', required: range, found: mm, message: `${label} supports Python ${range}; this environment has ${mm}`, evidence: ev };
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
      message: `${f.cudnnPackage.name} is cuDNN for CUDA ${f.cudnnPackage.cudaMajor}, but ${label} runs CUDA ${t.cuda}`,
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
      message: ok ? `cuDNN ${loaded} suits ${label} (needs ${t.cudnnMin}+ of cuDNN ${majorOf(t.cudnnMin)})` : `${label} needs cuDNN ${t.cudnnMin} or newer within cuDNN ${majorOf(t.cudnnMin)}; it finds ${loaded} ("Outdated cuDNN installation found")`,
      evidence: ev,
    });
  } else if (t.cudnnBuilt) {
    const rel = compareCudnn(t.cudnnBuilt, loaded);
    const tol = cudnnTolerated(t.framework, rel);
    const built = t.cudnnBuilt;
    const detail = rel === 'other-major' ? `another major (built with ${built})` : rel === 'older-minor' ? `older than the ${built} it was built with` : rel === 'newer-minor' ? `newer than the ${built} it was built with, which cuDNN's compatibility allows` : `the ${built} it was built with`;
    out.push({
      id: 'cudnn',
      status: tol.ok ? 'ok' : 'fail',
      rootCause: tol.ok ? null : 'cudnn_version_mismatch',
      required: rel === 'other-major' || rel === 'older-minor' ? `>=${majorMinor(built)},<${majorOf(built) + 1}` : undefined,
      found: loaded,
      message: tol.ok ? `${label} loads cuDNN ${loaded}: ${detail}` : `${label} loads cuDNN ${loaded}: ${detail}; ${tol.text}`,
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
          message: `cuDNN ${loaded} supports compute capability ${rel.minComputeCapability} and up; GPU ${g.index} (${g.name}) is ${g.cc}`,
          evidence: [...ev, { text: `cuDNN ${rel.from}–${rel.to}: compute capability ${rel.minComputeCapability}+`, source: rel.source }],
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
    return { id: 'nvcc', status: 'ok', rootCause: null, found: nv, message: `nvcc (CUDA ${nv}) is the same CUDA as ${label} uses`, evidence: ev };
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
        ? `${label} loads the CUDA libraries of the machine (Paddle 2.x bundles none); this toolkit is CUDA ${nv}, the same major as its CUDA ${t.cuda}`
        : `${label} loads the CUDA ${majorOf(t.cuda)} libraries of the machine (Paddle 2.x bundles none: cuBLAS, cuDNN … must be CUDA ${majorOf(t.cuda)} builds on the library path), but the toolkit here is CUDA ${nv}. Install a CUDA ${t.cuda} toolkit (or conda's cudatoolkit=${t.cuda}) beside it, or PaddlePaddle 3.x, whose wheels bring their own CUDA libraries.`,
      evidence: ev,
    };
  }
  const ext = t.framework === 'torch'
    ? majorOf(nv) === majorOf(t.cuda)
      ? ' Building CUDA extensions against it works (torch.utils.cpp_extension only warns about a different minor).'
      : ` Only building CUDA extensions for it (torch.utils.cpp_extension) needs an nvcc of CUDA ${majorOf(t.cuda)}: it refuses another major.`
    : '';
  return {
    id: 'nvcc',
    status: 'ok',
    rootCause: null,
    found: nv,
    message: `nvcc is CUDA ${nv} while ${label} uses CUDA ${t.cuda}: that is normal, not an error. The framework brings its own CUDA runtime (pip nvidia-* packages or bundled libraries) and never uses nvcc or /usr/local/cuda to run.${ext}`,
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
