// env.debug: variables left over from debugging that change speed or memory for every job.
import type { Finding } from '../../finding.js';
import { envFinding } from './env-finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

export const debugVarsCheck: Check = {
  id: 'env.debug',
  category: 'env',
  get title() {
    return t('title.env.debug');
  },
  evaluate(s: Snapshot): Finding[] {
    const out: Finding[] = [];
    const e = s.env;
    const add = (name: string, message: string, fix: string) =>
      out.push(
        envFinding({
          check: this.id,
          name,
          value: e[name] ?? '',
          message,
          fix: { text: fix, commands: [`unset ${name}`] },
        }),
      );
    if (e.CUDA_LAUNCH_BLOCKING === '1') add('CUDA_LAUNCH_BLOCKING', t('debug.blocking'), t('debug.blockingFix'));
    if (e.CUDA_FORCE_PTX_JIT === '1') add('CUDA_FORCE_PTX_JIT', t('debug.ptxJit'), t('debug.unset'));
    if (e.CUDA_CACHE_DISABLE === '1') add('CUDA_CACHE_DISABLE', t('debug.cacheDisable'), t('debug.unset'));
    if ((e.CUDA_MODULE_LOADING ?? '').toUpperCase() === 'EAGER')
      add('CUDA_MODULE_LOADING', t('debug.eager'), t('debug.eagerFix'));
    return out;
  },
};
