// node.cuda-init: the CUDA driver API failing with CUDA_ERROR_UNKNOWN (999) while NVML answers is the node, not
// the libraries: NVML talks to the kernel module through /dev/nvidiactl, CUDA needs the nvidia_uvm module as
// well, and after a suspend and resume (or with nvidia_uvm not loaded) it is the one left in a bad state.
// Seen only by `check --deep`, whose smoke test makes the first CUDA call.
import { fail, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { SmokeStatus } from '../../../gather/snapshot/schema-smoke.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

/** cudaErrorUnknown / CUDA_ERROR_UNKNOWN */
const UNKNOWN = 999;

export const cudaInitCheck: Check = {
  id: 'node.cuda-init',
  category: 'gpu',
  get title() {
    return t('title.node.cuda-init');
  },
  applies: (s) =>
    !(s.nvidia.ok && s.nvidia.gpus.length > 0)
      ? t('gpu.health.noGpu')
      : (s.smoke?.runs.length ?? 0) > 0
        ? true
        : t('node.cudaInit.notRun'),
  evaluate(s: Snapshot): Finding[] {
    if (!s.nvidia.ok) return [];
    const failures: SmokeStatus[] = [];
    for (const r of s.smoke?.runs ?? []) {
      if (r.devices?.error?.api === 'cuda' && r.devices.error.code === UNKNOWN) failures.push(r.devices.error);
      for (const g of r.gpus) if (g.error?.api === 'cuda' && g.error.code === UNKNOWN) failures.push(g.error);
    }
    const f = failures[0];
    if (!f) return [];
    const nodes = s.system.nvidiaDevices.map((d) => d.replace(/^\/dev\//, ''));
    const uvm = nodes.includes('nvidia-uvm');
    // with no node at all in view, /dev is not the one the smoke test used (--from another namespace): no claim
    const noUvm = !uvm && s.system.nvidiaDevices.length > 0;
    const params = { call: f.call, name: f.name, code: f.code };
    return [
      fail({
        check: this.id,
        severity: 'error',
        rootCause: 'hardware_or_driver_fault',
        message: t(noUvm ? 'node.cudaInit.noUvm' : 'node.cudaInit.unknown', params),
        consequences: [
          {
            outcome: 'fails',
            certainty: 'verified',
            text: t('node.cudaInit.consequence'),
            source: `check --deep: ${f.call} returned ${f.name} (${f.code}) in the smoke test's process`,
          },
        ],
        evidence: [
          {
            text: `${f.call}: ${f.name} (${f.code})${f.text ? ` "${f.text}"` : ''}`,
            source: 'check --deep smoke test',
          },
          {
            text: `nvidia-smi answered: driver ${s.nvidia.driverVersion}, ${s.nvidia.gpus.length} GPU(s)`,
            source: 'nvidia-smi -q -x (NVML)',
          },
          {
            text: `/dev: ${nodes.join(' ') || 'no nvidia* nodes'}`,
            source: '/dev',
          },
        ],
        fix: noUvm
          ? {
              text: t('node.cudaInit.fixNoUvm'),
              commands: ['lsmod | grep nvidia_uvm', 'ls -l /dev/nvidia-uvm'],
              manual: ['sudo modprobe nvidia_uvm && sudo nvidia-modprobe -u -c=0'],
            }
          : {
              text: t('node.cudaInit.fix'),
              commands: ['lsmod | grep nvidia_uvm', "journalctl -k -b | grep -i -E 'suspend|resume|NVRM' | tail -20"],
              manual: ['sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm', 'sudo reboot'],
            },
      }),
    ];
  },
};
