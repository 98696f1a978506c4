// node.persistence: with persistence mode off and no nvidia-persistenced, the driver tears each GPU down when its
// last client leaves and sets it up again for the next one: every first CUDA call (and nvidia-smi) waits, and
// container starts that query the GPU can time out. Slow, not failed.
import { warn, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

export const persistenceCheck: Check = {
  id: 'node.persistence',
  category: 'gpu',
  get title() {
    return t('title.node.persistence');
  },
  applies: (s) => (s.nvidia.ok && s.nvidia.gpus.length > 0 ? true : t('gpu.health.noGpu')),
  evaluate(s: Snapshot): Finding[] {
    if (!s.nvidia.ok) return [];
    const off = s.nvidia.gpus.filter((g) => g.persistenceMode === 'Disabled');
    if (off.length === 0) return [];
    return [
      warn({
        check: this.id,
        severity: 'info',
        rootCause: null,
        message: t('node.persistence.off', { gpus: off.map((g) => g.index).join(', '), n: off.length }),
        evidence: off.map((g) => ({ text: `GPU ${g.index} persistence_mode Disabled`, source: 'nvidia-smi -q -x' })),
        fix: {
          text: t('node.persistence.fix'),
          commands: ['nvidia-smi -q | grep -i persistence'],
          manual: ['sudo systemctl enable --now nvidia-persistenced'],
        },
      }),
    ];
  },
};
