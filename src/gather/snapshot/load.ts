// `--from FILE`: a saved snapshot, or the whole `check --json` output that contains one.
import { InputError } from '../../base/errors.js';
import { deeper, depthExceeds, MAX_JSON_DEPTH } from './depth.js';
import type { Snapshot } from './schema.js';
import { isSnapshotWithin } from './validate.generated.js';
import { zodVerdict } from './zod-verdict.js';

function parsed(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InputError('usage.from.notJson', { file: label, reason: (err as Error).message.split('\n')[0] ?? '' });
  }
}

/**
 * The snapshot a parsed document holds (a snapshot, or `check --json` output around one), bounded: everything
 * downstream (--redact, the renderers) walks the document recursively, so what would overflow the stack there is
 * refused before any of it runs.
 */
function candidateOf(doc: unknown, label: string): unknown {
  if (depthExceeds(doc, MAX_JSON_DEPTH))
    throw new InputError('usage.from.tooDeep', { file: label, max: String(MAX_JSON_DEPTH) });
  return doc && typeof doc === 'object' && 'snapshot' in doc ? (doc as { snapshot: unknown }).snapshot : doc;
}

export function parseSnapshotText(text: string, label: string): Snapshot {
  return validated(candidateOf(parsed(text, label), label), label);
}

/** zod's verdict on a parsed candidate, with its first problem as a one-line InputError. */
function validated(candidate: unknown, label: string): Snapshot {
  const verdict = zodVerdict(candidate);
  if (verdict.ok) return verdict.data;
  const { reason, path } = verdict;
  if (path !== null) throw new InputError('usage.from.invalidAt', { file: label, reason, path });
  throw new InputError('usage.from.invalid', { file: label, reason });
}

/**
 * The same answer as parseSnapshotText for many files (`fleet`): a snapshot that passes the generated validator
 * (./validate.generated.ts), which bounds its depth in the same walk, is used as parsed, without zod's copy of every
 * object. A document refused takes parseSnapshotText's way, without a second parse: the depth bound, then zod, for
 * its message (and, should the two ever disagree, for zod's verdict).
 */
export function parseSnapshotTextFast(text: string, label: string): Snapshot {
  const doc = parsed(text, label);
  return validWithin(doc) ?? validated(candidateOf(doc, label), label);
}

/**
 * The snapshot of a document that passes the generated validator within the depth bound, else undefined. `check
 * --json` output around one: the snapshot validated one level down, the rest of the document only bounded.
 */
function validWithin(doc: unknown): Snapshot | undefined {
  if (doc === null || typeof doc !== 'object') return undefined;
  if (!('snapshot' in doc)) return isSnapshotWithin(doc) ? (doc as Snapshot) : undefined;
  const outer = doc as Record<string, unknown>;
  for (const k in outer) {
    if (k === 'snapshot') continue;
    const v = outer[k];
    if (v !== null && typeof v === 'object' && deeper(v, 1, MAX_JSON_DEPTH)) return undefined;
  }
  return isSnapshotWithin(outer.snapshot, 1) ? (outer.snapshot as Snapshot) : undefined;
}
