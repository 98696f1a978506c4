// Everything real (process, streams, file system) is wired here and nowhere else.
import { main } from './main.js';
import { createContext } from './real-context.js';

export function start(argv: string[]): void {
  const ctx = createContext(argv);
  main(argv, ctx).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`gpu-env-doctor: internal error: ${String(err)}\n`);
      process.exitCode = 2;
    },
  );
}
