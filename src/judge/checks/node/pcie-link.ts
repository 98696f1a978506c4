// node.pcie-link: a GPU whose PCIe link trained below its maximum width moves data slower (a card not seated
// well, a riser, a slot wired x8). The generation also drops while the GPU idles to save power, so a lower
// generation counts only when the GPU is not idle. Slow, not failed.
import { warn, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

export const pcieLinkCheck: Check = {
  id: 'node.pcie-link',
  category: 'gpu',
  get title() {
    return t('title.node.pcie-link');
  },
  applies: (s) => (s.nvidia.ok && s.nvidia.gpus.some((g) => g.pcie) ? true : t('node.noLinkFacts')),
  evaluate(s: Snapshot): Finding[] {
    if (!s.nvidia.ok) return [];
    const out: Finding[] = [];
    for (const g of s.nvidia.gpus) {
      const l = g.pcie;
      if (!l) continue;
      const idle = (g.clockEventReasons ?? []).includes('gpu_idle');
      const narrow = l.widthCurrent !== null && l.widthMax !== null && l.widthCurrent < l.widthMax;
      const slowGen = l.genCurrent !== null && l.genMax !== null && l.genCurrent < l.genMax && !idle;
      if (!narrow && !slowGen) continue;
      out.push(
        warn({
          check: this.id,
          rootCause: null,
          message: t('node.pcie.slow', {
            gpu: g.index,
            gen: l.genCurrent ?? '?',
            genMax: l.genMax ?? '?',
            width: l.widthCurrent ?? '?',
            widthMax: l.widthMax ?? '?',
          }),
          details: t('node.pcie.details'),
          evidence: [
            {
              text:
                `GPU ${g.index} pcie gen ${l.genCurrent}/${l.genMax}, width ` +
                `x${l.widthCurrent}/x${l.widthMax}${idle ? ', idle' : ''}`,
              source: 'nvidia-smi -q -x',
            },
          ],
          affects: { gpu: g.index },
          fix: {
            text: t('node.pcie.fix'),
            commands: [
              `nvidia-smi -q -i ${g.index} -d PCIE 2>/dev/null || nvidia-smi -q -i ${g.index} | grep -A12 'GPU Link ` +
                `Info'`,
            ],
          },
        }),
      );
    }
    return out;
  },
};
