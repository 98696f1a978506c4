// versions.nvcc: nvcc's CUDA differing from a framework's is information, not an error. Pip wheels bring
// their own CUDA runtime; users are told the opposite everywhere, so this says it plainly.
import type { Finding } from '../../finding.js';
import { judgeNvcc } from '../../compat/judge.js';
import type { Check } from '../check.js';
import { appliesToFrameworks, installedFrameworks, verdictFinding } from './common.js';
import { t } from '../../../base/i18n/index.js';

export const nvccCheck: Check = {
  id: 'versions.nvcc',
  category: 'versions',
  get title() {
    return t('title.versions.nvcc');
  },
  applies(s) {
    const a = appliesToFrameworks(s);
    if (a !== true) return a;
    return installedFrameworks(s).m.nvcc ? true : 'no nvcc found (only needed to compile CUDA code)';
  },
  evaluate(s): Finding[] {
    const { m, items } = installedFrameworks(s);
    return items
      .map((item) => judgeNvcc(item.target, m))
      .flatMap((v, i) => (v ? [verdictFinding(this.id, v, items[i]!)] : []));
  },
};
