// main(): dispatch to a command, and the one error boundary that turns any internal error
// into a one-line message with exit code 2 and a pre-filled bug report (stack only with -v).
import * as nodePath from 'node:path';
import { refusalText, UsageError } from '../base/errors.js';
import { visible } from '../report/escape.js';
import { COMMANDS } from './registry.js';
import { createFileSystem, isDir } from '../ports/fs.js';
import { findingsDir } from '../ports/assets.js';
import { wrapWidth } from '../report/layout.js';
import { TOOL_NAME, TOOL_VERSION } from '../base/tool-version.js';
import { didYouMean, parseCommandArgs, str } from './args.js';
import type { Context } from '../ports/context.js';
import { commandHelp, globalHelp } from './help.js';
import { optionSpec } from './options.js';
import { getLang, isLang, langFromArgv, langFromEnv, setLang, t, wordsFor } from '../base/i18n/index.js';
import type { Words } from '../base/i18n/words.js';

export async function main(given: readonly string[], ctx: Context): Promise<number> {
  const argv = commandFirst(given);
  const verbose = argv.includes('-v') || argv.includes('--verbose');
  const width = ctx.width ?? wrapWidth(undefined, ctx.env);
  try {
    // The language first, so that help and every message come in it: --lang, else the locale's.
    const asked = langFromArgv(argv);
    setLang(langFromEnv(ctx.env));
    if (asked !== undefined && asked !== '') {
      if (!isLang(asked)) throw new UsageError(t('error.lang', { value: asked }));
      setLang(asked);
    }
    // the words every renderer is handed: made here, once the language is chosen
    let words: Words = wordsFor(getLang());
    const first = argv[0];
    if (first === '--version' || first === '-V' || first === 'version') {
      ctx.stdout.write(`${TOOL_VERSION}\n`);
      return 0;
    }
    const withoutLang = argv.filter((a, i) => !a.startsWith('--lang=') && a !== '--lang' && argv[i - 1] !== '--lang');
    if (first === 'help' || ((first === '--help' || first === '-h') && withoutLang.length === 1)) {
      const topic = first === 'help' ? argv[1] : undefined;
      if (topic !== undefined) {
        const entry = COMMANDS[topic];
        if (!entry) throw unknownCommand(topic);
        ctx.stdout.write(commandHelp(words, (await entry.load()).command, width, findingsDir(words.lang) ?? undefined));
        return 0;
      }
      ctx.stdout.write(
        globalHelp(
          words,
          Object.entries(COMMANDS).map(([name, c]) => ({ name, summary: c.summary })),
          width,
        ),
      );
      return 0;
    }
    const named = first !== undefined && !first.startsWith('-');
    const name = named ? first : 'check';
    const entry = COMMANDS[name];
    if (!entry) throw unknownCommand(name);
    const { command } = await entry.load();
    const rest = named ? argv.slice(1) : argv;
    // `gpu-env-doctor check help` reads as a request for help, as in git and gh
    if (rest.length === 1 && rest[0] === 'help') {
      ctx.stdout.write(commandHelp(words, command, width, findingsDir(words.lang) ?? undefined));
      return 0;
    }
    const args = parseCommandArgs(rest, command.options ?? optionSpec(name), name);
    if (args.values.help === true) {
      ctx.stdout.write(commandHelp(words, command, width, findingsDir(words.lang) ?? undefined));
      return 0;
    }
    // --json (and the Prometheus metrics) are data: their messages stay English whatever the language.
    if (args.values.json === true || args.values.format === 'json' || args.values.format === 'prometheus') {
      setLang('en');
      words = wordsFor('en');
    }
    const root = str(args, 'root');
    if (root !== undefined && !isDir(createFileSystem('/'), nodePath.resolve(ctx.cwd, root)))
      throw new UsageError(t('error.noRoot', { root }));
    return await command.run(ctx, args, words);
  } catch (err) {
    if (err instanceof UsageError) {
      // worded here in the chosen language (an InputError from below carries only its key and params); a message
      // may carry a value from a file or the command line: its control characters are shown, not run
      ctx.stderr.write(`${TOOL_NAME}: ${visible(refusalText(err))}\n`);
      return err.exitCode;
    }
    const e = err instanceof Error ? err : new Error(String(err));
    ctx.stderr.write(`${TOOL_NAME}: ${t('error.internal', { message: e.message.split('\n')[0] ?? '' })}\n`);
    const platform = `${process.platform}-${process.arch}`;
    ctx.stderr.write(
      `${t('error.bug', { tool: TOOL_NAME, version: TOOL_VERSION, node: process.version, platform })}\n`,
    );
    if (verbose && e.stack) ctx.stderr.write(`${e.stack}\n`);
    return 2;
  }
}

function unknownCommand(name: string): UsageError {
  const guess = didYouMean(name, Object.keys(COMMANDS));
  return new UsageError(
    guess
      ? t('error.unknownCommandGuess', { name, guess, tool: TOOL_NAME })
      : t('error.unknownCommand', { name, tool: TOOL_NAME }),
  );
}

/**
 * `gpu-env-doctor --lang zh check`: the options every command takes (language, colour) may come before the
 * command's name, as with git and gh; they are moved behind it. Nothing else moves (an option's value could be
 * taken for a command's name).
 */
function commandFirst(argv: readonly string[]): readonly string[] {
  let i = 0;
  while (i < argv.length) {
    const a = argv[i]!;
    if (a === '--lang' || a === '--color')
      i += a === '--lang' || (argv[i + 1] !== undefined && ['always', 'never', 'auto'].includes(argv[i + 1]!)) ? 2 : 1;
    else if (a.startsWith('--lang=') || a.startsWith('--color=') || a === '--no-color') i += 1;
    else break;
  }
  const name = argv[i];
  if (i === 0 || name === undefined || !(name in COMMANDS)) return argv;
  return [name, ...argv.slice(0, i), ...argv.slice(i + 1)];
}
