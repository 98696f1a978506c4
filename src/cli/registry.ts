// The commands, loaded lazily: `gpu-env-doctor explain` does not pay for loading the probes of `check`.
// Adding a command = one file in src/commands/ exporting `command`, one line here, and its options in
// src/cli/options.ts (ACCEPTS).
import type { Context } from '../ports/context.js';
import type { OptionSpec, ParsedArgs } from './args.js';
import type { HelpText } from './help.js';
import { t, type Words } from '../base/i18n/index.js';

export interface Command extends HelpText {
  /** the options it takes: optionSpec(name) from the one option table */
  options?: OptionSpec;
  /** returns the exit code */
  run(ctx: Context, args: ParsedArgs, words: Words): Promise<number>;
}

type Loader = () => Promise<{ command: Command }>;

export const COMMANDS: Record<string, { summary: string; load: Loader }> = {
  check: {
    get summary() {
      return t('registry.check');
    },
    load: () => import('../commands/check.js'),
  },
  explain: {
    get summary() {
      return t('registry.explain');
    },
    load: () => import('../commands/explain.js'),
  },
  run: {
    get summary() {
      return t('registry.run');
    },
    load: () => import('../commands/run.js'),
  },
  libs: {
    get summary() {
      return t('registry.libs');
    },
    load: () => import('../commands/libs.js'),
  },
  procs: {
    get summary() {
      return t('registry.procs');
    },
    load: () => import('../commands/procs.js'),
  },
  compat: {
    get summary() {
      return t('registry.compat');
    },
    load: () => import('../commands/compat.js'),
  },
  fix: {
    get summary() {
      return t('registry.fix');
    },
    load: () => import('../commands/fix.js'),
  },
  preamble: {
    get summary() {
      return t('registry.preamble');
    },
    load: () => import('../commands/preamble.js'),
  },
  snapshot: {
    get summary() {
      return t('registry.snapshot');
    },
    load: () => import('../commands/snapshot.js'),
  },
  diff: {
    get summary() {
      return t('registry.diff');
    },
    load: () => import('../commands/diff.js'),
  },
  fleet: {
    get summary() {
      return t('registry.fleet');
    },
    load: () => import('../commands/fleet.js'),
  },
  completion: {
    get summary() {
      return t('registry.completion');
    },
    load: () => import('../commands/completion.js'),
  },
  serve: {
    get summary() {
      return t('registry.serve');
    },
    load: () => import('../commands/serve.js'),
  },
  mcp: {
    get summary() {
      return t('registry.mcp');
    },
    load: () => import('../commands/mcp.js'),
  },
};

/** A command already loaded with the start (explain's own start bundles it: src/cli/explain-start.ts): its load()
 *  answers with that module, not with a second file holding the same one. */
export function preload(name: string, module: { command: Command }): void {
  const entry = COMMANDS[name];
  if (entry) entry.load = () => Promise.resolve(module);
}
