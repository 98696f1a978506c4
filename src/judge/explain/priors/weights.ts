// The diagnosis's tuned weights: data beside the fitted priors (weights.json says how they are chosen and what each
// weighs), read once when the module loads.
import weights from './weights.json' with { type: 'json' };

export interface DiagnosisWeights {
  kindWeight: { evidence: number; memory: number; symptom: number; family: number };
  statedShare: number;
  laterSymptom: number;
  ambiguousRatio: number;
  ambiguousBelow: number;
  minConfidence: number;
}

export const WEIGHTS: Readonly<DiagnosisWeights> = weights;
