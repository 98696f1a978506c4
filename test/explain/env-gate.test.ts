// The gate in front of the environment reader (src/judge/explain/env-gate.ts): a line holding "memory" reaches the
// reader only with a word one of its rules needs. Every line of the fixtures (logs, reports, the labelled corpus)
// that the reader takes a fact from must pass it, read in order and each line alone; the facts of each fixture are
// the same with the gate as without; a training log's memory warnings do not reach the reader.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';
import { mayHoldEnvFact } from '../../src/judge/explain/env-gate.js';
import { EnvReader } from '../../src/judge/explain/env/reader.js';
import { normaliseLine } from '../../src/judge/explain/read/normalise.js';

const FIXTURES = path.resolve(__dirname, '../fixtures');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

/** every text of the fixtures a user could hand to explain: log and report files, the corpus' logs and reports */
function fixtureTexts(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const f of filesUnder(FIXTURES)) {
    if (/\.(?:log|txt|md|out)$/.test(f) && fs.statSync(f).size < 2 << 20) {
      out.push([f, fs.readFileSync(f, 'utf8')]);
    } else if (f.includes(`${path.sep}corpus${path.sep}`) && f.endsWith('.json')) {
      const c = JSON.parse(fs.readFileSync(f, 'utf8')) as Record<string, unknown>;
      for (const [k, v] of Object.entries(c)) if (typeof v === 'string' && v.includes('\n')) out.push([`${f}#${k}`, v]);
      if (typeof c.log === 'string') out.push([`${f}#log`, c.log]);
    }
  }
  return out;
}

/** the lines as the collector hands them on: normalised, not blank */
const linesOf = (text: string) =>
  text
    .split(/\r?\n|\r/)
    .map(normaliseLine)
    .filter((l) => l.trim().length > 0);

const factsOf = (r: EnvReader) => JSON.stringify(r.facts());

/** a reader that has seen one GPU already (the rules that add to the last GPU's facts act only then) */
function primed(): EnvReader {
  const r = new EnvReader();
  r.onLine(1, 'GPU: Tesla T4');
  return r;
}

