// `gpu-env-doctor mcp` driven by the official SDK's own client over stdio, as a coding agent drives it: every tool
// called, the answers compared with the CLI's --json for the same input, --redact kept, errors as tool errors.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli';

const repo = path.resolve(__dirname, '../..');
const HELD = path.join(repo, 'examples/snapshots/h200-orphan-held.json');
const LOGS = path.join(repo, 'test/fixtures/h200/logs');

async function connect(extra: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...extra],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NO_COLOR: '1' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

type Structured = Record<string, unknown>;
const structured = (r: unknown): Structured => (r as { structuredContent: Structured }).structuredContent;

describe('mcp: the SDK client over stdio', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  }, 30000);
  afterAll(async () => {
    await client?.close();
  });

  it('lists the seven read-only tools and says they are read-only', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'check',
      'compat',
      'explain',
      'fix_plan',
      'libs',
      'procs',
      'snapshot',
    ]);
    for (const t of tools) expect(t.annotations?.readOnlyHint).toBe(true);
  });

  it('explain returns the causes the CLI gives, for every H200 log (text and file)', async () => {
    for (const name of fs.readdirSync(LOGS)) {
      const file = path.join(LOGS, name);
      const cli = JSON.parse(runCli(['explain', file, '--json', '--no-machine']).stdout) as {
        causes: { id: string; confidence: number }[];
      };
      const byText = structured(
        await client.callTool({ name: 'explain', arguments: { text: fs.readFileSync(file, 'utf8'), noMachine: true } }),
      );
      const byFile = structured(await client.callTool({ name: 'explain', arguments: { file, noMachine: true } }));
      const ids = (d: Structured) =>
        (d.causes as { id: string; confidence: number }[]).map((c) => `${c.id}:${c.confidence}`);
      expect(ids(byText), name).toEqual(cli.causes.map((c) => `${c.id}:${c.confidence}`));
      expect(ids(byFile), name).toEqual(ids(byText));
    }
  }, 120000);

  it('check, procs, libs, snapshot and fix_plan answer from a saved snapshot as the CLI does', async () => {
    const check = structured(await client.callTool({ name: 'check', arguments: { from: HELD } }));
    const cliCheck = JSON.parse(runCli(['check', '--from', HELD, '--json']).stdout) as {
      findings: { check: string; status: string }[];
    };
    expect((check.findings as { check: string; status: string }[]).map((f) => `${f.check}:${f.status}`)).toEqual(
      cliCheck.findings.map((f) => `${f.check}:${f.status}`),
    );
    const procs = structured(await client.callTool({ name: 'procs', arguments: { from: HELD } }));
    expect(JSON.stringify(procs)).toContain('"pid":461');
    const libs = structured(await client.callTool({ name: 'libs', arguments: { from: HELD } }));
    expect(Array.isArray(libs.consumers)).toBe(true);
    const snap = structured(await client.callTool({ name: 'snapshot', arguments: { from: HELD } }));
    expect(snap.schemaVersion).toBe(1);
    const plan = structured(await client.callTool({ name: 'fix_plan', arguments: { from: HELD } }));
    expect(JSON.stringify(plan)).toContain('461');
  }, 60000);

  it('compat answers a spec; a bad call is a tool error with the CLI one line, not a crash', async () => {
    const compat = structured(
      await client.callTool({ name: 'compat', arguments: { spec: 'torch==2.4.0+cu121', noMachine: true } }),
    );
    expect(compat.framework).toBe('torch');
    const bad = (await client.callTool({
      name: 'compat',
      arguments: { spec: 'nosuchframework==1', noMachine: true },
    })) as { isError?: boolean; content: { text: string }[] };
    expect(bad.isError).toBe(true);
    expect(bad.content[0]?.text).toMatch(/^gpu-env-doctor compat: /);
    const neither = (await client.callTool({ name: 'explain', arguments: {} })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(neither.isError).toBe(true);
    expect(neither.content[0]?.text).toContain('exactly one of text or file');
  }, 60000);

  it('the findings pages are resources', async () => {
    const { resources } = await client.listResources();
    const held = resources.find((r) => r.uri === 'gpu-env-doctor://findings/memory.holders');
    expect(held?.mimeType).toBe('text/markdown');
    const page = await client.readResource({ uri: 'gpu-env-doctor://findings/memory.holders' });
    expect((page.contents[0] as { text: string }).text).toBe(
      fs.readFileSync(path.join(repo, 'docs/findings/memory.holders.md'), 'utf8'),
    );
  });
});

describe('mcp --redact', () => {
  it('nothing it returns bypasses --redact: the host name and the GPU UUID of the snapshot are replaced', async () => {
    const client = await connect(['--redact']);
    try {
      const uuid = /"uuid": *"(GPU-[0-9a-f-]+)"/.exec(fs.readFileSync(HELD, 'utf8'))?.[1];
      expect(uuid).toBeTruthy();
      // without --redact the same calls carry it (so the check below can fail)
      const plain = await connect();
      expect(JSON.stringify(await plain.callTool({ name: 'snapshot', arguments: { from: HELD } }))).toContain(uuid);
      await plain.close();
      for (const name of ['check', 'procs', 'snapshot', 'fix_plan', 'libs'] as const) {
        const text = JSON.stringify(await client.callTool({ name, arguments: { from: HELD } }));
        expect(text, name).not.toContain(uuid);
        expect(text, name).not.toMatch(/\\"name\\": *\\"vm\\"/);
      }
    } finally {
      await client.close();
    }
  }, 60000);
});
