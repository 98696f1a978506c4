// system.platform: what kind of machine this is, and what that changes about what we can see.
import { finding, type Finding } from '../../core/finding.js';
import type { Snapshot } from '../../snapshot/schema.js';
import type { Check } from '../check.js';

export const platformCheck: Check = {
  id: 'system.platform',
  category: 'system',
  title: 'System',
  evaluate(s: Snapshot): Finding[] {
    const sys = s.system;
    const where = sys.container.kind === 'none' ? 'no container' : `in a ${sys.container.kind} container`;
    const out: Finding[] = [
      finding({
        check: this.id,
        severity: 'info',
        status: 'ok',
        rootCause: null,
        message: `${sys.os ?? 'unknown OS'}, kernel ${sys.kernel ?? '?'}, ${sys.arch}, ${where}${sys.wsl ? ', WSL' : ''}${sys.kernelModule?.version ? `, NVIDIA kernel module ${sys.kernelModule.version}` : ''}`,
        evidence: [
          ...(sys.kernelModule ? [{ text: sys.kernelModule.line, source: '/proc/driver/nvidia/version' }] : []),
          ...sys.container.evidence.map((t) => ({ text: t, source: 'container detection' })),
        ],
      }),
    ];
    if (sys.wsl) {
      out.push(
        finding({
          check: this.id,
          severity: 'info',
          status: 'ok',
          rootCause: null,
          message: 'WSL2: the Windows driver provides the GPU; per-process GPU memory is not reported, so holders cannot be named',
          evidence: [{ text: 'Microsoft kernel or /usr/lib/wsl/lib', source: '/proc/version' }],
        }),
      );
    }
    if (sys.container.kind !== 'none' && s.nvidia.ok && s.nvidia.gpus.some((g) => g.memory.usedMiB > 1024) && s.processes.list.every((p) => !p.visible)) {
      out.push(
        finding({
          check: this.id,
          severity: 'info',
          status: 'ok',
          rootCause: null,
          message: 'Inside a container, processes of other containers or the host are not visible: their memory shows as unattributed',
          evidence: [],
        }),
      );
    }
    return out;
  },
};
