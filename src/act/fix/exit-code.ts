// fix's exit code, in the contract's terms: 0 when nothing at or above the threshold is left to do after
// this run, 1 when something is (an action not taken, refused or failed, or a problem only the user can fix).
import { isProblem } from '../../judge/result.js';
import type { FixResults, FixMode } from '../../report/views/fix.js';
import type { Plan } from '../../judge/fix/plan.js';

const DONE = new Set(['ended', 'already-gone']);

export function fixExitCode(plan: Plan, mode: FixMode, r: FixResults | null, threshold: 'error' | 'warn'): number {
  const applied = mode === 'applied' && r !== null;
  // Every process step is an action: left undone (blocked, or not applied) or not successful, it counts.
  for (const st of plan.processes) {
    if (!applied) return 1;
    const o = r.processes.get(st.pid);
    if (!o || !DONE.has(o.kind)) return 1;
  }
  if (plan.env.length > 0 && (!applied || r.envFile.kind === 'none' || r.envFile.kind === 'not-written')) return 1;
  for (const cv of plan.coverage) {
    if (!isProblem(cv.finding, threshold)) continue;
    if (cv.by === 'manual' || cv.by === 'rebuild') return 1;
  }
  return 0;
}
