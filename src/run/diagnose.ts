// The bridge from `run` to the explain engine: the tail of the job's output plus the snapshot taken when it
// failed, in; a diagnosis out. Loaded lazily, so a successful run never pays for the engine.
import type { DiagnosisLike } from '../reporters/report-model.js';
import type { Snapshot } from '../snapshot/schema.js';

export type Explainer = (log: string, snapshot: Snapshot | null) => DiagnosisLike | null;

export async function loadExplainer(): Promise<Explainer | null> {
  // The engine (src/explain/engine.ts) is being written alongside; until it lands, the report carries the
  // checks' findings on the snapshot taken at the failure, which name the processes holding memory.
  return null;
}
