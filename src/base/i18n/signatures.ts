// The Chinese meaning and per-cause reasons of the explain catalog's messages (./signatures-zh.json), by catalog
// row id, and the summaries of the hand-written signatures (src/judge/explain/signatures/*.json, shown in explain -v's
// signal list). A row that is not there is shown in English, whole.
import data from './signatures-zh.json' with { type: 'json' };

export interface SignatureZh {
  summary: string;
  reasons: Record<string, string>;
}

const ROWS = (data as { rows: Record<string, SignatureZh> }).rows;
const HANDWRITTEN = (data as { handwritten: Record<string, string> }).handwritten;

export function signatureZh(id: string): SignatureZh | null {
  if (Object.hasOwn(ROWS, id)) return ROWS[id]!;
  // hand-written signatures give no per-cause reasons: only their summary is shown
  if (Object.hasOwn(HANDWRITTEN, id)) return { summary: HANDWRITTEN[id]!, reasons: {} };
  return null;
}

/** The catalog rows with Chinese wording. */
export function signatureZhIds(): string[] {
  return Object.keys(ROWS);
}

/** The hand-written signatures with a Chinese summary. */
export function handwrittenZhIds(): string[] {
  return Object.keys(HANDWRITTEN);
}
