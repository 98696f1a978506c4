// How each framework was built, read from the files it ships (no import, so no crash and no seconds spent):
//   torch/version.py                          __version__, cuda, hip, git_version, debug
//   tensorflow/python/platform/build_info.py  cuda_version, cudnn_version, cuda_compute_capabilities, is_cuda_build
//   jaxlib's version and the JAX CUDA plugin / PJRT packages (jax-cuda12-plugin, jax-cuda13-pjrt ...)
// Torch's architecture list is in no text file: it is read from libtorch_cuda.so's fatbinary headers
// (src/gather/libraries/fatbin.ts), and --deep confirms it with torch.cuda.get_arch_list(). We do not guess it from
// TORCH_CUDA_ARCH_LIST: that variable only matters when building torch from source, and a machine seen in the lab
// sets it to "9.0a" while its wheel holds sm_75..sm_120.
import type { FileSystem } from '../../ports/fs.js';
import { readTextOr } from '../../ports/fs.js';
import { readFatbinTargets, type FatbinResults } from '../libraries/fatbin.js';
import { readAssignments, type PyValue } from './pyliteral.js';
import type { FrameworkBuild, PythonPackage } from '../snapshot/schema-python.js';

const MAX = 256 * 1024;

/** `fatbin`: targets already read (in a worker, by `check`), by library path; others are read here. */
export function readFrameworkBuilds(
  fs: FileSystem,
  sitePackages: string[],
  packages: PythonPackage[],
  fatbin?: FatbinResults,
): FrameworkBuild[] {
  const out: FrameworkBuild[] = [];
  const pkg = (name: string) =>
    packages.find((p) => p.name === name && p.source !== 'conda-meta') ?? packages.find((p) => p.name === name);
  for (const sp of sitePackages) {
    if (!out.some((b) => b.framework === 'torch')) {
      const t = readTorch(fs, sp, fatbin);
      if (t) out.push(t);
    }
    if (!out.some((b) => b.framework === 'tensorflow')) {
      const t = readTensorflow(fs, sp, pkg);
      if (t) out.push(t);
    }
  }
  const jax = readJax(fs, sitePackages, packages, pkg);
  if (jax) out.push(jax);
  return out;
}

function str(v: PyValue | undefined): string | null {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
}

/** The library whose fatbinary holds torch's GPU code, in one site-packages folder. */
export const torchCudaLibrary = (sp: string): string => `${sp}/torch/lib/libtorch_cuda.so`;

export function readTorch(fs: FileSystem, sp: string, fatbin?: FatbinResults): FrameworkBuild | null {
  const file = `${sp}/torch/version.py`;
  const text = readTextOr(fs, file, MAX);
  if (text === undefined) return null;
  const a = readAssignments(text);
  const version = str(a.get('__version__'));
  const cuda = str(a.get('cuda'));
  const hip = str(a.get('hip'));
  const cudaLib = torchCudaLibrary(sp);
  const targets = cuda === null ? null : fatbin?.has(cudaLib) ? fatbin.get(cudaLib)! : readFatbinTargets(fs, cudaLib);
  return {
    framework: 'torch',
    version,
    cuda,
    cudnn: null,
    hip,
    // A ROCm build is a GPU build, but not for NVIDIA: for this tool's purposes it is "not a CUDA build".
    gpuBuild: cuda !== null,
    computeCapabilities: targets ? [...targets.sass, ...targets.ptx] : null,
    sources: targets ? [file, cudaLib] : [file],
    details: {
      gitVersion: str(a.get('git_version')),
      debug: typeof a.get('debug') === 'boolean' ? (a.get('debug') as boolean) : null,
      localVersion: version && version.includes('+') ? version.slice(version.indexOf('+') + 1) : null,
    },
  };
}

