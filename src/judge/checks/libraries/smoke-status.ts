// What a status the native smoke test saw means: src/knowledge/python/smoke-statuses.json (data, each row with its
// source), looked up by the name the library itself gave (cudaGetErrorName, cudnnGetErrorString, cublasGetStatusName).
// cuDNN 9 names its codes hierarchically (CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH): an exact row wins, then the
// longest row marked as a prefix.
import type { RootCauseId } from '../../../knowledge/root-causes.js';
import data from '../../../knowledge/python/smoke-statuses.json' with { type: 'json' };
import { getLang } from '../../../base/i18n/index.js';

export type StatusKind = 'memory' | 'init' | 'driver' | 'library' | 'device' | 'arch' | 'hardware' | 'other';

export interface StatusMeaning {
  name: string;
  api: 'cuda' | 'cudnn' | 'cublas';
  kind: StatusKind;
  /** null: the evidence decides (memory: who holds it; init: how much was free) */
  rootCause: RootCauseId | null;
  meaning: string;
  /** the meaning in Chinese (a translation of `meaning`; same source) */
  meaningZh?: string;
  source: string;
  prefix?: boolean;
}

export const SMOKE_STATUSES: readonly StatusMeaning[] = data.statuses as StatusMeaning[];

export function statusMeaning(name: string): StatusMeaning | null {
  const exact = SMOKE_STATUSES.find((s) => s.name === name);
  if (exact) return exact;
  let best: StatusMeaning | null = null;
  for (const s of SMOKE_STATUSES)
    if (s.prefix && name.startsWith(`${s.name}_`) && (!best || s.name.length > best.name.length)) best = s;
  return best;
}

/** True for a status that means "no memory", whatever the library. */
export function isMemoryStatus(name: string): boolean {
  return statusMeaning(name)?.kind === 'memory';
}

/** The status's meaning in the chosen language (the table's English where a row has no Chinese). */
export function meaningText(m: StatusMeaning): string {
  return getLang() === 'zh' && m.meaningZh ? m.meaningZh : m.meaning;
}