describe('the environment reader gate', () => {
  const texts = fixtureTexts();

  it('finds the fixtures', () => {
    expect(texts.length).toBeGreaterThan(300);
    expect(texts.reduce((a, [, t]) => a + linesOf(t).length, 0)).toBeGreaterThan(10_000);
  });

  it('passes every fixture line the reader takes a fact from, in order and alone', () => {
    const missed: string[] = [];
    let read = 0;
    for (const [name, text] of texts) {
      const inOrder = new EnvReader();
      linesOf(text).forEach((line, i) => {
        const gate = mayHoldEnvFact(line.toLowerCase());
        const before = factsOf(inOrder);
        inOrder.onLine(i + 1, line);
        const alone = new EnvReader();
        alone.onLine(1, line);
        const afterGpu = primed();
        const gpuBefore = factsOf(afterGpu);
        afterGpu.onLine(2, line);
        const took =
          factsOf(inOrder) !== before || factsOf(alone) !== factsOf(new EnvReader()) || factsOf(afterGpu) !== gpuBefore;
        if (took) read++;
        if (took && !gate) missed.push(`${name}:${i + 1}: ${line}`);
      });
    }
    expect(missed).toEqual([]);
    expect(read).toBeGreaterThan(500);
  });

  it('gives each fixture the same facts as the reader fed every line', () => {
    for (const [name, text] of texts) {
      const all = new EnvReader();
      const gated = new EnvReader();
      linesOf(text).forEach((line, i) => {
        all.onLine(i + 1, line);
        if (mayHoldEnvFact(line.toLowerCase())) gated.onLine(i + 1, line);
      });
      expect(factsOf(gated), name).toBe(factsOf(all));
    }
  });

  it('passes a line holding "memory" for each of the reader\'s rules, stops the ones it cannot read', () => {
    // one line per rule, each holding "memory": the reader takes a fact from each (alone, or after a GPU line)
    const reads = [
      'NVIDIA-SMI 535.104 Driver Version: 535.104.05 CUDA Version: 12.2 memory',
      '|   0  Tesla K80   Off  | 0000:00:1E.0  Off |  memory',
      'name: GeForce GTX 1080 Ti memoryClockRate(GHz): 1.582',
      'major: 6 minor: 1 memoryClockRate(GHz): 1.582',
      'totalMemory: 11.17GiB freeMemory: 10.91GiB',
      'Total memory: 15.75GiB',
      'Free memory: 3.20GiB',
      "_CudaDeviceProperties(name='Tesla T4', major=7, minor=5, total_memory=15109MB, multi_processor_count=40)",
      'device compute capability: 7.5 memory',
      'The NVIDIA driver on your system is too old (found version 9000) memory',
      'torch 1.12.1+cu113 memory',
      'jaxlib 0.4.1+cuda11.cudnn82 memory',
      'tensorflow-gpu 2.4.0 memory',
      'nvidia-cudnn-cu11 8.5.0.96 memory',
      'cudatoolkit 11.3.1 memory',
      'conda install pytorch-cuda=11.8 memory',
      'Successfully opened dynamic library libcudart.so.11.0 memory',
      'CUDA-version: 10010 (10020), cuDNN: 7.6.5, GPU count: 1 memory',
      'at /usr/lib/python3.8/site-packages/x.py memory',
      'running in docker, memory',
      'at C:\\Users\\me\\train.py memory',
      'at /home/me/anaconda3/lib memory',
      'GPU model and memory: RTX 3090 24GB',
      'OS: Ubuntu 20.04 memory',
      'Python version: 3.8.10 memory',
      '显存：4G',
      'pytorch 1.12.1 py3.9_cuda11.3_cudnn8.3.2_0 pytorch memory',
      'PaddlePaddle version: 2.5.1 memory',
      'File "/content/drive/MyDrive/train.py", line 3, memory',
      '<ipython-input-3-abc> in <module> memory',
    ];
    for (const l of reads) {
      const alone = new EnvReader();
      alone.onLine(1, l);
      const afterGpu = primed();
      const before = factsOf(afterGpu);
      afterGpu.onLine(2, l);
      expect(factsOf(alone) !== factsOf(new EnvReader()) || factsOf(afterGpu) !== before, l).toBe(true);
      expect(mayHoldEnvFact(l.toLowerCase()), l).toBe(true);
    }
    const skipped = [
      'WARNING: data loader worker 7 slow: batch took 9.1s (process memory 3.2 GiB)',
      'Epoch 3: peak memory 12.1 GiB, loss 0.25',
    ];
    for (const l of skipped) expect(mayHoldEnvFact(l.toLowerCase()), l).toBe(false);
    // a line without "memory" is the reader's to judge, whatever it holds
    expect(mayHoldEnvFact('epoch 3 step 7 loss 0.25')).toBe(true);
  });
});

describe('the reader on a training log', () => {
  afterEach(() => vi.restoreAllMocks());

  it("is not handed a training log's memory warnings, and still reads the facts around them", () => {
    const onLine = vi.spyOn(EnvReader.prototype, 'onLine');
    const lines = ['Python version: 3.10.12', 'totalMemory: 79.11GiB freeMemory: 78.50GiB'];
    for (let i = 0; i < 200; i++) {
      lines.push(`[rank${i % 4}]: Epoch 0 step ${i} loss=0.25 lr=3.0e-4`);
      if (i % 10 === 7)
        lines.push(`(pid=${1000 + i}) WARNING: data loader worker 7 slow: batch took 9.1s (process memory 3.2 GiB)`);
    }
    lines.push('RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.11 GiB total capacity)');
    const r = explainText(`${lines.join('\n')}\n`);
    const handed = onLine.mock.calls.map(([, t]) => t);
    expect(handed.filter((t) => t.includes('process memory'))).toEqual([]);
    expect(handed.some((t) => t.startsWith('RuntimeError: CUDA out of memory'))).toBe(true);
    expect(r.environment.python?.value).toBe('3.10.12');
    expect(r.causes[0]!.id).toBe('gpu_memory_exhausted');
  });
});
