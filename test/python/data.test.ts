// The knowledge tables of the Python checks: every row names its source, and every pattern compiles and
// matches the examples it exists for.
import { describe, expect, it } from 'vitest';
import relevant from '../../src/knowledge/python/relevant-packages.json' with { type: 'json' };
import families from '../../src/knowledge/python/library-families.json' with { type: 'json' };
import wheels from '../../src/knowledge/python/gpu-wheels.json' with { type: 'json' };
import signatures from '../../src/knowledge/python/conv-signatures.json' with { type: 'json' };
import { isRelevant } from '../../src/gather/python/relevant.js';
import { matchSignature } from '../../src/judge/checks/python/conv-verdict.js';
import { pickWheel } from '../../src/judge/checks/python/cpu-only-build.js';

describe('data tables', () => {
  it.each([
    ['relevant-packages.json', relevant, ['pattern']],
    ['library-families.json', families, ['pip', 'conda']],
    ['conv-signatures.json', signatures, ['pattern']],
    ['gpu-wheels.json', wheels, []],
  ] as const)('%s: a source on every row, patterns that compile', (_name, rows, patternKeys) => {
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows as readonly Record<string, unknown>[]) {
      expect(typeof row.source === 'string' && row.source.length > 10).toBe(true);
      for (const k of patternKeys) expect(() => new RegExp(String(row[k]))).not.toThrow();
    }
  });

  it('knows the packages of the H200 venv that matter, and not the rest', () => {
    for (const n of [
      'torch',
      'jax',
      'jaxlib',
      'jax-cuda13-plugin',
      'jax-cuda13-pjrt',
      'cupy-cuda13x',
      'nvidia-cudnn-cu13',
      'nvidia-cublas',
      'cuda-toolkit',
      'tensorflow-cpu',
      'keras',
      'onnxruntime-gpu',
      'paddlepaddle-gpu',
      'cudatoolkit',
      'cudnn',
      'cuda-cudart',
      'libcublas',
      'pytorch',
    ])
      expect(isRelevant(n), n).toBe(true);
    for (const n of ['numpy', 'torchmetrics', 'jaxtyping', 'pandas', 'cudf-cu12x-not-listed'])
      expect(isRelevant(n), n).toBe(false);
  });

  it('finds the signatures in the texts captured on the H200', () => {
    expect(matchSignature('memory', 'torch.AcceleratorError: CUDA error: out of memory')).toBe(
      'CUDA error: out of memory',
    );
    expect(
      matchSignature(
        'memory',
        'Failed to allocate device memory of 104.85GiB (112583507968 bytes): RESOURCE_EXHAUSTED: : CUDA_ERROR_OUT_OF_MEMORY: out of memory',
      ),
    ).toMatch(/^Failed to allocate device memory of 104\.85GiB/);
    expect(
      matchSignature(
        'cudnn',
        'RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 19, 0) but found runtime version (9, 14, 0).',
      ),
    ).toMatch(/^cuDNN version incompatibility/);
    expect(matchSignature('memory', 'cuDNN error: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH')).toBeNull();
  });

  it('picks the newest CUDA wheel the driver can run', () => {
    expect(pickWheel('torch', [13, 0])!.tag).toBe('cu130');
    expect(pickWheel('torch', [12, 4])!.tag).toBe('cu121');
    expect(pickWheel('torch', [11, 4])).toBeNull();
    expect(pickWheel('jax', [12, 8])!.tag).toBe('cuda12');
  });
});
