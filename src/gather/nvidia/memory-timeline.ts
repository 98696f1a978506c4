// The GPU memory timeline of a `run`: fed by two long-lived nvidia-smi loops, one line at a time.
//   nvidia-smi --query-gpu=index,uuid,memory.used,memory.total --format=csv,noheader,nounits -lms N
//   nvidia-smi --query-compute-apps=pid,used_memory,gpu_uuid --format=csv,noheader,nounits -lms N
// Pure: lines and arrival times in, a serialisable timeline out. Bounded: when a GPU has more than
// `maxPoints` points, neighbours are merged (keeping the higher value), so a week-long job costs the same.

export const GPU_QUERY = ['--query-gpu=index,uuid,memory.used,memory.total', '--format=csv,noheader,nounits'] as const;
export const APPS_QUERY = ['--query-compute-apps=pid,used_memory,gpu_uuid', '--format=csv,noheader,nounits'] as const;

export interface TimelinePoint {
  /** ms since the job started */
  t: number;
  usedMiB: number;
  /** memory of the job's own processes on this GPU at that moment; null when nvidia-smi cannot tell */
  jobMiB: number | null;
}

export interface GpuTimeline {
  index: number;
  uuid: string;
  totalMiB: number;
  peakUsedMiB: number;
  /** the job's own peak on this GPU (its processes as nvidia-smi listed them) */
  peakJobMiB: number | null;
  points: TimelinePoint[];
}

export interface ProcessPeak {
  pid: number;
  gpuUuid: string;
  peakMiB: number;
  lastMiB: number;
  /** ms since the job started */
  firstSeen: number;
  lastSeen: number;
  isJob: boolean;
  /**
   * How isJob was decided: "process-tree" (a descendant of the command, by /proc), or "timing": the PID is not
   * in our /proc (nvidia-smi in a container reports host PIDs) and it appeared only after sampling began.
   */
  jobBy?: 'process-tree' | 'timing';
}

export interface MemoryTimeline {
  available: boolean;
  /** why sampling was unavailable or stopped, in one line */
  note?: string;
  intervalMs: number;
  gpus: GpuTimeline[];
  processes: ProcessPeak[];
  /** ms since the job started, when it failed (exited non-zero or by a signal) */
  failureAt?: number;
}

export interface TimelineOptions {
  intervalMs: number;
  maxPoints?: number;
  /** is this PID the job or one of its descendants? null: not in our /proc, cannot tell (asked once per PID) */
  isJob(pid: number): boolean | null;
}

export class TimelineBuilder {
  private readonly gpus = new Map<string, GpuTimeline>();
  private readonly procs = new Map<string, ProcessPeak>();
  private readonly jobCache = new Map<number, boolean | null>();
  /**
   * when the first line of the process loop came: the two loops are separate nvidia-smi processes that may start apart
   */
  private firstAppAt: number | undefined;
  private readonly maxPoints: number;
  private note: string | undefined;
  private sawLine = false;

  constructor(private readonly o: TimelineOptions) {
    this.maxPoints = Math.max(16, o.maxPoints ?? 1200);
  }

  /** One line of the --query-gpu loop, arrived `t` ms after the start. */
  gpuLine(line: string, t: number): void {
    const c = cells(line);
    if (c.length < 4) return;
    const index = Number(c[0]);
    const used = mib(c[2]);
    const total = mib(c[3]);
    if (!Number.isInteger(index) || used === null || total === null) return;
    this.sawLine = true;
    const uuid = c[1] ?? '';
    let g = this.gpus.get(uuid);
    if (!g) {
      g = { index, uuid, totalMiB: total, peakUsedMiB: 0, peakJobMiB: null, points: [] };
      this.gpus.set(uuid, g);
    }
    g.totalMiB = total;
    g.peakUsedMiB = Math.max(g.peakUsedMiB, used);
    const jobMiB = this.jobOn(uuid, t);
    if (jobMiB !== null) g.peakJobMiB = Math.max(g.peakJobMiB ?? 0, jobMiB);
    g.points.push({ t, usedMiB: used, jobMiB });
    if (g.points.length > this.maxPoints) g.points = halve(g.points);
  }

