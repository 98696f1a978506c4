// node.compute-mode: a GPU in EXCLUSIVE_PROCESS mode takes one CUDA context at a time, one in PROHIBITED none.
// With a holder on it, every other process gets "all CUDA-capable devices are busy or unavailable". An MPS
// server holding it is the intended set-up (the clients go through it), never a stale holder.
import { fail, ok, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

const MPS_SERVER = /nvidia-cuda-mps-server$/;

export const computeModeCheck: Check = {
  id: 'node.compute-mode',
  category: 'gpu',
  get title() {
    return t('title.node.compute-mode');
  },
  applies: (s) => (s.nvidia.ok && s.nvidia.gpus.length > 0 ? true : t('gpu.health.noGpu')),
  evaluate(s: Snapshot): Finding[] {
    if (!s.nvidia.ok) return [];
    const out: Finding[] = [];
    for (const g of s.nvidia.gpus) {
      const mode = (g.computeMode ?? '').toLowerCase();
      if (mode === '' || mode === 'default') continue;
      const evidence = [
        {
          text:
            `GPU ${g.index} compute_mode ${g.computeMode}; processes: ` +
            `${g.processes.map((p) => `${p.pid} ${p.name}`).join(', ') || 'none'}`,
          source: 'nvidia-smi -q -x',
        },
      ];
      const fix = {
        text: t('node.computeMode.fix'),
        commands: [`nvidia-smi -q -d COMPUTE -i ${g.index}`],
        manual: [`sudo nvidia-smi -i ${g.index} -c DEFAULT`],
      };
      if (mode === 'prohibited') {
        out.push(
          fail({
            check: this.id,
            severity: 'error',
            rootCause: 'no_device_visible',
            message: t('node.computeMode.prohibited', { gpu: g.index }),
            evidence,
            affects: { gpu: g.index },
            fix,
          }),
        );
        continue;
      }
      const mps = g.processes.find((p) => MPS_SERVER.test(p.name));
      const others = g.processes.filter((p) => !MPS_SERVER.test(p.name));
      if (mps) {
        out.push(
          ok({
            check: this.id,
            message: t('node.computeMode.mps', { gpu: g.index, pid: mps.pid }),
            evidence,
            affects: { gpu: g.index },
          }),
        );
      } else if (others.length > 0) {
        out.push(
          fail({
            check: this.id,
            severity: 'error',
            rootCause: 'no_device_visible',
            message: t('node.computeMode.held', {
              gpu: g.index,
              mode: g.computeMode!,
              pids: others.map((p) => p.pid).join(', '),
            }),
            consequences: [
              {
                outcome: 'fails',
                certainty: 'expected',
                text: t('node.computeMode.busy'),
                source:
                  'CUDA runtime: cudaErrorDevicesUnavailable (46) "CUDA-capable device(s) is/are busy or ' +
                  'unavailable" when the exclusive GPU already has a context',
              },
            ],
            evidence,
            affects: { gpu: g.index },
            fix,
          }),
        );
      } else {
        out.push(
          ok({
            check: this.id,
            message: t('node.computeMode.free', { gpu: g.index, mode: g.computeMode! }),
            evidence,
            affects: { gpu: g.index },
          }),
        );
      }
    }
    return out;
  },
};
