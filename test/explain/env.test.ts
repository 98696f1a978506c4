// Environment facts pasted with the error: issue templates, collect_env (real H200 capture), the nvidia-smi
// header (real), pip lists, and facts inside log lines.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';
import { cuTag, driverCudaInt } from '../../src/judge/explain/env/reader.js';

const IDLE = path.resolve(__dirname, '../fixtures/h200/idle');
const env = (t: string) => explainText(t).environment;

describe('environment reader', () => {
  it('reads the TensorFlow issue template', () => {
    const e = env(
      [
        '**System information**',
        '- OS Platform and Distribution (e.g., Linux Ubuntu 16.04): Ubuntu 18.04',
        '- TensorFlow version (use command below): v2.3.0-rc2-23-gb36436b087 2.3.0',
        '- Python version: 3.7.6',
        '- CUDA/cuDNN version: 10.1 / 7.6',
        '- GPU model and memory: RTX 3090 24GB',
      ].join('\n'),
    );
    expect(e.framework?.value).toBe('tensorflow');
    expect(e.frameworkVersion?.value).toBe('2.3.0');
    expect(e.cuda?.value).toBe('10.1');
    expect(e.cudnn?.value).toBe('7.6');
    expect(e.python?.value).toBe('3.7.6');
    expect(e.gpus[0]).toMatchObject({ name: 'RTX 3090 24GB', totalMiB: 24 * 1024, line: 6 });
  });

  it('reads the real collect_env output of the H200', () => {
    const e = env(fs.readFileSync(path.join(IDLE, 'collect_env.txt'), 'utf8'));
    expect(e.framework?.value).toBe('pytorch');
    expect(e.frameworkVersion?.value).toBe('2.11.0+cu130');
    expect(e.buildCuda?.value).toBe('13.0');
    expect(e.cuda?.value).toBe('13.0.88');
    expect(e.driver?.value).toBe('580.159.04');
    expect(e.cudnn?.value).toBe('9.14.0');
    expect(e.gpus[0]?.name).toBe('NVIDIA H200');
  });

  it('reads the real nvidia-smi header and GPU row', () => {
    const e = env(fs.readFileSync(path.join(IDLE, 'nvidia-smi.txt'), 'utf8'));
    expect(e.driver?.value).toBe('580.159.04');
    expect(e.driverCuda?.value).toBe('13.0');
    expect(e.gpus[0]?.name).toBe('NVIDIA H200');
  });

  it('reads pip/conda lists and build tags', () => {
    const e = env(
      'torch                    1.11.0+cu102\nnvidia-cudnn-cu12        8.9.2.26\ncudatoolkit               11.3.1           h2bc3f7f_2',
    );
    expect(e.frameworkVersion?.value).toBe('1.11.0+cu102');
    expect(e.buildCuda?.value).toBe('10.2');
    expect(e.cudnn?.value).toBe('8.9.2.26');
    expect(e.cuda?.value).toBe('11.3.1');
  });

  it('reads facts carried by log lines', () => {
    const e = env(
      [
        'I tensorflow/core/common_runtime/gpu/gpu_device.cc:885] Found device 0 with properties: ',
        'name: GeForce GTX 1080',
        'major: 6 minor: 1 memoryClockRate (GHz) 1.7335',
        'Total memory: 7.92GiB',
        'Free memory: 190.31MiB',
        '  File "/home/u/.local/lib/python3.8/site-packages/tensorflow/python/client/session.py", line 1',
      ].join('\n'),
    );
    expect(e.gpus[0]).toMatchObject({ name: 'GeForce GTX 1080', computeCapability: '6.1' });
    expect(Math.round(e.gpus[0]!.freeMiB!)).toBe(190);
    expect(e.python?.value).toBe('3.8');
  });

  it('turns the integers CUDA prints into versions', () => {
    expect(driverCudaInt('11060')).toBe('11.6');
    expect(driverCudaInt('10010')).toBe('10.1');
    expect(cuTag('113')).toBe('11.3');
    expect(cuTag('92')).toBe('9.2');
    expect(cuTag('130')).toBe('13.0');
  });

  it('a GPU that started with little free memory is evidence of another process', () => {
    const d = explainText(
      [
        'name: GeForce GTX 1080',
        'major: 6 minor: 1 memoryClockRate (GHz) 1.7335',
        'Total memory: 7.92GiB',
        'Free memory: 190.31MiB',
        'E tensorflow/stream_executor/cuda/cuda_driver.cc:1002] failed to allocate 190.31M (199557120 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY',
      ].join('\n'),
    );
    expect(d.causes[0]!.id).toBe('memory_held_by_other_process');
  });
});
