// What applying a fix plan did, per process and for the env file: produced by act/fix/apply.ts, rendered by
// report/views/fix.ts (kept here, below both, so the view does not depend on the code that acts).

export type ProcessOutcome =
  | { kind: 'ended'; by: 'SIGTERM' | 'SIGKILL' }
  | { kind: 'already-gone' }
  | { kind: 'refused'; why: string }
  | { kind: 'failed'; why: string }
  | { kind: 'skipped'; why: string };

export type EnvFileOutcome =
  | { kind: 'written'; path: string; content: string }
  | { kind: 'unchanged'; path: string }
  | { kind: 'none' }
  /** not written: refused before acting (the plan said so) or failed while writing */
  | { kind: 'not-written'; path: string; why: string };
