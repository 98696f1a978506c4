// The fix for each root cause, fitted to the framework in the log and to what the evidence named
// (the PID to end, the versions to align). Commands are safe to copy; ending processes and installing
// drivers are manual steps, described and never run.
import type { RootCauseId } from '../../../knowledge/root-causes.js';
import type { Platform } from '../../platform/shell-syntax.js';
import { adaptFix } from '../../platform/adapt-fix.js';
import { dllNamesIn } from '../../platform/windows.js';
import type { Entry } from '../analyse/board.js';
import { paddleFix } from '../paddle.js';
import { type Family, family } from './family.js';
import { cudaMajorOfInput, cudnnMajorOfInput, cudnnWheel, tfLoadsPipCuda, tfTestedBuild } from './versions.js';
import type { CauseFix, Framework } from '../types.js';
import { joinList, type MessageKey, t } from '../../../base/i18n/index.js';
import table from './fixes.json' with { type: 'json' };
import { guarded } from '../guarded.js';

export interface FixContext {
  framework: Framework | undefined;
  hints: Entry['hints'];
  /** cuDNN convolution symptoms were seen (benchmark mode tries workspace-hungry algorithms) */
  cudnnSymptoms: boolean;
  /**
   * where the job ran (src/judge/platform/detect.ts): Windows and WSL get their own syntax and facts; omitted: Linux
   */
  platform?: Platform;
  /** the lines behind the diagnosis (evidence texts): DLL names, Paddle's own numbers */
  lines?: readonly string[];
  /** the framework version the log or the reporter states */
  frameworkVersion?: string;
  /** the job ran in a container (the reporter says so, or the lines show the container runtime) */
  container?: boolean;
  /** the CUDA (the framework's build, else the one installed) and cuDNN versions the reporter states */
  stated?: { cuda?: string; cudnn?: string };
}

/**
 * the frameworks' messages for a build without CUDA (catalog: pt-not-compiled-with-cuda, jax-cuda-jaxlib-not-installed,
 * mxnet-compile-with-cuda, caffe-no-gpu)
 */
const CPU_ONLY_BUILD =
  /not compiled with CUDA enabled|CUDA-enabled jaxlib is not installed|compile with CUDA enabled|CPU-only Caffe/i;
/**
 * JAX's CUDA plugin was there and ran: it failed to find a device. jaxlib then falls back to the CPU with its
 * "CUDA-enabled jaxlib is not installed" line, which here is an echo, not the cause.
 */
const JAX_PLUGIN_RAN = /jax_plugins[./]xla_cuda\d+|cuInit\(0\) failed|CUDA_ERROR_NO_DEVICE/;
/** the loader refused a library named in LD_PRELOAD (glibc's ld.so message) */
const PRELOAD_FAILED = /ld\.so: object '([^']+)' from LD_PRELOAD cannot be preloaded(?: \(([^)]*)\))?/;
/** CUDA's error 803: the user-space driver (libcuda) that loaded does not go with the kernel module */
const DRIVER_MISMATCH =
  /Error 803\b|unsupported display driver \/ cuda driver combination|CUDA_ERROR_SYSTEM_DRIVER_MISMATCH/i;
