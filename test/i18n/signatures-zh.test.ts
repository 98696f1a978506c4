// The Chinese wording of the explain catalog's frequent messages: every row names a catalog row, and gives a
// reason for exactly the causes that row has reasons for (so no reason is shown in one language and not the other).
import { describe, expect, it } from 'vitest';
import generated from '../../src/explain/catalog/generated.json';
import { signatureZh, signatureZhIds } from '../../src/i18n/signatures.js';

describe('src/i18n/signatures-zh.json', () => {
  const all = (generated as unknown as { signatures: { id: string; file: string; reasons: Record<string, string> }[] }).signatures;
  const rows = new Map(all.map((s) => [s.id, s]));
  it('names catalog rows and translates each of their reasons', () => {
    expect(signatureZhIds().length).toBeGreaterThan(360);
    for (const id of signatureZhIds()) {
      const row = rows.get(id);
      expect(row, id).toBeDefined();
      expect(Object.keys(signatureZh(id)!.reasons).sort(), id).toEqual(Object.keys(row!.reasons).sort());
      expect(signatureZh(id)!.summary, id).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('covers every row of the families users hit most: cuDNN, CUDA (with NCCL and the kernel driver), TensorFlow, PyTorch, JAX/XLA, CuPy, PaddlePaddle, ONNX Runtime', () => {
    const ids = new Set(signatureZhIds());
    const missing = all.filter((s) => ['cudnn', 'cuda', 'tensorflow', 'pytorch', 'xla-jax', 'cupy', 'paddle', 'onnxruntime', 'installed', 'additions'].includes(s.file) && !ids.has(s.id)).map((s) => s.id);
    expect(missing).toEqual([]);
  });
});
