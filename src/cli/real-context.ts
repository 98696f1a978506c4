import { createFileSystem } from '../ports/fs.js';
import { realRunner } from '../ports/runner.js';
import { createUserFiles } from '../ports/user-files.js';
import type { Context } from './context.js';

/** The context of a real run. `--root` is read here because the filesystem port is built from it. */
export function createContext(argv: readonly string[]): Context {
  const rootIdx = argv.findIndex((a) => a === '--root' || a.startsWith('--root='));
  const root = rootIdx === -1 ? '/' : argv[rootIdx]!.includes('=') ? argv[rootIdx]!.slice(7) : (argv[rootIdx + 1] ?? '/');
  const noColor = argv.includes('--no-color') || (process.env.NO_COLOR ?? '') !== '' || argv.includes('--json');
  return {
    stdout: { write: (s) => void process.stdout.write(s), isTTY: Boolean(process.stdout.isTTY) },
    stderr: { write: (s) => void process.stderr.write(s), isTTY: Boolean(process.stderr.isTTY) },
    env: process.env,
    cwd: process.cwd(),
    runner: realRunner,
    fs: createFileSystem(root),
    files: createUserFiles(process.cwd()),
    now: () => Date.now(),
    color: Boolean(process.stdout.isTTY) && !noColor,
    pid: process.pid,
    stdin: process.stdin,
  };
}
