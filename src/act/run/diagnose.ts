// The bridge from `run` to the explain engine: the tail of the job's output plus the snapshot taken when it
// failed, in; a diagnosis out. Loaded lazily, so a successful run never pays for the engine.
import type { DiagnosisLike } from '../../report/model.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';
import type { TailLine } from './tail.js';

export type Explainer = (tail: readonly TailLine[], snapshot: Snapshot | null) => DiagnosisLike;

export async function loadExplainer(): Promise<Explainer> {
  const { explainText } = await import('../../judge/explain/engine.js');
  return (tail, snapshot) => {
    const d = explainText(tail.map((l) => l.text).join('\n'), {
      sourceName: 'output',
      ...(snapshot ? { snapshot } : {}),
    });
    return renumber(d, tail);
  };
}

/**
 * The engine numbers lines within the text it was given (the kept tail); the report numbers them within the
 * job's whole output. Evidence from the machine (not from the log) keeps its own numbering.
 */
export function renumber<D extends DiagnosisLike>(d: D, tail: readonly TailLine[]): D {
  return {
    ...d,
    causes: d.causes.map((c) => ({
      ...c,
      evidence: c.evidence.map((e) => {
        if ((e as { source?: string }).source === 'machine') return e;
        const line = tail[e.line - 1];
        return line ? { ...e, line: line.n } : e;
      }),
    })),
  };
}
