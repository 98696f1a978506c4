import { createFileSystem } from '../ports/fs.js';
import { realRunner } from '../ports/runner.js';
import { createUserFiles } from '../ports/user-files.js';
import { asciiFold, colorWanted, localeIsUtf8, wrapWidth } from '../reporters/layout.js';
import type { Context } from './context.js';

/**
 * Our stdout or stderr whose reader went away (`gpu-env-doctor procs --watch | head`): Node reports EPIPE
 * as an 'error' event, which without a listener ends the process with a stack trace. Writes after that are
 * dropped; commands that loop look at `closed` and stop. `fold` turns symbols into ASCII where the locale
 * cannot show them.
 */
function output(stream: NodeJS.WriteStream, fold: (s: string) => string): Context['stdout'] {
  let closed = false;
  stream.on('error', () => {
    closed = true;
  });
  return {
    write: (s) => {
      if (!closed) stream.write(fold(s));
    },
    isTTY: Boolean(stream.isTTY),
    columns: stream.columns,
    get closed() {
      return closed;
    },
  };
}

/**
 * The context of a real run. `--root` and the colour options are read here because the filesystem port and
 * the output streams are built from them (before the command's own parsing, which validates them).
 * Where the locale is not UTF-8 (LANG=C, a Windows console with a GBK code page), the symbols the tool prints
 * are replaced by ASCII on the way out (not in JSON, which is data).
 */
export function createContext(argv: readonly string[]): Context {
  const head = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const root = optionValue(head, '--root') ?? '/';
  const colorOpt = { color: optionValue(head, '--color') ?? (head.includes('--color') ? 'always' : undefined), noColor: head.includes('--no-color') };
  const json = head.includes('--json') || optionValue(head, '--format') === 'json' || head[0] === 'snapshot';
  // JSON is data for programs: it keeps its characters whatever the locale.
  const fold = localeIsUtf8(process.env) || json ? (s: string) => s : asciiFold;
  return {
    stdout: output(process.stdout, fold),
    stderr: output(process.stderr, fold),
    env: process.env,
    cwd: process.cwd(),
    runner: realRunner,
    fs: createFileSystem(root),
    files: createUserFiles(process.cwd()),
    now: () => Date.now(),
    color: !json && colorWanted(colorOpt, process.env, Boolean(process.stdout.isTTY)),
    colorErr: colorWanted(colorOpt, process.env, Boolean(process.stderr.isTTY)),
    width: wrapWidth(process.stdout.isTTY ? process.stdout.columns : undefined, process.env),
    pid: process.pid,
    stdin: process.stdin,
  };
}

function optionValue(argv: readonly string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i === -1) return undefined;
  const a = argv[i]!;
  return a.includes('=') ? a.slice(name.length + 1) : argv[i + 1];
}
