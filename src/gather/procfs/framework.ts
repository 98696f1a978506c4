// Which framework a GPU-memory holder runs, and what that means for its memory: read from the files it has
// mapped (/proc/PID/maps) and the memory-policy variables of its environment (/proc/PID/environ, when this
// user may read it; only those variables are kept). The policy decides the fix: JAX reserves 75% of the GPU
// at its first operation unless told not to; TensorFlow takes nearly all of it unless memory growth is on;
// PyTorch and CuPy keep freed blocks cached in the process. Pure.
import { fmtMiB } from '../../base/format.js';
import type { HolderFramework, HolderProcess } from '../snapshot/schema.js';
import table from '../../knowledge/procs/holder-frameworks.json' with { type: 'json' };
import { t } from '../../base/i18n/index.js';

const ROWS = (table as { rows: { name: string; patterns: string[]; source: string }[] }).rows.map((r) => ({
  ...r,
  res: r.patterns.map((p) => new RegExp(p)),
}));

/** The variables of a holder's environment that set its framework's memory policy (nothing else is kept). */
export const POLICY_VARS = [
  'XLA_PYTHON_CLIENT_PREALLOCATE',
  'XLA_PYTHON_CLIENT_MEM_FRACTION',
  'XLA_CLIENT_MEM_FRACTION',
  'XLA_PYTHON_CLIENT_ALLOCATOR',
  'TF_FORCE_GPU_ALLOW_GROWTH',
  'TF_GPU_ALLOCATOR',
  'PYTORCH_CUDA_ALLOC_CONF',
  'PYTORCH_ALLOC_CONF',
  'CUPY_GPU_MEMORY_LIMIT',
] as const;

export const FRAMEWORK_NAMES: Record<string, string> = {
  jax: 'JAX',
  tensorflow: 'TensorFlow',
  torch: 'PyTorch',
  cupy: 'CuPy',
};

export function frameworkLabel(name: string): string {
  return FRAMEWORK_NAMES[name] ?? name;
}

/** The framework from the mapped files: the first row that matches (see holder-frameworks.json), with the files
 *  that show it (shortened to the part after site-packages) and the other frameworks mapped too. */
export function frameworkFromMaps(files: readonly string[], environ?: string | null): HolderFramework | null {
  const hits = ROWS.map((r) => ({ name: r.name, files: files.filter((f) => r.res.some((re) => re.test(f))) })).filter(
    (h) => h.files.length > 0,
  );
  const first = hits[0];
  if (!first) return null;
  const env = environ === undefined || environ === null ? null : policyEnv(environ);
  return {
    name: first.name,
    evidence: first.files.slice(0, 4).map(short),
    ...(hits.length > 1 ? { also: hits.slice(1).map((h) => h.name) } : {}),
    env,
  };
}

/** NUL-separated /proc/PID/environ → the policy variables only. */
export function policyEnv(environ: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of environ.split('\0')) {
    const i = kv.indexOf('=');
    if (i <= 0) continue;
    const k = kv.slice(0, i);
    if ((POLICY_VARS as readonly string[]).includes(k)) out[k] = kv.slice(i + 1);
  }
  return out;
}

function short(f: string): string {
  const i = f.lastIndexOf('-packages/');
  return i >= 0 ? f.slice(i + '-packages/'.length) : f;
}

export interface HolderPolicy {
  /** "JAX, preallocating 75% (XLA_PYTHON_CLIENT_PREALLOCATE not set in it)" */
  summary: string;
  /** the memory it holds is a reserve the framework would give up if started differently */
  reserve: boolean;
  /** what to do in (or to) the holder, for the user to judge: never run by the tool */
  remedy: string;
}

const JAX_OFF = new Set(['false', 'False', '0']);

/** What the holder's framework does with GPU memory, given what it holds of a GPU of `gpuTotalMiB`. */
export function holderPolicy(p: HolderProcess, gpuTotalMiB: number | null): HolderPolicy | null {
  const fw = p.framework;
  if (!fw) return null;
  const env = fw.env ?? null;
  const known = env !== null;
  const used = p.usedMiB;
  const share = used !== null && gpuTotalMiB ? used / gpuTotalMiB : null;
  const pct = (f: number) => `${Math.round(f * 100)}%`;
  switch (fw.name) {
    case 'jax': {
      const pre = env?.XLA_PYTHON_CLIENT_PREALLOCATE;
      const fracText = env?.XLA_PYTHON_CLIENT_MEM_FRACTION ?? env?.XLA_CLIENT_MEM_FRACTION;
      const frac = fracText !== undefined && Number(fracText) > 0 ? Math.min(1, Number(fracText)) : 0.75;
      if (pre !== undefined && JAX_OFF.has(pre)) {
        return { summary: t('policy.jaxOff'), reserve: false, remedy: t('policy.jaxOffRemedy') };
      }
      const matches = share !== null && Math.abs(share - frac) < 0.04;
      const how = known
        ? fracText !== undefined
          ? t('policy.jaxFraction', { fraction: fracText })
          : t('policy.jaxNotSet')
        : t('policy.jaxUnreadable');
      return {
        summary:
          matches && gpuTotalMiB
            ? t('policy.jaxMatches', { pct: pct(frac), how, used: fmtMiB(used), total: fmtMiB(gpuTotalMiB) })
            : t('policy.jax', { pct: pct(frac), how }),
        reserve: true,
        remedy: t('policy.jaxRemedy'),
      };
    }
    case 'tensorflow': {
      const growth = env?.TF_FORCE_GPU_ALLOW_GROWTH === 'true';
      if (growth) return { summary: t('policy.tfGrowth'), reserve: false, remedy: t('policy.tfGrowthRemedy') };
      return {
        summary: known ? t('policy.tfKnown') : t('policy.tfUnknown'),
        reserve: true,
        remedy: t('policy.tfRemedy'),
      };
    }
    case 'torch':
      return {
        summary: t('policy.torch'),
        reserve: false,
        remedy: t('policy.torchRemedy'),
      };
    case 'cupy':
      return {
        summary: t('policy.cupy'),
        reserve: false,
        remedy: t('policy.cupyRemedy'),
      };
    default:
      return null;
  }
}

/** "JAX" / "PyTorch" for a holder, or null. */
export function holderFrameworkLabel(p: Pick<HolderProcess, 'framework'>): string | null {
  return p.framework ? frameworkLabel(p.framework.name) : null;
}