export function readTensorflow(
  fs: FileSystem,
  sp: string,
  pkg: (name: string) => PythonPackage | undefined,
): FrameworkBuild | null {
  const file = `${sp}/tensorflow/python/platform/build_info.py`;
  const text = readTextOr(fs, file, MAX);
  if (text === undefined) {
    if (!fs.exists(`${sp}/tensorflow/__init__.py`)) return null;
    const p = pkg('tensorflow') ?? pkg('tensorflow-cpu') ?? pkg('tensorflow-gpu');
    return {
      framework: 'tensorflow',
      version: p?.version ?? null,
      cuda: null,
      cudnn: null,
      hip: null,
      gpuBuild: null,
      computeCapabilities: null,
      sources: [`${sp}/tensorflow`],
      details: { buildInfo: 'missing' },
    };
  }
  const a = readAssignments(text);
  // TF 2.x: build_info['cuda_version'] = '12.2' (or a dict literal); TF 1.x/2.0: cuda_version_number = '10.0'.
  const get = (k: string, old?: string) => a.get(`build_info.${k}`) ?? (old ? a.get(old) : undefined) ?? a.get(k);
  const isCuda = get('is_cuda_build');
  const isRocm = get('is_rocm_build');
  const caps = get('cuda_compute_capabilities');
  const cuda = str(get('cuda_version', 'cuda_version_number'));
  const p = pkg('tensorflow') ?? pkg('tensorflow-gpu') ?? pkg('tensorflow-cpu') ?? pkg('tensorflow-intel');
  return {
    framework: 'tensorflow',
    version: p?.version ?? null,
    cuda: isCuda === false ? null : cuda,
    cudnn: str(get('cudnn_version', 'cudnn_version_number')),
    hip: isRocm === true ? (str(get('rocm_version')) ?? 'rocm') : null,
    gpuBuild: typeof isCuda === 'boolean' ? isCuda : cuda !== null ? true : null,
    computeCapabilities: Array.isArray(caps) ? caps.filter((c): c is string => typeof c === 'string') : null,
    sources: [file],
    details: {
      package: p?.name ?? null,
      isTensorrtBuild: typeof get('is_tensorrt_build') === 'boolean' ? (get('is_tensorrt_build') as boolean) : null,
    },
  };
}

/**
 * JAX's GPU support is a separate plugin since 0.4.30 (jax-cudaNN-plugin + jax-cudaNN-pjrt); before that,
 * jaxlib itself came in CUDA builds with a local version like "0.4.23+cuda12.cudnn89".
 */
export function readJax(
  fs: FileSystem,
  sitePackages: string[],
  packages: PythonPackage[],
  pkg: (name: string) => PythonPackage | undefined,
): FrameworkBuild | null {
  const jax = pkg('jax');
  const jaxlib = pkg('jaxlib');
  if (!jax && !jaxlib) return null;
  const sources: string[] = [];
  if (jaxlib) sources.push(jaxlib.path);
  let jaxlibVersion = jaxlib?.version ?? null;
  for (const sp of sitePackages) {
    const file = `${sp}/jaxlib/version.py`;
    const text = readTextOr(fs, file, MAX);
    if (text === undefined) continue;
    const a = readAssignments(text);
    jaxlibVersion ??= str(a.get('_version')) ?? str(a.get('__version__'));
    sources.push(file);
    break;
  }
  const plugins = packages.filter(
    (p) => /^jax-(cuda|rocm)\d+-(plugin|pjrt)$/.test(p.name) && p.source !== 'conda-meta',
  );
  for (const p of plugins) sources.push(p.path);
  const cudaPlugin = plugins.find((p) => /^jax-cuda\d+-plugin$/.test(p.name));
  const pjrt = plugins.find((p) => /^jax-cuda\d+-pjrt$/.test(p.name));
  const rocm = plugins.find((p) => p.name.startsWith('jax-rocm'));
  const local = /\+cuda(\d+)(?:\.cudnn(\d)(\d+))?/.exec(jaxlibVersion ?? '');
  // A conda jaxlib says "cuda" in its build string (conda-forge: "cuda120py311h...").
  const condaJaxlib = packages.find((p) => p.name === 'jaxlib' && p.source === 'conda-meta');
  const condaCuda = /cuda(\d{2,3})/.exec(condaJaxlib?.build ?? '');
  const cuda = cudaPlugin
    ? /^jax-cuda(\d+)-/.exec(cudaPlugin.name)![1]!
    : local
      ? local[1]!
      : condaCuda
        ? condaCuda[1]!.replace(/^(\d\d)(\d)$/, '$1.$2')
        : null;
  return {
    framework: 'jax',
    version: jax?.version ?? null,
    cuda,
    cudnn: local && local[2] ? `${local[2]}.${local[3]}` : null,
    hip: rocm ? rocm.name : null,
    gpuBuild: cuda !== null ? true : rocm ? false : jaxlib ? false : null,
    computeCapabilities: null,
    sources,
    details: {
      jaxlib: jaxlibVersion,
      cudaPlugin: cudaPlugin ? `${cudaPlugin.name} ${cudaPlugin.version}` : null,
      pjrt: pjrt ? `${pjrt.name} ${pjrt.version}` : null,
      pluginMatchesJaxlib:
        cudaPlugin && jaxlibVersion ? cudaPlugin.version === jaxlibVersion.replace(/\+.*$/, '') : null,
    },
  };
}
