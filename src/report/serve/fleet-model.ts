// The fleet page's model: built by the folder watcher (act/serve/fleet.ts), rendered by ./fleet-render.ts.

export interface StaleHolder {
  pid: number;
  user: string;
  gpus: number[];
  miB: number | null;
  verdict: string;
  reason: string;
  name: string;
  command: string;
}

export interface MachineRow {
  file: string;
  host: string;
  collectedAt: string | null;
  /** ms since the epoch, from collectedAt */
  collectedMs: number | null;
  gpus: number;
  gpuName: string | null;
  /** null: nvidia-smi could not answer on that machine */
  free: number[] | null;
  freeLine: string | null;
  nvidiaFailure?: string;
  stale: StaleHolder[];
  outliers: { fact: string; value: string | null; usual: string | null; impact: string }[];
  /** the file cannot be read now; the row shows what it held when it last could */
  problem?: string;
  users: string[];
}

export interface FleetPageModel {
  title: string;
  dir: string;
  readAt: number | null;
  mergedAt: number | null;
  intervalMs: number;
  /** a snapshot older than this is called old */
  oldAfterMs: number;
  machines: MachineRow[];
  skipped: { file: string; reason: string }[];
  totals: { machines: number; gpus: number; free: number; stale: number; outliers: number; old: number };
  redacted: boolean;
}
