// versions.python: is each environment's Python one its framework release supports?
import type { Finding } from '../../finding.js';
import { judgePython } from '../../compat/judge.js';
import type { Check } from '../check.js';
import { alignFix, appliesToFrameworks, installedFrameworks, verdictFinding } from './common.js';
import { t } from '../../../base/i18n/index.js';

export const pythonVersionCheck: Check = {
  id: 'versions.python',
  category: 'versions',
  get title() {
    return t('title.versions.python');
  },
  applies: appliesToFrameworks,
  evaluate(s): Finding[] {
    const { m, items } = installedFrameworks(s);
    const out: Finding[] = [];
    for (const item of items) {
      const v = judgePython(item.target, item.env.python, `${item.env.prefix}`);
      if (!v) continue;
      const fix =
        v.status === 'ok'
          ? undefined
          : alignFix(
              m,
              item,
              false,
              t('vfix.python', { fw: item.fw.framework, version: item.fw.version ?? '', required: v.required ?? '?' }),
            );
      out.push(verdictFinding(this.id, v, item, fix));
    }
    return out;
  },
};
