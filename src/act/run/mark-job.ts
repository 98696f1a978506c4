// In `run`, the job's own processes hold GPU memory too. Marked as "this job" in the snapshot taken at the
// failure, so that neither the checks nor the diagnosis tell the user to end the job they are running.
import type { Snapshot } from '../../gather/snapshot/schema.js';

export function markJobProcesses(s: Snapshot, jobPids: readonly number[]): Snapshot {
  const job = new Set(jobPids);
  // A DataLoader worker or a launcher's rank is a child of a job process.
  const isJob = (p: Snapshot['processes']['list'][number]) =>
    job.has(p.pid) || (p.nvidiaSmiPid !== undefined && job.has(p.nvidiaSmiPid)) || (p.ppid !== null && job.has(p.ppid));
  return {
    ...s,
    processes: { ...s.processes, list: s.processes.list.map((p) => (isJob(p) ? { ...p, isSelfOrAncestor: true } : p)) },
  };
}
