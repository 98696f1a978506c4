// Which command lines start nvidia-smi from dist/cli.js itself, before the rest of the program is loaded (the
// program's start is ~half of check's time before nvidia-smi's answer). Pure: the argument list in, the start's
// terms out. Only a command line that will surely run nvidia-smi the same way qualifies: `check` (named or the
// default) with options that change neither the call nor whether check reaches it. Anything else (another
// command, --from, --help, an option the parser would refuse, a value it would read another way) starts nothing
// here, and the command runs as it would without this file. A later identical call takes the run over
// (src/ports/runner.ts startEarly); one that never comes is ended when the command ends.

/** What the early start needs: nvidia-smi's time limit, and the --root folders main will require to exist. */
export interface EarlyNvidia {
  timeoutMs: number;
  roots: string[];
}

/** check's default --timeout, in ms (DEFAULT_PROBE_OPTIONS.timeoutMs: a test keeps them equal) */
export const EARLY_DEFAULT_TIMEOUT_MS = 5000;

const FLAGS = new Set([
  '--json',
  '--markdown',
  '--redact',
  '--no-color',
  '--all-envs',
  '--verbose',
  '-v',
  '--quiet',
  '-q',
]);
const DEEP = new Set(['--deep', '--deep=native', '--deep=frameworks']);
/** check's options with a value, and the values each takes (null: any value) */
const VALUED: Record<string, readonly string[] | null> = {
  '--color': ['always', 'never', 'auto'],
  '--lang': ['en', 'zh'],
  '--format': ['text', 'json', 'markdown', 'prometheus'],
  '--fail-on': ['error', 'warn'],
  '--ignore': null,
  '--config': null,
  '--html': null,
  '--python': null,
  '--timeout': null,
  '--root': null,
};

/** The early start's terms for `argv` (the executable's arguments), or undefined where it must start nothing. */
export function earlyNvidia(argv: readonly string[]): EarlyNvidia | undefined {
  // dist/cli.js runs a command line naming explain from another tree of modules: nothing to hand the run to there
  if (argv.includes('explain')) return undefined;
  // `--lang zh check …`: options every command takes may come before the command's name (main's commandFirst)
  let i = 0;
  while (i < argv.length) {
    const a = argv[i]!;
    if (a === '--lang' || a === '--color') i += a === '--lang' || VALUED['--color']!.includes(argv[i + 1]!) ? 2 : 1;
    else if (a.startsWith('--lang=') || a.startsWith('--color=') || a === '--no-color') i += 1;
    else break;
  }
  const rest = argv[i] === 'check' ? [...argv.slice(0, i), ...argv.slice(i + 1)] : argv;
  // no name: check, unless the first word is one (a positional, `help`, another command)
  if (rest === argv && argv.length > 0 && !argv[0]!.startsWith('-')) return undefined;
  let timeoutMs = EARLY_DEFAULT_TIMEOUT_MS;
  const roots: string[] = [];
  for (let k = 0; k < rest.length; k++) {
    const a = rest[k]!;
    if (FLAGS.has(a) || DEEP.has(a)) continue;
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    const choices = VALUED[name];
    if (choices === undefined) return undefined;
    // a value given apart must not look like an option (the parser's reading of `--root --json` is not ours to guess)
    const value = eq > 0 ? a.slice(eq + 1) : rest[++k];
    if (value === undefined || (eq < 0 && value.startsWith('-'))) return undefined;
    if (choices !== null && !choices.includes(value)) return undefined;
    if (name === '--root') roots.push(value);
    // the time limit as check computes it (the last one given wins, as in the parser); one it refuses starts nothing
    if (name === '--timeout') timeoutMs = Number(value) * 1000;
  }
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) return undefined;
  return { timeoutMs, roots };
}
