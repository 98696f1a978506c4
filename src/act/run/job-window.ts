// The job's start and end in the kernel log's clock (seconds since boot), so that node.kernel-log can tell the Xid
// lines written while the job ran from older ones. /proc/uptime at the start, plus the job's duration; /proc/stat's
// btime against the wall clock where /proc/uptime cannot be read. (The kernel's timestamps stop during a suspend
// and uptime does not: a job that spans a suspend gets a window that is late by the time suspended.)
import { readTextOr, type FileSystem } from '../../ports/fs.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';

/** Seconds since boot now, or null where neither /proc/uptime nor /proc/stat says. */
export function secondsSinceBoot(fs: FileSystem, nowMs: number): number | null {
  const up = Number(readTextOr(fs, '/proc/uptime')?.trim().split(/\s+/)[0]);
  if (Number.isFinite(up) && up > 0) return up;
  const btime = /^btime\s+(\d+)$/m.exec(readTextOr(fs, '/proc/stat') ?? '');
  return btime ? nowMs / 1000 - Number(btime[1]) : null;
}

/** The snapshot with the job's window on its kernel log (unchanged when there is no log or no start). */
export function withJobWindow(snapshot: Snapshot, startSeconds: number | null, durationMs: number): Snapshot {
  if (!snapshot.kernelLog || startSeconds === null) return snapshot;
  return {
    ...snapshot,
    kernelLog: {
      ...snapshot.kernelLog,
      jobWindow: { fromSeconds: startSeconds, toSeconds: startSeconds + durationMs / 1000 },
    },
  };
}
