#!/usr/bin/env node
// Runs the MCP conformance package's server scenarios against `gpu-env-doctor mcp`. The server speaks stdio (what
// agents start); the conformance runner connects over HTTP, so a loopback bridge here relays each JSON-RPC message
// to one running `node dist/cli.js mcp` and returns its answer as the HTTP response (Streamable HTTP with JSON
// responses, no server-sent stream). Only the scenarios that apply to a server with tools and resources are run:
// the others test the reference "everything" server's own tools, prompts and subscriptions.
// The runner needs Node 22 and its own dependencies: it is installed from the npm registry into a temporary folder,
// and run with the Node 22 binary that scripts/sea/build.mjs caches (dist/sea/cache) or --node FILE.
//   node scripts/mcp-conformance.mjs [--node FILE]     (after npm run build; GED_SCENARIOS=a,b picks others)
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONFORMANCE = '@modelcontextprotocol/conformance@0.1.16';
const SCENARIOS = process.env.GED_SCENARIOS?.split(',') ?? [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
];

const argv = process.argv.slice(2);
const nodeArg = argv.includes('--node') ? argv[argv.indexOf('--node') + 1] : undefined;
const node22 =
  nodeArg ??
  fs
    .readdirSync(path.join(repo, 'dist/sea/cache'))
    .filter((n) => /^node-22\.[\d.]+-linux-x64$/.test(n))
    .map((n) => path.join(repo, 'dist/sea/cache', n))
    .at(-1);
if (!node22) {
  console.error(
    'conformance: no Node 22 binary: run node scripts/sea/build.mjs once (it caches one) or give --node FILE',
  );
  process.exit(2);
}

// the server under test, on stdio
const child = spawn(process.execPath, [path.join(repo, 'dist/cli.js'), 'mcp'], { stdio: ['pipe', 'pipe', 'inherit'] });
const pending = new Map();
readline.createInterface({ input: child.stdout }).on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.id !== undefined && pending.has(msg.id) && (msg.result !== undefined || msg.error !== undefined)) {
    pending.get(msg.id)(msg);
    pending.delete(msg.id);
  }
});

const bridge = http.createServer((req, res) => {
  if (req.url !== '/mcp') return void res.writeHead(404).end();
  if (req.method !== 'POST') return void res.writeHead(405, { Allow: 'POST' }).end();
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', async () => {
    if (process.env.GED_BRIDGE_DEBUG) console.error('bridge <-', req.method, body.slice(0, 200));
    let msg;
    try {
      msg = JSON.parse(body);
    } catch {
      return void res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }));
    }
    const messages = Array.isArray(msg) ? msg : [msg];
    const answers = messages
      .filter((m) => m.method !== undefined && m.id !== undefined)
      .map((m) => new Promise((resolve) => pending.set(m.id, resolve)));
    for (const m of messages) child.stdin.write(`${JSON.stringify(m)}\n`);
    if (answers.length === 0) return void res.writeHead(202).end();
    const out = await Promise.all(answers);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(msg) ? out : out[0]));
  });
});
await new Promise((r) => bridge.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${bridge.address().port}/mcp`;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-conformance-'));
let failed = 0;
try {
  execFileSync('npm', ['init', '-y'], { cwd: tmp, stdio: 'ignore' });
  execFileSync('npm', ['install', '--silent', '--no-audit', '--no-fund', CONFORMANCE], { cwd: tmp, stdio: 'inherit' });
  const runner = path.join(tmp, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  for (const scenario of SCENARIOS) {
    // asynchronously: the bridge answers from this same process while the runner runs
    const out = await new Promise((resolve) => {
      const p = spawn(node22, [runner, 'server', '--url', url, '--scenario', scenario], {
        cwd: tmp,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      p.stdout.on('data', (c) => (text += c));
      p.stderr.on('data', (c) => (text += c));
      const timer = setTimeout(() => p.kill('SIGKILL'), 60000);
      p.on('close', () => {
        clearTimeout(timer);
        resolve(text);
      });
    });
    // the runner's own summary: "Passed: N/M, K failed, W warnings", then the failed checks
    const m = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(out);
    if (!m || Number(m[2]) === 0) failed++;
    else failed += Number(m[3]);
    console.log(`${scenario}: ${m ? `${m[1]}/${m[2]} checks passed, ${m[3]} failed` : 'no result'}`);
    if (!m) console.log(out.slice(-600));
    if (!m || Number(m[3]) > 0)
      console.log(
        out
          .split('\n')
          .filter((l) => /^\s+(-|Error:)/.test(l))
          .join('\n'),
      );
  }
} finally {
  bridge.close();
  child.stdin.end();
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(failed === 0 ? 0 : 1);
