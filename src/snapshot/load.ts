// `--from FILE`: a saved snapshot, or the whole `check --json` output that contains one.
import { UsageError } from '../core/errors.js';
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
    throw new UsageError(`${label} is not JSON (${(err as Error).message.split('\n')[0]})`);
  }
  if (depthExceeds(doc, MAX_JSON_DEPTH)) throw new UsageError(`${label} is not a gpu-env-doctor snapshot: it nests deeper than ${MAX_JSON_DEPTH} levels`);
  return doc && typeof doc === 'object' && 'snapshot' in doc ? (doc as { snapshot: unknown }).snapshot : doc;
}

export function parseSnapshotText(text: string, label: string): Snapshot {
  return validated(candidateOf(text, label), label);
}

/** zod's verdict on a parsed candidate, with its first problem as a one-line UsageError. */
function validated(candidate: unknown, label: string): Snapshot {
  const parsed = Snapshot.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new UsageError(`${label} is not a gpu-env-doctor snapshot: ${issue?.message ?? 'invalid'}${where}`);
  }
  return parsed.data;
}

/** Does the JSON value nest deeper than `max` arrays/objects? Iterative, so any depth is safe to measure. */
export function depthExceeds(doc: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[doc, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
    }
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
