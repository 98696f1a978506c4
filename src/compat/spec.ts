// Framework specs as users and logs write them: "tensorflow==2.12", "torch==2.1.0+cu121",
// "jax[cuda12]==0.4.30", "tensorflow[and-cuda]==2.15.*", "pytorch 2.3", "tensorflow-gpu==1.15".
import { UsageError } from '../core/errors.js';
import { isVersion } from './version.js';

export type Framework = 'torch' | 'tensorflow' | 'jax';

export interface Spec {
  framework: Framework;
  /** "2.12", "2.1.0" (without the local label or wildcard) */
  version: string;
  /** torch: "cu121" / "cpu" / "rocm6.0"; jax: "cuda12" / "cuda13"; tensorflow: "and-cuda" */
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
};

/**
 * Parse a framework spec. Throws UsageError (one line) when the framework is unknown or the version is
 * missing or malformed.
 */
export function parseSpec(text: string): Spec {
  const raw = text.trim();
  const m = /^([A-Za-z][\w.-]*?)\s*(?:\[([\w,.-]+)\])?\s*(?:===?|=|@|\s)\s*v?([0-9][\w.+*-]*)$/.exec(raw);
  if (!m) {
    if (/^[A-Za-z][\w.-]*(\[[\w,.-]+\])?$/.test(raw)) throw new UsageError(`"${raw}" has no version: write it like torch==2.1.0+cu121, tensorflow==2.12 or jax[cuda12]==0.4.30`);
    throw new UsageError(`"${raw}" is not a framework spec: write it like torch==2.1.0+cu121, tensorflow==2.12 or jax[cuda12]==0.4.30`);
  }
  const name = m[1]!.toLowerCase();
  const framework = ALIASES[name];
  if (!framework) throw new UsageError(`unknown framework "${m[1]}" (known: torch, tensorflow, jax)`);
  let version = m[3]!;
  let variant: string | undefined;
  const plus = version.indexOf('+');
  if (plus !== -1) {
    variant = version.slice(plus + 1).toLowerCase();
    version = version.slice(0, plus);
  }
  version = version.replace(/\.\*$/, '');
  if (!isVersion(version)) throw new UsageError(`"${m[3]}" is not a version (in "${raw}")`);
  const extras = m[2]?.toLowerCase().split(',').map((s) => s.trim()).filter(Boolean) ?? [];
  if (framework === 'jax') {
    const cuda = extras.find((e) => /^cuda\d+/.test(e));
    if (cuda) variant = cuda.replace(/^(cuda\d+).*$/, '$1');
  } else if (framework === 'tensorflow' && extras.includes('and-cuda')) {
    variant = 'and-cuda';
  }
  if (framework === 'torch' && variant !== undefined && !/^(cu\d{2,3}|cpu|rocm[\d.]+|xpu)$/.test(variant)) {
    throw new UsageError(`"+${variant}" is not a PyTorch build variant (like +cu121 or +cpu)`);
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
