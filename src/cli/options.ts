// The one option table: every option the CLI knows, what it means, and which commands take it. The parser
// (./args.ts), every command's --help (./help.ts) and shell completion (./completion.ts) are built from it,
// so an option is either honoured by a command or refused with one line (exit 2): never accepted and ignored.
import type { ParseArgsConfig } from 'node:util';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface OptionDef {
  type: 'boolean' | 'string';
  short?: string;
  multiple?: boolean;
  /** the placeholder in help, for string options: FILE, DIR, SECONDS … */
  value?: string;
  /** one line for --help */
  help: string;
  /** values a shell can complete */
  choices?: readonly string[];
  /** completion completes a file or a directory name */
  complete?: 'file' | 'dir';
}

export const OPTIONS = {
  help: { type: 'boolean', short: 'h', help: 'this help' },
  verbose: { type: 'boolean', short: 'v', help: 'every fact, the check ids, and how long each probe took' },
  quiet: { type: 'boolean', short: 'q', help: 'only the problems; nothing at all when there is none (for "before every job")' },
  json: { type: 'boolean', help: 'only JSON on stdout' },
  markdown: { type: 'boolean', help: 'a report to paste into a GitHub issue' },
  html: { type: 'string', value: 'FILE', help: 'also write a self-contained HTML report to FILE', complete: 'file' },
  redact: { type: 'boolean', help: 'hide user and host names, home folders, addresses, GPU UUIDs and serials, secrets' },
  color: { type: 'string', value: 'WHEN', help: 'colour: always, never or auto (default: auto, a terminal without NO_COLOR)', choices: ['always', 'never', 'auto'] },
  'no-color': { type: 'boolean', help: 'no colour (also NO_COLOR; FORCE_COLOR=1 forces it)' },
  from: { type: 'string', value: 'SNAPSHOT.json', help: 'judge a saved snapshot (or check --json output) instead of this machine', complete: 'file' },
  'no-machine': { type: 'boolean', help: 'judge the input alone, without looking at this machine' },
  root: { type: 'string', value: 'DIR', help: 'read /proc, /sys, /etc and library folders under DIR (an existing folder)', complete: 'dir' },
  'fail-on': { type: 'string', value: 'LEVEL', help: 'error (default) or warn: the lowest severity that makes the exit code 1', choices: ['error', 'warn'] },
  ignore: { type: 'string', multiple: true, value: 'CHECK', help: 'accept the findings of CHECK (a check id, see -v); repeatable; also "ignore" in the config file' },
  config: { type: 'string', value: 'FILE', help: 'the config file (default: $GPU_ENV_DOCTOR_CONFIG, else ./.gpu-env-doctor.json, else ~/.config/gpu-env-doctor/config.json)', complete: 'file' },
  format: { type: 'string', value: 'FORMAT', help: 'text, json or markdown (check also: prometheus, node_exporter textfile metrics)', choices: ['text', 'json', 'markdown', 'prometheus'] },
  timeout: { type: 'string', value: 'SECONDS', help: 'give up on a probe (nvidia-smi, a Python interpreter) after SECONDS (default 10)' },
  deep: {
    type: 'string',
    value: '[=frameworks]',
    help: "--deep: a native cuDNN smoke test (load each framework's CUDA libraries, create cuDNN's handle, run a small convolution: ~1 s); --deep=frameworks: also import each framework and run its own convolution (seconds)",
    choices: ['native', 'frameworks'],
  },
  python: { type: 'string', multiple: true, value: 'PATH', help: 'a Python interpreter to inspect (an existing file); repeatable', complete: 'file' },
  'all-envs': { type: 'boolean', help: 'inspect every conda environment and virtualenv found, not only the active ones' },
  framework: { type: 'string', value: 'NAME', help: 'the framework the log comes from, when the log does not say: tensorflow, pytorch, jax or paddle (preamble: torch, tensorflow or jax)', choices: ['tensorflow', 'pytorch', 'torch', 'jax', 'paddle'] },
  // diff
  all: { type: 'boolean', help: 'also the differences that rarely matter (PIDs, timestamps)' },
  // run
  report: { type: 'string', value: 'FILE', help: 'write the full report to FILE: .json, .md or .html by its extension', complete: 'file' },
  interval: { type: 'string', value: 'N', help: 'run: sample GPU memory every N milliseconds (default 500); procs --watch and serve: every N seconds (default 2; serve --fleet: 30)' },
  'tail-lines': { type: 'string', value: 'N', help: 'keep the last N lines of the output to explain (default 500)' },
  'no-capture': { type: 'boolean', help: "leave the job's stderr on the terminal (nothing is read to explain)" },
  // libs
  pid: { type: 'string', multiple: true, value: 'PID', help: 'also show what process PID really loaded; repeatable' },
  elf: { type: 'string', multiple: true, value: 'FILE', help: 'resolve the libraries of any ELF file; repeatable', complete: 'file' },
  // procs
  watch: { type: 'boolean', help: 'refresh every SECONDS (default 2) until Ctrl-C' },
  count: { type: 'string', value: 'N', help: 'with --watch: stop after N refreshes' },
  gpu: { type: 'string', value: 'LIST', help: 'only processes on these GPUs (indexes or UUIDs, comma-separated)' },
  user: { type: 'string', value: 'NAME', help: 'only processes of this user (a name or a uid)' },
  // fix
  'dry-run': { type: 'boolean', help: 'print the plan only (also implied by --from)' },
  yes: { type: 'boolean', short: 'y', help: 'apply without asking (for scripts); without a terminal, fix refuses unless given' },
  force: { type: 'boolean', help: "as root, also end other users' stale processes" },
  grace: { type: 'string', value: 'SECONDS', help: 'wait this long after SIGTERM before SIGKILL (default 5)' },
  'env-file': { type: 'string', value: 'FILE', help: 'where to write the settings (default ./gpu-env-doctor.env)', complete: 'file' },
  // serve
  port: { type: 'string', value: 'N', help: 'the port to listen on (default 5810; 0 picks a free one)' },
  host: { type: 'string', value: 'ADDR', help: 'the address to listen on (default 127.0.0.1); any other needs a token on every request' },
  'check-interval': { type: 'string', value: 'SECONDS', help: 'how often the checks run (default 60; 0: never)' },
  'token-file': { type: 'string', value: 'FILE', help: 'the token to require (at least 32 characters) instead of a new one', complete: 'file' },
  fleet: { type: 'string', value: 'DIR', help: 'many machines: one row each, from the snapshots in DIR', complete: 'dir' },
  // compat
  platform: { type: 'string', value: 'OS', help: 'linux (default) or windows: whose driver minimum to show', choices: ['linux', 'windows'] },
} as const satisfies Record<string, OptionDef>;

