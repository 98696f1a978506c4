// The Chinese meaning and per-cause reasons of the explain catalog's most frequent messages (./signatures-zh.json),
// by catalog row id. A row that is not there is shown in English, whole.
import data from './signatures-zh.json' with { type: 'json' };

export interface SignatureZh {
  summary: string;
  reasons: Record<string, string>;
}

const ROWS = (data as { rows: Record<string, SignatureZh> }).rows;

export function signatureZh(id: string): SignatureZh | null {
  return Object.hasOwn(ROWS, id) ? ROWS[id]! : null;
}

export function signatureZhIds(): string[] {
  return Object.keys(ROWS);
}
