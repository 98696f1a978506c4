// What issue 15 asks of explain, on real inputs: the prefilter drops nothing the readers use (every real log gives
// the same diagnosis read whole or through it), failure messages are found anywhere in a big log, the staged
// failures of the gather run are named for what they are (the malformed allocator setting first), a failure's
// vocabulary without a known message ranks within its family at low confidence, and the shipped priors are what
// the fit makes from the corpora.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';
import { registry } from '../../src/judge/explain/signatures/index.js';
import { fitPriors } from '../../src/judge/explain/priors/fit.js';
import { fitReport, type CorpusCase } from '../../src/judge/explain/priors/corpus.js';
import fitted from '../../src/judge/explain/priors/fitted.json' with { type: 'json' };

const FIX = path.resolve(__dirname, '../fixtures');
const read = (p: string) => fs.readFileSync(path.join(FIX, p), 'utf8');
const corpus = (dir: string): CorpusCase[] =>
  fs
    .readdirSync(path.join(FIX, 'corpus', dir))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(read(`corpus/${dir}/${f}`)));
const CASES = [...corpus('dev'), ...corpus('dev2'), ...corpus('dev3')];
const LOGS = [
  ...fs.readdirSync(path.join(FIX, 'h200/logs')).map((f) => `h200/logs/${f}`),
  ...fs
    .readdirSync(path.join(FIX, 'logs-extra'))
    .filter((f) => f.endsWith('.log'))
    .map((f) => `logs-extra/${f}`),
  ...fs
    .readdirSync(path.join(FIX, 'gather'))
    .filter((f) => f.endsWith('.txt'))
    .map((f) => `gather/${f}`),
];
const summary = (t: string, noPrefilter = false) => {
  const d = explainText(t, { noPrefilter });
  return {
    causes: d.causes.map((c) => [c.id, c.confidence]),
    signals: d.signals.map((s) => [s.signature, s.count]),
    env: d.environment,
  };
};

describe('the literal prefilter drops nothing the readers use', () => {
  it.each(CASES.map((c) => [c.id, c] as const))('corpus %s, with its environment block', (_id, c) => {
    const { textOf } = {
      textOf: (x: CorpusCase) =>
        `${x.log}\n- CUDA version: ${x.env?.cuda ?? ''}\n- GPU model and memory: ${x.env?.gpu ?? ''}\n`,
    };
    expect(summary(textOf(c))).toEqual(summary(textOf(c), true));
  });

  it.each(LOGS)('%s', (f) => {
    expect(summary(read(f))).toEqual(summary(read(f), true));
  });
});

describe('failure messages are found anywhere in a big log', () => {
  // 3 MiB of training progress first: past the first MiB only the failure stems are looked for
  const filler = Array.from(
    { length: 40_000 },
    (_, i) => `[rank0]: Epoch 3 step ${i} loss=0.0123 lr=3.0e-4 tokens/s=41000`,
  ).join('\n');
  const sigs = registry().signatures.filter(
    (s) => s.kind === 'evidence' || s.kind === 'symptom' || s.kind === 'memory',
  );
  it('every message of the catalog and every hand-written failure row', () => {
    expect(filler.length).toBeGreaterThan(2 * 1024 * 1024);
    // all the examples after the filler, each between lines of training progress
    const text = `${filler}\n${sigs.map((s) => `${s.examples[0]}\n[rank0]: Epoch 3 step 1 loss=0.0123`).join('\n')}\n`;
    const found = new Set(explainText(text).signals.map((x) => x.signature));
    expect(sigs.filter((s) => !found.has(s.group)).map((s) => `${s.id}: ${s.examples[0]}`)).toEqual([]);
  });
});

