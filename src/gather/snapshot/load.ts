// `--from FILE`: a saved snapshot, or the whole `check --json` output that contains one.
import { InputError } from '../../base/errors.js';
import { compileValidator } from './fast-validate.js';
import { Snapshot } from './schema.js';

/** A snapshot nests about ten levels; unknown keys are kept (forward compatibility), so bound how deep they go. */
export const MAX_JSON_DEPTH = 64;

/**
 * The snapshot a document holds (a snapshot, or `check --json` output around one), parsed and bounded: everything
 * downstream (--redact, the renderers) walks the document recursively, so what would overflow the stack there is
 * refused before any of it runs.
 */
function candidateOf(text: string, label: string): unknown {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new InputError('usage.from.notJson', { file: label, reason: (err as Error).message.split('\n')[0] ?? '' });
  }
  if (depthExceeds(doc, MAX_JSON_DEPTH))
    throw new InputError('usage.from.tooDeep', { file: label, max: String(MAX_JSON_DEPTH) });
  return doc && typeof doc === 'object' && 'snapshot' in doc ? (doc as { snapshot: unknown }).snapshot : doc;
}

export function parseSnapshotText(text: string, label: string): Snapshot {
  return validated(candidateOf(text, label), label);
}

/** zod's verdict on a parsed candidate, with its first problem as a one-line InputError. */
function validated(candidate: unknown, label: string): Snapshot {
  const parsed = Snapshot.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const reason = issue?.message ?? 'invalid';
    if (issue && issue.path.length > 0)
      throw new InputError('usage.from.invalidAt', { file: label, reason, path: issue.path.join('.') });
    throw new InputError('usage.from.invalid', { file: label, reason });
  }
  return parsed.data;
}

/** Does the JSON value nest deeper than `max` arrays/objects? Iterative, so any depth is safe to measure. */
export function depthExceeds(doc: unknown, max: number): boolean {
  return doc !== null && typeof doc === 'object' && deeper(doc, 0, max);
}

/**
 * Recursive, as deep as `max` at most: no [value, depth] pair and no values array per node (fleet parses
 * thousands of snapshots; the stack of pairs was a tenth of its time there, with the garbage it made).
 */
function deeper(v: object, d: number, max: number): boolean {
  if (d >= max) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const c: unknown = v[i];
      if (c !== null && typeof c === 'object' && deeper(c, d + 1, max)) return true;
    }
    return false;
  }
  // own enumerable keys, as Object.values gives them
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    const c: unknown = (v as Record<string, unknown>)[k];
    if (c !== null && typeof c === 'object' && deeper(c, d + 1, max)) return true;
  }
  return false;
}

let isSnapshot: ((v: unknown) => boolean) | undefined;

/**
 * The same answer as parseSnapshotText for many files (`fleet`): a document that passes the compiled yes/no
 * validator (./fast-validate.ts) is used as parsed, without zod's copy of every object; one that does not is
 * handed to zod, for its message (and, should the two ever disagree, for zod's verdict).
 */
export function parseSnapshotTextFast(text: string, label: string): Snapshot {
  const candidate = candidateOf(text, label);
  isSnapshot ??= compileValidator(Snapshot);
  if (isSnapshot(candidate)) return candidate as Snapshot;
  return validated(candidate, label); // zod's message for what the fast validator rejected (no second parse)
}
