import { optionSpec } from '../cli/options.js';
import { UsageError } from '../core/errors.js';
import type { Command } from './registry.js';
import { obtainSnapshot } from './shared/obtain-snapshot.js';
import { redactorFor, shown } from './shared/redaction.js';

export const command: Command = {
  name: 'snapshot',
  summary: "print the machine's facts as one JSON document",
  synopsis: 'snapshot [OPTIONS] > machine.json',
  description: `Prints every fact the probes gathered (the Snapshot) as JSON. Judge it later, anywhere, with
gpu-env-doctor check --from machine.json; compare two with diff; merge many with fleet. The output is always JSON
(--json is accepted and changes nothing). --redact replaces user and host names, home folders, addresses, GPU
UUIDs and serials, and secrets (for attaching to an issue).`,
  examples: [
    ['gpu-env-doctor snapshot > $(hostname).json', 'save this machine'],
    ['gpu-env-doctor snapshot --redact > machine.json', 'to attach to a public issue'],
    ['gpu-env-doctor check --from node7.json', 'judge it on any laptop'],
  ],
  exitCodes: '0 printed; 2 usage error or failure of the tool.',
  options: optionSpec('snapshot'),
  async run(ctx, args) {
    if (args.positionals.length > 0) throw new UsageError(`snapshot takes no arguments (got "${args.positionals[0]}")`);
    const snapshot = await obtainSnapshot(ctx, args);
    ctx.stdout.write(`${JSON.stringify(shown(redactorFor(ctx, args, snapshot), snapshot), null, 2)}\n`);
    return 0;
  },
};
