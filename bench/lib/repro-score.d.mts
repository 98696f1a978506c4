// Types of repro-score.mjs (the test of the reproduced benchmark's scoring imports it).
export interface ReproRow {
  label: string;
  secondary?: string | null;
  first?: string;
  top3: string[];
}
export interface ClassScore { support: number; precision: number; recall: number; f1: number; top3: number }
export interface ReproScore {
  n: number;
  classes: number;
  macroF1: number;
  accuracy: number;
  lenient: number;
  top3: number;
  nothing: number;
  perClass: Record<string, ClassScore>;
  columns: string[];
  matrix: Record<string, Record<string, number>>;
}
export function scoreRows(rows: ReproRow[]): ReproScore;
