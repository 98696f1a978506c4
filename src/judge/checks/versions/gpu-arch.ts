// versions.gpu-arch: does each framework build have code for the GPU's compute capability (its own SASS,
// SASS of the same architecture family, or PTX the driver can JIT)? New GPUs on old wheels, old GPUs
// dropped by new CUDA.
import type { Finding } from '../../finding.js';
import { judgeArch } from '../../compat/judge.js';
import type { Check } from '../check.js';
import { alignFix, appliesToFrameworks, installedFrameworks, verdictFinding } from './common.js';
import { t } from '../../../base/i18n/index.js';

export const gpuArchCheck: Check = {
  id: 'versions.gpu-arch',
  category: 'versions',
  get title() {
    return t('title.versions.gpu-arch');
  },
  applies: appliesToFrameworks,
  evaluate(s): Finding[] {
    const { m, items } = installedFrameworks(s);
    const out: Finding[] = [];
    for (const item of items) {
      for (const v of judgeArch(item.target, m)) {
        if (v.status === 'unknown') continue;
        const fix =
          v.status === 'ok'
            ? undefined
            : alignFix(m, item, v.rootCause === 'driver_too_old' ? 'full' : false, t('vfix.noArch'));
        out.push(verdictFinding(this.id, v, item, fix));
      }
    }
    return out;
  },
};
