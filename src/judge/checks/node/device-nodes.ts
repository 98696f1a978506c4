// node.device-nodes: every GPU nvidia-smi lists needs its /dev/nvidiaN (and /dev/nvidiactl) in this mount namespace
// (/dev/nvidia-uvm is made at the first CUDA call, so its absence says nothing). Checked by name, never opened: an
// open would make the tool a holder. A missing node: the container was given some GPUs' nodes only, or lost them
// (a systemd daemon-reload under a cgroup-v1 runtime): CUDA then sees fewer GPUs or none ("NVML: Unknown Error").
import { fail, type Finding } from '../../finding.js';
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
    // each GPU's own node is /dev/nvidia<minor_number>: where nvidia-smi gives it, the node is looked for by name
    // (a container keeps the host's minor numbers, so GPU 0 there may be /dev/nvidia3); else nodes are counted
    const gpus = s.nvidia.gpus;
    const byMinor = gpus.every((g) => typeof g.minorNumber === 'number');
    const lacking = byMinor ? gpus.filter((g) => !nodes.has(`nvidia${g.minorNumber}`)) : [];
    const fewer = byMinor ? lacking.length > 0 : gpuNodes.length < gpus.length;
    if (!fewer && missing.length === 0) return [];
    const minors = gpus.map((g) => `GPU ${g.index} minor_number ${g.minorNumber}`).join(', ');
    return [
      fail({
        check: this.id,
        severity: 'error',
        rootCause: 'no_device_visible',
        message:
          byMinor && lacking.length > 0
            ? t('node.devices.lacking', {
                list: lacking.map((g) => `GPU ${g.index} (/dev/nvidia${g.minorNumber})`).join(', '),
                missing: missing.join(', ') || '-',
              })
            : t('node.devices.fewer', {
                nodes: gpuNodes.length,
                gpus: gpus.length,
                missing: missing.join(', ') || '-',
              }),
        evidence: [
          { text: `/dev: ${[...nodes].sort().join(' ') || 'no nvidia* nodes'}`, source: '/dev' },
          {
            text: `${gpus.length} GPUs listed${byMinor ? `: ${minors}` : ''}`,
            source: 'nvidia-smi -q -x',
          },
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
