// node.cuda-init: `check --deep`'s smoke test got CUDA_ERROR_UNKNOWN (999) from the first CUDA call while
// nvidia-smi (NVML) answered: the nvidia_uvm module, typically after a suspend and resume. The failure as the
// smoke test records it (src/gather/python/assets/cudnn_smoke.py: cudaGetDeviceCount's code, cudaGetErrorName and
// cudaGetErrorString), planted in the real idle H200 snapshot; the public report it stands for is TensorFlow's
// "failed call to cuInit: CUDA_ERROR_UNKNOWN: unknown error" after a resume (shared message catalog,
// cuda-unknown-error-after-suspend), read by `explain` in test/explain/node-messages.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { setLang } from '../../../src/base/i18n/index.js';
import { cudaInitCheck } from '../../../src/judge/checks/node/cuda-init.js';
import type { SmokeRun } from '../../../src/gather/snapshot/schema-smoke.js';
import type { Snapshot } from '../../../src/gather/snapshot/schema.js';
import { planted } from '../../helpers/snapshots.js';

const run = (error: SmokeRun['devices']): SmokeRun => ({
  consumers: [{ framework: 'torch', path: '/opt/torch/.venv/bin/python3', environment: '/opt/torch/.venv' }],
  interpreter: '/opt/torch/.venv/bin/python3',
  files: [],
  exit: 'ok',
  exitDetail: null,
  load: { ok: true, error: null, file: null },
  versions: null,
  devices: error,
  gpus: [],
  mapped: [],
  durationMs: 310,
  stderrTail: '',
});
const UNKNOWN = {
  ok: false,
  count: null,
  error: {
    api: 'cuda' as const,
    call: 'cudaGetDeviceCount',
    code: 999,
    name: 'cudaErrorUnknown',
    text: 'unknown error',
  },
};
const withSmoke = (devices: SmokeRun['devices'], change: (s: Snapshot) => void = () => {}) =>
  planted('h200-idle', (s) => {
    s.smoke = { skipped: null, runs: [run(devices)] };
    change(s);
  });

beforeAll(() => setLang('en'));

describe('node.cuda-init', () => {
  it('999 from the first CUDA call while NVML works, /dev/nvidia-uvm present: reload nvidia_uvm', () => {
    const s = withSmoke(UNKNOWN, (x) => {
      x.system.nvidiaDevices = ['/dev/nvidia0', '/dev/nvidiactl', '/dev/nvidia-uvm', '/dev/nvidia-uvm-tools'];
    });
    const [f] = cudaInitCheck.evaluate(s);
    expect(f).toMatchObject({
      severity: 'error',
      rootCause: 'hardware_or_driver_fault',
      message:
        'CUDA cannot start here (cudaGetDeviceCount: cudaErrorUnknown, error 999) while NVML and nvidia-smi work: the nvidia_uvm module is in a bad state (typically after a suspend and resume)',
    });
    expect(f!.fix!.manual).toEqual(['sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm', 'sudo reboot']);
  });
  it('the same with no /dev/nvidia-uvm: load the module and make its node', () => {
    const s = withSmoke(UNKNOWN, (x) => {
      x.system.nvidiaDevices = ['/dev/nvidia0', '/dev/nvidiactl'];
    });
    const [f] = cudaInitCheck.evaluate(s);
    expect(f!.message).toMatch(/\/dev\/nvidia-uvm is missing$/);
    expect(f!.fix!.manual).toEqual(['sudo modprobe nvidia_uvm && sudo nvidia-modprobe -u -c=0']);
  });
  it('a smoke test that found the GPU, or another CUDA error: nothing said here', () => {
    expect(cudaInitCheck.evaluate(withSmoke({ ok: true, count: 1, error: null }))).toEqual([]);
    const noDevice = { ...UNKNOWN, error: { ...UNKNOWN.error, code: 100, name: 'cudaErrorNoDevice' } };
    expect(cudaInitCheck.evaluate(withSmoke(noDevice))).toEqual([]);
  });
  it('without check --deep it does not apply (the first CUDA call is what shows it)', () => {
    expect(cudaInitCheck.applies!(planted('h200-idle', () => {}))).toBe('needs check --deep (the first CUDA call)');
  });
});
