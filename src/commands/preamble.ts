import { str } from '../cli/args.js';
import { optionSpec } from '../cli/options.js';
import { UsageError } from '../base/errors.js';
import { composePreamble, FRAMEWORKS, normalizeFramework } from '../act/preamble/compose.js';
import { TOOL_VERSION } from '../base/tool-version.js';
import type { Command } from '../cli/registry.js';
import { t } from '../base/i18n/index.js';

export const command: Command = {
  name: 'preamble',
  get summary() {
    return t('cmd.preamble.summary');
  },
  synopsis: 'preamble --framework torch|tensorflow|jax [> gpu_check.py]',
  get description() {
    return t('cmd.preamble.description');
  },
  get examples(): [string, string][] {
    return [
      ['gpu-env-doctor preamble --framework torch > gpu_check.py', t('cmd.preamble.example1')],
      [
        'gpu-env-doctor preamble --framework tensorflow | cat - train.py > train_checked.py',
        t('cmd.preamble.example2'),
      ],
    ];
  },
  get exitCodes() {
    return t('cmd.preamble.exitCodes');
  },
  options: optionSpec('preamble'),
  async run(ctx, args) {
    if (args.positionals.length > 0)
      throw new UsageError(t('usage.preamble.noArgs', { arg: args.positionals[0] ?? '' }));
    const name = str(args, 'framework');
    if (name === undefined) throw new UsageError(t('usage.preamble.needsFramework', { list: FRAMEWORKS.join(', ') }));
    const fw = normalizeFramework(name);
    if (fw === null) throw new UsageError(t('usage.preamble.framework', { list: FRAMEWORKS.join(', '), value: name }));
    ctx.stdout.write(composePreamble(fw, TOOL_VERSION));
    return 0;
  },
};
