// The Chinese wording of the explain catalog's frequent messages: every row names a catalog row, and gives a
// reason for exactly the causes that row has reasons for (so no reason is shown in one language and not the other).
import { describe, expect, it } from 'vitest';
import generated from '../../src/judge/explain/catalog/generated.json';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { handwrittenZhIds, signatureZh, signatureZhIds } from '../../src/base/i18n/signatures.js';

describe('src/base/i18n/signatures-zh.json', () => {
  const all = (generated as unknown as { signatures: { id: string; file: string; reasons: Record<string, string> }[] })
    .signatures;
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

  it('covers every row of the catalog (cuDNN, CUDA, NCCL, the kernel driver, NVML and containers, TensorFlow, PyTorch, JAX/XLA, CuPy, PaddlePaddle, ONNX Runtime, Caffe, MXNet): a new row gets its Chinese in src/base/i18n/signatures-zh.json', () => {
    const ids = new Set(signatureZhIds());
    const missing = all.filter((s) => !ids.has(s.id)).map((s) => `${s.file}: ${s.id}`);
    expect(missing).toEqual([]);
  });

  it('gives the summary of every hand-written signature (explain -v lists them), and names only real ones', () => {
    const dir = path.resolve(__dirname, '../../src/judge/explain/signatures');
    const ids = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { id?: string; summary?: string }[])
      .filter((r) => r.id !== undefined && r.summary !== undefined)
      .map((r) => r.id!);
    expect(handwrittenZhIds().filter((id) => !ids.includes(id))).toEqual([]);
    expect(ids.filter((id) => !handwrittenZhIds().includes(id))).toEqual([]);
    for (const id of ids) expect(signatureZh(id)!.summary, id).toMatch(/[\u4e00-\u9fff]/);
  });
});