export type OptionName = keyof typeof OPTIONS;

/** What every command takes. */
const BASE: OptionName[] = ['help', 'color', 'no-color'];
/** What the commands that probe this machine take. */
const PROBE: OptionName[] = ['from', 'root', 'timeout', 'python', 'all-envs', 'deep'];

/**
 * The options each command takes, and so honours. Every command that shows machine facts takes `--redact`
 * (test/redact/canary.test.ts fails if one refuses it); preamble prints a fixed script, completion a script.
 */
export const ACCEPTS: Record<string, readonly OptionName[]> = {
  check: [...BASE, ...PROBE, 'verbose', 'quiet', 'json', 'markdown', 'html', 'redact', 'fail-on', 'format', 'ignore', 'config'],
  snapshot: [...BASE, ...PROBE, 'json', 'redact'],
  explain: [...BASE, ...PROBE, 'verbose', 'json', 'markdown', 'html', 'redact', 'no-machine', 'format', 'framework'],
  diff: [...BASE, 'root', 'timeout', 'python', 'all-envs', 'deep', 'verbose', 'json', 'markdown', 'redact', 'format', 'all'],
  run: [...BASE, 'root', 'timeout', 'python', 'all-envs', 'html', 'report', 'redact', 'quiet', 'verbose', 'deep', 'interval', 'tail-lines', 'no-capture'],
  fleet: [...BASE, 'verbose', 'json', 'html', 'redact', 'fail-on', 'format', 'ignore', 'config'],
  libs: [...BASE, ...PROBE, 'verbose', 'json', 'redact', 'fail-on', 'format', 'pid', 'elf'],
  procs: [...BASE, ...PROBE, 'verbose', 'json', 'redact', 'watch', 'interval', 'count', 'gpu', 'user'],
  fix: [...BASE, ...PROBE, 'json', 'redact', 'fail-on', 'dry-run', 'yes', 'force', 'grace', 'env-file', 'ignore', 'config'],
  compat: [...BASE, ...PROBE, 'verbose', 'json', 'redact', 'no-machine', 'platform'],
  preamble: [...BASE, 'framework'],
  completion: [...BASE],
  serve: [...BASE, 'root', 'timeout', 'redact', 'interval', 'port', 'host', 'check-interval', 'token-file', 'fleet'],
};

/** Why a command refuses an option, where there is something better to say than "not supported". */
export const REFUSALS: Record<string, Partial<Record<OptionName, string>>> = {
  run: {
    json: "run's stdout and stderr belong to the job; write the report to a file with --report FILE.json",
    markdown: "run's stdout and stderr belong to the job; write the report to a file with --report FILE.md",
    from: 'run watches the job it starts on this machine; judge a saved snapshot with check --from',
  },
  snapshot: {
    markdown: 'snapshot prints the facts as JSON; a readable report of them: gpu-env-doctor check --from FILE --markdown',
    html: 'snapshot prints the facts as JSON; a readable report of them: gpu-env-doctor check --from FILE --html OUT.html',
  },
  diff: { from: 'diff takes the snapshots as arguments: gpu-env-doctor diff A.json [B.json]', html: 'diff has no HTML report; use --markdown' },
  fleet: { from: 'fleet takes the snapshots as arguments: gpu-env-doctor fleet FILES|DIR', markdown: 'fleet has no Markdown report; use --html FILE' },
  check: { 'no-machine': 'check judges a machine: this one, or a saved snapshot with --from' },
  preamble: { json: 'preamble prints Python code' },
  serve: {
    json: 'it serves a page (its data as JSON at /state.json)',
    markdown: 'it serves a page (its data as JSON at /state.json)',
    html: 'it serves a page (its data as JSON at /state.json)',
    format: 'it serves a page (its data as JSON at /state.json)',
    from: 'it watches this machine (for saved snapshots: --fleet DIR)',
  },
};

export function optionSpec(command: string): OptionSpec {
  const out: OptionSpec = {};
  for (const name of ACCEPTS[command] ?? BASE) {
    const d: OptionDef = OPTIONS[name];
    out[name] = { type: d.type, ...(d.short ? { short: d.short } : {}), ...(d.multiple ? { multiple: true } : {}) };
  }
  return out;
}

/** Every option name the CLI knows (for "did you mean"). */
export function knownOptions(): string[] {
  return Object.keys(OPTIONS);
}
