// env.allocators: the variables that set each framework's memory policy, checked for values the framework
// would reject or ignore, and summarised so a reader knows which policy a job here gets.
import { ok, type Finding } from '../../finding.js';
import {
  judgeJaxSettings,
  judgeTfGrowth,
  judgeTorchAllocConf,
  TORCH_ALLOC_KEYS,
  tokenizeAllocConf,
  torchFirstCallProblem,
  torchLoadTimeProblem,
} from './allocator-settings.js';
import { envFinding } from './env-finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { joinList, t } from '../../../base/i18n/index.js';

export { TORCH_ALLOC_KEYS };

/** The options of a PYTORCH_(CUDA_)ALLOC_CONF value, for summaries: key → value (a [list] kept whole). */
export function parseTorchAllocConf(v: string): {
  options: Map<string, string>;
  unknown: string[];
  malformed: string[];
} {
  const options = new Map<string, string>();
  const unknown: string[] = [];
  const malformed: string[] = [];
  // roundup_power2_divisions may hold a bracketed list with commas: split on commas outside brackets.
  for (const part of v.split(/,(?![^[]*\])/)) {
    const p = part.trim();
    if (p === '') continue;
    const i = p.indexOf(':');
    if (i <= 0) {
      malformed.push(p);
      continue;
    }
    const key = p.slice(0, i).trim();
    options.set(key, p.slice(i + 1).trim());
    if (!TORCH_ALLOC_KEYS.has(key)) unknown.push(key);
  }
  return { options, unknown, malformed };
}

export const allocatorsCheck: Check = {
  id: 'env.allocators',
  category: 'env',
  get title() {
    return t('title.env.allocators');
  },
  evaluate(s: Snapshot): Finding[] {
    const e = s.env;
    const out: Finding[] = [];
    const bad = (name: string, message: string, fixText: string, commands: string[]) =>
      out.push(envFinding({ check: this.id, name, value: e[name] ?? '', message, fix: { text: fixText, commands } }));

    const tfGrowth = e.TF_FORCE_GPU_ALLOW_GROWTH;
    const tf = judgeTfGrowth(tfGrowth);
    if (tf) {
      out.push({
        ...envFinding({
          check: this.id,
          name: 'TF_FORCE_GPU_ALLOW_GROWTH',
          value: tfGrowth ?? '',
          message: tf.message,
          fix: { text: t('allocators.tfFix'), commands: ['export TF_FORCE_GPU_ALLOW_GROWTH=true'] },
        }),
        consequences: [tf.consequence],
      });
    }
    const tfAlloc = e.TF_GPU_ALLOCATOR;
    if (tfAlloc !== undefined && tfAlloc !== 'cuda_malloc_async' && tfAlloc !== 'bfc' && tfAlloc !== '') {
      bad('TF_GPU_ALLOCATOR', t('allocators.tfAlloc', { value: tfAlloc }), t('allocators.tfAllocFix'), [
        'unset TF_GPU_ALLOCATOR',
      ]);
    }
    const prealloc = e.XLA_PYTHON_CLIENT_PREALLOCATE;
    for (const j of judgeJaxSettings(e)) {
      out.push({
        ...envFinding({
          check: this.id,
          name: j.name,
          value: e[j.name] ?? '',
          severity: j.severity,
          message: j.message,
          fix: j.fix,
        }),
        consequences: [j.consequence],
      });
    }
    const torchVersions = (s.python?.environments ?? []).flatMap((env) =>
      env.frameworks.filter((f) => f.framework === 'torch' && f.version).map((f) => f.version!),
    );
    for (const name of ['PYTORCH_CUDA_ALLOC_CONF', 'PYTORCH_ALLOC_CONF']) {
      const v = e[name];
      if (v === undefined) continue;
      const verdict = judgeTorchAllocConf(name, v, torchVersions);
      if (!verdict) continue;
      const p = verdict.problem;
      const what =
        p.phase === 'import'
          ? t('allocators.breaks', { token: p.token })
          : p.error.startsWith('Unrecognized key')
            ? t('allocators.unknownKey', { key: p.key })
            : t('allocators.badValue', { key: p.key });
      const when =
        p.phase === 'import' && verdict.parser !== 'old'
          ? t('allocators.abortsImport')
          : t('allocators.failsFirstCall');
      out.push({
        ...envFinding({
          check: this.id,
          name,
          value: v,
          severity: 'error',
          message: t('allocators.torchMessage', { when, name, what }),
          fix: {
            text: t(verdict.problem.phase === 'import' ? 'allocators.torchFixImport' : 'allocators.torchFix'),
            commands: [repaired(name, v)],
          },
        }),
        consequences: [verdict.consequence],
      });
    }
    if (
      e.PYTORCH_CUDA_ALLOC_CONF !== undefined &&
      e.PYTORCH_ALLOC_CONF !== undefined &&
      e.PYTORCH_CUDA_ALLOC_CONF !== e.PYTORCH_ALLOC_CONF
    ) {
      bad('PYTORCH_ALLOC_CONF', t('allocators.both'), t('allocators.bothFix'), ['unset PYTORCH_CUDA_ALLOC_CONF']);
    }

    const policy: string[] = [];
    if (tfGrowth === 'true') policy.push(t('allocators.tfGrows'));
    if (prealloc === 'false' || prealloc === 'False' || prealloc === '0') policy.push(t('allocators.jaxNoPrealloc'));
    const frac = e.XLA_PYTHON_CLIENT_MEM_FRACTION ?? e.XLA_CLIENT_MEM_FRACTION;
    if (frac !== undefined && Number(frac) > 0 && Number(frac) <= 1)
      policy.push(t('allocators.jaxFraction', { pct: Math.round(Number(frac) * 100) }));
    const torchConf = e.PYTORCH_ALLOC_CONF ?? e.PYTORCH_CUDA_ALLOC_CONF;
    if (torchConf) policy.push(t('allocators.torchConf', { conf: torchConf }));
    if (policy.length > 0 && out.length === 0) {
      out.push(
        ok({
          check: this.id,
          message: joinList(policy),
          evidence: [],
        }),
      );
    }
    return out;
  },
};

/** The value with its broken pairs dropped (what PyTorch would accept), or the usual setting when nothing is left. */
function repaired(name: string, v: string): string {
  const kept = v
    .split(/,(?![^[]*\])/)
    .map((p) => p.trim())
    .filter(
      (p) =>
        p !== '' &&
        torchLoadTimeProblem(tokenizeAllocConf(p)) === null &&
        torchFirstCallProblem(tokenizeAllocConf(p)) === null,
    );
  const fixed = kept.join(',');
  return (
    `export ` +
    `${name}=${fixed !== '' ? (/^[\w@%+=:,./-]+$/.test(fixed) ? fixed : `'${fixed}'`) : 'expandable_segments:True'}`
  );
}
