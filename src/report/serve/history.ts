// The last hour of memory per GPU, for `serve`'s timelines. Bounded by construction: time is cut into a fixed
// number of buckets (360 of 10 s for an hour), each keeping the highest memory seen in it (peaks survive, as in
// run's timeline), and buckets older than the window are dropped. A server that runs for a month holds the
// same few kilobytes per GPU as one that started a minute ago; a GPU that disappears is forgotten once its
// last bucket leaves the window. Pure: samples and times in, points out.
//
// Why not run's TimelineBuilder: it keeps a whole job from its start and halves its resolution as the job
// grows, and it attributes memory to the job. Here the window slides and there is no job.

export interface HistoryPoint {
  /** ms since the epoch: the start of the bucket */
  t: number;
  /** the highest memory in use seen in this bucket */
  usedMiB: number;
}

export interface GpuHistory {
  uuid: string;
  index: number;
  totalMiB: number;
  points: HistoryPoint[];
}

export interface HistoryOptions {
  windowMs: number;
  buckets: number;
  /** at most this many GPUs are followed (a machine has 8; a bound against a confused nvidia-smi) */
  maxGpus?: number;
}

export const DEFAULT_HISTORY: HistoryOptions = { windowMs: 3600_000, buckets: 360 };

export class MemoryHistory {
  private readonly gpus = new Map<string, GpuHistory>();
  readonly bucketMs: number;
  private readonly maxGpus: number;

  constructor(private readonly o: HistoryOptions = DEFAULT_HISTORY) {
    this.bucketMs = Math.max(1, Math.floor(o.windowMs / Math.max(1, o.buckets)));
    this.maxGpus = o.maxGpus ?? 64;
  }

  /** One reading of one GPU at `t` (ms since the epoch). */
  add(t: number, gpu: { uuid: string; index: number; usedMiB: number; totalMiB: number }): void {
    if (!Number.isFinite(t) || !Number.isFinite(gpu.usedMiB)) return;
    const key = gpu.uuid || `index-${gpu.index}`;
    let h = this.gpus.get(key);
    if (!h) {
      if (this.gpus.size >= this.maxGpus) return;
      h = { uuid: gpu.uuid, index: gpu.index, totalMiB: gpu.totalMiB, points: [] };
      this.gpus.set(key, h);
    }
    h.index = gpu.index;
    h.totalMiB = gpu.totalMiB;
    const start = Math.floor(t / this.bucketMs) * this.bucketMs;
    const last = h.points[h.points.length - 1];
    if (last && last.t === start) last.usedMiB = Math.max(last.usedMiB, gpu.usedMiB);
    else if (!last || start > last.t) h.points.push({ t: start, usedMiB: gpu.usedMiB });
    // (a reading older than the newest bucket, after a clock step back, is dropped: the line stays ordered)
    this.prune(t);
  }

  /** Drops what is older than the window, and GPUs with nothing left in it. */
  prune(now: number): void {
    const oldest = now - this.o.windowMs;
    for (const [key, h] of this.gpus) {
      let cut = 0;
      while (cut < h.points.length && h.points[cut]!.t + this.bucketMs <= oldest) cut++;
      if (cut > 0) h.points.splice(0, cut);
      // A clock stepped back by hours leaves buckets "in the future": bounded all the same.
      if (h.points.length > this.o.buckets + 1) h.points.splice(0, h.points.length - this.o.buckets - 1);
      if (h.points.length === 0) this.gpus.delete(key);
    }
  }

  /** Every GPU's points, oldest first (copies: the caller may keep them). */
  snapshot(now: number): GpuHistory[] {
    this.prune(now);
    return [...this.gpus.values()]
      .sort((a, b) => a.index - b.index)
      .map((h) => ({ ...h, points: h.points.map((p) => ({ ...p })) }));
  }

  /** How many points are held in all: for tests and the memory bench. */
  size(): number {
    let n = 0;
    for (const h of this.gpus.values()) n += h.points.length;
    return n;
  }
}
