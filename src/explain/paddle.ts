// What `explain` needs to know about PaddlePaddle, for the engine to call: the facts Paddle's own lines carry
// (compiled vs. found cuDNN and CUDA, the library it could not open, the Windows error code) and the fix for
// each root cause in Paddle's terms. Signatures for Paddle's messages are generated elsewhere from
// shared/messages/paddle.json; this module has no patterns that decide a cause, only readers of numbers and
// the fix texts. Facts come from src/knowledge/paddle.json (PaddlePaddle's install docs) through compat.
import type { RootCauseId } from '../core/root-causes.js';
import { minDriverForCuda } from '../compat/cuda.js';
import { cudaOfPaddleVariant, paddleBuild, paddleCudnnFacts, paddleInstallCommand, splitPaddleVersion, type PaddleBuild, type PaddleVariantInfo } from '../compat/paddle.js';
import { compareVersions, isVersion } from '../compat/version.js';
import type { CauseFix } from './types.js';

/** Numbers Paddle prints about itself (formats of paddle/phi/backends, quoted in shared/messages/paddle.json). */
export interface PaddleLogFacts {
  /** "The installed Paddle is compiled with CUDNN 8.6, but CUDNN version in your machine is 8.4" */
  compiledCudnn?: string;
  machineCudnn?: string;
  /** "… compiled with CUDA 11.8, but CUDA runtime version in your machine is 11.6": the second is the driver's CUDA */
  compiledCuda?: string;
  driverCuda?: string;
  /** "The third-party dynamic library (cudnn64_8.dll) that Paddle depends on …" */
  library?: string;
  /** "(error code is 126)" on Windows, the dlerror text on Linux */
  errorCode?: string;
  /** "Cannot load cudnn shared library" */
  cudnnNotLoaded?: boolean;
}

export function paddleLogFacts(lines: readonly string[]): PaddleLogFacts {
  const out: PaddleLogFacts = {};
  for (const l of lines) {
    let m = /compiled with CUDNN (\d+\.\d+), but CUDNN version in your machine is (\d+\.\d+)/i.exec(l);
    if (m) {
      out.compiledCudnn ??= m[1];
      out.machineCudnn ??= m[2];
    }
    m = /compiled with CUDA (\d+\.\d+), but CUDA runtime version in your machine is (\d+\.\d+)/i.exec(l);
    if (m) {
      out.compiledCuda ??= m[1];
      out.driverCuda ??= m[2];
    }
    m = /third-party dynamic library \(([^)]+)\) that Paddle depends on is not configured correctly\.?(?: \(error code is ([^)]*)\))?/i.exec(l);
    if (m) {
      out.library ??= m[1];
      if (m[2]) out.errorCode ??= m[2];
    }
    if (/Cannot load cudnn shared library/i.test(l)) out.cudnnNotLoaded = true;
  }
  return out;
}

export interface PaddleFixContext {
  /** the log's lines that matched (evidence texts), Paddle's numbers are read from them */
  lines: readonly string[];
  /** "2.5.2", "2.6.1.post120": the paddlepaddle-gpu version the log or the reporter states */
  frameworkVersion?: string;
  /** hints the engine gathered ("compiled", "runtime", "lib", "minDriver") */
  hints?: Record<string, string[]>;
}

/** The build a stated version names, when the data has it (and the release when the build is not named). */
export function paddleBuildOf(version: string | undefined): { release: PaddleBuild; build: PaddleVariantInfo | null } | null {
  if (!version) return null;
  const { version: v, variant } = splitPaddleVersion(version);
  if (!isVersion(v)) return null;
  const release = paddleBuild(v, variant ?? (compareVersions(v, '3.0.0a0') < 0 ? 'pypi' : undefined)) ?? paddleBuild(v);
  return release ? { release, build: release.variant } : null;
}

const CHECK = 'python -c "import paddle; paddle.utils.run_check()"';

