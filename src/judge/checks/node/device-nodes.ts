// node.device-nodes: every GPU nvidia-smi lists needs its /dev/nvidiaN (and /dev/nvidiactl, /dev/nvidia-uvm) in
// this mount namespace (nvidia-uvm is made at the first CUDA call, so its absence says nothing). Fewer nodes than GPUs: the container was given some GPUs' nodes only, or lost them
// (a systemd daemon-reload under a cgroup-v1 runtime): CUDA then sees fewer GPUs or none ("NVML: Unknown Error").
import { finding, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

export const deviceNodesCheck: Check = {
  id: 'node.device-nodes',
  category: 'gpu',
  get title() {
    return t('title.node.device-nodes');
  },
  // nvidia-smi itself needs /dev/nvidiactl: with no node at all in view while it answers, /dev is not the one it
  // used (--root, a saved snapshot of another mount namespace), and nothing can be compared.
  applies: (s) =>
    !(s.nvidia.ok && s.nvidia.gpus.length > 0)
      ? t('gpu.health.noGpu')
      : s.system.nvidiaDevices.length === 0
        ? t('node.devices.notSeen')
        : true,
  evaluate(s: Snapshot): Finding[] {
    if (!s.nvidia.ok) return [];
    const nodes = new Set(s.system.nvidiaDevices.map((d) => d.replace(/^\/dev\//, '')));
    const gpuNodes = [...nodes].filter((d) => /^nvidia\d+$/.test(d));
    const missing = ['nvidiactl'].filter((d) => !nodes.has(d));
    if (gpuNodes.length >= s.nvidia.gpus.length && missing.length === 0) return [];
    return [
      finding({
        check: this.id,
        severity: 'error',
        status: 'fail',
        rootCause: 'no_device_visible',
        message: t('node.devices.fewer', {
          nodes: gpuNodes.length,
          gpus: s.nvidia.gpus.length,
          missing: missing.join(', ') || '-',
        }),
        evidence: [
          { text: `/dev: ${[...nodes].sort().join(' ') || 'no nvidia* nodes'}`, source: '/dev' },
          { text: `${s.nvidia.gpus.length} GPUs listed`, source: 'nvidia-smi -q -x' },
        ],
        fix: {
          text: t(s.system.container.kind !== 'none' ? 'node.devices.fixContainer' : 'node.devices.fix'),
          commands: ['ls -l /dev/nvidia*'],
          manual:
            s.system.container.kind !== 'none'
              ? ['docker run --gpus all … (restart the container)']
              : ['sudo nvidia-modprobe -u -c=0'],
        },
      }),
    ];
  },
};
