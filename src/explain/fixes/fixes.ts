// The fix for each root cause, fitted to the framework in the log and to what the evidence named
// (the PID to end, the versions to align). Commands are safe to copy; ending processes and installing
// drivers are manual steps, described and never run.
import type { RootCauseId } from '../../core/root-causes.js';
import type { Platform } from '../../core/shell-syntax.js';
import { adaptFix } from '../../platform/adapt-fix.js';
import { dllNamesIn } from '../../platform/windows.js';
import type { Entry } from '../analyse/board.js';
import { paddleFix } from '../paddle.js';
import type { CauseFix, Framework } from '../types.js';

export interface FixContext {
  framework: Framework | undefined;
  hints: Entry['hints'];
  /** cuDNN convolution symptoms were seen (benchmark mode tries workspace-hungry algorithms) */
  cudnnSymptoms: boolean;
  /** where the job ran (src/platform/detect.ts): Windows and WSL get their own syntax and facts; omitted: Linux */
  platform?: Platform;
  /** the lines behind the diagnosis (evidence texts): DLL names, Paddle's own numbers */
  lines?: readonly string[];
  /** the framework version the log or the reporter states */
  frameworkVersion?: string;
}

/** the frameworks' messages for a build without CUDA (catalog: pt-not-compiled-with-cuda, jax-cuda-jaxlib-not-installed, mxnet-compile-with-cuda, caffe-no-gpu) */
const CPU_ONLY_BUILD = /not compiled with CUDA enabled|CUDA-enabled jaxlib is not installed|compile with CUDA enabled|CPU-only Caffe/i;

type Family = 'tf' | 'jax' | 'torch' | 'paddle' | 'other';
function family(fw: Framework | undefined): Family {
  if (fw === 'tensorflow' || fw === 'keras') return 'tf';
  if (fw === 'jax' || fw === 'xla') return 'jax';
  if (fw === 'pytorch') return 'torch';
  if (fw === 'paddle') return 'paddle';
  return 'other';
}

/** The fix for a root cause: in the framework's terms (Paddle's from explain/paddle.ts), then for the platform. */
export function fixFor(id: RootCauseId, c: FixContext): CauseFix {
  const fam = family(c.framework);
  const base = (fam === 'paddle' ? paddleFix(id, { lines: c.lines ?? [], hints: c.hints, ...(c.frameworkVersion ? { frameworkVersion: c.frameworkVersion } : {}) }) : null) ?? linuxFix(id, c);
  if (!c.platform || c.platform === 'linux') return base;
  return adaptFix(base, c.platform, { cause: id, family: fam, dlls: dllNamesIn(c.lines ?? []), ...(c.frameworkVersion ? { frameworkVersion: c.frameworkVersion } : {}) });
}

