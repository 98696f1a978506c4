// Everything real (process, streams, file system) is wired here and nowhere else.
import { main } from './main.js';
import { createContext } from './real-context.js';

/** `ended`: called when the command has ended (dist/cli.js ends there what it started and no command took). */
export function start(argv: string[], ended?: () => void): void {
  const ctx = createContext(argv);
  main(argv, ctx).then(
    (code) => {
      ended?.();
      process.exitCode = code;
    },
    (err: unknown) => {
      ended?.();
      process.stderr.write(`gpu-env-doctor: internal error: ${String(err)}\n`);
      process.exitCode = 2;
    },
  );
}
