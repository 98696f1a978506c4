import { optionSpec } from '../cli/options.js';
import { UsageError } from '../base/errors.js';
import type { Command } from '../cli/registry.js';
import { obtainSnapshot } from './shared/obtain-snapshot.js';
import { redactorFor, shown } from './shared/redaction.js';
import { t } from '../base/i18n/index.js';

export const command: Command = {
  name: 'snapshot',
  get summary() {
    return t('cmd.snapshot.summary');
  },
  synopsis: 'snapshot [OPTIONS] > machine.json',
  get description() {
    return t('cmd.snapshot.description');
  },
  get examples(): [string, string][] {
    return [
      ['gpu-env-doctor snapshot > $(hostname).json', t('cmd.snapshot.example1')],
      ['gpu-env-doctor snapshot --redact > machine.json', t('cmd.snapshot.example2')],
      ['gpu-env-doctor check --from node7.json', t('cmd.snapshot.example3')],
    ];
  },
  get exitCodes() {
    return t('cmd.snapshot.exitCodes');
  },
  options: optionSpec('snapshot'),
  async run(ctx, args) {
    if (args.positionals.length > 0)
      throw new UsageError(t('usage.snapshot.noArgs', { arg: args.positionals[0] ?? '' }));
    const snapshot = await obtainSnapshot(ctx, args);
    ctx.stdout.write(`${JSON.stringify(shown(redactorFor(ctx, args, snapshot), snapshot), null, 2)}\n`);
    return 0;
  },
};