function linuxFix(id: RootCauseId, c: FixContext): CauseFix {
  const fam = family(c.framework);
  const h = c.hints;
  switch (id) {
    case 'gpu_memory_exhausted': {
      const steps = ['Make the job smaller: lower the batch size or the input size (image resolution, sequence length).'];
      if (fam === 'torch') {
        steps.push('Keep the effective batch with gradient accumulation (several smaller steps, then optimizer.step()).');
        steps.push('Use mixed precision (torch.autocast("cuda", dtype=torch.bfloat16) or float16 with GradScaler) and, for large models, activation checkpointing (torch.utils.checkpoint).');
        if (c.cudnnSymptoms) steps.push('Set torch.backends.cudnn.benchmark = False: benchmarking tries convolution algorithms that need large workspaces.');
      } else if (fam === 'tf') {
        steps.push("Use mixed precision: tf.keras.mixed_precision.set_global_policy('mixed_float16').");
        steps.push('Keep the effective batch with gradient accumulation.');
      } else if (fam === 'jax') {
        steps.push('Use bfloat16 parameters/activations and jax.checkpoint (rematerialisation) for large models.');
      }
      return { text: steps.join(' '), commands: fam === 'torch' ? ['export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True'] : [] };
    }
    case 'memory_held_by_other_process': {
      const pids = h.pid ?? [];
      const manual = pids.map((p) => `kill ${p}    # only if process ${p} is yours and no longer needed (check with: ps -o pid,user,etime,cmd -p ${p})`);
      if (pids.length === 0) manual.push('End the process that holds the GPU memory (find it with the command above; `kill PID` if it is yours and finished).');
      // The holder's framework decides how it gives memory back without being ended.
      for (const r of h.holderRemedy ?? []) manual.push(`Or, if it must keep running: ${r}`);
      manual.push('Or run on a free GPU: CUDA_VISIBLE_DEVICES=<index of an idle GPU> python ...');
      return {
        text: `Another process holds the GPU memory${pids.length ? ` (PID ${pids.join(', ')})` : ''}. Free it, wait for it, or use another GPU. Leftover workers (DataLoader, Jupyter kernels, stopped jobs) keep their memory until they exit.`,
        commands: ['nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv', 'gpu-env-doctor procs'],
        manual,
      };
    }
    case 'framework_preallocation': {
      if (fam === 'jax')
        return {
          text: 'JAX reserves 75% of GPU memory at its first operation. Turn preallocation off, or give it a smaller fraction, so cuDNN/cuBLAS and other processes have room.',
          commands: ['export XLA_PYTHON_CLIENT_PREALLOCATE=false', 'export XLA_PYTHON_CLIENT_MEM_FRACTION=.50'],
        };
      if (fam === 'tf')
        return {
          text: 'TensorFlow takes nearly all GPU memory at start, leaving none for cuDNN/cuBLAS handles or a second process. Enable memory growth: tf.config.experimental.set_memory_growth(gpu, True) for each GPU before any op (TF1: config.gpu_options.allow_growth = True), or set the environment variable.',
          commands: ['export TF_FORCE_GPU_ALLOW_GROWTH=true'],
        };
      // the framework is not known: name both, each for its own framework (never a JAX variable for a known TensorFlow log)
      return {
        text: 'A framework reserved most of the GPU memory up front. TensorFlow: enable memory growth (TF_FORCE_GPU_ALLOW_GROWTH=true). JAX: turn preallocation off (XLA_PYTHON_CLIENT_PREALLOCATE=false) or lower its fraction.',
        commands: ['export TF_FORCE_GPU_ALLOW_GROWTH=true    # TensorFlow', 'export XLA_PYTHON_CLIENT_PREALLOCATE=false    # JAX'],
      };
    }
    case 'allocator_fragmentation':
      return {
        text: "PyTorch's cache holds enough memory in pieces too small for the request. Let the allocator grow segments instead of splitting them (PyTorch 2.1+), or cap split sizes on older versions; free the cache between phases (torch.cuda.empty_cache() after evaluation).",
        commands: ['export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True', '# PyTorch < 2.1: export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128'],
      };
    case 'cudnn_version_mismatch': {
      const compiled = h.compiled?.[0] ?? h.tfCudnn?.[0];
      const runtime = h.runtime?.[0];
      const need = compiled ? `cuDNN ${compiled.split('.').slice(0, 2).join('.')} or a newer minor of the same major` : 'the cuDNN version the framework was built with';
      const cmds: string[] = [];
      if (fam === 'jax') cmds.push('pip install -U "jax[cuda12]"    # brings the matching cuDNN as a pip wheel');
      else if (fam === 'tf') cmds.push('pip install "tensorflow[and-cuda]"    # TF 2.14+: brings matching CUDA and cuDNN wheels');
      else if (fam === 'torch') cmds.push('python -c "import torch; print(torch.backends.cudnn.version())"');
      if (compiled && Number(compiled.split('.')[0]) >= 8) cmds.push(`pip install "nvidia-cudnn-cu12==${compiled.split('.').slice(0, 2).join('.')}.*"    # cu11 for CUDA 11 builds`);
      return {
        text: `The cuDNN that loads${runtime ? ` (${runtime})` : ''} does not fit the framework build; install ${need}, or install the framework release built for the cuDNN you have. Check which copy loads with gpu-env-doctor libs.`,
        commands: cmds,
      };
    }
    case 'cuda_toolkit_mismatch': {
      const wanted = h.wantedCuda?.[0] ?? h.tfCuda?.[0] ?? h.jaxMinCuda?.[0];
      const cmds: string[] = ['nvcc --version', 'gpu-env-doctor libs'];
      // jaxlib's pip-CUDA install brings a CUDA that meets its own floor, whatever the system has
      if (fam === 'jax') cmds.push('pip install -U "jax[cuda12]"    # CUDA and cuDNN as pip wheels, matched to jaxlib');
      if (fam === 'torch') cmds.push('pip install torch --index-url https://download.pytorch.org/whl/cu126    # pick the cuXXX your driver supports');
      if (fam === 'tf' && wanted && Number(wanted.split('.')[0]) <= 11) cmds.push(`conda install -c conda-forge cudatoolkit=${wanted} cudnn    # in the TensorFlow environment`);
      if (fam === 'tf' && !(wanted && Number(wanted.split('.')[0]) <= 11)) cmds.push('pip install "tensorflow[and-cuda]"');
      return {
        text: `The framework was built for ${wanted ? `CUDA ${wanted}` : 'another CUDA version'} than the one installed. Install that CUDA runtime (alongside is fine), or install the framework build made for your CUDA. pip wheels of PyTorch, JAX and TensorFlow 2.14+ bring their own runtime.`,
        commands: cmds,
      };
    }
    case 'driver_too_old': {
      const min = h.minDriver?.[0];
      const dc = h.driverCuda?.[0];
      return {
        text: `The NVIDIA driver is older than the CUDA in use needs${dc ? ` (it supports CUDA ${dc})` : ''}. Update the driver${min ? ` to ${min} or newer` : ''}, or install a framework build for the CUDA your driver supports (nvidia-smi shows it as "CUDA Version").`,
        commands: ['nvidia-smi'],
        manual: ['Install a newer NVIDIA driver (distribution package or NVIDIA installer; needs root and usually a reboot).'],
      };
    }
    case 'library_missing': {
      const lib = h.lib?.[0];
      const major = h.cudnnMajor?.[0];
      const cmds = [`ldconfig -p | grep -E '${lib ? lib.replace(/\.so.*$/, '') : 'libcudnn|libcudart|libcublas'}'`];
      if (lib?.startsWith('libcudnn') || major) cmds.push(`pip install nvidia-cudnn-cu12${major === '8' ? '==8.9.*' : ''}    # or: conda install -c conda-forge cudnn`);
      return {
        text: `A library the framework needs${lib ? ` (${lib})` : ''} is not on the loader's path. Install it (for pip frameworks the nvidia-* wheels; otherwise the CUDA/cuDNN packages) or add its folder to LD_LIBRARY_PATH (PATH on Windows).`,
        commands: cmds,
      };
    }
    case 'library_conflict':
      return {
        text: 'Two copies of a CUDA library compete and the wrong one loads first (LD_LIBRARY_PATH, a conda environment mixed with pip wheels, a system copy). Remove the stale copy from the search path so the one the framework was built with loads.',
        commands: ['echo "$LD_LIBRARY_PATH"', 'unset LD_LIBRARY_PATH    # for this shell; then rerun', 'gpu-env-doctor libs'],
      };
    case 'gpu_arch_unsupported': {
      const cc = h.cc?.[0];
      const cmds: string[] = [];
      if (fam === 'torch') cmds.push(`pip install torch --index-url https://download.pytorch.org/whl/${cc && Number(cc) >= 10 ? 'cu128' : 'cu126'}`);
      if (fam === 'tf') cmds.push('pip install "tensorflow[and-cuda]"    # a release built with a CUDA that knows this GPU');
      return {
        text: `The installed build has no code for this GPU${cc ? ` (compute capability ${cc})` : ''}. Install a build made with a CUDA version that supports it; a GPU older than the build's minimum needs an older release or a source build (TORCH_CUDA_ARCH_LIST).`,
        commands: cmds,
      };
    }
    case 'no_device_visible':
      // the framework's own words say its build has no CUDA: the remedy is its CUDA build, not the device list
      if ((c.lines ?? []).some((l) => CPU_ONLY_BUILD.test(l))) {
        return {
          text: 'The installed framework build has no CUDA support, so it sees no GPU. Install its CUDA build (PyTorch: the CUDA wheel for your driver from pytorch.org; JAX: jax[cuda12] or jax[cuda13]; MXNet: mxnet-cuXX; a source build: enable CUDA and rebuild).',
          commands: [fam === 'torch' ? 'python -c "import torch; print(torch.__version__, torch.version.cuda)"' : fam === 'jax' ? 'pip install -U "jax[cuda12]"' : 'nvidia-smi -L'],
        };
      }
      return {
        text: 'The process sees no GPU. Check CUDA_VISIBLE_DEVICES (empty, or an index that does not exist), that the driver is loaded, and in containers that the GPU is passed in (docker run --gpus all, Kubernetes nvidia.com/gpu).',
        commands: ['nvidia-smi -L', 'echo "CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES"'],
      };
    case 'hardware_or_driver_fault':
      return {
        text: 'The GPU or the driver is in a bad state (Xid/ECC errors, a driver upgraded without reboot, suspend/resume). Look at the kernel log, then reset the driver or the machine; a GPU that keeps reporting errors needs replacing.',
        commands: ['nvidia-smi -q -d ECC,PAGE_RETIREMENT', 'sudo dmesg | grep -i -E "NVRM|Xid"'],
        manual: ['Reboot the machine (or reload the driver: sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia nvidia_uvm).', 'On a cluster: drain the node and report it to the administrators.'],
      };
    case 'framework_bug':
      return {
        text: 'This looks like a defect of the framework version in use. Upgrade to the latest patch release (or go back to the last version that worked) and search its issue tracker for the message.',
        commands: [fam === 'torch' ? 'pip install -U torch' : fam === 'tf' ? 'pip install -U tensorflow' : fam === 'jax' ? 'pip install -U "jax[cuda12]"' : 'pip list 2>/dev/null | grep -i -E "torch|tensorflow|jax"'],
      };
    case 'other': {
      const setting = h.setting?.[0];
      if (setting) return settingFix(setting);
      return { text: 'The cause lies outside the GPU setup (host memory, the program or its data). See the evidence lines.', commands: [] };
    }
  }
}

/** A setting the framework rejected: what it is for, and how to run without it or fix its syntax. */
function settingFix(name: string): CauseFix {
  const known: Record<string, { what: string; example: string }> = {
    PYTORCH_CUDA_ALLOC_CONF: { what: "PyTorch's CUDA caching-allocator options, comma-separated key:value pairs", example: 'expandable_segments:True,max_split_size_mb:128' },
    XLA_PYTHON_CLIENT_MEM_FRACTION: { what: 'the fraction of GPU memory JAX preallocates, a number between 0 and 1', example: '.50' },
  };
  const k = known[name];
  return {
    text: `${name} has a value the framework cannot parse${k ? ` (${k.what}, e.g. ${name}=${k.example})` : ''}. Run once without it to confirm, then correct it where it is set (shell profile, job script, container environment).`,
    commands: [`echo "${name}=$${name}"`, `unset ${name}    # for this shell; then rerun`],
  };
}
