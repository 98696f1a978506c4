// Reads the machine facts users paste next to an error: issue-template lines ("CUDA/cuDNN version: 10.1 / 7.6"),
// `python -m torch.utils.collect_env`, the nvidia-smi header, pip/conda lists, and facts that log lines carry
// (TensorFlow's device lines, PyTorch's capability warning, "+cu113" build tags, site-packages paths).
// Line by line, bounded: each fact keeps its first sighting (the GPU list is capped).
import type { EnvironmentFacts, Fact, Framework, GpuFact } from '../types.js';
import { frameworkWord } from './framework-word.js';
import { INSTALL_WORDS } from './install-words.js';
import { readZhEnvLine } from './zh.js';
import { eitherOf, regexOf } from '../../../base/regex.js';
import { nativeAtFirstUse } from '../../../base/native-regex.js';
import { guarded } from '../guarded.js';

const VERSION = /\d+(?:\.\d+)+/;
const MAX_GPUS = 16;
const MAX_NOTES = 20;

/** key: value lines of issue templates, collect_env, jax.print_environment_info() */
const KV = /^\s*(?:[-*•>|#]\s*)*(?:\*\*|__)?([A-Za-z][\w /().,?+-]{0,70}?)(?:\*\*|__)?\s*[:=]\s*(?:\*\*)?\s*(.+?)\s*$/;

type KeyKind =
  | 'gpu'
  | 'cuda_cudnn'
  | 'cuda'
  | 'build_cuda'
  | 'cudnn'
  | 'driver'
  | 'os'
  | 'python'
  | 'install'
  | 'note'
  | 'tensorflow'
  | 'pytorch'
  | 'jax'
  | 'keras'
  | 'onnxruntime'
  | 'framework';

const KEYS: Array<[RegExp, KeyKind]> = [
  [
    regexOf([
      '^(?:',
      eitherOf([
        /gpu|gpus|graphics(?: card)?/,
        /gpu model(?:s)?(?: and (?:memory|configuration))?|gpu type|gpu models and configuration/,
        /video card|device name/,
      ]),
      ')$',
    ]),
    'gpu',
  ],
  [/^cuda\s*\/\s*cudnn(?: version)?$/, 'cuda_cudnn'],
  [/^cuda used to build (?:pytorch|tensorflow)$|^(?:built|compiled) (?:with|against) cuda$|^cuda build$/, 'build_cuda'],
  [/^(?:cuda|cuda(?: toolkit| runtime)?(?: version)?|nvcc(?: version)?|cuda-version)$/, 'cuda'],
  [/^(?:cudnn|cudnn version|cudnn-version)$/, 'cudnn'],
  [/^(?:nvidia )?(?:gpu )?driver(?: version)?$|^nvidia driver version$/, 'driver'],
  [/^(?:os|os platform(?: and distribution)?|operating system|platform|distro|system)$/, 'os'],
  [/^python(?: version)?$/, 'python'],
  [
    regexOf([
      '^(?:',
      eitherOf([
        /install(?:ed)?(?: (?:using|from|via|method|with))?.*|how (?:you|did you) install.*/,
        /installation(?: method)?|environment(?: type)?/,
        /tensorflow installed from.*|package manager/, // TensorFlow's issue template
      ]),
      ')$',
    ]),
    'install',
  ],
  [
    regexOf([
      '^(?:',
      eitherOf([
        /notes?|other|comments?|additional (?:context|information)/,
        /describe the (?:problem|bug|current behavior).*|what happened/, // the issue templates' free text
      ]),
      ')$',
    ]),
    'note',
  ],
  [/^(?:tensorflow|tensorflow-gpu|tf)(?: version)?(?: \(.*\))?$/, 'tensorflow'],
  [/^(?:pytorch|torch)(?: version)?$/, 'pytorch'],
  [/^(?:jax|jaxlib)(?: version)?$/, 'jax'],
  [/^keras(?: version)?$/, 'keras'],
  // ONNX Runtime's issue template: "ONNX Runtime Version or Commit ID"
  [/^(?:onnx ?runtime|onnxruntime(?:-gpu)?)(?: version)?(?: or commit id)?$/, 'onnxruntime'],
  [/^(?:framework|deep learning framework|library)$/, 'framework'],
];

/** cheap tests before the detailed regexes: most lines of a training log carry no environment fact */
const KEY_HINT = regexOf(
  [
    /^[\s\-*•>|#_]*/, // a list's or a table's marks
    '(?:',
    eitherOf([
      /gpu|graphics|video|device name|cuda|cudnn|nvidia|driver|nvcc/, // the GPU and CUDA keys
      /os\b|operating|platform|distro|system|python/, // the system's
      /install|how |environment|package/, // how it was installed
      /notes?\b|other|comments?|additional|describe|what happened/, // free text
      /pytorch|torch|jax|keras|onnx|framework|deep|library|tf\b|tensorflow/, // the framework's
    ]),
    ')',
  ],
  'i',
);
const ANY_HINT = regexOf(
  [
    eitherOf([
      /NVIDIA|name:|major:|memory|capabilit|found version/, // a GPU's or a library's line
      /torch|jax|tensorflow|cudnn|cuda|Successfully opened|python\d/, // a framework's
      /docker|container|kubernetes|k8s|podman|singularity|apptainer|enroot|conda/, // a container or an environment
      /[A-Z]:\\/, // a Windows path
    ]),
  ],
  'i',
);

const NVSMI_HEADER = /NVIDIA-SMI\s+([\d.]+)\s+Driver Version:\s*([\d.]+)\s+CUDA Version:\s*([\d.]+)/i;
const NVSMI_GPU_ROW = /^\|\s*\d+\s+(.+?)\s+(?:On|Off)\s+\|\s+[\dA-Fa-f]{4,8}:[\dA-Fa-f]{2}:/;
const TF_NAME = regexOf([
  /(?:^|\s)name:\s*(.+?)/, // 1: the GPU's name
  /(?:\s+major:\s*(\d+)\s+minor:\s*(\d+))?/, // 2, 3: its compute capability (TensorFlow 1.x)
  /(?:\s+computeCapability:\s*([\d.]+))?/, // 4: its compute capability (TensorFlow 2.x)
  /(?:\s+coreClock|\s*$)/,
]);
const TF_MAJOR_MINOR = /^\s*major:\s*(\d+)\s+minor:\s*(\d+)/;
const TF_MEM = regexOf([
  /(?:^|\s)(?:Total memory|totalMemory|deviceMemorySize):\s*([\d.]+)\s*([KMGT]i?B)/, // 1, 2: total and its unit
  /(?:.*?(?:Free memory|freeMemory):\s*([\d.]+)\s*([KMGT]i?B))?/, // 3, 4: free and its unit
]);
const TF_FREE = /^\s*Free memory:\s*([\d.]+)\s*([KMGT]i?B)/;
const TF_CREATED = /name:\s*([^,]+),\s*pci bus id:[^,]*,\s*compute capability:\s*([\d.]+)/;
/** TensorFlow's pool for the device: "Created TensorFlow device (/job:…/device:GPU:0 with 1538 MB memory) -> …" */
const TF_POOL = /Created TensorFlow device \([^)]*? with (\d+) MB memory\)/;
const TORCH_CC_WARN = /^\s*(.+?) with CUDA capability sm_(\d)(\d+) is not compatible/;
const TORCH_PROPS = /_CudaDeviceProperties\(name='([^']+)', major=(\d+), minor=(\d+), total_memory=(\d+)MB/;
const CC_ANY = /compute capability[ :=]+(\d+)\.(\d+)|compute_capability = (\d)(\d)0\b/i;
const FOUND_VERSION = /too old \(found version (\d+)\)/;
const TORCH_PKG = /\btorch(?:==|-|\s+|\s*:\s*)(\d+\.\d+(?:\.\d+)?)(?:\+(cu\d+|cpu|rocm[\d.]+))?/i;
const CU_TAG = /\+cu(\d{2,3})\b/;
const JAXLIB_PKG = /\bjaxlib(?:==|-|\s+)(\d+\.\d+(?:\.\d+)?)(?:\+cuda(\d+)(?:\.cudnn(\d+))?)?/i;
const TF_PKG = /\btensorflow(?:-gpu)?(?:==|-|\s+)(\d+\.\d+(?:\.\d+)?)\b/i;
const PIP_CUDA_PKG = /^\s*(?:nvidia-cudnn-cu\d+|cudnn)\s+(\d+\.\d+(?:\.\d+)*)/i;
/**
 * conda install commands: `cudatoolkit=9.0` (the CUDA runtime a conda TensorFlow/PyTorch loads, the same fact a
 * `conda list` row gives) and `pytorch-cuda=11.8` (the CUDA variant of the conda PyTorch build, 2.0+)
 */
const CONDA_TOOLKIT_PIN = /\bcudatoolkit\s*={1,2}\s*(\d+\.\d+)/i;
const CONDA_PYTORCH_CUDA_PIN = /\bpytorch-cuda\s*={1,2}\s*(\d+\.\d+)/i;
const PIP_TOOLKIT_PKG =
  /^\s*(?:cudatoolkit|cuda-toolkit|cuda-runtime|cuda-cudart|nvidia-cuda-runtime-cu\d+)\s+(\d+\.\d+(?:\.\d+)*)/i;
const OPENED_LIB = /Successfully opened dynamic library (libcudart\.so\.(\d+\.\d+)|libcudnn\.so\.(\d+))/;
const DARKNET = /CUDA-version:\s*(\d{4,5})\s*\(\d+\),\s*cuDNN:\s*([\d.]+)/;
const SITE_PY = /python(\d\.\d{1,2})[\\/](?:site|dist)-packages/;
const CONTAINER = /\b(docker|container|kubernetes|k8s|podman|singularity|apptainer|enroot)\b/i;
const WINDOWS_PATH = /\b[A-Z]:\\(?:Users|ProgramData|Program Files|Anaconda|Python)/;
const CONDA_PATH = /(?:ana|mini)conda3?[\\/]|[\\/]conda[\\/]envs[\\/]/i;
/**
 * Notebook and hosted-runtime markers sit in traceback frames, so only lines that start like one are read for
 * them (an anchored test: a wider ANY_HINT cost 10% of the throughput on multi-GB logs).
 */
const FRAME_START = /^\s*(?:File |<ipython|Cell In|[~/])/;
/**
 * a Jupyter/IPython kernel: IPython's traceback frames ("<ipython-input-3-…>", "Cell In[5], line 2") and the kernel's
 * files
 */
const NOTEBOOK = /<ipython-input-\d+-|^\s*Cell In ?\[\d+\],? line \d|ipykernel(?:_launcher|_\d+)\b|[\\/]jupyter[\\/]/i;
/**
 * the working folders of hosted notebook runtimes: Colab mounts Drive under /content/drive, Kaggle runs in
 * /kaggle/working
 */
const HOSTED_PATH = /\/content\/drive\/|\/content\/sample_data\b|\/kaggle\/(?:working|input)\b/;
/*
 * What a line must hold, in lower case, for an anywhere-rule's pattern to match it: one of these strings (every
 * match of the pattern holds one, ignoring ASCII case). Tested before the pattern, so that a pattern is compiled
 * only for a line that may match it: most lines the reader is handed are a traceback's frames, which match none.
 */
const G_MAJOR_MINOR = ['major:'];
const G_MEM = ['total memory', 'totalmemory', 'devicememorysize'];
const G_FREE = ['free memory:'];
const G_PROPS = ['_cudadeviceproperties('];
const G_CC = ['compute capability', 'compute_capability = '];
const G_FOUND = ['too old (found version '];
const G_TORCH = ['torch'];
const G_JAXLIB = ['jaxlib'];
const G_TENSORFLOW = ['tensorflow'];
const G_PIP_CUDNN = ['cudnn'];
const G_PIP_TOOLKIT = ['cudatoolkit', 'cuda-toolkit', 'cuda-runtime', 'cuda-cudart'];
const G_DARKNET = ['cuda-version:'];
const G_SITE = ['-packages'];
const G_CONTAINER = ['docker', 'container', 'kubernetes', 'k8s', 'podman', 'singularity', 'apptainer', 'enroot'];
const G_WINDOWS = ['users', 'programdata', 'program files', 'anaconda', 'python'];
const G_CONDA = ['conda'];
const G_CONDA_TOOLKIT_PIN = ['cudatoolkit'];
const G_CONDA_PYTORCH_CUDA_PIN = ['pytorch-cuda'];
const G_NOTEBOOK = ['<ipython-input-', 'cell in', 'ipykernel', 'jupyter'];
const G_HOSTED_PATH = ['/content/', '/kaggle/'];

// behind a test for the words every match holds (../guarded.ts); the line's gates, compiled natively when the step
// first runs
const torchPkg = guarded(TORCH_PKG, G_TORCH);
const jaxlibPkg = guarded(JAXLIB_PKG, G_JAXLIB);
const tfPkg = guarded(TF_PKG, G_TENSORFLOW);
const condaToolkitPin = guarded(CONDA_TOOLKIT_PIN, G_CONDA_TOOLKIT_PIN);
const condaPytorchCudaPin = guarded(CONDA_PYTORCH_CUDA_PIN, G_CONDA_PYTORCH_CUDA_PIN);
const primeLine = nativeAtFirstUse(KEY_HINT, ANY_HINT, FRAME_START);
const notebook = guarded(NOTEBOOK, G_NOTEBOOK);
const hostedPath = guarded(HOSTED_PATH, G_HOSTED_PATH);
const tfMajorMinor = guarded(TF_MAJOR_MINOR, G_MAJOR_MINOR);
const tfMem = guarded(TF_MEM, G_MEM);
const tfFree = guarded(TF_FREE, G_FREE);
const torchProps = guarded(TORCH_PROPS, G_PROPS);
const ccAny = guarded(CC_ANY, G_CC);
const foundVersion = guarded(FOUND_VERSION, G_FOUND);
const pipCudaPkg = guarded(PIP_CUDA_PKG, G_PIP_CUDNN);
const pipToolkitPkg = guarded(PIP_TOOLKIT_PKG, G_PIP_TOOLKIT);
const darknet = guarded(DARKNET, G_DARKNET);
const sitePy = guarded(SITE_PY, G_SITE);
const container = guarded(CONTAINER, G_CONTAINER);
const windowsPath = guarded(WINDOWS_PATH, G_WINDOWS);
const condaPath = guarded(CONDA_PATH, G_CONDA);

export class EnvReader {
  private f: EnvironmentFacts = { gpus: [], install: [], notes: [] };
  /** collect_env's "cuDNN version: Probably one of the following:" lists the files on the next lines */
  private cudnnListFrom = 0;

  /** `lower`: the whole line in lower case, when the caller has it */
  onLine(no: number, text: string, lower: string = text.toLowerCase()): void {
    const t = text.length > 600 ? text.slice(0, 600) : text;
    // Chinese and mixed lines, package-list rows and Paddle's lines: the same facts, read by env/zh.ts first (a
    // Chinese key line states its fact before this reader's anywhere-patterns guess at it)
    readZhEnvLine(no, t, this.f);
    primeLine();
    if (this.cudnnListFrom > 0 && no <= this.cudnnListFrom + 1) {
      const lib = /libcudnn\.so\.(\d+\.\d+\.\d+)/.exec(t);
      if (lib) this.set('cudnn', this.fact(lib[1]!, no, t));
      this.cudnnListFrom = 0;
    }
    if (t.length < 300 && KEY_HINT.test(t)) {
      const kv = KV.exec(t);
      if (kv) this.keyValue(no, t, kv[1]!.trim().toLowerCase().replace(/\s+/g, ' '), kv[2]!);
    }
    if (ANY_HINT.test(t)) this.anywhere(no, t, lower);
    if (FRAME_START.test(t)) this.frame(no, t, lower);
  }

  facts(): EnvironmentFacts {
    return this.f;
  }

  private set<K extends keyof EnvironmentFacts>(key: K, value: EnvironmentFacts[K]): void {
    if (this.f[key] === undefined) this.f[key] = value;
  }

  private fact<T>(value: T, line: number, text: string): Fact<T> {
    return { value, line, text: text.trim().slice(0, 300) };
  }

  private keyValue(no: number, text: string, key: string, value: string): void {
    const kind = KEYS.find(([re]) => re.test(key))?.[1];
    if (!kind) return;
    const v = value.replace(/\*\*/g, '').trim();
    if (/^(?:n\/?a|none|unknown|could not collect|-|\?)$/i.test(v)) return;
    const version = VERSION.exec(v)?.[0];
    switch (kind) {
      case 'gpu':
        this.addGpu(v.replace(/^GPU \d+:\s*/i, ''), no, text);
        break;
      case 'cuda_cudnn': {
        const parts = v.split(/\s*[/,]\s*|\s+and\s+/);
        const c = VERSION.exec(parts[0] ?? '')?.[0] ?? (/^\d+$/.test(parts[0] ?? '') ? parts[0] : undefined);
        const d = VERSION.exec(parts[1] ?? '')?.[0] ?? (/^\d+$/.test(parts[1] ?? '') ? parts[1] : undefined);
        if (c) this.set('cuda', this.fact(c, no, text));
        if (d) this.set('cudnn', this.fact(d, no, text));
        break;
      }
      case 'cuda':
        if (!version && !/^\d+$/.test(v)) break;
        // "12.1 (driver)": what nvidia-smi shows is the driver's CUDA, not an installed toolkit
        if (/driver|nvidia-smi/i.test(v)) this.set('driverCuda', this.fact(version ?? v, no, text));
        else this.set('cuda', this.fact(version ?? v, no, text));
        if (/container|docker/i.test(v)) this.set('container', this.fact('container', no, text));
        break;
      case 'build_cuda':
        if (version) this.set('buildCuda', this.fact(version, no, text));
        break;
      case 'cudnn': {
        // collect_env: "Probably one of the following: /usr/lib/x86_64-linux-gnu/libcudnn.so.8.2.2"
        const lib = /libcudnn\.so\.(\d+\.\d+\.\d+)/.exec(v)?.[1];
        if (/one of the following/i.test(v)) this.cudnnListFrom = no;
        const cv = lib ?? version ?? (/^\d+$/.test(v) ? v : undefined);
        if (cv) this.set('cudnn', this.fact(cv, no, text));
        break;
      }
      case 'driver':
        if (version) this.set('driver', this.fact(version, no, text));
        else if (/^\d{3}$/.test(v)) this.set('driver', this.fact(v, no, text));
        break;
      case 'os':
        this.set('os', this.fact(v, no, text));
        // "OS: Google Colab": a hosted runtime named as the platform is also how the job runs
        if (/\b(?:colab|kaggle)\b/i.test(v)) this.addInstall(v, no, text);
        break;
      case 'python':
        if (version) this.set('python', this.fact(version, no, text));
        break;
      case 'install':
        this.addInstall(v, no, text);
        break;
      case 'note':
        if (this.f.notes.length < MAX_NOTES) this.f.notes.push(this.fact(v, no, text));
        if (container.test(v, v.toLowerCase())) this.set('container', this.fact('container', no, text));
        break;
      case 'tensorflow':
      case 'pytorch':
      case 'jax':
      case 'keras':
      case 'onnxruntime':
        this.setFramework(kind, v, no, text);
        break;
      case 'framework': {
        const fw = frameworkWord(v);
        if (fw) this.setFramework(fw, v, no, text);
        break;
      }
    }
  }

  private setFramework(fw: Framework, value: string, no: number, text: string): void {
    this.set('framework', this.fact(fw, no, text));
    // "v2.3.0-rc2-23-gb36436b087 2.3.0": the last plain version is the release; "1.5.0 (CUDA 10.2)": not the
    // versions in parentheses, those name other things
    const cudaInParens = /\(\s*CUDA\s+(\d+\.\d+)/i.exec(value);
    if (cudaInParens) this.set('buildCuda', this.fact(cudaInParens[1]!, no, text));
    const versions = value.replace(/\([^)]*\)/g, ' ').match(/\d+\.\d+(?:\.\d+)?(?:\+[\w.]+)?/g);
    // Keras runs on TensorFlow: "tensorflow-gpu 1.13.1, keras 2.2.4" gives TensorFlow's version to the compat
    // tables (a Keras 2.x release number is not a TensorFlow one)
    const tfNamed =
      fw === 'keras' || fw === 'tensorflow'
        ? /tensorflow(?:[-_]gpu)?\s*(?:==|=|:|v)?\s*(\d+\.\d+(?:\.\d+)?)/i.exec(value)?.[1]
        : undefined;
    const ver = tfNamed ?? versions?.[versions.length - 1];
    if (ver && this.f.frameworkVersion === undefined) this.f.frameworkVersion = this.fact(ver, no, text);
    const cu = CU_TAG.exec(value);
    if (cu) this.set('buildCuda', this.fact(cuTag(cu[1]!), no, text));
    // ONNX Runtime's packages name their CUDA build: onnxruntime-win-x64-cuda12-1.17.1, onnxruntime-gpu-cuda12
    const ort = fw === 'onnxruntime' ? /\bcuda(\d{2})\b/i.exec(value) : null;
    if (ort) this.set('buildCuda', this.fact(ort[1]!, no, text));
    const jl = /\+cuda(\d+)(?:\.cudnn(\d+))?/.exec(value);
    if (jl) {
      this.set('buildCuda', this.fact(cuTag(jl[1]!), no, text));
    }
  }

  private addGpu(name: string, no: number, text: string, cc?: string, totalMiB?: number, freeMiB?: number): void {
    const clean = name.replace(/\s+/g, ' ').trim().slice(0, 120);
    if (clean.length < 2) return;
    const existing = this.f.gpus.find((g) => g.name === clean);
    if (existing) {
      existing.computeCapability ??= cc;
      existing.totalMiB ??= totalMiB;
      existing.freeMiB ??= freeMiB;
      return;
    }
    if (this.f.gpus.length >= MAX_GPUS) return;
    const g: GpuFact = { name: clean, line: no, text: text.trim().slice(0, 300) };
    if (cc) g.computeCapability = cc;
    const ccInName = /(?:compute capability|cc|sm_?)\s*(\d+)\.?(\d)\b/i.exec(clean);
    if (!g.computeCapability && ccInName) g.computeCapability = `${ccInName[1]}.${ccInName[2]}`;
    const mem = totalMiB ?? memInName(clean);
    if (mem !== undefined) g.totalMiB = mem;
    if (freeMiB !== undefined) g.freeMiB = freeMiB;
    this.f.gpus.push(g);
  }

  private addWord(w: string, no: number, text: string): void {
    if (this.f.install.length < 8 && !this.f.install.some((x) => x.value === w))
      this.f.install.push(this.fact(w, no, text));
  }

  private addInstall(v: string, no: number, text: string): void {
    const words = v.toLowerCase().match(INSTALL_WORDS) ?? [];
    for (const w of new Set(words)) {
      if (this.f.install.length < 8 && !this.f.install.some((x) => x.value === w))
        this.f.install.push(this.fact(w, no, text));
    }
    if (container.test(v, v.toLowerCase())) this.set('container', this.fact('container', no, text));
  }

  /** how the job ran, from a traceback frame: a Jupyter kernel, a hosted notebook runtime's folders */
  private frame(no: number, t: string, lower: string): void {
    if (notebook.test(t, lower)) this.addWord('jupyter', no, t);
    const m = hostedPath.exec(t, lower);
    if (m) this.addWord(m[0].startsWith('/kaggle') ? 'kaggle' : 'colab', no, t);
  }

  /** facts that can sit anywhere in a log line (`lower`: the whole line in lower case, for the guards) */
  private anywhere(no: number, t: string, lower: string): void {
    let m: RegExpExecArray | null;
    if (t.includes('NVIDIA-SMI') && (m = NVSMI_HEADER.exec(t))) {
      this.set('driver', this.fact(m[2]!, no, t));
      this.set('driverCuda', this.fact(m[3]!, no, t));
    }
    if (t.startsWith('|') && (m = NVSMI_GPU_ROW.exec(t))) this.addGpu(m[1]!, no, t);
    if (t.includes('name:')) {
      if ((m = TF_CREATED.exec(t))) {
        this.addGpu(m[1]!, no, t, m[2]);
        const pool = TF_POOL.exec(t);
        const g = this.f.gpus.find((x) => x.name === m![1]!.replace(/\s+/g, ' ').trim());
        if (pool && g) g.poolMiB ??= Number(pool[1]);
      } else if ((m = TF_NAME.exec(t)) && !/name:\s*['"]/.test(t)) {
        const cc = m[4] ?? (m[2] !== undefined ? `${m[2]}.${m[3]}` : undefined);
        this.addGpu(m[1]!, no, t, cc);
      }
    }
    if ((m = tfMajorMinor.exec(t, lower)) && this.f.gpus.length > 0) {
      const g = this.f.gpus[this.f.gpus.length - 1]!;
      g.computeCapability ??= `${m[1]}.${m[2]}`;
    }
    if ((m = tfMem.exec(t, lower)) && this.f.gpus.length > 0) {
      const g = this.f.gpus[this.f.gpus.length - 1]!;
      g.totalMiB ??= toMiB(Number(m[1]), m[2]!);
      if (m[3]) g.freeMiB ??= toMiB(Number(m[3]), m[4]!);
    }
    if ((m = tfFree.exec(t, lower)) && this.f.gpus.length > 0) {
      const g = this.f.gpus[this.f.gpus.length - 1]!;
      g.freeMiB ??= toMiB(Number(m[1]), m[2]!);
    }
    if (t.includes('CUDA capability') && (m = TORCH_CC_WARN.exec(t))) {
      this.addGpu(m[1]!, no, t, `${m[2]}.${m[3]}`);
    }
    if ((m = torchProps.exec(t, lower))) this.addGpu(m[1]!, no, t, `${m[2]}.${m[3]}`, Number(m[4]));
    if ((m = ccAny.exec(t, lower)) && this.f.gpus.length > 0) {
      const g = this.f.gpus[this.f.gpus.length - 1]!;
      g.computeCapability ??= m[1] !== undefined ? `${m[1]}.${m[2]}` : `${m[3]}.${m[4]}`;
    }
    if ((m = foundVersion.exec(t, lower))) this.set('driverCuda', this.fact(driverCudaInt(m[1]!), no, t));
    if ((m = torchPkg.exec(t, lower))) {
      if (this.f.framework === undefined || this.f.framework.value === 'pytorch') {
        this.set('framework', this.fact('pytorch', no, t));
        if (this.f.frameworkVersion === undefined)
          this.f.frameworkVersion = this.fact(m[1]! + (m[2] ? `+${m[2]}` : ''), no, t);
      }
      if (m[2]?.startsWith('cu')) this.set('buildCuda', this.fact(cuTag(m[2].slice(2)), no, t));
    }
    if ((m = jaxlibPkg.exec(t, lower))) {
      if (m[2]) this.set('buildCuda', this.fact(cuTag(m[2]), no, t));
    }
    if ((m = tfPkg.exec(t, lower)) && (this.f.framework === undefined || this.f.framework.value === 'tensorflow')) {
      this.set('framework', this.fact('tensorflow', no, t));
      if (this.f.frameworkVersion === undefined) this.f.frameworkVersion = this.fact(m[1]!, no, t);
    }
    if ((m = pipCudaPkg.exec(t, lower))) this.set('cudnn', this.fact(m[1]!, no, t));
    if ((m = pipToolkitPkg.exec(t, lower))) this.set('cuda', this.fact(m[1]!, no, t));
    if (t.includes('=') && (m = condaToolkitPin.exec(t, lower))) this.set('cuda', this.fact(m[1]!, no, t));
    if (t.includes('=') && (m = condaPytorchCudaPin.exec(t, lower))) this.set('buildCuda', this.fact(m[1]!, no, t));
    if (t.includes('Successfully opened') && (m = OPENED_LIB.exec(t))) {
      if (m[2]) this.set('cuda', this.fact(m[2], no, t));
    }
    if ((m = darknet.exec(t, lower))) {
      this.set('cuda', this.fact(driverCudaInt(m[1]!), no, t));
      this.set('cudnn', this.fact(m[2]!, no, t));
    }
    if ((m = sitePy.exec(t, lower))) this.set('python', this.fact(m[1]!, no, t));
    if (this.f.container === undefined && (m = container.exec(t, lower)))
      this.set('container', this.fact(m[1]!.toLowerCase(), no, t));
    if (this.f.os === undefined && windowsPath.test(t, lower)) this.set('os', this.fact('Windows', no, t));
    if (condaPath.test(t, lower) && !this.f.install.some((x) => x.value === 'conda') && this.f.install.length < 8)
      this.f.install.push(this.fact('conda', no, t));
  }
}

/** "113" → "11.3"; "92" → "9.2"; "130" → "13.0"; "12" → "12" */
export function cuTag(digits: string): string {
  if (digits.length === 2 && digits.startsWith('1')) return digits; // "+cuda12" (jaxlib): major only
  if (digits.length <= 2) return `${digits[0]}.${digits.slice(1) || '0'}`;
  return `${digits.slice(0, digits.length - 1)}.${digits.slice(-1)}`;
}

/** PyTorch/CUDA print versions as integers: 11060 → "11.6", 10010 → "10.1", 11070 → "11.7" */
export function driverCudaInt(s: string): string {
  const n = Number(s);
  if (!Number.isFinite(n) || n < 1000) return s;
  return `${Math.floor(n / 1000)}.${Math.floor((n % 1000) / 10)}`;
}

function toMiB(v: number, unit: string): number {
  const u = unit.toUpperCase().replace('I', '');
  if (u.startsWith('K')) return v / 1024;
  if (u.startsWith('M')) return v;
  if (u.startsWith('G')) return v * 1024;
  if (u.startsWith('T')) return v * 1024 * 1024;
  return v / (1024 * 1024);
}

function memInName(name: string): number | undefined {
  const m = /\b(\d{1,3})\s?(?:GB|GiB|G)\b/i.exec(name);
  return m ? Number(m[1]) * 1024 : undefined;
}
