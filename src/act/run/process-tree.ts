// Is a GPU process part of the job? The job is the command we started and everything it started
// (torchrun workers, DataLoader processes that touch CUDA, a shell script's python). Asked once per PID,
// while the process is alive, by walking /proc/PID/stat parent links up to the job's PID.
import { readTextOr, type FileSystem } from '../../ports/fs.js';
import { parseProcStat } from '../../gather/procfs/parse.js';

// null: the PID is not in our /proc (nvidia-smi inside a container reports host PIDs, or it already ended).
export function descendantTest(fs: FileSystem, rootPid: () => number | undefined): (pid: number) => boolean | null {
  return (pid) => {
    const root = rootPid();
    if (root === undefined) return false;
    if (readTextOr(fs, `/proc/${pid}/stat`) === undefined) return null;
    let p = pid;
    // 64 levels is far deeper than any real process tree; it also ends a loop in a corrupt /proc.
    for (let depth = 0; depth < 64 && p > 1; depth++) {
      if (p === root) return true;
      const stat = parseProcStat(readTextOr(fs, `/proc/${p}/stat`) ?? '');
      if (!stat) return false;
      p = stat.ppid;
    }
    return false;
  };
}
