// nvidia-smi started by dist/cli.js before it loads the rest of the program (./early-gate.ts says when): the
// runner takes the runs over when check asks for the same calls (src/ports/runner.ts startEarly). Kept apart from
// the start chunk so that only this, the runner and the calls' arguments load before the spawn.
import * as nodePath from 'node:path';
import { createFileSystem, isDir } from '../ports/fs.js';
import { endEarlyRuns, startEarly } from '../ports/runner.js';
import { nvidiaCalls } from '../gather/nvidia/run.js';
import { earlyNvidia } from './early-gate.js';

/**
 * Starts check's two nvidia-smi calls where the command line qualifies (./early-gate.ts), unless main would refuse
 * it first (a --root that is no folder).
 */
export function startNvidiaFirst(argv: readonly string[]): void {
  const early = earlyNvidia(argv);
  if (early === undefined) return;
  const fs = createFileSystem('/');
  try {
    // main's own test of --root, before any command runs (a working folder gone: the command says so, not this)
    const cwd = early.roots.length > 0 ? process.cwd() : '/';
    if (early.roots.some((root) => !isDir(fs, nodePath.resolve(cwd, root)))) return;
  } catch {
    return;
  }
  for (const [command, args, options] of nvidiaCalls(early.timeoutMs)) startEarly(command, args, options);
}

/** Ends what was started here and not taken over: called when the command has ended. */
export function endUnclaimed(): void {
  endEarlyRuns();
}
