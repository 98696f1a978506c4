// The signals port: the only product code that sends signals to other processes (for `fix`).
// Tests pass a fake; the real one is a thin wrapper over process.kill that refuses the special PIDs
// (0, -1, negative process groups, init), so no caller can hit more than the one process it names.

export type SignalName = 'SIGTERM' | 'SIGKILL' | 'SIGCONT';

/** What the kernel said: delivered, no such process (ESRCH), not ours to signal (EPERM), or another error. */
export type SignalOutcome = 'sent' | 'no-such-process' | 'permission' | 'failed';

export interface Signals {
  send(pid: number, signal: SignalName): SignalOutcome;
}

export const realSignals: Signals = {
  send(pid, signal) {
    if (!Number.isInteger(pid) || pid <= 1) return 'failed';
    try {
      process.kill(pid, signal);
      return 'sent';
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ESRCH') return 'no-such-process';
      if (code === 'EPERM') return 'permission';
      return 'failed';
    }
  },
};

/** Waiting between signals; a port so that unit tests need not wait through a real grace period. */
export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
