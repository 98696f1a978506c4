// The Chinese meaning and per-cause reasons of the explain catalog's messages (./signatures-zh.json), by catalog
// row id, and the summaries of the hand-written signatures (src/judge/explain/signatures/*.json, shown in explain -v's
// signal list). A row that is not there is shown in English, whole.
import data from './signatures-zh.json' with { type: 'json' };

export interface SignatureZh {
  summary: string;
  reasons: Record<string, string>;
}

// Read on the first call, not at load: the bundle parses the file only when Chinese output asks for a row.
const doc = data as unknown as { rows: Record<string, SignatureZh>; handwritten: Record<string, string> };

export function signatureZh(id: string): SignatureZh | null {
  const rows = doc.rows;
  if (Object.hasOwn(rows, id)) return rows[id]!;
  // hand-written signatures give no per-cause reasons: only their summary is shown
  const handwritten = doc.handwritten;
  if (Object.hasOwn(handwritten, id)) return { summary: handwritten[id]!, reasons: {} };
  return null;
}

/** The catalog rows with Chinese wording. */
export function signatureZhIds(): string[] {
  return Object.keys(doc.rows);
}

/** The hand-written signatures with a Chinese summary. */
export function handwrittenZhIds(): string[] {
  return Object.keys(doc.handwritten);
}
