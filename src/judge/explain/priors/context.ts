// The context a report's priors are looked up in: which framework family, and which era (the CUDA major in use,
// else the framework's major release). General facts: TensorFlow 1.x ran on CUDA 9/10 with cuDNN 7, where
// version mismatches dominate; CUDA 11 brought minor-version compatibility; pip wheels of CUDA 12+ bring their
// own runtime and cuDNN, which moves failures from "missing" to "two copies compete".
import type { SignalState } from '../collect.js';
import { Collector } from '../collect.js';
import type { EnvironmentFacts, Framework } from '../types.js';
import { nativeAtFirstUse } from '../../../base/native-regex.js';

export type FrameworkFamily = 'tf' | 'torch' | 'jax' | 'other' | 'unknown';

export function frameworkFamily(fw: Framework | undefined): FrameworkFamily {
  if (!fw) return 'unknown';
  if (fw === 'tensorflow' || fw === 'keras') return 'tf';
  if (fw === 'pytorch') return 'torch';
  if (fw === 'jax' || fw === 'xla') return 'jax';
  return 'other';
}

const CUDA_LIB = /lib(?:cudart|cublas|cublasLt|cufft|curand|cusolver|cusparse|nvrtc)\.so\.(\d+)/;
const WIN_CUDA_LIB = /(?:cudart|cublas|cufft|curand|cusolver|cusparse)64_(\d{2,3})\.dll/;
/** both compiled natively when the first message is read for them */
const primeLibs = nativeAtFirstUse(CUDA_LIB, WIN_CUDA_LIB);

export function eraOf(
  env: EnvironmentFacts,
  signals: Map<string, SignalState>,
  family: FrameworkFamily,
): string | undefined {
  let major: number | undefined;
  const stated = env.buildCuda?.value ?? env.cuda?.value;
  if (stated && /^\d+/.test(stated)) major = Number.parseInt(stated, 10);
  if (major === undefined) {
    primeLibs();
    outer: for (const st of signals.values()) {
      for (const m of Collector.matches(st).slice(0, 4)) {
        const t = `${m.values.lib ?? ''} ${m.text}`;
        const a = CUDA_LIB.exec(t);
        if (a) {
          major = Number(a[1]);
          break outer;
        }
        const w = WIN_CUDA_LIB.exec(t);
        if (w) {
          major = Number(w[1]!.length === 2 ? w[1] : w[1]!.slice(0, -1));
          break outer;
        }
      }
    }
  }
  if (major !== undefined && major >= 6 && major <= 20) return major <= 9 ? 'cuda9' : `cuda${Math.min(major, 13)}`;
  const v = env.frameworkVersion?.value;
  const fwMajor = v ? Number.parseInt(v, 10) : Number.NaN;
  if (family === 'tf' && Number.isFinite(fwMajor)) return fwMajor <= 1 ? 'tf1' : 'tf2';
  if (family === 'torch' && Number.isFinite(fwMajor)) return fwMajor <= 1 ? 'torch1' : 'torch2';
  return undefined;
}
