// The executable. Everything real (process, streams, file system) is wired here and nowhere else.
import { main } from './cli/main.js';
import { createContext } from './cli/real-context.js';

const argv = process.argv.slice(2);
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
