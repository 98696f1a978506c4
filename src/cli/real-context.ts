import { createFileSystem } from '../ports/fs.js';
import { realRunner } from '../ports/runner.js';
import { fdOutput } from '../ports/stdio.js';
import { createUserFiles } from '../ports/user-files.js';
import type { Context } from './context.js';

/** The context of a real run. `--root` is read here because the filesystem port is built from it. */
export function createContext(argv: readonly string[]): Context {
  const rootIdx = argv.findIndex((a) => a === '--root' || a.startsWith('--root='));
  const root = rootIdx === -1 ? '/' : argv[rootIdx]!.includes('=') ? argv[rootIdx]!.slice(7) : (argv[rootIdx + 1] ?? '/');
  const noColor = argv.includes('--no-color') || (process.env.NO_COLOR ?? '') !== '' || argv.includes('--json');
  const stdout = fdOutput(1);
  return {
    stdout,
    stderr: fdOutput(2),
    env: process.env,
    cwd: process.cwd(),
    runner: realRunner,
    fs: createFileSystem(root),
    files: createUserFiles(process.cwd()),
    now: () => Date.now(),
    get color() {
      return !noColor && stdout.isTTY;
    },
    pid: process.pid,
    // process.stdin is a stream object built on first use: only `explain -` and `fix`'s question need it
    get stdin() {
      return process.stdin;
    },
  };
}
