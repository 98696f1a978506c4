// versions.driver-cuda: is the NVIDIA driver new enough for the CUDA runtime each framework brings?
// Minor-version compatibility counts: torch cu126 runs on any 525.60.13+ driver, not only on 560+.
import type { Finding } from '../../finding.js';
import { judgeDriver } from '../../compat/judge.js';
import type { Check } from '../check.js';
import { alignFix, appliesToFrameworks, installedFrameworks, verdictFinding } from './common.js';
import { t } from '../../../base/i18n/index.js';

export const driverCudaCheck: Check = {
  id: 'versions.driver-cuda',
  category: 'versions',
  get title() {
    return t('title.versions.driver-cuda');
  },
  applies: appliesToFrameworks,
  evaluate(s): Finding[] {
    const { m, items } = installedFrameworks(s);
    if (m.driver === null) return [];
    const out: Finding[] = [];
    for (const item of items) {
      const v = judgeDriver(item.target, m);
      if (!v || v.status === 'unknown') continue;
      const fix =
        v.status === 'fail'
          ? alignFix(m, item, 'min', t('vfix.driver', { version: v.required?.replace('>=', '') ?? '?' }))
          : undefined;
      out.push(verdictFinding(this.id, v, item, fix));
    }
    return out;
  },
};
