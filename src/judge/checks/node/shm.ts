// node.shm: /dev/shm is where PyTorch's DataLoader workers hand batches to the main process and where NCCL puts
// its intra-node buffers. Docker gives a container 64 MiB unless told otherwise: DataLoader workers die with
// "Bus error" (SIGBUS writing past the full tmpfs) and NCCL fails to create its shared memory segments.
import { warn, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

/** Below this a DataLoader with a few workers and a multi-GPU NCCL job run out of it (Docker's 64 MiB is far below). */
const SMALL = 1024 ** 3;

export const shmCheck: Check = {
  id: 'node.shm',
  category: 'system',
  get title() {
    return t('title.node.shm');
  },
  applies: (s) => (s.system.shm ? true : t('node.noShm')),
  evaluate(s: Snapshot): Finding[] {
    const shm = s.system.shm!;
    if (shm.sizeBytes === null || shm.sizeBytes >= SMALL) return [];
    const mib = Math.round(shm.sizeBytes / 1024 ** 2);
    const container = s.system.container.kind !== 'none';
    return [
      warn({
        check: this.id,
        rootCause: null,
        message: t(container ? 'node.shm.smallContainer' : 'node.shm.small', { mib }),
        consequences: [
          {
            framework: 'torch',
            outcome: 'fails',
            certainty: 'expected',
            text: t('node.shm.dataloader'),
            source:
              'PyTorch torch/utils/data/_utils/signal_handling.py: "DataLoader worker (pid N) is killed by signal: ' +
              'Bus error. It is possible that dataloader\'s workers are out of shared memory"',
          },
          {
            outcome: 'fails',
            certainty: 'expected',
            text: t('node.shm.nccl'),
            source:
              'NCCL shm transport: "unable to allocate shared memory" / "Error while creating shared memory segment" ' +
              'in /dev/shm',
          },
        ],
        evidence: [
          { text: shm.line, source: '/proc/self/mounts' },
          ...(container ? [{ text: s.system.container.evidence.join('; '), source: 'container detection' }] : []),
        ],
        fix: {
          text: t(container ? 'node.shm.fixContainer' : 'node.shm.fix'),
          commands: ['df -h /dev/shm'],
          manual: container
            ? ['docker run --shm-size=16g … (or --ipc=host)']
            : ['sudo mount -o remount,size=16G /dev/shm'],
        },
      }),
    ];
  },
};