/** Docker found no runtime for `--gpus` (daemon/daemon.go: "could not select device driver … [[gpu]]") */
const DOCKER_NO_GPU_RUNTIME = /could not select device driver .*capabilities: \[\[gpu\]\]/i;
/** NVML's unspecified error (nvml.h NVML_ERROR_UNKNOWN), as nvidia-smi prints it */
const NVML_UNKNOWN = /Failed to initialize NVML: Unknown Error/i;
/** a path that can be shown inside a command as it is (no quoting needed, nothing a shell would expand) */
const PLAIN_PATH = /^\/[\w./+-]+$/;
/** a package that names its CUDA major, and a wheel's CUDA tag (cudaMajorIn) */
const PACKAGE_CUDA = /xla_cuda(\d{2})\b|jax[-_]cuda(\d{2})[-_]|jax\[cuda(\d{2})|nvidia-[a-z-]+-cu(\d{2})\b/i;
const WHEEL_CUDA_TAG = /\+cu(\d{2,3})\b/;
/** a pip install command */
const PIP_INSTALL = /^(?:python -m )?pip install\b/;
/*
 * What a text must hold, in lower case, for each pattern to match it: one of these strings. Tested first, so that a
 * pattern is compiled (natively, when first asked for) only for a text that may match it.
 */
const G_PACKAGE_CUDA = ['xla_cuda', 'jax', 'nvidia-'];
const G_WHEEL_CUDA_TAG = ['+cu'];
const G_PRELOAD_FAILED = ['ld_preload cannot be preloaded'];
const G_PIP_INSTALL = ['pip install'];
const packageCuda = guarded(PACKAGE_CUDA, G_PACKAGE_CUDA);
const wheelCudaTag = guarded(WHEEL_CUDA_TAG, G_WHEEL_CUDA_TAG);
const preloadFailed = guarded(PRELOAD_FAILED, G_PRELOAD_FAILED);
const pipInstall = guarded(PIP_INSTALL, G_PIP_INSTALL);

/**
 * The CUDA major the log's own packages name: JAX's plugin (xla_cuda13, jax-cuda13-plugin), a pip extra
 * (jax[cuda13]), a wheel tag (+cu130, nvidia-*-cu12). The install lines follow it, so a CUDA 13 log is never
 * told to install CUDA 12 packages next to its own. Default 12 (the pip wheels most logs still show).
 */
export function cudaMajorIn(lines: readonly string[]): string {
  for (const l of lines) {
    const lower = l.toLowerCase();
    const m = packageCuda.exec(l, lower);
    const v = m?.slice(1).find((x) => x !== undefined);
    if (v) return v;
    const tag = wheelCudaTag.exec(l, lower)?.[1];
    if (tag) return tag.length === 3 ? tag.slice(0, 2) : tag.slice(0, 1);
  }
  return '12';
}

/** A fix as data (fixes.json): message keys for the text and manual steps, commands with {cu} for the CUDA major. */
interface FixRow {
  text: string;
  commands: string[];
  manual?: string[];
}
const BY_CAUSE: Record<string, FixRow> = table.byCause;
const BY_FAMILY: Record<string, Partial<Record<Family, FixRow>>> = table.byFamily;
const SETTINGS: Record<string, { what: string; example: string }> = table.settings;

/** The row in the reader's language, the log's CUDA major in its commands. */
function fromRow(row: FixRow, cu: string): CauseFix {
  return {
    text: t(row.text as MessageKey),
    commands: row.commands.map((x) => x.replaceAll('{cu}', cu)),
    ...(row.manual ? { manual: row.manual.map((k) => t(k as MessageKey)) } : {}),
  };
}

/** The fix of a cause (`byCause`), or of a cause in a framework family, the family's or the others' (`byFamily`). */
function dataFix(key: string, cu: string, fam?: Family): CauseFix {
  const row = fam ? (BY_FAMILY[key]?.[fam] ?? BY_FAMILY[key]?.other) : BY_CAUSE[key];
  if (!row) throw new Error(`fixes.json has no fix ${key}${fam ? ` for ${fam}` : ''}`);
  return fromRow(row, cu);
}

/** The fix for a root cause: in the framework's terms (Paddle's from explain/paddle.ts), then for the platform. */
export function fixFor(id: RootCauseId, c: FixContext): CauseFix {
  const fam = family(c.framework);
  // a library forced in with LD_PRELOAD that the loader refused: that variable is the fix, whichever cause it reads as
  const preload = (c.lines ?? []).map((l) => preloadFailed.exec(l)).find((m) => m !== null);
  if (preload && (id === 'library_conflict' || id === 'library_missing'))
    return platformed(preloadFix(preload[1]!, preload[2]), id, c);
  const base =
    (fam === 'paddle'
      ? paddleFix(id, {
          lines: c.lines ?? [],
          hints: c.hints,
          ...(c.frameworkVersion ? { frameworkVersion: c.frameworkVersion } : {}),
        })
      : null) ?? linuxFix(id, c);
  return platformed(base, id, c);
}

function platformed(fix: CauseFix, id: RootCauseId, c: FixContext): CauseFix {
  // a fix that installs with pip says, where the catalog has it (zh), how to reach a pip mirror
  const mirror = fix.commands.some((x) => pipInstall.test(x, x.toLowerCase()))
    ? t(family(c.framework) === 'torch' ? 'fix.pipMirror' : 'fix.pipMirrorOther')
    : '';
  const base = mirror ? { ...fix, text: joinList([fix.text, mirror], 'sentence') } : fix;
  if (!c.platform || c.platform === 'linux') return base;
  return adaptFix(base, c.platform, {
    cause: id,
    family: family(c.framework),
    dlls: dllNamesIn(c.lines ?? []),
    ...(c.frameworkVersion ? { frameworkVersion: c.frameworkVersion } : {}),
  });
}

/** LD_PRELOAD names a library the loader could not use: show the variable and the file, and run without it. */
function preloadFix(path: string, why: string | undefined): CauseFix {
  return {
    text: why ? t('fix.preload.textWhy', { lib: path, why }) : t('fix.preload.text', { lib: path }),
    commands: [
      'echo "$LD_PRELOAD"',
      ...(PLAIN_PATH.test(path) ? [`ls -lL ${path}`] : []),
      'unset LD_PRELOAD    # for this shell; then rerun',
    ],
  };
}

function linuxFix(id: RootCauseId, c: FixContext): CauseFix {
  const fam = family(c.framework);
  const h = c.hints;
  const lines = c.lines ?? [];
  const cu = cudaMajorIn(lines);
  const jaxCuda = `jax[cuda${cu}]`;
  switch (id) {
    case 'gpu_memory_exhausted': {
      const steps = [t('fix.oom.smaller')];
      if (fam === 'torch') {
        steps.push(t('fix.oom.torchAccum'));
        steps.push(t('fix.oom.torchAmp'));
        if (c.cudnnSymptoms) steps.push(t('fix.oom.torchBenchmark'));
      } else if (fam === 'tf') {
        steps.push(t('fix.oom.tfAmp'));
        steps.push(t('fix.oom.tfAccum'));
      } else if (fam === 'jax') {
        steps.push(t('fix.oom.jax'));
      }
      return {
        text: joinList(steps, 'sentence'),
        commands: fam === 'torch' ? ['export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True'] : [],
      };
    }
    case 'memory_held_by_other_process': {
      const pids = h.pid ?? [];
      const manual = pids.map((p) => t('fix.held.kill', { pid: p }));
      if (pids.length === 0) manual.push(t('fix.held.endIt'));
      // The holder's framework decides how it gives memory back without being ended.
      for (const r of h.holderRemedy ?? []) manual.push(t('fix.held.mustKeep', { remedy: r }));
      manual.push(t('fix.held.freeGpu'));
      return {
        // a DataLoader is PyTorch's: other frameworks' leftover workers are named by what they do
        text: pids.length
          ? t(fam === 'torch' ? 'fix.held.textPidsTorch' : 'fix.held.textPids', { pids: pids.join(', ') })
          : t(fam === 'torch' ? 'fix.held.textTorch' : 'fix.held.text'),
        // the same first command check gives for a holder: fix shows each process and asks before ending it
        commands: ['gpu-env-doctor fix', 'nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv'],
        manual,
      };
    }
    case 'framework_preallocation': {
      // the machine named the preallocating framework inside the failed process (machine.ts): its setting
      const inProcess = h.inProcessFramework?.[0];
      if (fam === 'jax' || inProcess === 'jax') return dataFix(id, cu, 'jax');
      if (fam === 'tf' || inProcess === 'tensorflow') return dataFix(id, cu, 'tf');
      // the framework is not known: name both, each for its own framework (never a JAX variable for a known TensorFlow
      // log)
      return dataFix(id, cu, 'other');
    }
    case 'allocator_fragmentation':
      return dataFix(id, cu, fam);
    case 'library_conflict':
    case 'hardware_or_driver_fault':
      return dataFix(id, cu);
    case 'cudnn_version_mismatch': {
      const compiled = h.compiled?.[0] ?? h.tfCudnn?.[0];
      const runtime = h.runtime?.[0];
      const need = compiled
        ? t('fix.cudnn.needCompiled', { version: compiled.split('.').slice(0, 2).join('.') })
        : t('fix.cudnn.needBuilt');
      const text = runtime ? t('fix.cudnn.textRuntime', { runtime, need }) : t('fix.cudnn.text', { need });
      // TensorFlow before 2.14 takes cuDNN from the machine: no pip wheel reaches it
      if (fam === 'tf' && tfLoadsPipCuda(c.frameworkVersion, lines, c.platform) === false) return tfSystemFix(text, c);
      const cmds: string[] = [];
      const jaxOld = fam === 'jax' ? jaxBeforeCuda12(c) : null;
      if (jaxOld) cmds.push(...jaxOld.commands);
      else if (fam === 'jax') cmds.push(`pip install -U "${jaxCuda}"    # brings the matching cuDNN as a pip wheel`);
      else if (fam === 'tf')
        cmds.push('pip install "tensorflow[and-cuda]"    # TF 2.14+: brings matching CUDA and cuDNN wheels');
      else if (fam === 'torch') cmds.push('python -c "import torch; print(torch.backends.cudnn.version())"');
      if (compiled && Number(compiled.split('.')[0]) >= 8) {
        const mm = compiled.split('.').slice(0, 2).join('.');
        const buildCu = cudaMajorOfInput(lines, h.wantedCuda?.[0] ?? h.tfCuda?.[0] ?? c.stated?.cuda);
        const wheel = cudnnWheel(buildCu ?? cu, mm);
        const whose = buildCu ? `for the framework's CUDA ${buildCu} build` : "the cuXX of the framework's CUDA build";
        cmds.push(
          wheel
            ? `pip install "${wheel}"    # ${whose}${fam === 'tf' ? ' (TF 2.14+)' : ''}`
            : `conda install -c conda-forge cudnn=${mm}    # no pip wheel of cuDNN ${mm} for CUDA ${buildCu ?? cu}`,
        );
      }
      return { text: jaxOld ? joinList([text, jaxOld.text], 'sentence') : text, commands: cmds };
    }
    case 'cuda_toolkit_mismatch': {
      const wanted = h.wantedCuda?.[0] ?? h.tfCuda?.[0] ?? h.jaxMinCuda?.[0];
      const cmds: string[] = ['nvcc --version', 'gpu-env-doctor libs'];
      // jaxlib's pip-CUDA install brings a CUDA that meets its own floor, whatever the system has
      const jaxOld = fam === 'jax' ? jaxBeforeCuda12(c) : null;
      if (jaxOld) cmds.push(...jaxOld.commands);
      else if (fam === 'jax')
        cmds.push(`pip install -U "${jaxCuda}"    # CUDA and cuDNN as pip wheels, matched to jaxlib`);
      if (fam === 'torch')
        cmds.push(
          'pip install torch --index-url https://download.pytorch.org/whl/cu126    # pick the cuXXX your driver ' +
            'supports',
        );
      // TensorFlow before 2.14 loads the machine's CUDA: the CUDA of its tested build, else the one its log asks for
      const tfSystem = fam === 'tf' && tfLoadsPipCuda(c.frameworkVersion, lines, c.platform) === false;
      const tfCuda =
        wanted ?? (tfSystem ? (tfTestedBuild(c.frameworkVersion)?.cuda ?? cudaMajorOfInput(lines)) : undefined);
      if (fam === 'tf' && tfCuda && (tfSystem || Number(tfCuda.split('.')[0]) <= 11))
        cmds.push(`conda install -c conda-forge cudatoolkit=${tfCuda} cudnn    # in the TensorFlow environment`);
      else if (fam === 'tf') cmds.push('pip install "tensorflow[and-cuda]"');
      return {
        text: joinList(
          [
            wanted ? t('fix.cuda.text', { wanted }) : t('fix.cuda.textOther'),
            t(OWN_CUDA[fam]),
            ...(jaxOld ? [jaxOld.text] : []),
          ],
          'sentence',
        ),
        commands: cmds,
      };
    }
    case 'driver_too_old': {
      // 803: the libcuda that loaded is not the kernel driver's (most often a CUDA compat package on the library
      // path, older than the driver): a newer driver is not the fix, taking the stray libcuda off the path is
      if ((c.lines ?? []).some((l) => DRIVER_MISMATCH.test(l))) return dataFix('driver_too_old/libcuda-mismatch', cu);
      const min = h.minDriver?.[0];
      const dc = h.driverCuda?.[0];
      return {
        text: dc
          ? min
            ? t('fix.driver.textDcMin', { dc, min })
            : t('fix.driver.textDc', { dc })
          : min
            ? t('fix.driver.textMin', { min })
            : t('fix.driver.text'),
        commands: ['nvidia-smi'],
        manual: [t('fix.driver.manual')],
      };
    }
    case 'library_missing': {
      const lib = h.lib?.[0];
      const major = h.cudnnMajor?.[0] ?? (lib ? cudnnMajorOfInput([lib]) : null);
      const cmds = [`ldconfig -p | grep -E '${lib ? lib.replace(/\.so.*$/, '') : 'libcudnn|libcudart|libcublas'}'`];
      const text = lib ? t('fix.missing.textLib', { lib }) : t('fix.missing.text');
      // TensorFlow before 2.14 looks for the library on the machine's library path, never in pip's wheels
      if (fam === 'tf' && tfLoadsPipCuda(c.frameworkVersion, lines, c.platform) === false) {
        const sys = tfSystemFix(lib ? t('fix.missing.textLibSystem', { lib }) : t('fix.missing.textSystem'), c);
        return { ...sys, commands: [...cmds, ...sys.commands] };
      }
      if (lib?.startsWith('libcudnn') || major) {
        const buildCu = cudaMajorOfInput(lines, c.stated?.cuda);
        const wheel = major ? cudnnWheel(buildCu ?? cu, major) : `nvidia-cudnn-cu${buildCu ?? cu}`;
        const tfOnly = fam === 'tf' ? '    # TF 2.14+; before, the system cuDNN on LD_LIBRARY_PATH' : '';
        cmds.push(
          wheel
            ? `pip install ${wheel}${tfOnly || '    # or: conda install -c conda-forge cudnn'}`
            : `conda install -c conda-forge cudnn=${major}    # no pip wheel of cuDNN ${major} for CUDA ` +
                `${buildCu ?? cu}`,
        );
      }
      return { text, commands: cmds };
    }
    case 'gpu_arch_unsupported': {
      const cc = h.cc?.[0];
      const cmds: string[] = [];
      if (fam === 'torch')
        cmds.push(
          `pip install torch --index-url ` +
            `https://download.pytorch.org/whl/${cc && Number(cc) >= 10 ? 'cu128' : 'cu126'}`,
        );
      if (fam === 'tf')
        cmds.push('pip install "tensorflow[and-cuda]"    # a release built with a CUDA that knows this GPU');
      const source = ARCH_SOURCE[fam];
      return {
        text: joinList(
          [cc ? t('fix.arch.textCc', { cc }) : t('fix.arch.text'), ...(source ? [t(source)] : [])],
          'sentence',
        ),
        commands: cmds,
      };
    }
    case 'no_device_visible':
      // the framework's own words say its build has no CUDA: the remedy is its CUDA build, not the device list
      // (JAX's CUDA plugin that ran and found no device says the same words as a CPU-only jaxlib: not that case)
      if (
        (c.lines ?? []).some((l) => CPU_ONLY_BUILD.test(l)) &&
        !(fam === 'jax' && (c.lines ?? []).some((l) => JAX_PLUGIN_RAN.test(l)))
      )
        return dataFix('no_device_visible/cpu-only-build', cu, fam);
      // in a container, the container's own state answers the case: its fix says that first
      return containerFix(c) ?? dataFix(id, cu);
    case 'framework_bug': {
      const fix = dataFix(id, cu, fam);
      // an upgrade of a JAX whose CUDA is older than 12: what the newer release needs, and the last one for its CUDA
      const jaxOld = fam === 'jax' ? jaxBeforeCuda12(c) : null;
      if (!jaxOld) return fix;
      return {
        ...fix,
        text: joinList([fix.text, jaxOld.text], 'sentence'),
        commands: [...fix.commands.filter((x) => !/jax\[cuda\d+\]/.test(x)), ...jaxOld.commands],
      };
    }
    case 'configuration_invalid':
      return settingFix(h.setting?.[0] ?? 'PYTORCH_CUDA_ALLOC_CONF');
    case 'other': {
      const setting = h.setting?.[0];
      if (setting) return settingFix(setting);
      return { text: t('fix.other'), commands: [] };
    }
  }
}

/**
 * A GPU that a container does not see, in the container's terms: Docker without the NVIDIA runtime, a container
 * that lost its device access (NVML "Unknown Error" after the host's systemd reloaded its units: the NVIDIA
 * Container Toolkit's troubleshooting), or one started without GPUs. Null outside a container.
 */
function containerFix(c: FixContext): CauseFix | null {
  const lines = c.lines ?? [];
  if (lines.some((l) => DOCKER_NO_GPU_RUNTIME.test(l)))
    return {
      text: t('fix.container.noRuntime'),
      commands: ['docker info --format "{{json .Runtimes}}"'],
      manual: [t('fix.container.configureRuntime')],
    };
  if (!c.container) return null;
  if (lines.some((l) => NVML_UNKNOWN.test(l)))
    return {
      text: t('fix.container.lostDevices'),
      commands: ['ls -l /dev/nvidia*'],
      manual: [t('fix.container.restart'), t('fix.container.symlinks')],
    };
  return {
    text: t('fix.container.noGpus'),
    commands: ['nvidia-smi -L', 'ls -l /dev/nvidia*'],
  };
}

/**
 * TensorFlow before 2.14 loads the CUDA and cuDNN installed on the machine (LD_LIBRARY_PATH): the versions of its
 * tested build where its version is known (else the majors the log asks for), installed the way TensorFlow's own
 * install guide for those releases did (conda's cudatoolkit and cudnn, their folder on the library path).
 */
function tfSystemFix(lead: string, c: FixContext): CauseFix {
  const lines = c.lines ?? [];
  const tested = tfTestedBuild(c.frameworkVersion);
  const cuda = tested?.cuda ?? cudaMajorOfInput(lines, c.hints.tfCuda?.[0] ?? c.stated?.cuda);
  const cudnn = tested?.cudnn ?? cudnnMajorOfInput(lines, c.hints.tfCudnn?.[0] ?? c.stated?.cudnn);
  const version = c.frameworkVersion;
  const sentence = tested
    ? t('fix.tfSystem.tested', { version: version ?? '', cuda: tested.cuda, cudnn: tested.cudnn })
    : t('fix.tfSystem.text');
  const pkgs = [cuda ? `cudatoolkit=${cuda}` : '', cudnn ? `cudnn=${cudnn}` : ''].filter(Boolean).join(' ');
  return {
    text: joinList([lead, sentence], 'sentence'),
    commands: [
      ...(pkgs ? [`conda install -c conda-forge ${pkgs}`] : []),
      'export LD_LIBRARY_PATH=$CONDA_PREFIX/lib:$LD_LIBRARY_PATH',
    ],
  };
}

/**
 * JAX where the input names a CUDA before 12 (jaxlib's tag, the CUDA libraries it asked for, the reporter's CUDA):
 * JAX's releases for it, and the CUDA 12 wheels with the driver they need (../shared/compat/jax.json: CUDA 11
 * wheels up to 0.4.25, CUDA 10 up to jaxlib 0.1.71; cuda_driver.json: CUDA 12 needs 525.60.13 on Linux). Null: the
 * input names CUDA 12 or later, or no CUDA.
 */
function jaxBeforeCuda12(c: FixContext): { text: string; commands: string[] } | null {
  const cuda = cudaMajorOfInput(c.lines ?? [], c.stated?.cuda);
  if (!cuda || Number(cuda) >= 12) return null;
  const cuda12 = 'pip install -U "jax[cuda12]"    # CUDA 12 as pip wheels: a driver of 525.60.13 or newer';
  if (Number(cuda) === 11)
    return {
      text: t('fix.jax.cuda11', { cuda }),
      commands: [
        cuda12,
        'pip install "jax[cuda11_pip]==0.4.25" -f https://storage.googleapis.com/jax-releases/jax_cuda_releases.html' +
          '    # the last CUDA 11 release',
      ],
    };
  return { text: t('fix.jax.cudaOld', { cuda }), commands: [cuda12] };
}

/** Whether the framework's pip packages bring their own CUDA runtime, in its own terms (MXNet's: the neutral words). */
const OWN_CUDA: Record<Family, MessageKey> = {
  torch: 'fix.cuda.own.torch',
  tf: 'fix.cuda.own.tf',
  jax: 'fix.cuda.own.jax',
  ort: 'fix.cuda.own.ort',
  cupy: 'fix.cuda.own.cupy',
  paddle: 'fix.cuda.own.paddle',
  mxnet: 'fix.cuda.own.other',
  other: 'fix.cuda.own.other',
};

/** the setting that names the GPU architectures of a source build, per framework (none: no sentence) */
const ARCH_SOURCE: Partial<Record<Family, MessageKey>> = {
  torch: 'fix.arch.source.torch',
  tf: 'fix.arch.source.tf',
  jax: 'fix.arch.source.jax',
  ort: 'fix.arch.source.ort',
  cupy: 'fix.arch.source.cupy',
  mxnet: 'fix.arch.source.mxnet',
};

/** A setting the framework rejected: what it is for, and how to run without it or fix its syntax. */
function settingFix(name: string): CauseFix {
  const k = Object.hasOwn(SETTINGS, name) ? SETTINGS[name] : undefined;
  return {
    text: k
      ? t('fix.setting.textKnown', { name, what: t(k.what as MessageKey), example: k.example })
      : t('fix.setting.text', { name }),
    commands: [`echo "${name}=$${name}"`, `unset ${name}    # for this shell; then rerun`],
  };
}
