// Framework specs as users and logs write them: "tensorflow==2.12", "torch==2.1.0+cu121",
// "jax[cuda12]==0.4.30", "tensorflow[and-cuda]==2.15.*", "pytorch 2.3", "tensorflow-gpu==1.15",
// "paddlepaddle-gpu==2.6.1.post120", "paddle==3.0.0".
import { InputError } from '../../base/errors.js';
import { isVersion } from './version.js';

export type Framework = 'torch' | 'tensorflow' | 'jax' | 'paddle';

export interface Spec {
  framework: Framework;
  /** "2.12", "2.1.0" (without the local label or wildcard) */
  version: string;
  /** torch: "cu121" / "cpu" / "rocm6.0"; jax: "cuda12" / "cuda13"; tensorflow: "and-cuda";
   *  paddle: "cu120" (.post120), "pypi" (the plain paddlepaddle-gpu==X: the build pip installs),
   *  "cpu" (paddlepaddle) */
  variant?: string;
  /** the text as given */
  raw: string;
}

const ALIASES: Record<string, Framework> = {
  torch: 'torch',
  pytorch: 'torch',
  tensorflow: 'tensorflow',
  'tensorflow-gpu': 'tensorflow',
  tensorflow_gpu: 'tensorflow',
  'tensorflow-cpu': 'tensorflow',
  tf: 'tensorflow',
  'tf-nightly': 'tensorflow',
  jax: 'jax',
  jaxlib: 'jax',
  paddle: 'paddle',
  paddlepaddle: 'paddle',
  'paddlepaddle-gpu': 'paddle',
  paddlepaddle_gpu: 'paddle',
};

/**
 * Parse a framework spec. Throws InputError (one line) when the framework is unknown or the version is
 * missing or malformed.
 */
export function parseSpec(text: string): Spec {
  const raw = text.trim();
  const m = /^([A-Za-z][\w.-]*?)\s*(?:\[([\w,.-]+)\])?\s*(?:===?|=|@|\s)\s*v?([0-9][\w.+*-]*)$/.exec(raw);
  if (!m) {
    if (/^[A-Za-z][\w.-]*(\[[\w,.-]+\])?$/.test(raw)) throw new InputError('usage.spec.noVersion', { spec: raw });
    throw new InputError('usage.spec.malformed', { spec: raw });
  }
  const name = m[1]!.toLowerCase();
  const framework = ALIASES[name];
  if (!framework) throw new InputError('usage.spec.unknownFramework', { name: m[1]! });
  let version = m[3]!;
  let variant: string | undefined;
  // paddlepaddle-gpu 2.x names its CUDA build in the version: 2.6.1.post120 is the CUDA 12.0 build
  const post = framework === 'paddle' ? /^(.*?)\.post(\d{2,3})$/.exec(version) : null;
  if (post) {
    version = post[1]!;
    variant = `cu${post[2]}`;
  }
  const plus = version.indexOf('+');
  if (plus !== -1) {
    variant = version.slice(plus + 1).toLowerCase();
    version = version.slice(0, plus);
  }
  version = version.replace(/\.\*$/, '');
  if (!isVersion(version)) throw new InputError('usage.spec.badVersion', { version: m[3]!, spec: raw });
  const extras =
    m[2]
      ?.toLowerCase()
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? [];
  if (framework === 'jax') {
    const cuda = extras.find((e) => /^cuda\d+/.test(e));
    if (cuda) variant = cuda.replace(/^(cuda\d+).*$/, '$1');
  } else if (framework === 'tensorflow' && extras.includes('and-cuda')) {
    variant = 'and-cuda';
  }
  if (framework === 'paddle') {
    if (variant !== undefined && !/^cu\d{2,3}$/.test(variant))
      throw new InputError('usage.spec.paddleVariant', { variant });
    if (name === 'paddlepaddle') {
      if (variant !== undefined) throw new InputError('usage.spec.paddleCpu', { spec: raw });
      variant = 'cpu';
    } else if (variant === undefined && name !== 'paddle') variant = 'pypi';
  }
  if (framework === 'torch' && variant !== undefined && !/^(cu\d{2,3}|cpu|rocm[\d.]+|xpu)$/.test(variant)) {
    throw new InputError('usage.spec.torchVariant', { variant });
  }
  return variant === undefined ? { framework, version, raw } : { framework, version, variant, raw };
}

/** "cu121" → "12.1", "cu118" → "11.8", "cu92" → "9.2"; null for other variants. */
export function cudaOfTorchVariant(variant: string): string | null {
  const m = /^cu(\d+)(\d)$/.exec(variant);
  return m ? `${Number(m[1])}.${m[2]}` : null;
}

/** "12.1" → "cu121". */
export function torchVariantOfCuda(cuda: string): string {
  const [maj, min] = cuda.split('.');
  return `cu${maj}${min ?? '0'}`;
}
