// node.mig: a GPU with MIG on is not one GPU to CUDA but its MIG devices, each with its own memory: a job sees the
// instance it is given (CUDA_VISIBLE_DEVICES=MIG-…), never the whole card. MIG on with no instance made leaves
// nothing for CUDA to use on that GPU.
import { fail, ok, type Finding } from '../../finding.js';
import type { Gpu, MigDevice, Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

const migOn = (g: Gpu) => (g.migMode ?? '').toLowerCase() === 'enabled';

export const migCheck: Check = {
  id: 'node.mig',
  category: 'gpu',
  get title() {
    return t('title.node.mig');
  },
  applies: (s) => (s.nvidia.ok && s.nvidia.gpus.some(migOn) ? true : t('node.mig.off')),
  evaluate(s: Snapshot): Finding[] {
    if (!s.nvidia.ok) return [];
    const out: Finding[] = [];
    for (const g of s.nvidia.gpus.filter(migOn)) {
      const devices = g.migDevices ?? [];
      if (devices.length === 0) {
        out.push(
          fail({
            check: this.id,
            severity: 'error',
            rootCause: 'no_device_visible',
            message: t('node.mig.none', { gpu: g.index }),
            consequences: [
              {
                outcome: 'fails',
                certainty: 'expected',
                text: t('node.mig.noneConsequence'),
                source:
                  'NVIDIA MIG user guide: with MIG on, CUDA runs only on MIG devices (GPU instance + compute instance)',
              },
            ],
            evidence: [
              { text: `GPU ${g.index} mig_mode current Enabled; mig_devices: None`, source: 'nvidia-smi -q -x' },
            ],
            affects: { gpu: g.index },
            fix: {
              text: t('node.mig.noneFix'),
              commands: [`nvidia-smi mig -i ${g.index} -lgip`],
              manual: [`sudo nvidia-smi mig -i ${g.index} -cgi <profile> -C`, `sudo nvidia-smi -i ${g.index} -mig 0`],
            },
          }),
        );
        continue;
      }
      const list = devices
        .map((d) =>
          t('node.mig.device', {
            name: d.profile ?? `GI ${d.gpuInstanceId ?? '?'}/CI ${d.computeInstanceId ?? '?'}`,
            free: d.memory.freeMiB ?? '?',
            total: d.memory.totalMiB ?? '?',
          }),
        )
        .join(t('list.comma'));
      out.push(
        ok({
          check: this.id,
          message: t('node.mig.split', { gpu: g.index, n: devices.length, list }),
          details: t('node.mig.details'),
          evidence: devices.map((d) => ({
            text: `GPU ${g.index} MIG device ${d.index}: ${describeMig(d)}`,
            source: d.uuid ? 'nvidia-smi -q -x mig_devices, nvidia-smi -L' : 'nvidia-smi -q -x mig_devices',
          })),
          affects: { gpu: g.index },
        }),
      );
    }
    return out;
  },
};

/** "GI 3, CI 0, 1g.20gb, MIG-…; fb 12 used, 19955 free of 19968 MiB": the facts as nvidia-smi gave them. */
export function describeMig(d: MigDevice): string {
  const ids = [`GI ${d.gpuInstanceId ?? '?'}`, `CI ${d.computeInstanceId ?? '?'}`, d.profile, d.uuid].filter(Boolean);
  const m = d.memory;
  return `${ids.join(', ')}; fb ${m.usedMiB ?? '?'} used, ${m.freeMiB ?? '?'} free of ${m.totalMiB ?? '?'} MiB`;
}
