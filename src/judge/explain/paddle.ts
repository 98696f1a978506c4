// What `explain` needs to know about PaddlePaddle, for the engine to call: the facts Paddle's own lines carry
// (compiled vs. found cuDNN and CUDA, the library it could not open, the Windows error code) and the fix for
// each root cause in Paddle's terms. Signatures for Paddle's messages are generated elsewhere from
// shared/messages/paddle.json; this module has no patterns that decide a cause, only readers of numbers and
// the fix texts. Facts come from src/knowledge/paddle.json (PaddlePaddle's install docs) through compat.
import type { RootCauseId } from '../../knowledge/root-causes.js';
import { minDriverForCuda } from '../compat/cuda.js';
import {
  cudaOfPaddleVariant,
  paddleBuild,
  paddleCudnnFacts,
  paddleInstallCommand,
  splitPaddleVersion,
  type PaddleBuild,
  type PaddleVariantInfo,
} from '../compat/paddle.js';
import { compareVersions, isVersion } from '../compat/version.js';
import type { CauseFix } from './types.js';
import { joinList, t } from '../../base/i18n/index.js';
import { regexOf } from '../../base/regex.js';

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

/** "The third-party dynamic library (X) that Paddle depends on is not configured correctly. (error code is N)" */
const LIBRARY_NOT_CONFIGURED = regexOf(
  [
    /third-party dynamic library \(([^)]+)\) that Paddle depends on is not configured correctly\.?/, // 1: the library
    /(?: \(error code is ([^)]*)\))?/, // 2: the error code
  ],
  'i',
);

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
    m = LIBRARY_NOT_CONFIGURED.exec(l);
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
export function paddleBuildOf(
  version: string | undefined,
): { release: PaddleBuild; build: PaddleVariantInfo | null } | null {
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
  const label = b
    ? `paddlepaddle-gpu ${b.pip} (CUDA ${b.cuda}${b.cudnn ? `, cuDNN ${b.cudnn}` : ''})`
    : t('paddle.yourBuild');
  switch (id) {
    case 'library_missing': {
      const lib = facts.library ?? c.hints?.lib?.[0] ?? (facts.cudnnNotLoaded ? 'cuDNN' : t('paddle.aCudaLib'));
      const loading = paddleCudnnFacts(/\.dll$/i.test(lib) ? 'windows' : 'linux').loading;
      const text = [
        t(facts.errorCode === '126' ? 'paddle.couldNotOpen126' : 'paddle.couldNotOpen', { lib }),
        v2 ? t('paddle.v2NoLibs', { label }) : '',
        /\.dll$/i.test(lib) ? '' : t('paddle.unversioned'),
        // (the knowledge's fact in the reader's language; its source stays in src/knowledge/paddle.json)
        /\.dll$/i.test(lib) && loading ? t('paddle.k.loadingWindows') : '',
        t('paddle.cudnnin'),
      ].filter(Boolean);
      const cmds = [CHECK];
      if (!/\.dll$/i.test(lib))
        cmds.push(`ldconfig -p | grep -F ${/cudnn/i.test(lib) ? 'libcudnn' : lib.replace(/\.so.*$/, '')}`);
      if (b?.cudnn)
        cmds.push(
          `conda install -c conda-forge cudnn=${b.cudnn.split('.').slice(0, 2).join('.')}    # into the active ` +
            `environment`,
        );
      return { text: joinList(text, 'sentence'), commands: cmds };
    }
    case 'cudnn_version_mismatch': {
      const built = facts.compiledCudnn ?? b?.cudnn ?? c.hints?.compiled?.[0];
      const found = facts.machineCudnn ?? c.hints?.runtime?.[0];
      const major = built?.split('.')[0];
      const text = t('paddle.cudnn', {
        built: built ?? t('paddle.seeWarning'),
        found: found ?? 'none',
        want: built ? t('paddle.orNewer', { built, major: major ?? '?' }) : t('paddle.ofBuild'),
      });
      const cmds = [CHECK];
      if (built)
        cmds.push(
          `conda install -c conda-forge cudnn=${built.split('.').slice(0, 2).join('.')}    # into the active ` +
            `environment`,
        );
      return { text, commands: cmds };
    }
    case 'driver_too_old': {
      const compiled = facts.compiledCuda ?? b?.cuda;
      if (!compiled) return null;
      const min = minDriverForCuda(compiled, 'linux');
      const fits = known
        ? known.release.variants
            .filter((x) => !facts.driverCuda || compareVersions(x.cuda, facts.driverCuda) <= 0)
            .sort((x, y) => compareVersions(y.cuda, x.cuda))[0]
        : undefined;
      return {
        text: t('paddle.driver', {
          compiled,
          driverCuda: facts.driverCuda ?? 'none',
          min: min.min ?? 'none',
          fits: fits ? `${fits.pip}, CUDA ${fits.cuda}` : 'none',
        }),
        commands: ['nvidia-smi', ...(fits ? [paddleInstallCommand(fits)] : [])],
        manual: [t('fix.driver.manual')],
      };
    }
    case 'cuda_toolkit_mismatch': {
      if (!known) return null;
      const builds = known.release.variants;
      return {
        text: v2
          ? t('paddle.cudaV2', {
              label,
              cuda: b?.cuda ?? t('paddle.versionOfBuild'),
              builds: builds.map((x) => `${x.pip} (CUDA ${x.cuda})`).join(', '),
            })
          : t('paddle.cuda', { label, builds: builds.map((x) => `${x.pip} (CUDA ${x.cuda})`).join(', ') }),
        commands: [CHECK, 'nvcc --version', ...(b ? [] : builds.slice(-1).map(paddleInstallCommand))],
      };
    }
    case 'gpu_arch_unsupported': {
      const newest = known ? [...known.release.variants].sort((x, y) => compareVersions(y.cuda, x.cuda))[0] : undefined;
      return {
        text: t('paddle.arch', { newest: newest ? `${newest.pip} (CUDA ${newest.cuda})` : 'none' }),
        commands: newest ? [paddleInstallCommand(newest)] : [CHECK],
      };
    }
    case 'framework_preallocation':
      return {
        text: t('paddle.prealloc'),
        commands: ['export FLAGS_allocator_strategy=auto_growth'],
      };
    case 'gpu_memory_exhausted':
      return {
        text: t('paddle.oom'),
        commands: ['nvidia-smi'],
      };
    case 'no_device_visible':
      return {
        text: t('paddle.noGpu'),
        commands: [
          'python -c "import paddle; print(paddle.is_compiled_with_cuda(), paddle.device.cuda.device_count())"',
          'pip list',
          'nvidia-smi -L',
        ],
      };
    default:
      return null;
  }
}

/** "cu118" → "11.8" for a Paddle build name; null otherwise. */
export function cudaOfBuild(name: string): string | null {
  return cudaOfPaddleVariant(name);
}
