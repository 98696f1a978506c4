import { createFileSystem } from '../ports/fs.js';
import { realRunner } from '../ports/runner.js';
import { createUserFiles } from '../ports/user-files.js';
import type { Context } from './context.js';

/**
 * Our stdout or stderr whose reader went away (`gpu-env-doctor procs --watch | head`): Node reports EPIPE
 * as an 'error' event, which without a listener ends the process with a stack trace. Writes after that are
 * dropped; commands that loop look at `closed` and stop.
 */
function output(stream: NodeJS.WriteStream): Context['stdout'] {
  let closed = false;
  stream.on('error', () => {
    closed = true;
  });
  return {
    write: (s) => {
      if (!closed) stream.write(s);
    },
    isTTY: Boolean(stream.isTTY),
    get closed() {
      return closed;
    },
  };
}

/** The context of a real run. `--root` is read here because the filesystem port is built from it. */
export function createContext(argv: readonly string[]): Context {
  const rootIdx = argv.findIndex((a) => a === '--root' || a.startsWith('--root='));
  const root = rootIdx === -1 ? '/' : argv[rootIdx]!.includes('=') ? argv[rootIdx]!.slice(7) : (argv[rootIdx + 1] ?? '/');
  const noColor = argv.includes('--no-color') || (process.env.NO_COLOR ?? '') !== '' || argv.includes('--json');
  return {
    stdout: output(process.stdout),
    stderr: output(process.stderr),
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