  /** One line of the --query-compute-apps loop. A header line and "MiB" units (asked without nounits) are accepted. */
  appLine(line: string, t: number): void {
    // We ask for pid,used_memory,gpu_uuid; a capture made with process_name too (the fixture) reads the same:
    // the PID first, the UUID is the GPU-/MIG- cell, the memory the first number between them.
    const c = cells(line);
    if (c.length < 3) return;
    const pid = Number(c[0]);
    const uuidAt = c.findIndex((x) => /^(GPU|MIG)-/.test(x));
    const used =
      c
        .slice(1, uuidAt === -1 ? undefined : uuidAt)
        .map(mib)
        .find((x) => x !== null) ?? null;
    if (!Number.isInteger(pid) || pid <= 0 || used === null) return;
    this.sawLine = true;
    this.firstAppAt ??= t;
    const uuid = uuidAt === -1 ? '' : c[uuidAt]!;
    const key = `${pid}@${uuid}`;
    const p = this.procs.get(key);
    if (p) {
      p.peakMiB = Math.max(p.peakMiB, used);
      p.lastMiB = used;
      p.lastSeen = t;
    } else {
      const tree = this.isJob(pid);
      // Not in our /proc: a process that was already there when sampling began is someone else's; one that
      // appeared later, while the job ran, is taken for the job's (the usual case of a job in a container).
      // "Later" counts from the process loop's own first sample: the memory loop may have answered well before
      // it (a loaded machine starts the two nvidia-smi processes apart), and a process in that first list was
      // there before the job could have made it.
      const late = t - this.firstAppAt > this.o.intervalMs / 2;
      const isJob = tree ?? late;
      this.procs.set(key, {
        pid,
        gpuUuid: uuid,
        peakMiB: used,
        lastMiB: used,
        firstSeen: t,
        lastSeen: t,
        isJob,
        ...(isJob ? { jobBy: tree === null ? ('timing' as const) : ('process-tree' as const) } : {}),
      });
    }
  }

  /** Sampling stopped or never started: say why (shown in the report). */
  setNote(note: string): void {
    this.note ??= note;
  }

  result(failureAt?: number): MemoryTimeline {
    const gpus = [...this.gpus.values()].sort((a, b) => a.index - b.index);
    return {
      available: this.sawLine && gpus.length > 0,
      ...(this.note !== undefined || !this.sawLine ? { note: this.note ?? 'nvidia-smi printed no samples' } : {}),
      intervalMs: this.o.intervalMs,
      gpus: gpus.map((g) => ({ ...g, points: [...g.points] })),
      processes: [...this.procs.values()].sort((a, b) => b.peakMiB - a.peakMiB),
      ...(failureAt !== undefined ? { failureAt } : {}),
    };
  }

  private isJob(pid: number): boolean | null {
    let v = this.jobCache.get(pid);
    if (v === undefined) {
      v = this.o.isJob(pid);
      this.jobCache.set(pid, v);
    }
    return v;
  }

  /** The job's memory on a GPU now: its processes seen within the last two intervals. */
  private jobOn(uuid: string, t: number): number | null {
    if (this.procs.size === 0) return null;
    const fresh = t - 2.5 * this.o.intervalMs;
    let sum = 0;
    for (const p of this.procs.values()) if (p.isJob && p.gpuUuid === uuid && p.lastSeen >= fresh) sum += p.lastMiB;
    return sum;
  }
}

/** "this job", "this job (by timing)" or "other", for tables. */
export function whose(p: ProcessPeak): string {
  return p.isJob ? (p.jobBy === 'timing' ? 'this job (by timing)' : 'this job') : 'other';
}

function cells(line: string): string[] {
  return line.split(',').map((s) => s.trim());
}

/** "1200", "1200 MiB" → 1200; "[N/A]", "[Not Supported]" → null */
function mib(s: string | undefined): number | null {
  const m = /^(\d+(?:\.\d+)?)(?:\s*MiB)?$/.exec(s ?? '');
  return m ? Number(m[1]) : null;
}

/** Halves the resolution: each pair of points becomes the one with more memory in use (peaks survive). */
function halve(points: TimelinePoint[]): TimelinePoint[] {
  const out: TimelinePoint[] = [];
  for (let i = 0; i < points.length; i += 2) {
    const a = points[i]!;
    const b = points[i + 1];
    out.push(!b || a.usedMiB >= b.usedMiB ? a : b);
  }
  return out;
}
