// `libs`: which copy of each CUDA library every framework would load (and why), every copy on the machine,
// what running processes did load (--pid, and all GPU processes), and the library findings with fixes.
import { fitToWidth } from '../report/fit.js';
import * as nodePath from 'node:path';
import { failOn, flag, outputFormat, str, strs } from '../cli/args.js';
import { ALL_CHECKS } from '../judge/checks/index.js';
import { runChecks } from '../judge/checks/run-checks.js';
import { UsageError } from '../base/errors.js';
import { exitCodeFor } from '../judge/result.js';
import { readElf } from '../gather/libraries/elf.js';
import { renderLibs } from '../report/views/libs.js';
import type { LibrariesSection } from '../gather/snapshot/schema-libraries.js';
import type { Command } from '../cli/registry.js';
import { obtainSnapshotWithSource } from './shared/obtain-snapshot.js';
import { redactorFor, shown } from './shared/redaction.js';
import { optionSpec } from '../cli/options.js';
import { headerLines } from '../report/provenance.js';
import { visibleLine } from '../report/escape.js';
import { t } from '../base/i18n/index.js';

export const command: Command = {
  name: 'libs',
  get summary() {
    return t('cmd.libs.summary');
  },
  synopsis: 'libs [OPTIONS]',
  get description() {
    return t('cmd.libs.description');
  },
  get examples(): [string, string][] {
    return [
      ['gpu-env-doctor libs', t('cmd.libs.example1')],
      ['gpu-env-doctor libs --pid 4242', t('cmd.libs.example2')],
      ['gpu-env-doctor libs --elf ./my_extension.so', t('cmd.libs.example3')],
    ];
  },
  get exitCodes() {
    return t('cmd.libs.exitCodes');
  },
  options: optionSpec('libs'),
  async run(ctx, args, words) {
    const threshold = failOn(args);
    if (args.positionals.length > 0) throw new UsageError(t('usage.libs.noArgs', { arg: args.positionals[0] ?? '' }));
    const pids = strs(args, 'pid').map((p) => {
      if (!/^\d+$/.test(p) || Number(p) <= 0) throw new UsageError(t('usage.libs.pid', { value: p }));
      if (str(args, 'from') === undefined && !ctx.fs.exists(`/proc/${p}`))
        throw new UsageError(t('usage.libs.noPid', { pid: p }));
      return Number(p);
    });
    const elfFiles = strs(args, 'elf').map((f) => {
      // Under --root the name is a machine path; otherwise relative names are relative to the working directory.
      const abs = f.startsWith('/') ? f : ctx.fs.root === '/' ? nodePath.resolve(ctx.cwd, f) : `/${f}`;
      const e = readElf(ctx.fs, abs);
      if (!e.ok)
        throw new UsageError(
          t('usage.libs.elf', { file: f, why: e.reason === 'not-found' ? t('usage.noSuchFile') : e.message }),
        );
      return abs;
    });
    if (str(args, 'from') !== undefined && (pids.length > 0 || elfFiles.length > 0))
      throw new UsageError(t('usage.libs.withFrom'));
    const format = outputFormat(args, ['text', 'json']);
    // Only what `libs` shows: no nvidia-smi, no package scan (alone it used to collect all of `check`'s facts,
    // and then read the libraries after nvidia-smi had answered: slower than inside `check`).
    const got = await obtainSnapshotWithSource(words, ctx, args, { pids, elfFiles }, 'libraries');
    const { snapshot } = got;
    const facts = (snapshot as { libraries?: LibrariesSection }).libraries;
    if (!facts) throw new UsageError(t('usage.libs.noFacts'));
    const judged = runChecks(
      ALL_CHECKS.filter((c) => c.category === 'libraries'),
      snapshot,
    ).flatMap((r) => r.findings);
    // what is shown (the libraries, the findings, the snapshot's header) is redacted; the exit code is the facts'
    const { lib, findings, source } = shown(redactorFor(ctx, args, { snapshot, judged }), {
      lib: facts,
      findings: judged,
      source: got.source,
    });
    if (format === 'json') {
      const {
        consumers,
        copies,
        loaded,
        processes,
        ldCache,
        ldLibraryPath,
        defaultDirs,
        hwcaps,
        environments,
        packages,
      } = lib;
      const json = {
        schemaVersion: 1,
        consumers,
        copies,
        loaded,
        processes,
        ldCache,
        ldLibraryPath,
        defaultDirs,
        hwcaps,
        environments,
        packages,
        findings,
      };
      ctx.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    } else {
      const head = headerLines(words, 'libs', source);
      const w = ctx.width ?? 80;
      if (head.sub)
        ctx.stdout.write(`${fitToWidth(words, `${visibleLine(head.title)}\n  ${visibleLine(head.sub)}`, w)}\n\n`);
      ctx.stdout.write(
        fitToWidth(
          words,
          renderLibs(words, lib, findings, {
            color: ctx.color,
            verbose: flag(args, 'verbose'),
            width: w,
            fromSnapshot: source.file !== null,
          }),
          w,
        ),
      );
    }
    return exitCodeFor(judged, threshold);
  },
};
