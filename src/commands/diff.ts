import { flag, outputFormat } from '../cli/args.js';
import type { Context } from '../ports/context.js';
import { UsageError } from '../base/errors.js';
import { diffSnapshots } from '../judge/diff/compare.js';
import { renderDiffMarkdown, renderDiffTerminal } from '../report/views/diff.js';
import { parseSnapshotText } from '../gather/snapshot/load.js';
import type { Snapshot } from '../gather/snapshot/schema.js';
import type { Command } from '../cli/registry.js';
import { MAX_SNAPSHOT_BYTES, obtainSnapshot, readStdin } from './shared/obtain-snapshot.js';
import { redactorFor, shown } from './shared/redaction.js';
import { optionSpec } from '../cli/options.js';
import { t } from '../base/i18n/index.js';

export const command: Command = {
  name: 'diff',
  get summary() {
    return t('cmd.diff.summary');
  },
  synopsis: 'diff A.json [B.json] [OPTIONS]',
  get description() {
    return t('cmd.diff.description');
  },
  get examples(): [string, string][] {
    return [
      ['gpu-env-doctor diff yesterday.json', t('cmd.diff.example1')],
      ['gpu-env-doctor diff node3.json node7.json --markdown', t('cmd.diff.example2')],
    ];
  },
  get exitCodes() {
    return t('cmd.diff.exitCodes');
  },
  options: optionSpec('diff'),
  async run(ctx, args, words) {
    const files = args.positionals;
    if (files.length === 0 || files.length > 2) throw new UsageError(t('usage.diff.count', { n: files.length }));
    if (files.filter((f) => f === '-').length > 1) throw new UsageError(t('usage.diff.twoStdin'));
    const format = outputFormat(args, ['text', 'json', 'markdown']);
    const a = await load(ctx, files[0]!);
    const b = files[1] !== undefined ? await load(ctx, files[1]) : await obtainSnapshot(ctx, args);
    const labels = { a: label(files[0]!), b: files[1] !== undefined ? label(files[1]) : 'this machine' };
    const facts = diffSnapshots(a, b, labels, { all: flag(args, 'all') });
    // both machines' names and users are known to the redactor: one set of placeholders for the two sides
    const result = shown(redactorFor(ctx, args, { a, b, facts }), facts);
    if (format === 'json') ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else if (format === 'markdown') ctx.stdout.write(renderDiffMarkdown(words, result, { now: ctx.now() }));
    else
      ctx.stdout.write(
        renderDiffTerminal(words, result, {
          color: ctx.color,
          verbose: flag(args, 'verbose'),
          width: ctx.width ?? 80,
          now: ctx.now(),
        }),
      );
    return facts.differences.length > 0 ? 1 : 0;
  },
};

const label = (f: string) => (f === '-' ? 'standard input' : f);

async function load(ctx: Context, file: string): Promise<Snapshot> {
  const text = file === '-' ? await readStdin(ctx, MAX_SNAPSHOT_BYTES) : ctx.files.readText(file, MAX_SNAPSHOT_BYTES);
  return parseSnapshotText(text, label(file));
}
