// The messages of the node layer (what the node.* checks diagnose from the machine) read by `explain` from a log:
// each real line, with where it was seen, gives its signal and its first cause behind every prefix style real
// logs put in front of a line (the same styles as the catalog's test), and the cause does not move.
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';

const PREFIXES: Array<[string, (l: string) => string]> = [
  ['bare', (l) => l],
  ['glog/absl', (l) => `E1202 14:56:51.774521    3686 executor.cc:1365] [0] ${l}`],
  ['Python logging', (l) => `2024-05-01 12:00:00,123 - trainer - ERROR - ${l}`],
  ['ISO timestamp', (l) => `2024-05-01T12:00:00.123456Z ${l}`],
  ['dmesg time', (l) => `[ 2950.700003] ${l}`],
  ['torchrun rank', (l) => `[rank3]: ${l}`],
  ['Ray worker pid', (l) => `(RayTrainWorker pid=4242, ip=10.0.0.7) ${l}`],
  ['MPI', (l) => `[1,0]<stderr>:${l}`],
  ['ANSI colour', (l) => `\x1b[1;31m${l}\x1b[0m`],
  ['docker compose', (l) => `trainer_1  | ${l}`],
  ['CRLF line ends', (l) => `first line\r\n${l}\r\nlast line\r\n`],
];

// [signal, the real line, its source, the first cause]
const NODE_MESSAGES: Array<[string, string, string, string]> = [
  [
    'nvml-driver-library-mismatch',
    'Failed to initialize NVML: Driver/library version mismatch',
    'nvidia-smi after a driver upgrade without reboot (NVIDIA/nvidia-container-toolkit, k8s-device-plugin threads)',
    'hardware_or_driver_fault',
  ],
  [
    'nvml-unknown-error',
    'Failed to initialize NVML: Unknown Error',
    // the bare line cannot tell a host's driver fault from a container that lost its devices after a systemd
    // daemon-reload (nvidia-container-toolkit #48): NVML's own "Unknown Error" ranks the fault first, the
    // container's case second (test below); the machine's facts decide
    'nvidia-smi in a container that lost its devices after a systemd daemon-reload (nvidia-container-toolkit #48)',
    'hardware_or_driver_fault',
  ],
  [
    'pt-dataloader-worker-killed-by-signal',
    "RuntimeError: DataLoader worker (pid 4242) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit.",
    'PyTorch torch/csrc/DataLoader.cpp, as rendered in pytorch/pytorch issue threads (/dev/shm of 64 MiB in Docker)',
    'other',
  ],
  [
    'torch.dataloader.bus_error',
    'ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).',
    "PyTorch torch/csrc/DataLoader.cpp, the worker's own SIGBUS handler",
    'other',
  ],
  [
    'nccl.shm_segment',
    'Error while creating shared memory segment /dev/shm/nccl-pZafXL (size 7340384)',
    'NCCL shm transport in a container with a small /dev/shm',
    'other',
  ],
  [
    'cuda-old-devices-unavailable',
    'RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable',
    'cudaGetErrorString(46) up to CUDA 11.2, PyTorch rendering: a GPU in EXCLUSIVE_PROCESS mode with a holder',
    'memory_held_by_other_process',
  ],
  [
    'cuda-devices-unavailable',
    'RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable',
    'cudaGetErrorString(46) from CUDA 11.8 on, PyTorch rendering',
    'memory_held_by_other_process',
  ],
  [
    'kernel.xid',
    "NVRM: Xid (PCI:0000:2a:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.",
    "NVIDIA's open kernel modules kernel_rc.c format; the text as DCGM's kernel-log tests carry it",
    'hardware_or_driver_fault',
  ],
  [
    'cuda-unknown-error-after-suspend',
    'E tensorflow/stream_executor/cuda/cuda_driver.cc:271] failed call to cuInit: CUDA_ERROR_UNKNOWN: unknown error',
    'TensorFlow after a suspend/resume until nvidia_uvm is reloaded (shared message catalog, rendered logs)',
    'hardware_or_driver_fault',
  ],
  [
    'cuda-unknown-error',
    'RuntimeError: CUDA error: unknown error',
    'cudaErrorUnknown (999) in PyTorch, the same condition',
    'hardware_or_driver_fault',
  ],
  [
    'nvcli-driver-rpc-timed-out',
    'stderr: nvidia-container-cli: initialization error: driver rpc error: timed out: unknown.',
    'the NVIDIA container hook on a node with persistence mode off (nvidia-docker, gpu-operator threads)',
    'hardware_or_driver_fault',
  ],
];

describe('the node messages, each behind every prefix style', () => {
  it.each(NODE_MESSAGES)('%s', (signal, line, _source, cause) => {
    for (const [style, wrap] of PREFIXES) {
      const d = explainText(wrap(line));
      expect(
        d.signals.map((s) => s.signature),
        style,
      ).toContain(signal);
      expect(d.causes[0]?.id, style).toBe(cause);
    }
  });

  it('the shared-memory sentence is for SIGBUS only: a worker killed by the OOM killer is not blamed on /dev/shm', () => {
    const d = explainText('RuntimeError: DataLoader worker (pid 4242) is killed by signal: Killed.');
    expect(d.signals.map((s) => s.signature)).not.toContain('pt-dataloader-worker-killed-by-signal');
  });

  it("NVML's Unknown Error keeps the container's lost devices as the next cause, with its reason", () => {
    const d = explainText('Failed to initialize NVML: Unknown Error');
    expect(d.causes.slice(0, 2).map((c) => c.id)).toEqual(['hardware_or_driver_fault', 'no_device_visible']);
    expect(d.causes[1]!.why.join(' ')).toMatch(/daemon-reload|containers that lost device access/);
  });

  it('CUDA 999 after a resume names nvidia_uvm, the module to reload', () => {
    const d = explainText(
      'E tensorflow/stream_executor/cuda/cuda_driver.cc:271] failed call to cuInit: CUDA_ERROR_UNKNOWN: unknown error',
    );
    expect(d.causes[0]!.why.join(' ')).toMatch(/nvidia_uvm/);
  });
});
