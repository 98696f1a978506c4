// The CUDA and cuDNN versions a fix's install lines follow: the ones the input names (the libraries the framework
// asked for, its packages, the versions the reporter states), so that a fix never installs a wheel for another
// CUDA or cuDNN than the framework's. Facts from ../shared/compat (cudnn.json, jax.json, tensorflow.json):
// - pip's cuDNN wheels: nvidia-cudnn-cu11 for cuDNN 8.6 to 9.10 (JAX pins nvidia-cudnn-cu11>=8.6; PyPI's cu11
//   series stops at 9.10.2.21), nvidia-cudnn-cu12 from 8.9 (JAX pins nvidia-cudnn-cu12>=8.9.2.26), nvidia-cudnn-cu13
//   for cuDNN 9 (JAX pins nvidia-cudnn-cu13>=9.12); no pip wheel of cuDNN 7 or of an older cuDNN 8.
// - TensorFlow before 2.14 loads the CUDA and cuDNN installed on the machine (LD_LIBRARY_PATH, PATH on Windows), of
//   the versions in its tested build table; from 2.14, `tensorflow[and-cuda]` brings them as nvidia-* wheels.
import { tensorflowBuild } from '../knowledge-bridge.js';

/** the CUDA major of a library's file name: libcudart.so.11.0 → 11, cudart64_110.dll → 11, cublas64_12.dll → 12 */
const CUDA_LIB = /\b(?:lib)?cu(?:dart|blas|blasLt|fft|solver|sparse|rand)(?:\.so\.(\d+)|64_(\d+)\.dll)/i;
/**
 * the cuDNN major of a library's file name: libcudnn.so.8, libcudnn_ops_infer.so.8, cudnn64_7.dll, cudnn_cnn64_9.dll
 */
const CUDNN_LIB = /\b(?:lib)?cudnn\w*?(?:\.so\.(\d+)|64_(\d+)\.dll)/i;
/** a package that names its CUDA: xla_cuda12, jax-cuda12-plugin, jax[cuda12], nvidia-cudnn-cu12, +cu118 */
const CUDA_PACKAGE =
  /xla_cuda(\d{2})\b|jax[-_]cuda(\d{2})[-_]|jax\[cuda(\d{2})|nvidia-[a-z-]+-cu(\d{2})\b|\+cu(\d{2,3})\b/i;

function dllCudaMajor(tag: string): string {
  // cudart64_110 → 11, cudart64_101 → 10, cublas64_11 → 11, cudart64_90 → 9
  if (tag.length >= 3) return String(Number(tag.slice(0, 2)));
  const n = Number(tag);
  return String(n <= 13 ? n : Math.floor(n / 10));
}

/** The CUDA major the input names for the framework's build, or null: its packages, then the libraries it asks for. */
export function cudaMajorOfInput(lines: readonly string[], stated?: string): string | null {
  for (const l of lines) {
    const m = CUDA_PACKAGE.exec(l);
    const v = m?.slice(1).find((x) => x !== undefined);
    if (v) return v.length === 3 ? v.slice(0, 2) : v.length === 2 && Number(v) > 13 ? v.slice(0, 1) : v;
  }
  for (const l of lines) {
    const m = CUDA_LIB.exec(l);
    if (m?.[1]) return String(Number(m[1]));
    if (m?.[2]) return dllCudaMajor(m[2]);
  }
  const s = stated ? /^(\d+)/.exec(stated)?.[1] : undefined;
  return s ?? null;
}

/** The cuDNN major the input names (the library it asked for, then the version it states), or null. */
export function cudnnMajorOfInput(lines: readonly string[], stated?: string): string | null {
  for (const l of lines) {
    const m = CUDNN_LIB.exec(l);
    const v = m?.[1] ?? m?.[2];
    if (v) return String(Number(v));
  }
  const s = stated ? /^(\d+)/.exec(stated)?.[1] : undefined;
  return s ?? null;
}

/**
 * the loader's source path of TensorFlow 2.11 and before (tensorflow/stream_executor/…; 1.x: tensorflow/core/platform/)
 */
const TF_OLD_LOADER = /tensorflow\/(?:stream_executor|core\/platform)\/[\w/]*dso_loader/;

/**
 * Whether this TensorFlow takes CUDA and cuDNN from pip's nvidia-* wheels (2.14 and later, on Linux): from its
 * version, else from the loader's source path its log prints; on native Windows never (its last GPU release is 2.10,
 * and the wheels are Linux-only). Null: the input does not say.
 */
export function tfLoadsPipCuda(
  version: string | undefined,
  lines: readonly string[],
  platform?: string,
): boolean | null {
  if (platform === 'windows') return false;
  const m = version ? /^(\d+)\.(\d+)/.exec(version) : null;
  if (m) return Number(m[1]) > 2 || (Number(m[1]) === 2 && Number(m[2]) >= 14);
  if (lines.some((l) => TF_OLD_LOADER.test(l))) return false;
  return null;
}

/** The CUDA and cuDNN of a TensorFlow release's tested build (Linux), or null. */
export function tfTestedBuild(version: string | undefined): { cuda: string; cudnn: string } | null {
  return version ? tensorflowBuild(version) : null;
}

/**
 * The pip wheel of cuDNN `cudnn` (a major, or major.minor) for CUDA major `cu`, as a requirement
 * ("nvidia-cudnn-cu11==8.9.*"), or null where pip has none.
 */
export function cudnnWheel(cu: string, cudnn: string): string | null {
  const [maj, min] = cudnn.split('.').map(Number) as [number, number | undefined];
  const pin = min === undefined ? `${maj}.*` : `${maj}.${min}.*`;
  const at = (lo: number, hi = Number.POSITIVE_INFINITY) => {
    const v = maj + (min ?? (maj === 8 ? 9 : 0)) / 100;
    return v >= lo && v <= hi;
  };
  if (cu === '11' && at(8.06, 9.1)) return `nvidia-cudnn-cu11==${pin}`;
  if (cu === '12' && at(8.09)) return `nvidia-cudnn-cu12==${pin}`;
  if (cu === '13' && at(9)) return `nvidia-cudnn-cu13==${pin}`;
  return null;
}
