// The commands, loaded lazily: `gpu-env-doctor explain` does not pay for loading the probes of `check`.
// Adding a command = one file in src/commands/ exporting `command`, one line here, and its options in
// src/cli/options.ts (ACCEPTS).
import type { Context } from '../cli/context.js';
import type { OptionSpec, ParsedArgs } from '../cli/args.js';
import type { HelpText } from '../cli/help.js';
import { t } from '../i18n/index.js';

export interface Command extends HelpText {
  /** the options it takes: optionSpec(name) from the one option table */
  options?: OptionSpec;
  /** returns the exit code */
  run(ctx: Context, args: ParsedArgs): Promise<number>;
}

type Loader = () => Promise<{ command: Command }>;

export const COMMANDS: Record<string, { summary: string; load: Loader }> = {
  check: { get summary() { return t('registry.check'); }, load: () => import('./check.js') },
  explain: { get summary() { return t('registry.explain'); }, load: () => import('./explain.js') },
  run: { get summary() { return t('registry.run'); }, load: () => import('./run.js') },
  libs: { get summary() { return t('registry.libs'); }, load: () => import('./libs.js') },
  procs: { get summary() { return t('registry.procs'); }, load: () => import('./procs.js') },
  compat: { get summary() { return t('registry.compat'); }, load: () => import('./compat.js') },
  fix: { get summary() { return t('registry.fix'); }, load: () => import('./fix.js') },
  preamble: { get summary() { return t('registry.preamble'); }, load: () => import('./preamble.js') },
  snapshot: { get summary() { return t('registry.snapshot'); }, load: () => import('./snapshot.js') },
  diff: { get summary() { return t('registry.diff'); }, load: () => import('./diff.js') },
  fleet: { get summary() { return t('registry.fleet'); }, load: () => import('./fleet.js') },
  completion: { get summary() { return t('registry.completion'); }, load: () => import('./completion.js') },
  serve: { get summary() { return t('registry.serve'); }, load: () => import('./serve.js') },
  mcp: { get summary() { return t('registry.mcp'); }, load: () => import('./mcp.js') },
};
