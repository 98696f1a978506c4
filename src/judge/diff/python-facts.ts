// Facts from the snapshot's `python` section (src/gather/snapshot/schema-python.ts): the frameworks' builds, nvidia-*
// wheels, conda packages and the interpreter of the environment a job runs in. Read through the tolerant accessors: a
// snapshot without the section has these facts "not collected", never "everything removed".
import { t } from '../../base/i18n/index.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';
import type { FactDef, FactValues, Impact } from './facts.js';
import { arr, bool, section, text, type Obj } from './section.js';
import { eitherOf, regexOf } from '../../base/regex.js';

/**
 * The environment a job runs in: the active one that was looked into, else the first looked into.
 * Comparing one environment per machine keeps machines with venvs at other paths comparable.
 */
export function primaryEnv(s: Snapshot): Obj | null | undefined {
  const py = section(s, 'python');
  if (!py) return undefined;
  const scanned = arr(py, 'environments').filter((e) => bool(e, 'scanned') !== false);
  return scanned.find((e) => bool(e, 'active') === true) ?? scanned[0] ?? null;
}

const withEnv =
  (f: (env: Obj) => FactValues) =>
  (s: Snapshot): FactValues | undefined => {
    const env = primaryEnv(s);
    if (env === undefined) return undefined;
    return env === null ? {} : f(env);
  };

/** "2.11.0+cu130 (CUDA 13.0, cuDNN 9)" / "2.11.0 (CPU build)" */
export function describeBuild(b: Obj): string {
  const parts: string[] = [];
  const cuda = text(b, 'cuda');
  const cudnn = text(b, 'cudnn');
  const hip = text(b, 'hip');
  if (cuda) parts.push(`CUDA ${cuda}`);
  if (cudnn) parts.push(`cuDNN ${cudnn}`);
  if (hip) parts.push(`ROCm ${hip}`);
  if (!cuda && !hip && bool(b, 'gpuBuild') === false) parts.push('CPU build');
  return `${text(b, 'version') ?? '?'}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

const isWheel = (p: Obj) => text(p, 'source') !== 'conda-meta';

/** Packages whose version decides which CUDA/cuDNN code runs: a difference there is as bad as a driver's. */
const CRITICAL_PACKAGES = regexOf([
  '^(',
  eitherOf([
    /torch|tensorflow|tensorflow-gpu|tf-nightly|jax|jaxlib|jax-cuda\d+-(plugin|pjrt)|cupy(-cuda.*)?/, // pip frameworks
    /nvidia-cudnn(-cu\d+)?|nvidia-cuda-runtime(-cu\d+)?|nvidia-cublas(-cu\d+)?/, // pip's CUDA wheels
    /cudnn|cudatoolkit|cuda-cudart|cuda-runtime|pytorch|pytorch-cuda/, // conda's packages
  ]),
  ')$',
]);
const packageImpact = (name: string): Impact => (CRITICAL_PACKAGES.test(name) ? 'critical' : 'high');

function probeOutcome(p: Obj): string {
  if (text(p, 'exit') !== 'ok' && bool(p, 'imported') !== true)
    return `did not run: ${text(p, 'exit') ?? '?'}${text(p, 'exitDetail') ? ` (${text(p, 'exitDetail')})` : ''}`;
  if (bool(p, 'imported') === false) {
    const e = p.importError as Obj | null | undefined;
    return `import failed: ${text(e ?? undefined, 'type') ?? '?'}`;
  }
  const conv = arr(p, 'conv');
  const first = conv[0];
  if (!first) return 'imported';
  if (bool(first, 'ok') === true) return 'convolution ok';
  const err = first.error as Obj | null | undefined;
  return `convolution failed: ${text(err ?? undefined, 'type') ?? '?'}`;
}

export const PYTHON_FACTS: FactDef[] = [
  {
    id: 'framework',
    get label() {
      return t('diff.fact.framework.label');
    },
    impact: 'critical',
    key: true,
    get why() {
      return t('diff.fact.framework.why');
    },
    read: withEnv((env) => {
      const out: FactValues = {};
      for (const b of arr(env, 'frameworks')) {
        const fw = text(b, 'framework');
        if (fw && out[fw] === undefined) out[fw] = describeBuild(b);
      }
      return out;
    }),
  },
  {
    id: 'wheel',
    get label() {
      return t('diff.fact.wheel.label');
    },
    impact: 'high',
    get why() {
      return t('diff.fact.wheel.why');
    },
    read: withEnv((env) => {
      const out: FactValues = {};
      for (const p of arr(env, 'packages').filter(isWheel)) {
        const name = text(p, 'name');
        if (name) out[name] = text(p, 'version') ?? '?';
      }
      return out;
    }),
    impactOf: packageImpact,
  },
  {
    id: 'conda',
    get label() {
      return t('diff.fact.conda.label');
    },
    impact: 'high',
    get why() {
      return t('diff.fact.conda.why');
    },
    read: withEnv((env) => {
      const out: FactValues = {};
      for (const p of arr(env, 'packages').filter((x) => !isWheel(x))) {
        const name = text(p, 'name');
        if (!name) continue;
        const build = text(p, 'build');
        out[name] = `${text(p, 'version') ?? '?'}${build ? ` (${build})` : ''}`;
      }
      return out;
    }),
    impactOf: packageImpact,
  },
  {
    id: 'framework.probe',
    get label() {
      return t('diff.fact.framework.probe.label');
    },
    impact: 'critical',
    get why() {
      return t('diff.fact.framework.probe.why');
    },
    read: (s) => {
      const env = primaryEnv(s);
      const probes = env ? arr(env, 'probes') : [];
      if (probes.length === 0) return undefined; // only --deep runs them: absent is "not collected"
      const out: FactValues = {};
      for (const p of probes) {
        const fw = text(p, 'framework');
        if (fw && out[fw] === undefined) out[fw] = probeOutcome(p);
      }
      return out;
    },
  },
  {
    id: 'python.version',
    get label() {
      return t('diff.fact.python.version.label');
    },
    impact: 'high',
    get why() {
      return t('diff.fact.python.version.why');
    },
    read: withEnv((env): FactValues => {
      const v = text(env, 'pythonVersion');
      return v === null ? {} : { '': v };
    }),
  },
  {
    id: 'python.duplicates',
    get label() {
      return t('diff.fact.python.duplicates.label');
    },
    impact: 'high',
    get why() {
      return t('diff.fact.python.duplicates.why');
    },
    read: withEnv((env) => {
      const out: FactValues = {};
      for (const d of arr(env, 'duplicates')) {
        const name = text(d, 'name');
        if (name)
          out[name] = arr(d, 'entries')
            .map((e) => text(e, 'version') ?? '?')
            .join(' + ');
      }
      return out;
    }),
  },
  {
    id: 'python.env',
    get label() {
      return t('diff.fact.python.env.label');
    },
    impact: 'medium',
    get why() {
      return t('diff.fact.python.env.why');
    },
    read: withEnv((env) => ({ '': `${text(env, 'prefix') ?? '?'} (${text(env, 'kind') ?? '?'})` })),
  },
];
