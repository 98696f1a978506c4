// What each framework does with libcudnn from one copy and its sub-libraries from another: each consequence at
// the certainty its evidence gives (seen on the H200, expected from the framework's code, or possible).
import { describe, expect, it } from 'vitest';
import {
  cudnnMixConsequences,
  cudnnReplacedConsequences,
  failsForSure,
} from '../../../src/judge/checks/libraries/cudnn-mix.js';

describe('cuDNN sub-library mix: consequences per framework', () => {
  it("the H200 mix (9.19 + 9.14): PyTorch's conv runs and its version() check raises (both seen), JAX runs (seen)", () => {
    const torch = cudnnMixConsequences({ framework: 'torch', main: '9.19.0', others: '9.14.0', graphDiffers: true });
    expect(torch.map((c) => [c.outcome, c.certainty])).toEqual([
      ['runs', 'verified'],
      ['fails', 'verified'],
    ]);
    expect(torch[1]!.text).toContain('compiled  against (9, 19, 0) but found runtime version (9, 14, 0)');
    expect(torch[1]!.text).toMatch(/^The first torch\.backends\.cudnn\.version\(\) or is_acceptable\(\) call/);
    expect(torch[1]!.source).toMatch(/H200/);
    const jax = cudnnMixConsequences({ framework: 'jax', main: '9.19.0', others: '9.14.0', graphDiffers: true });
    expect(jax).toEqual([expect.objectContaining({ framework: 'jax', outcome: 'runs', certainty: 'verified' })]);
  });

  it('a mix nobody has seen: PyTorch is expected to refuse (its rule), JAX and cuDNN only possibly', () => {
    const torch = cudnnMixConsequences({ framework: 'torch', main: '9.10.0', others: '9.8.0', graphDiffers: true });
    expect(torch.map((c) => [c.outcome, c.certainty])).toEqual([
      ['unknown', 'possible'],
      ['fails', 'expected'],
    ]);
    expect(failsForSure(torch[1]!)).toBe(true);
    const jax = cudnnMixConsequences({ framework: 'jax', main: '9.10.0', others: '9.8.0', graphDiffers: true });
    expect(jax).toEqual([expect.objectContaining({ outcome: 'unknown', certainty: 'possible' })]);
    expect(jax.some(failsForSure)).toBe(false);
  });

  it("newer sub-libraries pass torch's check; only cuDNN's own check may refuse", () => {
    const torch = cudnnMixConsequences({ framework: 'torch', main: '9.14.0', others: '9.19.0', graphDiffers: true });
    expect(torch.map((c) => [c.outcome, c.certainty])).toEqual([
      ['unknown', 'possible'],
      ['runs', 'expected'],
    ]);
    expect(torch.some(failsForSure)).toBe(false);
  });

  it('TensorFlow with only a major known from its build: possible, never stated as certain', () => {
    const tf = cudnnMixConsequences({
      framework: 'tensorflow',
      main: '9.3.0',
      others: '9.1.0',
      graphDiffers: true,
      built: '9',
    });
    expect(tf.some(failsForSure)).toBe(false);
    expect(cudnnReplacedConsequences('tensorflow', '9.3.0', '8.9.7')[0]).toMatchObject({
      outcome: 'fails',
      certainty: 'expected',
    });
  });
});
