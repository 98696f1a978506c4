// versions.cudnn: does the cuDNN each framework loads suit its build? Same major always; an older minor
// than the build fails in every framework, a newer one is fine; the cuDNN's CUDA major must match; recent
// cuDNN dropped old GPUs (9.11+ needs compute capability 7.5).
import type { Finding } from '../../finding.js';
import { cudnnFix } from '../../compat/fixes.js';
import { judgeCudnn } from '../../compat/judge.js';
import type { Check } from '../check.js';
import { alignFix, appliesToFrameworks, installedFrameworks, verdictFinding } from './common.js';
import { t } from '../../../base/i18n/index.js';

export const cudnnCheck: Check = {
  id: 'versions.cudnn',
  category: 'versions',
  get title() {
    return t('title.versions.cudnn');
  },
  applies: appliesToFrameworks,
  evaluate(s): Finding[] {
    const { m, items } = installedFrameworks(s);
    const out: Finding[] = [];
    for (const item of items) {
      for (const v of judgeCudnn(item.target, item.fw, m)) {
        if (v.status === 'ok') {
          out.push(verdictFinding(this.id, v, item));
          continue;
        }
        // an old GPU that the loaded cuDNN dropped: a build whose cuDNN still supports it
        const fix =
          v.rootCause === 'gpu_arch_unsupported'
            ? alignFix(m, item, false, t('vfix.cudnnArch'))
            : (cudnnFix(item.target) ?? alignFix(m, item, false, t('vfix.cudnnBuilt')));
        out.push(verdictFinding(this.id, v, item, fix));
      }
    }
    return out;
  },
};
