// gpu.driver: can we talk to the NVIDIA driver at all, and is it the one that is loaded?
import { finding, type Finding } from '../../core/finding.js';
import type { Snapshot } from '../../snapshot/schema.js';
import type { Check } from '../check.js';

const EVIDENCE_SOURCE = 'nvidia-smi -q -x';

export const driverCheck: Check = {
  id: 'gpu.driver',
  category: 'gpu',
  title: 'NVIDIA driver',
  evaluate(s: Snapshot): Finding[] {
    const n = s.nvidia;
    if (!n.ok) return [failureFinding(s, n.failure.reason, n.failure.message)];
    const out: Finding[] = [];
    const loaded = s.system.kernelModule?.version;
    if (loaded && loaded !== n.driverVersion) {
      out.push(
        finding({
          check: this.id,
          severity: 'error',
          status: 'fail',
          rootCause: 'hardware_or_driver_fault',
          message: `The loaded kernel module is driver ${loaded}, but nvidia-smi's library is ${n.driverVersion}: the driver was changed without a reboot`,
          evidence: [
            { text: s.system.kernelModule!.line, source: '/proc/driver/nvidia/version' },
            { text: `driver_version ${n.driverVersion}`, source: EVIDENCE_SOURCE },
          ],
          fix: { text: 'Reboot the machine (or unload and reload the nvidia kernel modules) so that the kernel module and the user-space libraries are the same version.', commands: [], manual: ['sudo reboot'] },
        }),
      );
    }
    out.push(
      finding({
        check: this.id,
        severity: 'info',
        status: 'ok',
        rootCause: null,
        message: `Driver ${n.driverVersion}, supports CUDA up to ${n.cudaVersion ?? '?'} (the highest CUDA it can run, not what is installed)`,
        evidence: [{ text: `driver_version ${n.driverVersion}, cuda_version ${n.cudaVersion ?? 'N/A'}`, source: EVIDENCE_SOURCE }],
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
        return finding({
          ...base,
          severity: 'error',
          status: 'fail',
          rootCause: 'no_device_visible',
          message: hasModule
            ? "The NVIDIA kernel module is loaded but nvidia-smi is not on PATH: the driver's user-space tools are missing"
            : `/dev/nvidia* exists but nvidia-smi is not on PATH${inContainer ? ' (a container started without the NVIDIA runtime or its utility capability)' : ''}`,
          fix: {
            text: inContainer
              ? 'Start the container with the NVIDIA runtime and utility capability (docker run --gpus all, or NVIDIA_DRIVER_CAPABILITIES=compute,utility).'
              : "Install the driver's utilities package for the loaded driver version (e.g. nvidia-utils-<branch> on Ubuntu).",
            commands: [],
          },
        });
      }
      return noGpuFinding(s, base);
    }
    case 'driver-not-loaded':
      return finding({
        ...base,
        severity: 'error',
        status: 'fail',
        rootCause: 'no_device_visible',
        message: "nvidia-smi couldn't communicate with the NVIDIA driver: the kernel module is not loaded",
        fix: {
          text: 'Load the driver: check `lsmod | grep nvidia` and `dmesg | grep -i nvidia`. After a kernel update the module often needs rebuilding (DKMS) for the new kernel; Secure Boot can block an unsigned module.',
          commands: ['lsmod | grep nvidia', 'dmesg | grep -i -E "nvidia|nvrm" | tail -20'],
          manual: ['sudo modprobe nvidia', 'sudo dkms autoinstall'],
        },
      });
    case 'nvml-mismatch':
      return finding({
        ...base,
        severity: 'error',
        status: 'fail',
        rootCause: 'hardware_or_driver_fault',
        message: 'Failed to initialize NVML: Driver/library version mismatch — the driver was upgraded and the machine not rebooted',
        evidence: [
          { text: message, source: 'nvidia-smi' },
          ...(s.system.kernelModule ? [{ text: s.system.kernelModule.line, source: '/proc/driver/nvidia/version' }] : []),
        ],
        fix: { text: 'The kernel module still running is the old version; the libraries are the new one. Reboot (or unload and reload the nvidia modules when no process uses the GPU).', commands: ['cat /proc/driver/nvidia/version'], manual: ['sudo reboot'] },
      });
    case 'timeout':
      return finding({
        ...base,
        severity: 'error',
        status: 'unknown',
        rootCause: 'hardware_or_driver_fault',
        message: 'nvidia-smi did not answer in time: the driver may be hung',
        fix: {
          text: 'Look for Xid errors in the kernel log; a GPU that fell off the bus or a process stuck in the driver makes nvidia-smi hang. Persistence mode off on a headless server also makes every call slow.',
          commands: ['dmesg | grep -i xid | tail -20'],
          manual: ['sudo nvidia-smi -pm 1'],
        },
      });
    default:
      return finding({
        ...base,
        severity: 'error',
        status: reason === 'unparseable' ? 'unknown' : 'fail',
        rootCause: /No devices were found/.test(message) ? 'no_device_visible' : 'hardware_or_driver_fault',
        message: `nvidia-smi failed: ${message}`,
        fix: { text: 'Run nvidia-smi by hand to see its full message; check the kernel log for Xid errors.', commands: ['nvidia-smi', 'dmesg | grep -i -E "nvrm|xid" | tail -20'] },
      });
  }
}

/** GPU builds of frameworks installed here ("torch 2.11.0+cu130"): they expect a GPU. */
export function cudaFrameworks(s: Snapshot): string[] {
  const out: string[] = [];
  for (const e of s.python?.environments ?? []) {
    for (const b of e.frameworks ?? []) if (b.gpuBuild === true || (b.gpuBuild === null && b.cuda !== null)) out.push(`${b.framework} ${b.version ?? ''}`.trim());
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
  const evidence = [...base.evidence, ...(inContainer ? [{ text: `in a ${s.system.container.kind} container`, source: s.system.container.evidence[0] ?? '/proc/1/cgroup' }] : [])];
  const builds = cuda.join(', ');
  if (inContainer) {
    return finding({
      ...base,
      evidence,
      severity: cuda.length > 0 ? 'error' : 'warn',
      status: cuda.length > 0 ? 'fail' : 'warn',
      rootCause: 'no_device_visible',
      message:
        cuda.length > 0
          ? `No GPU is visible in this container, and ${builds} ${cuda.length === 1 ? 'is a CUDA build' : 'are CUDA builds'}: the container was started without the GPUs`
          : 'No GPU is visible in this container (no nvidia-smi, no /dev/nvidia*): if a job here needs one, the container was started without the GPUs',
      fix: {
        text: 'Start the container with the GPUs: docker run --gpus all (or --runtime=nvidia with the NVIDIA Container Toolkit); in Kubernetes, request nvidia.com/gpu in the pod\'s resources.limits.',
        commands: [],
      },
    });
  }
  if (cuda.length > 0) {
    return finding({
      ...base,
      severity: 'warn',
      status: 'warn',
      rootCause: 'no_device_visible',
      message: `No NVIDIA GPU or driver on this machine, but ${builds} ${cuda.length === 1 ? 'is a CUDA build' : 'are CUDA builds'}: jobs here run on the CPU, or fail where they ask for CUDA`,
      fix: { text: 'Run the job on a machine with an NVIDIA GPU, or install the NVIDIA driver here if it has one.', commands: [] },
    });
  }
  return finding({
    ...base,
    severity: 'info',
    status: 'skip',
    rootCause: null,
    message: 'No NVIDIA GPU or driver on this machine (no nvidia-smi, no /proc/driver/nvidia)',
    fix: { text: 'Nothing to check here. To judge a GPU machine from here: gpu-env-doctor check --from a snapshot saved there (gpu-env-doctor snapshot > machine.json).', commands: [] },
  });
}
