// The MCP server behind `gpu-env-doctor mcp` (see commands/mcp.ts): the official SDK over stdio. Each tool call
// runs the CLI once through the process runner and returns its JSON as structured content; a usage error of the
// CLI (exit 2) is a tool error with the CLI's one line. Findings pages (docs/findings/*.md) are resources.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import type { Context } from '../../ports/context.js';
import { MCP_TOOLS, toolArgv, type McpServerOptions, type ToolInput } from '../mcp.js';
import { TOOL_NAME, TOOL_VERSION } from '../../base/tool-version.js';
import { UsageError } from '../../base/errors.js';
import { listAssetDir, readAssetText } from '../../ports/assets.js';

/** what a tool's run may take: a `check` reads nvidia-smi and every library; `explain` of a big log streams it */
const TOOL_TIMEOUT_MS = 120_000;
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

const from = z.string().optional().describe('a saved snapshot (JSON file) to judge instead of this machine');
const TOOL_DEFS: Record<(typeof MCP_TOOLS)[number], { title: string; description: string; input: z.ZodRawShape }> = {
  check: {
    title: 'Check this GPU machine',
    description:
      'Inspects this machine (GPUs, driver, who holds GPU memory, which CUDA/cuDNN each framework loads, versions) ' +
      'and returns findings with evidence and fixes, as `gpu-env-doctor check --json`.',
    input: { from, verbose: z.boolean().optional().describe('include the checks that passed, with details') },
  },
  explain: {
    title: 'Explain a GPU error log',
    description:
      'Ranks the root causes of a deep-learning GPU error (CUDA out of memory, cuDNN failed to initialize, no kernel ' +
      'image, driver too old, …) with evidence lines and the fix, as `gpu-env-doctor explain --json`. Give the log ' +
      'text or a file path.',
    input: {
      text: z.string().optional().describe('the error log or traceback text'),
      file: z.string().optional().describe('a log file on this machine'),
      noMachine: z.boolean().optional().describe('judge the log alone, without looking at this machine'),
      from,
    },
  },
  procs: {
    title: 'GPU processes',
    description:
      'Who holds GPU memory, since when, and whether each holder is stale, as `gpu-env-doctor procs --json`.',
    input: { from },
  },
  libs: {
    title: 'CUDA libraries each framework loads',
    description:
      'Which copy of each CUDA library (cuDNN, cuBLAS, the CUDA runtime) every framework would load and why, as ' +
      '`gpu-env-doctor libs --json`.',
    input: { from },
  },
  compat: {
    title: 'What a framework version needs',
    description:
      'CUDA, cuDNN, driver, Python and GPU architectures a framework version needs (e.g. torch==2.4.0+cu121, ' +
      'tensorflow==2.15, jax==0.4.30), and whether this machine has them, as `gpu-env-doctor compat SPEC --json`.',
    input: {
      spec: z.string().describe('a framework version, e.g. torch==2.4.0+cu121'),
      noMachine: z.boolean().optional(),
      from,
    },
  },
  snapshot: {
    title: 'Machine facts',
    description: 'Every fact the probes gather (the Snapshot) as one JSON document, as `gpu-env-doctor snapshot`.',
    input: { from },
  },
  fix_plan: {
    title: 'The fix plan (dry run)',
    description:
      'What `gpu-env-doctor fix` would do about the findings (processes to end, settings to write, steps for the ' +
      'user), without doing any of it: `fix --dry-run --json`. Nothing is changed.',
    input: { from },
  },
};

export async function serveMcp(
  ctx: Context,
  options: McpServerOptions,
  self: { command: string; prefix: string[] },
): Promise<void> {
  const server = new McpServer(
    { name: TOOL_NAME, version: TOOL_VERSION },
    { capabilities: { tools: {}, resources: {} } },
  );
  for (const name of MCP_TOOLS) {
    const def = TOOL_DEFS[name];
    server.registerTool(
      name,
      {
        title: def.title,
        description: def.description,
        inputSchema: def.input,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async (input: ToolInput) => {
        let call: ReturnType<typeof toolArgv>;
        try {
          call = toolArgv(name, input, options);
        } catch (e) {
          if (e instanceof UsageError) return { isError: true, content: [{ type: 'text', text: e.message }] };
          throw e;
        }
        const r = await ctx.runner.run(self.command, [...self.prefix, ...call.argv], {
          timeoutMs: TOOL_TIMEOUT_MS,
          maxBytes: MAX_OUTPUT_BYTES,
          ...(call.stdin !== undefined ? { input: call.stdin } : {}),
          env: { ...ctx.env, NO_COLOR: '1' },
          cwd: ctx.cwd,
        });
        const stdout = r.kind === 'ok' || r.kind === 'non-zero' ? r.stdout : '';
        const code = r.kind === 'ok' ? 0 : r.kind === 'non-zero' ? r.code : null;
        // 0 and 1 carry a report (1: findings at or above --fail-on); anything else is the tool failing
        if (code === 0 || code === 1) {
          try {
            const data = JSON.parse(stdout) as Record<string, unknown>;
            return { structuredContent: data, content: [{ type: 'text', text: stdout }] };
          } catch {
            /* not JSON: reported below */
          }
        }
        const stderr = 'stderr' in r ? r.stderr.trim() : '';
        const why =
          stderr ||
          (r.kind === 'timeout'
            ? `timed out after ${TOOL_TIMEOUT_MS / 1000} s`
            : r.kind === 'signal'
              ? `killed by ${r.signal}`
              : `exit ${code ?? r.kind}`);
        return { isError: true, content: [{ type: 'text', text: `${TOOL_NAME} ${call.argv[0]}: ${why}` }] };
      },
    );
  }
  for (const page of findingsPages()) {
    server.registerResource(
      page.id,
      `gpu-env-doctor://findings/${page.id}`,
      {
        title: page.title,
        description: `What the finding ${page.id} means and how to fix it`,
        mimeType: 'text/markdown',
      },
      async (uri) => ({
        contents: [{ uri: uri.href, mimeType: 'text/markdown', text: readAssetText(page.url) }],
      }),
    );
  }
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}

interface Page {
  id: string;
  title: string;
  url: URL;
}

/** docs/findings/*.md beside the installed program (the npm package and the single executable ship them) */
function findingsPages(): Page[] {
  // relative to the bundle's chunk (dist/chunks/), not to this source file: docs/ sits beside dist/
  const dir = new URL('../../docs/findings/', import.meta.url);
  const out: Page[] = [];
  for (const name of listAssetDir(dir)) {
    if (!/^[a-z0-9][a-z0-9.-]*\.md$/.test(name) || name === 'README.md') continue;
    const url = new URL(name, dir);
    const first = readAssetText(url).split('\n', 1)[0] ?? '';
    out.push({ id: name.slice(0, -3), title: first.replace(/^#\s*/, '') || name, url });
  }
  return out;
}
