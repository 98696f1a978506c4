import { createFileSystem } from '../ports/fs.js';
import { realRunner } from '../ports/runner.js';
import { fdOutput } from '../ports/stdio.js';
import { createUserFiles } from '../ports/user-files.js';
import { asciiFold, colorWanted, localeIsUtf8, wrapWidth } from '../report/layout.js';
import type { Context } from '../ports/context.js';

/**
 * The context of a real run. `--root` and the colour options are read here because the filesystem port and
 * the output streams are built from them (before the command's own parsing, which validates them).
 * Where the locale is not UTF-8 (LANG=C, a Windows console with a GBK code page), the symbols the tool prints
 * are replaced by ASCII on the way out (not in JSON, which is data).
 */
export function createContext(argv: readonly string[]): Context {
  const head = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const root = optionValue(head, '--root') ?? '/';
  const colorOpt = {
    color: optionValue(head, '--color') ?? (head.includes('--color') ? 'always' : undefined),
    noColor: head.includes('--no-color'),
  };
  const json = head.includes('--json') || optionValue(head, '--format') === 'json' || head[0] === 'snapshot';
  // JSON is data for programs: it keeps its characters whatever the locale.
  const fold = localeIsUtf8(process.env) || json ? (s: string) => s : asciiFold;
  const stdout = fdOutput(1, fold);
  const stderr = fdOutput(2, fold);
  return {
    stdout,
    stderr,
    env: process.env,
    cwd: process.cwd(),
    runner: realRunner,
    fs: createFileSystem(root),
    files: createUserFiles(process.cwd()),
    now: () => Date.now(),
    color: !json && colorWanted(colorOpt, process.env, stdout.isTTY),
    colorErr: colorWanted(colorOpt, process.env, stderr.isTTY),
    // a getter: asking a terminal's width loads the tty module, which only a wrapped report needs
    get width() {
      return wrapWidth(stdout.columns, process.env);
    },
    pid: process.pid,
    // process.stdin is a stream object built on first use: only `explain -` and `fix`'s question need it
    get stdin() {
      return process.stdin;
    },
  };
}

function optionValue(argv: readonly string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i === -1) return undefined;
  const a = argv[i]!;
  return a.includes('=') ? a.slice(name.length + 1) : argv[i + 1];
}
