// main(): dispatch to a command, and the one error boundary that turns any internal error
// into a one-line message with exit code 2 and a pre-filled bug report (stack only with -v).
import { UsageError } from '../core/errors.js';
import { COMMANDS } from '../commands/registry.js';
import { parseCommandArgs } from './args.js';
import type { Context } from './context.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';

export async function main(argv: readonly string[], ctx: Context): Promise<number> {
  const verbose = argv.includes('-v') || argv.includes('--verbose');
  try {
    const first = argv[0];
    if (first === '--version' || first === 'version') {
      ctx.stdout.write(`${TOOL_VERSION}\n`);
      return 0;
    }
    if (first === 'help' || ((first === '--help' || first === '-h') && argv.length === 1)) {
      ctx.stdout.write(globalHelp());
      return 0;
    }
    const named = first !== undefined && !first.startsWith('-');
    const name = named ? first : 'check';
    const entry = COMMANDS[name];
    if (!entry) throw new UsageError(`unknown command "${name}" (see ${TOOL_NAME} --help)`);
    const { command } = await entry.load();
    const args = parseCommandArgs(named ? argv.slice(1) : argv, command.options);
    if (args.values.help === true) {
      ctx.stdout.write(`${command.usage}\n`);
      return 0;
    }
    return await command.run(ctx, args);
  } catch (err) {
    if (err instanceof UsageError) {
      ctx.stderr.write(`${TOOL_NAME}: ${err.message}\n`);
      return err.exitCode;
    }
    const e = err instanceof Error ? err : new Error(String(err));
    ctx.stderr.write(`${TOOL_NAME}: internal error: ${e.message.split('\n')[0]}\n`);
    ctx.stderr.write(
      `This is a bug in ${TOOL_NAME} ${TOOL_VERSION}. Please report it with: the command you ran, ` +
        `Node ${process.version} on ${process.platform}-${process.arch}, and the output of the same command with -v.\n`,
    );
    if (verbose && e.stack) ctx.stderr.write(`${e.stack}\n`);
    return 2;
  }
}

function globalHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(width)}  ${c.summary}`);
  return `${TOOL_NAME} ${TOOL_VERSION}: why your GPU deep-learning job failed, and how to fix it.

Usage: ${TOOL_NAME} [COMMAND] [OPTIONS]

Commands:
${lines.join('\n')}

Common options:
  --json              only JSON on stdout
  --from FILE         judge a saved snapshot (or check --json output) instead of this machine
  --root DIR          read /proc, /sys, /etc and library folders under DIR
  --fail-on LEVEL     error (default) or warn: the lowest severity that makes the exit code 1
  -v, --verbose       every fact, and how long each probe took
  --markdown          a report to paste into a GitHub issue
  --html FILE         a self-contained HTML report
  --redact            hide user and host names, home folders, addresses, GPU UUIDs and serials, secrets
  --no-color          no colour (also NO_COLOR)

Exit codes: 0 nothing at or above --fail-on, 1 findings at or above it, 2 usage error or failure of the tool.
`;
}
