// node.clocks: the clock event (throttle) reasons nvidia-smi reports Active that slow a working GPU down: power
// cap, thermal slowdown (software or hardware), hardware slowdown and power brake. An idle GPU, an application
// clock setting and sync boost are normal. Slow, not failed.
import { warn, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

const SLOWING = [
  'sw_power_cap',
  'sw_thermal_slowdown',
  'hw_slowdown',
  'hw_thermal_slowdown',
  'hw_power_brake_slowdown',
];

export const clocksCheck: Check = {
  id: 'node.clocks',
  category: 'gpu',
  get title() {
    return t('title.node.clocks');
  },
  applies: (s) => (s.nvidia.ok && s.nvidia.gpus.some((g) => g.clockEventReasons) ? true : t('node.noClockFacts')),
  evaluate(s: Snapshot): Finding[] {
    if (!s.nvidia.ok) return [];
    const out: Finding[] = [];
    for (const g of s.nvidia.gpus) {
      const active = (g.clockEventReasons ?? []).filter((r) => SLOWING.includes(r));
      if (active.length === 0) continue;
      const hw = active.some((r) => r.startsWith('hw_'));
      out.push(
        warn({
          check: this.id,
          rootCause: hw ? 'hardware_or_driver_fault' : null,
          message: t('node.clocks.slowed', { gpu: g.index, reasons: active.join(', ') }),
          details: t('node.clocks.details'),
          evidence: [
            {
              text: `GPU ${g.index} clocks_event_reasons Active: ${(g.clockEventReasons ?? []).join(', ')}`,
              source: 'nvidia-smi -q -x',
            },
          ],
          affects: { gpu: g.index },
          fix: {
            text: t(hw ? 'node.clocks.fixHw' : 'node.clocks.fix'),
            commands: [`nvidia-smi -q -i ${g.index} -d PERFORMANCE,TEMPERATURE,POWER`],
          },
        }),
      );
    }
    return out;
  },
};