/** The fix of a root cause in Paddle's terms; null where the generic fix says it as well. */
export function paddleFix(id: RootCauseId, c: PaddleFixContext): CauseFix | null {
  const facts = paddleLogFacts(c.lines);
  const known = paddleBuildOf(c.frameworkVersion);
  const b = known?.build ?? null;
  const v2 = known ? compareVersions(known.release.version, '3.0.0a0') < 0 : true;
  const label = b ? `paddlepaddle-gpu ${b.pip} (CUDA ${b.cuda}${b.cudnn ? `, cuDNN ${b.cudnn}` : ''})` : 'your paddlepaddle-gpu build';
  switch (id) {
    case 'library_missing': {
      const lib = facts.library ?? c.hints?.lib?.[0] ?? (facts.cudnnNotLoaded ? 'cuDNN' : 'a CUDA library');
      const loading = paddleCudnnFacts(/\.dll$/i.test(lib) ? 'windows' : 'linux').loading;
      const text = [
        `Paddle could not open ${lib}${facts.errorCode === '126' ? ' (Windows error 126: the DLL, or one it needs, is on no folder of PATH)' : ''}.`,
        v2 ? `Paddle 2.x brings no CUDA libraries: it opens the machine's cuDNN, cuBLAS … at the first GPU call, so ${label} needs them installed and on the library path.` : '',
        /\.dll$/i.test(lib) ? '' : 'Paddle opens the unversioned libcudnn.so: a system whose cuDNN package has only libcudnn.so.8 (the -dev package adds the link) fails the same way.',
        /\.dll$/i.test(lib) && loading ? loading.text : '',
        'Paddle 2.5 and 2.6 also come as builds with cuDNN inside (the …/cudnnin/ index of paddlepaddle.org.cn), and every 3.x wheel brings cuDNN as a pip dependency.',
      ].filter(Boolean);
      const cmds = [CHECK];
      if (!/\.dll$/i.test(lib)) cmds.push(`ldconfig -p | grep -F ${/cudnn/i.test(lib) ? 'libcudnn' : lib.replace(/\.so.*$/, '')}`);
      if (b?.cudnn) cmds.push(`conda install -c conda-forge cudnn=${b.cudnn.split('.').slice(0, 2).join('.')}    # into the active environment`);
      return { text: text.join(' '), commands: cmds };
    }
    case 'cudnn_version_mismatch': {
      const built = facts.compiledCudnn ?? b?.cudnn ?? c.hints?.compiled?.[0];
      const found = facts.machineCudnn ?? c.hints?.runtime?.[0];
      const major = built?.split('.')[0];
      const text = `Paddle was built with cuDNN ${built ?? '(see its warning)'}${found ? ` and finds ${found} on this machine` : ''}: a cuDNN older than the build (or of another major) "may cause serious incompatible bug", Paddle's own words. Install cuDNN ${built ? `${built} or a newer ${major}.x` : 'of the build'} and make it the one on the library path, or install the paddlepaddle-gpu build made for the cuDNN you have.`;
      const cmds = [CHECK];
      if (built) cmds.push(`conda install -c conda-forge cudnn=${built.split('.').slice(0, 2).join('.')}    # into the active environment`);
      return { text, commands: cmds };
    }
    case 'driver_too_old': {
      const compiled = facts.compiledCuda ?? b?.cuda;
      if (!compiled) return null;
      const min = minDriverForCuda(compiled, 'linux');
      const fits = known ? known.release.variants.filter((x) => !facts.driverCuda || compareVersions(x.cuda, facts.driverCuda) <= 0).sort((x, y) => compareVersions(y.cuda, x.cuda))[0] : undefined;
      return {
        text: `Paddle was built with CUDA ${compiled}${facts.driverCuda ? `, but the driver supports CUDA ${facts.driverCuda} (what Paddle calls "CUDA runtime version in your machine" is the driver's)` : ''}. Update the NVIDIA driver${min.min ? ` to ${min.min} or newer` : ''}, or install the paddlepaddle-gpu build for a CUDA the driver supports${fits ? ` (${fits.pip}, CUDA ${fits.cuda})` : ''}.`,
        commands: ['nvidia-smi', ...(fits ? [paddleInstallCommand(fits)] : [])],
        manual: ['Install a newer NVIDIA driver (distribution package or NVIDIA installer; needs root and usually a reboot).'],
      };
    }
    case 'cuda_toolkit_mismatch': {
      if (!known) return null;
      const builds = known.release.variants;
      return {
        text: `${label} needs ${v2 ? `the CUDA ${b?.cuda ?? 'version of its build'} libraries on the machine (Paddle 2.x brings none)` : 'the CUDA of its build'}. Install that CUDA (beside others is fine, on the library path), or the paddlepaddle-gpu build for the CUDA you have: ${builds.map((x) => `${x.pip} (CUDA ${x.cuda})`).join(', ')}.`,
        commands: [CHECK, 'nvcc --version', ...(b ? [] : builds.slice(-1).map(paddleInstallCommand))],
      };
    }
    case 'gpu_arch_unsupported': {
      const newest = known ? [...known.release.variants].sort((x, y) => compareVersions(y.cuda, x.cuda))[0] : undefined;
      return {
        text: `This paddlepaddle-gpu build has no code for the GPU. Paddle's install docs tie GPU generations to CUDA builds (Ampere, sm_80/sm_86: a CUDA 11 build; Hopper, sm_90: CUDA 12): install a build made with a CUDA that knows the GPU${newest ? `, like ${newest.pip} (CUDA ${newest.cuda})` : ''}.`,
        commands: newest ? [paddleInstallCommand(newest)] : [CHECK],
      };
    }
    case 'framework_preallocation':
      return {
        text: "Paddle's pip packages allocate as needed (FLAGS_allocator_strategy=auto_growth); with naive_best_fit, or a large FLAGS_fraction_of_gpu_memory_to_use, Paddle takes most of the GPU at start and leaves nothing to other processes or to cuDNN. Use auto_growth.",
        commands: ['export FLAGS_allocator_strategy=auto_growth'],
      };
    case 'gpu_memory_exhausted':
      return {
        text: 'Make the job smaller: lower the batch size or the input size. Use mixed precision (paddle.amp.auto_cast() with paddle.amp.GradScaler) and, for large models, recompute (paddle.distributed.fleet.utils.recompute). Paddle\'s message says how much it had allocated and how much the GPU still had: when its own share is small, another process holds the memory.',
        commands: ['nvidia-smi'],
      };
    case 'no_device_visible':
      return {
        text: 'Paddle sees no GPU ("GetCUDADeviceCount():0"). The CPU package paddlepaddle may be installed instead of (or besides) paddlepaddle-gpu, CUDA_VISIBLE_DEVICES may hide the GPUs, or the driver is not loaded.',
        commands: ['python -c "import paddle; print(paddle.is_compiled_with_cuda(), paddle.device.cuda.device_count())"', 'pip list', 'nvidia-smi -L'],
      };
    default:
      return null;
  }
}

/** "cu118" → "11.8" for a Paddle build name; null otherwise. */
export function cudaOfBuild(name: string): string | null {
  return cudaOfPaddleVariant(name);
}