describe('the staged failures of the H200 gather run (torch 2.11, jax 0.11.2)', () => {
  it('a malformed PYTORCH_CUDA_ALLOC_CONF that aborts at import names the variable first', () => {
    const d = explainText(read('gather/torch-allocconf-garbage.txt'));
    expect(d.causes[0]!.setting).toBe('PYTORCH_CUDA_ALLOC_CONF');
    expect(d.verdict).toMatch(/^Most likely: PYTORCH_CUDA_ALLOC_CONF has a value the framework cannot parse/);
    expect(d.causes[0]!.fix.commands).toContain('unset PYTORCH_CUDA_ALLOC_CONF    # for this shell; then rerun');
    expect(d.ambiguous).toBe(false);
  });

  it.each(['gather/torch-allocconf-badvalue.txt', 'gather/torch-allocconf-unknownkey.txt'])(
    '%s names PYTORCH_CUDA_ALLOC_CONF first',
    (f) => {
      expect(explainText(read(f)).causes[0]!.setting).toBe('PYTORCH_CUDA_ALLOC_CONF');
    },
  );

  it('a memory fraction that is not a number names XLA_PYTHON_CLIENT_MEM_FRACTION, though JAX ran on', () => {
    const d = explainText(read('gather/jax-memfrac-abc.txt'));
    expect(d.causes[0]!.setting).toBe('XLA_PYTHON_CLIENT_MEM_FRACTION');
  });

  it('system cuDNN first on LD_LIBRARY_PATH: two copies compete, with both versions read', () => {
    const d = explainText(read('gather/torch-system-first.txt'));
    expect(['library_conflict', 'cudnn_version_mismatch']).toContain(d.causes[0]!.id);
    expect(d.signals.find((s) => s.signature === 'torch.cudnn_incompatibility')?.values).toMatchObject({
      compiled: '(9, 19, 0)',
      runtime: '(9, 14, 0)',
    });
  });

  it('the compat libcuda: the driver mismatch, not a missing jaxlib', () => {
    const d = explainText(read('gather/jax-compat.txt'));
    expect(['driver_too_old', 'library_conflict']).toContain(d.causes[0]!.id);
  });

  it('JAX with 700 MiB left by another process: a memory cause first', () => {
    expect(['memory_held_by_other_process', 'framework_preallocation', 'gpu_memory_exhausted']).toContain(
      explainText(read('gather/jax-hog700.txt')).causes[0]!.id,
    );
  });
});

describe('families and nothing found', () => {
  it("a failure's words without a known message: ranked within the family, at low confidence, and said so", () => {
    const d = explainText('FooLib: fatal: cudnn execution error 42 while running the layer');
    expect(d.unknownMessage).toBe(true);
    expect(d.causes.length).toBeGreaterThan(0);
    expect(d.causes[0]!.confidence).toBeLessThan(0.5);
    expect(d.verdict).toMatch(/not a message the catalog knows/);
  });

  it('an out-of-memory in words of its own ranks the memory causes', () => {
    const d = explainText('trainer: ran out of memory on the accelerator while building the batch');
    expect(d.unknownMessage).toBe(true);
    expect(d.causes[0]!.id).toBe('gpu_memory_exhausted');
  });

  it('nothing found only where nothing points at a GPU failure', () => {
    for (const t of [
      'Epoch 1/10 loss: 0.2',
      'ValueError: shapes (3,) and (4,) not aligned',
      'Using device: cuda:0',
      'GPU available: True, used: True',
    ]) {
      expect(explainText(t).causes, t).toEqual([]);
    }
  });
});

describe('the priors shipped are fitted from the corpora, by code', () => {
  it('fitted.json is what the fit makes from test/fixtures/corpus dev + dev2 + dev3', () => {
    const reports = CASES.map((c) => fitReport(c, 'env'));
    const again = fitPriors(
      reports,
      ['test/fixtures/corpus/dev', 'test/fixtures/corpus/dev2', 'test/fixtures/corpus/dev3'],
      CASES.map((c) => fitReport(c, 'log')),
    );
    const { $comment: _c, ...shipped } = fitted as typeof fitted & { $comment?: string };
    expect(JSON.parse(JSON.stringify(again))).toEqual(JSON.parse(JSON.stringify(shipped)));
  }, 120_000);
});
