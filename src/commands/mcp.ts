// `mcp`: a Model Context Protocol server on standard input/output, for coding agents. Its tools are read-only:
// each runs this same CLI as a child process (argv, never a shell) with --json and hands back that JSON as the
// tool's structured output, so an agent gets exactly what `gpu-env-doctor CMD --json` prints, --redact included
// when the server was started with it. `fix` is offered only as its dry-run plan. The findings pages are resources.
import { createRequire } from 'node:module';
import { UsageError } from '../base/errors.js';
import { optionSpec } from '../cli/options.js';
import type { ParsedArgs } from '../cli/args.js';
import type { Command } from '../cli/registry.js';
import { t } from '../base/i18n/index.js';

/** the tools: name → the CLI arguments they run (before --json and the server's own flags) */
export const MCP_TOOLS = ['check', 'explain', 'procs', 'libs', 'compat', 'snapshot', 'fix_plan'] as const;

/** a tool's input, as the agent gives it */
export interface ToolInput {
  from?: string;
  text?: string;
  file?: string;
  spec?: string;
  noMachine?: boolean;
  verbose?: boolean;
}

/** The CLI arguments of a tool call (pure: tested without a server). */
export function toolArgv(
  tool: (typeof MCP_TOOLS)[number],
  input: ToolInput,
  server: { redact: boolean; root?: string; timeout?: string },
): { argv: string[]; stdin?: string } {
  const from = input.from ? ['--from', input.from] : [];
  const common = [
    ...(server.redact ? ['--redact'] : []),
    ...(server.root ? ['--root', server.root] : []),
    ...(server.timeout ? ['--timeout', server.timeout] : []),
  ];
  switch (tool) {
    case 'check':
      return { argv: ['check', '--json', ...(input.verbose ? ['-v'] : []), ...from, ...common] };
    case 'explain': {
      if ((input.text === undefined) === (input.file === undefined))
        throw new UsageError('explain needs exactly one of text or file');
      const machine = input.noMachine ? ['--no-machine'] : from;
      return input.text !== undefined
        ? { argv: ['explain', '-', '--json', ...machine, ...common], stdin: input.text }
        : { argv: ['explain', input.file as string, '--json', ...machine, ...common] };
    }
    case 'procs':
      return { argv: ['procs', '--json', ...from, ...common] };
    case 'libs':
      return { argv: ['libs', '--json', ...from, ...common] };
    case 'compat':
      if (!input.spec) throw new UsageError('compat needs a spec such as torch==2.4.0+cu121');
      return { argv: ['compat', input.spec, '--json', ...(input.noMachine ? ['--no-machine'] : from), ...common] };
    case 'snapshot':
      return { argv: ['snapshot', ...from, ...common] };
    case 'fix_plan':
      return { argv: ['fix', '--dry-run', '--json', ...from, ...common] };
  }
}

/** How this program runs itself: the single executable takes the arguments directly, Node takes the script first. */
function selfCommand(): { command: string; prefix: string[] } {
  let sea = false;
  try {
    sea = (createRequire(import.meta.url)('node:sea') as { isSea(): boolean }).isSea();
  } catch {
    /* a Node without node:sea: not a single executable */
  }
  if (sea) return { command: process.execPath, prefix: [] };
  return { command: process.execPath, prefix: [new URL('../cli.js', import.meta.url).pathname] };
}

export const command: Command = {
  name: 'mcp',
  get summary() {
    return t('cmd.mcp.summary');
  },
  synopsis: 'mcp [--redact]',
  get description() {
    return t('cmd.mcp.description');
  },
  get examples(): [string, string][] {
    return [
      ['gpu-env-doctor mcp', t('cmd.mcp.example1')],
      ['claude mcp add gpu-env-doctor -- gpu-env-doctor mcp --redact', t('cmd.mcp.example2')],
    ];
  },
  get exitCodes() {
    return t('cmd.mcp.exitCodes');
  },
  options: optionSpec('mcp'),
  async run(ctx, args) {
    if (args.positionals.length > 0) throw new UsageError(t('usage.mcp.noArgs', { arg: args.positionals[0] ?? '' }));
    const { serveMcp } = await import('./mcp/server.js');
    await serveMcp(ctx, serverOptions(args), selfCommand());
    return 0;
  },
};

function serverOptions(args: ParsedArgs): { redact: boolean; root?: string; timeout?: string } {
  const o = args.values;
  const root = typeof o.root === 'string' ? o.root : undefined;
  const timeout = o.timeout !== undefined ? String(o.timeout) : undefined;
  return { redact: o.redact === true, ...(root ? { root } : {}), ...(timeout ? { timeout } : {}) };
}

export type McpServerOptions = ReturnType<typeof serverOptions>;
