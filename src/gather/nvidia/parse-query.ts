// Parses `nvidia-smi --query-gpu=... --format=csv,noheader,nounits`. Pure.

/** The fields we ask for, in order. compute_cap exists since driver 510; older drivers reject the query. */
export const QUERY_GPU_FIELDS = [
  'index',
  'uuid',
  'name',
  'driver_version',
  'memory.total',
  'memory.used',
  'memory.free',
  'compute_cap',
  'pci.bus_id',
] as const;

export interface QueryGpuRow {
  index: number;
  uuid: string;
  name: string;
  computeCapability: string | null;
  busId: string;
}

export function parseQueryGpu(csv: string): QueryGpuRow[] {
  const rows: QueryGpuRow[] = [];
  for (const line of csv.split('\n')) {
    if (line.trim() === '') continue;
    const cells = line.split(',').map((c) => c.trim());
    if (cells.length < QUERY_GPU_FIELDS.length) continue;
    const index = Number(cells[0]);
    if (!Number.isInteger(index)) continue;
    const cc = cells[7] ?? '';
    rows.push({
      index,
      uuid: cells[1] ?? '',
      name: cells[2] ?? '',
      computeCapability: /^\d+\.\d+$/.test(cc) ? cc : null,
      busId: cells[8] ?? '',
    });
  }
  return rows;
}
