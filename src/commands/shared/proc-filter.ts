// `procs --gpu LIST --user NAME`: the filters an admin of a shared server needs. Pure.
import { UsageError } from '../../base/errors.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';
import type { ProcRow } from '../../report/views/procs.js';
import { t } from '../../base/i18n/index.js';

export interface ProcFilter {
  /** GPU indexes or UUIDs (a UUID prefix of 8 or more characters is enough) */
  gpus: string[] | null;
  user: string | null;
}

export function parseProcFilter(gpu: string | undefined, user: string | undefined): ProcFilter | null {
  if (gpu === undefined && user === undefined) return null;
  const gpus =
    gpu === undefined
      ? null
      : gpu
          .split(',')
          .map((x) => x.trim())
          .filter((x) => x !== '');
  if (
    gpus !== null &&
    (gpus.length === 0 || gpus.some((x) => !/^\d+$/.test(x) && !/^(GPU|MIG)-[0-9a-fA-F-]{4,}/.test(x)))
  ) {
    throw new UsageError(t('usage.gpu', { value: gpu }));
  }
  if (user !== undefined && user.trim() === '') throw new UsageError(t('usage.user'));
  return { gpus, user: user?.trim() ?? null };
}

export function filterRows(rows: readonly ProcRow[], s: Snapshot, f: ProcFilter | null): ProcRow[] {
  if (f === null) return [...rows];
  const wanted = new Set<number>();
  if (f.gpus !== null && s.nvidia.ok) {
    for (const g of s.nvidia.gpus)
      if (
        f.gpus.some((x) => (/^\d+$/.test(x) ? Number(x) === g.index : g.uuid.toLowerCase().startsWith(x.toLowerCase())))
      )
        wanted.add(g.index);
  }
  return rows.filter((r) => {
    if (f.gpus !== null && !r.p.gpus.some((g) => wanted.has(g))) return false;
    if (f.user !== null && r.p.user !== f.user && String(r.p.uid ?? '') !== f.user) return false;
    return true;
  });
}
