// zod's verdict on a snapshot read back: the copy it makes of a valid one, or its first problem. In the bundle this
// module is a CommonJS file of its own, zod inside (dist/snapshot-zod.cjs, scripts/build.mjs), required on first use:
// `fleet`, which asks it only about a snapshot the generated validator refused, loads no zod to read valid ones.
import { Snapshot } from './schema.js';

export type Verdict = { ok: true; data: Snapshot } | { ok: false; reason: string; path: string | null };

export function zodVerdict(candidate: unknown): Verdict {
  const parsed = Snapshot.safeParse(candidate);
  if (parsed.success) return { ok: true, data: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    reason: issue?.message ?? 'invalid',
    path: issue && issue.path.length > 0 ? issue.path.join('.') : null,
  };
}
