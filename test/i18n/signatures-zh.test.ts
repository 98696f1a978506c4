// The Chinese wording of the explain catalog's frequent messages: every row names a catalog row, and gives a
// reason for exactly the causes that row has reasons for (so no reason is shown in one language and not the other).
import { describe, expect, it } from 'vitest';
import generated from '../../src/explain/catalog/generated.json';
import { signatureZh, signatureZhIds } from '../../src/i18n/signatures.js';

describe('src/i18n/signatures-zh.json', () => {
  const rows = new Map((generated as unknown as { signatures: { id: string; reasons: Record<string, string> }[] }).signatures.map((s) => [s.id, s]));
  it('names catalog rows and translates each of their reasons', () => {
    expect(signatureZhIds().length).toBeGreaterThan(30);
    for (const id of signatureZhIds()) {
      const row = rows.get(id);
      expect(row, id).toBeDefined();
      expect(Object.keys(signatureZh(id)!.reasons).sort(), id).toEqual(Object.keys(row!.reasons).sort());
      expect(signatureZh(id)!.summary, id).toMatch(/[\u4e00-\u9fff]/);
    }
  });
});
