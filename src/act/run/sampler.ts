// Samples GPU memory while the job runs: two nvidia-smi loops (`-lms`), started once, so the cost is two
// sleeping processes that wake every interval, not a process spawned per sample. Without nvidia-smi the job
// runs anyway and the timeline says why there is nothing in it.
import { streamLines, type LineStream } from '../../ports/child.js';
import { APPS_QUERY, GPU_QUERY, TimelineBuilder, type MemoryTimeline } from '../../gather/nvidia/memory-timeline.js';

export interface Sampler {
  /** stops the nvidia-smi loops and returns what they saw */
  stop(failureAt?: number): Promise<MemoryTimeline>;
}

export interface SamplerOptions {
  intervalMs: number;
  /** ms since the job started */
  elapsed(): number;
  isJob(pid: number): boolean | null;
  command?: string;
}

export function startSampler(o: SamplerOptions): Sampler {
  const cmd = o.command ?? 'nvidia-smi';
  const tl = new TimelineBuilder({ intervalMs: o.intervalMs, isJob: o.isJob });
  const loop = ['-lms', String(o.intervalMs)];
  const streams: LineStream[] = [
    streamLines(cmd, [...GPU_QUERY, ...loop], (l) => tl.gpuLine(l, o.elapsed())),
    streamLines(cmd, [...APPS_QUERY, ...loop], (l) => tl.appLine(l, o.elapsed())),
  ];
  let stopping = false;
  // A loop that ends on its own (not found, driver gone) is worth a line in the report.
  for (const s of streams) {
    void s.exited.then((e) => {
      if (e.kind === 'spawn-failed')
        tl.setNote(e.reason === 'not-found' ? `${cmd} was not found: GPU memory was not sampled` : e.message);
      else if (stopping) return;
      else if (e.kind === 'exited')
        tl.setNote(`${cmd} stopped sampling (exit code ${e.code}): the driver may not be loaded`);
      else tl.setNote(`${cmd} stopped sampling (${e.signal})`);
    });
  }
  return {
    async stop(failureAt) {
      stopping = true;
      for (const s of streams) s.stop();
      // Wait for both loops to end, briefly (their last lines are already in; a late one only costs the job's exit).
      // (The timer must stay referenced: awaiting only unreferenced things would let Node exit with code 0 in the
      // middle of the report.)
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.all(streams.map((s) => s.exited)), new Promise((r) => (timer = setTimeout(r, 200)))]);
      clearTimeout(timer);
      for (const s of streams) s.stop(true);
      return tl.result(failureAt);
    },
  };
}
