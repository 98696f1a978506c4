// gpu.presence: the driver answers but lists no GPU, or a GPU is in a mode that hides it from jobs
// (MIG without instances selected, compute mode Prohibited / Exclusive_Process already taken).
import { finding, type Finding } from '../../core/finding.js';
import type { Snapshot } from '../../snapshot/schema.js';
import type { Check } from '../check.js';

export const presenceCheck: Check = {
  id: 'gpu.presence',
  category: 'gpu',
  title: 'GPUs',
  applies: (s) => (s.nvidia.ok ? true : 'nvidia-smi did not answer'),
  evaluate(s: Snapshot): Finding[] {
    if (!s.nvidia.ok) return [];
    const gpus = s.nvidia.gpus;
    if (gpus.length === 0) {
      return [
        finding({
          check: this.id,
          severity: 'error',
          status: 'fail',
          rootCause: 'no_device_visible',
          message: 'The driver answers but lists no GPU',
          evidence: [{ text: 'nvidia-smi -q -x has no <gpu> element', source: 'nvidia-smi -q -x' }],
          fix: { text: 'In a container, start it with the GPUs (docker run --gpus all; Kubernetes: request nvidia.com/gpu). On the host, check the kernel log.', commands: ['dmesg | grep -i -E "nvrm|xid" | tail -20'] },
        }),
      ];
    }
    const out: Finding[] = [];
    const names = [...new Set(gpus.map((g) => g.name))];
    out.push(
      finding({
        check: this.id,
        severity: 'info',
        status: 'ok',
        rootCause: null,
        message: `${gpus.length} × ${names.join(' + ')}${gpus[0]?.computeCapability ? ` (compute capability ${[...new Set(gpus.map((g) => g.computeCapability ?? '?'))].join(', ')})` : ''}, driver ${s.nvidia.driverVersion} (runs CUDA ≤ ${s.nvidia.cudaVersion ?? '?'})`,
        evidence: gpus.map((g) => ({ text: `GPU ${g.index}: ${g.name} ${g.uuid} ${g.busId}`, source: 'nvidia-smi -q -x' })),
      }),
    );
    for (const g of gpus) {
      if (g.migMode === 'Enabled') {
        out.push(
          finding({
            check: this.id,
            severity: 'warn',
            status: 'warn',
            rootCause: 'no_device_visible',
            message: `GPU ${g.index} is in MIG mode: jobs see only the MIG instances they are given, not the whole GPU`,
            evidence: [{ text: `mig_mode current ${g.migMode}`, source: 'nvidia-smi -q -x' }],
            affects: { gpu: g.index },
            fix: { text: 'Select a MIG instance by its UUID in CUDA_VISIBLE_DEVICES (nvidia-smi -L lists them), or disable MIG if you need the whole GPU.', commands: ['nvidia-smi -L'], manual: [`sudo nvidia-smi -i ${g.index} -mig 0`] },
          }),
        );
      }
      if (g.computeMode === 'Prohibited') {
        out.push(
          finding({
            check: this.id,
            severity: 'error',
            status: 'fail',
            rootCause: 'no_device_visible',
            message: `GPU ${g.index} is in compute mode Prohibited: no process can create a CUDA context on it`,
            evidence: [{ text: `compute_mode ${g.computeMode}`, source: 'nvidia-smi -q -x' }],
            affects: { gpu: g.index },
            fix: { text: 'Set the compute mode back to Default.', commands: [], manual: [`sudo nvidia-smi -i ${g.index} -c DEFAULT`] },
          }),
        );
      }
      if (g.computeMode === 'Exclusive_Process' && g.processes.length > 0) {
        out.push(
          finding({
            check: this.id,
            severity: 'warn',
            status: 'warn',
            rootCause: 'memory_held_by_other_process',
            message: `GPU ${g.index} is Exclusive_Process and already used by PID ${g.processes.map((p) => p.pid).join(', ')}: another process gets "CUDA-capable device(s) is/are busy or unavailable"`,
            evidence: [{ text: `compute_mode ${g.computeMode}`, source: 'nvidia-smi -q -x' }],
            affects: { gpu: g.index },
            fix: { text: 'Use another GPU, or end the process that has it.', commands: ['gpu-env-doctor procs'] },
          }),
        );
      }
    }
    return out;
  },
};
