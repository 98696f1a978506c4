// `--from FILE`: a saved snapshot, or the whole `check --json` output that contains one.
import { UsageError } from '../core/errors.js';
import { Snapshot } from './schema.js';

export function parseSnapshotText(text: string, label: string): Snapshot {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${label} is not JSON (${(err as Error).message.split('\n')[0]})`);
  }
  const candidate = doc && typeof doc === 'object' && 'snapshot' in doc ? (doc as { snapshot: unknown }).snapshot : doc;
  const parsed = Snapshot.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new UsageError(`${label} is not a gpu-env-doctor snapshot: ${issue?.message ?? 'invalid'}${where}`);
  }
  return parsed.data;
}
