// The commands, loaded lazily: `gpu-env-doctor explain` does not pay for loading the probes of `check`.
// Adding a command = one file in src/commands/ exporting `command`, one line here, and its options in
// src/cli/options.ts (ACCEPTS).
import type { Context } from '../cli/context.js';
import type { OptionSpec, ParsedArgs } from '../cli/args.js';
import type { HelpText } from '../cli/help.js';

export interface Command extends HelpText {
  /** the options it takes: optionSpec(name) from the one option table */
  options?: OptionSpec;
  /** returns the exit code */
  run(ctx: Context, args: ParsedArgs): Promise<number>;
}

type Loader = () => Promise<{ command: Command }>;

export const COMMANDS: Record<string, { summary: string; load: Loader }> = {
  check: { summary: 'inspect this machine, print findings with evidence and fixes (default)', load: () => import('./check.js') },
  explain: { summary: 'read an error log, rank the root causes with evidence and fixes', load: () => import('./explain.js') },
  run: { summary: 'run a command, watch GPU memory, explain the failure with the state at the moment it failed', load: () => import('./run.js') },
  libs: { summary: 'which copy of each CUDA library every framework would load, and what running processes did load', load: () => import('./libs.js') },
  procs: { summary: 'GPU processes: who holds memory, since when, and whether they are stale', load: () => import('./procs.js') },
  compat: { summary: 'what a framework version needs (CUDA, cuDNN, driver, Python, GPU archs) and whether this machine has it', load: () => import('./compat.js') },
  fix: { summary: 'apply the safe fixes, after confirmation; --dry-run prints the plan', load: () => import('./fix.js') },
  preamble: { summary: 'the Python self-check block for the top of training scripts', load: () => import('./preamble.js') },
  snapshot: { summary: "print the machine's facts as one JSON document", load: () => import('./snapshot.js') },
  diff: { summary: 'what differs between two snapshots, ranked by impact', load: () => import('./diff.js') },
  fleet: { summary: "many machines' snapshots: groups, outliers, findings across the fleet", load: () => import('./fleet.js') },
  completion: { summary: 'shell completion: completion bash|zsh|fish (add its output to your shell)', load: () => import('./completion.js') },
  serve: { summary: 'a live local web page of the GPU server: memory by process and user, stale holders, free GPUs, findings', load: () => import('./serve.js') },
};
