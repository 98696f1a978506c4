// gpu.driver: can we talk to the NVIDIA driver at all, and is it the one that is loaded?
import { fail, ok, problem, skip, unknown, warn, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

const EVIDENCE_SOURCE = 'nvidia-smi -q -x';

export const driverCheck: Check = {
  id: 'gpu.driver',
  category: 'gpu',
  get title() {
    return t('title.gpu.driver');
  },
  evaluate(s: Snapshot): Finding[] {
    const n = s.nvidia;
    if (!n.ok) return [failureFinding(s, n.failure.reason, n.failure.message)];
    const out: Finding[] = [];
    const loaded = s.system.kernelModule?.version;
    if (loaded && loaded !== n.driverVersion) {
      out.push(
        fail({
          check: this.id,
          severity: 'error',
          rootCause: 'hardware_or_driver_fault',
          message: t('gpu.driver.moduleMismatch', { loaded, lib: n.driverVersion }),
          evidence: [
            { text: s.system.kernelModule!.line, source: '/proc/driver/nvidia/version' },
            { text: `driver_version ${n.driverVersion}`, source: EVIDENCE_SOURCE },
          ],
          fix: { text: t('gpu.driver.moduleMismatchFix'), commands: [], manual: ['sudo reboot'] },
        }),
      );
    }
    out.push(
      ok({
        check: this.id,
        message: t('gpu.driver.ok', { driver: n.driverVersion, cuda: n.cudaVersion ?? '?' }),
        evidence: [
          {
            text: `driver_version ${n.driverVersion}, cuda_version ${n.cudaVersion ?? 'N/A'}`,
            source: EVIDENCE_SOURCE,
          },
        ],
      }),
    );
    return out;
  },
};

function failureFinding(s: Snapshot, reason: string, message: string): Finding {
  const base = { check: 'gpu.driver', evidence: [{ text: message, source: 'nvidia-smi' }] };
  const inContainer = s.system.container.kind !== 'none';
  switch (reason) {
    case 'not-installed': {
      const hasModule = s.system.kernelModule !== null;
      if (hasModule || s.system.nvidiaDevices.length > 0) {
        return fail({
          ...base,
          severity: 'error',
          rootCause: 'no_device_visible',
          message: hasModule
            ? t('gpu.driver.noToolsModule')
            : t(inContainer ? 'gpu.driver.noToolsDevicesContainer' : 'gpu.driver.noToolsDevices'),
          fix: {
            text: inContainer ? t('gpu.driver.noToolsFixContainer') : t('gpu.driver.noToolsFix'),
            commands: [],
          },
        });
      }
      return noGpuFinding(s, base);
    }
    case 'driver-not-loaded':
      return fail({
        ...base,
        severity: 'error',
        rootCause: 'no_device_visible',
        message: t('gpu.driver.notLoaded'),
        fix: {
          text: t('gpu.driver.notLoadedFix'),
          commands: ['lsmod | grep nvidia', 'dmesg | grep -i -E "nvidia|nvrm" | tail -20'],
          manual: ['sudo modprobe nvidia', 'sudo dkms autoinstall'],
        },
      });
    case 'nvml-mismatch':
      return fail({
        ...base,
        severity: 'error',
        rootCause: 'hardware_or_driver_fault',
        message: t('gpu.driver.nvmlMismatch'),
        evidence: [
          { text: message, source: 'nvidia-smi' },
          ...(s.system.kernelModule
            ? [{ text: s.system.kernelModule.line, source: '/proc/driver/nvidia/version' }]
            : []),
        ],
        fix: {
          text: t('gpu.driver.nvmlMismatchFix'),
          commands: ['cat /proc/driver/nvidia/version'],
          manual: ['sudo reboot'],
        },
      });
    case 'timeout':
      return unknown({
        ...base,
        severity: 'error',
        rootCause: 'hardware_or_driver_fault',
        message: t('gpu.driver.timeout'),
        fix: {
          text: t('gpu.driver.timeoutFix'),
          commands: ['dmesg | grep -i xid | tail -20'],
          manual: ['sudo nvidia-smi -pm 1'],
        },
      });
    default: {
      // an answer it could not read may be the driver's fault or not: unknown; any other failure fails
      const failed = {
        ...base,
        severity: 'error' as const,
        rootCause: /No devices were found/.test(message)
          ? ('no_device_visible' as const)
          : ('hardware_or_driver_fault' as const),
        message: t('gpu.driver.failed', { message }),
        fix: { text: t('gpu.driver.failedFix'), commands: ['nvidia-smi', 'dmesg | grep -i -E "nvrm|xid" | tail -20'] },
      };
      return reason === 'unparseable' ? unknown(failed) : fail(failed);
    }
  }
}

/** GPU builds of frameworks installed here ("torch 2.11.0+cu130"): they expect a GPU. */
export function cudaFrameworks(s: Snapshot): string[] {
  const out: string[] = [];
  for (const e of s.python?.environments ?? []) {
    for (const b of e.frameworks ?? [])
      if (b.gpuBuild === true || (b.gpuBuild === null && b.cuda !== null))
        out.push(`${b.framework} ${b.version ?? ''}`.trim());
  }
  return [...new Set(out)];
}

/**
 * No nvidia-smi, no kernel module, no /dev/nvidia*. On a laptop without a GPU and without CUDA frameworks
 * that is expected: the GPU checks are skipped (and the summary says so, never a green tick). In a
 * container it is the commonest reason a job sees no GPU (started without --gpus all): a warning; an error
 * when CUDA builds of frameworks are installed, since they are there to use a GPU.
 */
function noGpuFinding(s: Snapshot, base: { check: string; evidence: { text: string; source: string }[] }): Finding {
  const inContainer = s.system.container.kind !== 'none';
  const cuda = cudaFrameworks(s);
  const evidence = [
    ...base.evidence,
    ...(inContainer
      ? [
          {
            text: t('gpu.driver.inContainer', { kind: s.system.container.kind }),
            source: s.system.container.evidence[0] ?? '/proc/1/cgroup',
          },
        ]
      : []),
  ];
  const builds = cuda.join(', ');
  if (inContainer) {
    return problem({
      ...base,
      evidence,
      severity: cuda.length > 0 ? 'error' : 'warn',
      rootCause: 'no_device_visible',
      message:
        cuda.length > 0
          ? t('gpu.driver.noGpuContainerCuda', { builds, n: cuda.length })
          : t('gpu.driver.noGpuContainer'),
      fix: {
        text: t('gpu.driver.noGpuContainerFix'),
        commands: [],
      },
    });
  }
  if (cuda.length > 0) {
    return warn({
      ...base,
      rootCause: 'no_device_visible',
      message: t('gpu.driver.noGpuCuda', { builds, n: cuda.length }),
      fix: { text: t('gpu.driver.noGpuCudaFix'), commands: [] },
    });
  }
  return skip({
    ...base,
    message: t('gpu.driver.noGpu'),
    fix: { text: t('gpu.driver.noGpuFix'), commands: [] },
  });
}
