// env.debug: variables left over from debugging that change speed or memory for every job.
import type { Finding } from '../../core/finding.js';
import { envFinding } from './env-finding.js';
import type { Snapshot } from '../../snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../i18n/index.js';

export const debugVarsCheck: Check = {
  id: 'env.debug',
  category: 'env',
  get title() { return t('title.env.debug'); },
  evaluate(s: Snapshot): Finding[] {
    const out: Finding[] = [];
    const e = s.env;
    const add = (name: string, message: string, fix: string) =>
      out.push(envFinding({ check: this.id, name, value: e[name] ?? '', message, fix: { text: fix, commands: [`unset ${name}`] } }));
    if (e.CUDA_LAUNCH_BLOCKING === '1') add('CUDA_LAUNCH_BLOCKING', 'CUDA_LAUNCH_BLOCKING=1 makes every kernel launch synchronous: good for finding the failing line, much slower for training', 'Unset it once the error is located.');
    if (e.CUDA_FORCE_PTX_JIT === '1') add('CUDA_FORCE_PTX_JIT', 'CUDA_FORCE_PTX_JIT=1 ignores the compiled GPU code and JIT-compiles PTX: slow start, and fails when the build has no PTX', 'Unset it.');
    if (e.CUDA_CACHE_DISABLE === '1') add('CUDA_CACHE_DISABLE', 'CUDA_CACHE_DISABLE=1 recompiles PTX at every start', 'Unset it.');
    if ((e.CUDA_MODULE_LOADING ?? '').toUpperCase() === 'EAGER') add('CUDA_MODULE_LOADING', 'CUDA_MODULE_LOADING=EAGER loads every kernel at start: more GPU memory and a slower start than the default LAZY', 'Unset it (LAZY is the default since CUDA 12.2).');
    return out;
  },
};
