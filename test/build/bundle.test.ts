// The shipped bundle loads only what a command needs (issue 17): --version reads dist/cli.js alone, and the
// static import closure of each command's chunk leaves out what that command never uses. The closures are read
// from esbuild's own metafile of the real build (scripts/build.mjs), written to a temp folder.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fake-bin.js';
import { TOOL_VERSION } from '../../src/base/tool-version.js';
import { requiredClauses } from '../../src/judge/explain/signatures/literals.js';
import { decodeClauses } from '../../src/judge/explain/catalog/bundled.js';

const repo = path.resolve(__dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string };

interface Meta {
  outputs: Record<
    string,
    {
      imports: { path: string; kind: string; external?: boolean }[];
      inputs: Record<string, unknown>;
      entryPoint?: string;
    }
  >;
}
let out: string;
let meta: Meta;
let explainMeta: Meta;
let fleetWorkerMeta: Meta;

beforeAll(async () => {
  out = tempDir('ged-dist-');
  // @ts-expect-error: a plain .mjs script without types
  const { buildCli } = (await import('../../scripts/build.mjs')) as {
    buildCli: (
      dir: string,
    ) => Promise<{ metafile: Meta; explainTree: { metafile: Meta }; fleetWorker: { metafile: Meta } }>;
  };
  const built = await buildCli(out);
  meta = built.metafile;
  explainMeta = built.explainTree.metafile;
  fleetWorkerMeta = built.fleetWorker.metafile;
}, 60000);

/** Source files reachable from a command's chunk through static imports (what loading the command reads). */
function closureOf(commandFile: string): Set<string> {
  const start = Object.keys(meta.outputs).find((k) => meta.outputs[k]!.entryPoint === commandFile);
  if (!start) throw new Error(`no chunk for ${commandFile}`);
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const i of meta.outputs[f]!.imports)
      if (i.kind === 'import-statement' && !i.external && meta.outputs[i.path]) stack.push(i.path);
  }
  return new Set([...seen].flatMap((f) => Object.keys(meta.outputs[f]!.inputs)));
}
const has = (files: Set<string>, re: RegExp) => [...files].some((f) => re.test(f));
/** the code files of both trees: the shared chunks and explain's own tree */
const codeFiles = () =>
  ['chunks', 'explain-tree'].flatMap((d) =>
    fs
      .readdirSync(path.join(out, d))
      .filter((f) => f.endsWith('.js'))
      .map((f) => path.join(out, d, f)),
  );

describe('the bundle', () => {
  it('--version needs no chunk, and prints the version of package.json', () => {
    const copy = tempDir('ged-dist-copy-');
    fs.copyFileSync(path.join(out, 'cli.js'), path.join(copy, 'cli.js'));
    const r = spawnSync(process.execPath, [path.join(copy, 'cli.js'), '--version'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${pkg.version}\n`);
    expect(TOOL_VERSION).toBe(pkg.version);
    // and the same file without its chunks cannot run a command: the test above is not vacuous
    expect(
      spawnSync(process.execPath, [path.join(copy, 'cli.js'), 'explain', '-'], { encoding: 'utf8', input: 'x' }).status,
    ).not.toBe(0);
  });

  it('explain does not statically load the probes, zod, the XML parser or the report renderers', () => {
    const files = closureOf('src/commands/explain.ts');
    expect(has(files, /src\/judge\/explain\/engine\.ts$/)).toBe(true);
    expect(has(files, /src\/gather\/snapshot\/collect\.ts$/)).toBe(false);
    expect(has(files, /node_modules\/zod\//)).toBe(false);
    expect(has(files, /fast-xml-parser/)).toBe(false);
    expect(has(files, /src\/report\/html\//)).toBe(false);
    expect(has(files, /src\/report\/redact\.ts$/)).toBe(false);
    // the knowledge tables are files read when first asked, not code loaded at start
    expect(has(files, /src\/knowledge\/[a-z-]+\.json$/)).toBe(false);
  });

  it("explain loads the terminal view only for terminal output: --json reads none of the report's block renderer", () => {
    const files = closureOf('src/commands/explain.ts');
    expect(has(files, /src\/report\/views\/explain\/terminal\.ts$/)).toBe(false);
    expect(has(files, /src\/report\/terminal\.ts$/)).toBe(false);
    expect(has(files, /src\/judge\/checks\/check\.ts$/)).toBe(false);
    expect(has(files, /node_modules\/picocolors\//)).toBe(false);
    // still what the one answer of --json needs
    expect(has(files, /src\/report\/views\/explain\/answer\.ts$/)).toBe(true);
  });

  it('the knowledge tables ship as JSON files beside the chunks', () => {
    expect(fs.readdirSync(path.join(out, 'knowledge')).sort()).toEqual(
      fs
        .readdirSync(path.join(repo, 'src/knowledge'))
        .filter((f) => f.endsWith('.json'))
        .sort(),
    );
  });

  it('check starts nvidia-smi before it loads the probes, the checks and the renderer; never zod', () => {
    const files = closureOf('src/commands/check.ts');
    expect(has(files, /src\/gather\/nvidia\/run\.ts$/)).toBe(true);
    // nvidia-smi (~0.1 s on a datacenter GPU) is started first; what needs its answer loads while it works
    expect(has(files, /src\/judge\/checks\/index\.ts$/)).toBe(false);
    expect(has(files, /src\/gather\/snapshot\/collect\.ts$/)).toBe(false);
    expect(has(files, /src\/report\/terminal\.ts$/)).toBe(false);
    expect(has(files, /fast-xml-parser/)).toBe(false);
    expect(has(files, /node_modules\/zod\//)).toBe(false);
    expect(has(files, /src\/judge\/explain\//)).toBe(false);
    expect(has(files, /src\/report\/html\//)).toBe(false);
  });

  it('the library scan is an entry of its own, started by check before it loads the scan itself', () => {
    // dist/libraries-worker.cjs beside dist/cli.js, one CommonJS file (src/gather/libraries/libraries-job.ts names
    // it); the main build has no such entry
    expect(fs.existsSync(path.join(out, 'libraries-worker.cjs'))).toBe(true);
    expect(fs.existsSync(path.join(out, 'libraries-worker.js'))).toBe(false);
    const code = fs.readFileSync(path.join(out, 'libraries-worker.cjs'), 'utf8');
    expect(code).toContain('// src/gather/libraries/inventory.ts');
    expect(code).toContain('// src/gather/libraries/loader.ts');
    expect(code).not.toMatch(/^import\b|\bimport\(/m);
    expect(Object.values(meta.outputs).some((o) => o.entryPoint?.includes('libraries-worker'))).toBe(false);
    const check = closureOf('src/commands/check.ts');
    expect(has(check, /src\/gather\/libraries\/libraries-job\.ts$/)).toBe(true);
    expect(has(check, /src\/gather\/libraries\/(inventory|loader|probe)\.ts$/)).toBe(false);
  });

  it('the message catalogs are JSON files beside the chunks (Chinese read only when asked for), not code', () => {
    const zh = JSON.parse(fs.readFileSync(path.join(out, 'i18n/zh.json'), 'utf8')) as Record<string, string>;
    expect(zh['label.fix']).toBe('修复：');
    const en = JSON.parse(fs.readFileSync(path.join(out, 'i18n/en.json'), 'utf8')) as Record<string, string>;
    expect(en['label.fix']).toBe('Fix:');
    // the English sentences are in no chunk
    const sentence = en['cmd.check.summary']!;
    expect(sentence.length).toBeGreaterThan(20);
    for (const f of codeFiles()) expect(fs.readFileSync(f, 'utf8')).not.toContain(sentence);
    // no chunk holds the Chinese sentences: not as text, nor as \u escapes in either case (esbuild writes upper
    // case; a comment may hold a short label, so a whole sentence is looked for)
    const zhSentence = zh['cmd.check.summary']!;
    expect(zhSentence.length).toBeGreaterThan(10);
    const escape = (upper: boolean) =>
      JSON.stringify(zhSentence)
        .slice(1, -1)
        .replace(/[^\x00-\x7f]/g, (c) => {
          const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
          return `\\u${upper ? hex.toUpperCase() : hex}`;
        });
    const forms = [zhSentence, escape(false), escape(true)];
    expect(new Set(forms).size).toBe(3);
    for (const f of codeFiles()) {
      const code = fs.readFileSync(f, 'utf8');
      for (const form of forms) expect(code).not.toContain(form);
    }
    const log = path.join(repo, 'test/fixtures/h200/logs/conv-keep1200-bs64.txt');
    const zhRun = spawnSync(
      process.execPath,
      [path.join(out, 'cli.js'), 'explain', log, '--no-machine', '--lang', 'zh'],
      { encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1' } },
    );
    expect(zhRun.stdout).toContain('显存');
  });

  it('the explain catalog is a file beside the chunks: a head line (literals, row offsets), then one row per line', () => {
    const text = fs.readFileSync(path.join(out, 'explain/catalog.json'), 'utf8');
    const lines = text.split('\n');
    const head = JSON.parse(lines[0]!) as { literals: (string | null)[]; at: number[]; registry: { count: number } };
    expect(head.literals.length).toBe(lines.length - 1);
    expect(head.at.length).toBe(lines.length);
    expect(head.registry.count).toBeGreaterThan(head.literals.length);
    const base = lines[0]!.length + 1;
    head.literals.forEach((literals, i) => {
      const line = text.slice(base + head.at[i]!, base + head.at[i + 1]! - 1);
      expect(line).toBe(lines[i + 1]);
      const row = JSON.parse(line) as {
        id: string;
        pattern: string;
        anchors: string[];
        literals?: unknown;
        versions?: unknown;
      };
      expect(row.id.length).toBeGreaterThan(0);
      expect(row.anchors.length).toBeGreaterThan(0);
      // the literals are the pattern's clauses, in the head only
      expect(decodeClauses(literals)).toEqual(requiredClauses(row.pattern, 'id'));
      expect(row.literals).toBeUndefined();
      expect(row.versions).toBeUndefined();
    });
    const clauses = head.literals.map(decodeClauses);
    expect(clauses.filter((l) => l !== null).length).toBeGreaterThan(head.literals.length * 0.9);
    // most patterns have more than one mandatory part: a line is tried only when it holds one string of each
    expect(clauses.filter((l) => (l?.length ?? 0) > 1).length).toBeGreaterThan(head.literals.length * 0.5);
  });

  it('fleet and its worker read snapshots with the generated validator; zod is a file apart, for a refusal', () => {
    // the worker thread's file holds all of its code: it imports no chunk
    const [workerFile, ...others] = Object.keys(fleetWorkerMeta.outputs).filter((f) => f.endsWith('.js'));
    expect(workerFile).toMatch(/entries\/fleet-worker\.js$/);
    expect(others).toEqual([]);
    expect(fleetWorkerMeta.outputs[workerFile!]!.imports.filter((i) => !i.external)).toEqual([]);
    const workerFiles = new Set(Object.keys(fleetWorkerMeta.outputs[workerFile!]!.inputs));
    expect(has(workerFiles, /src\/judge\/fleet\/merge\.ts$/)).toBe(true);
    expect(Object.values(meta.outputs).some((o) => o.entryPoint?.includes('fleet/worker'))).toBe(false);
    for (const files of [closureOf('src/commands/fleet.ts'), workerFiles]) {
      expect(has(files, /src\/gather\/snapshot\/validate\.generated\.ts$/)).toBe(true);
      expect(has(files, /node_modules\/zod\//)).toBe(false);
      expect(has(files, /src\/gather\/snapshot\/schema\.ts$/)).toBe(false);
    }
    // what one output or --redact needs is loaded when asked: `fleet --json` loads none of it
    const fleet = closureOf('src/commands/fleet.ts');
    for (const re of [/src\/report\/views\/fleet(-html)?\.ts$/, /src\/report\/html\//, /src\/report\/redact\.ts$/])
      expect(has(fleet, re), String(re)).toBe(false);
    expect(has(fleet, /src\/judge\/fleet\/merge\.ts$/)).toBe(true);
    // zod's verdict, required from dist/snapshot-zod.cjs (CommonJS, zod and the schema inside) when first asked
    const zod = fs.readFileSync(path.join(out, 'snapshot-zod.cjs'), 'utf8');
    expect(zod).toContain('// src/gather/snapshot/schema.ts');
    expect(zod).toContain('// node_modules/zod/');
    expect(zod).not.toMatch(/^import\b/m);
    expect(codeFiles().filter((f) => fs.readFileSync(f, 'utf8').includes('"../snapshot-zod.cjs"')).length).toBe(2);
  });
});

describe("explain's own tree (dist/explain-tree/)", () => {
  const log = path.join(repo, 'test/fixtures/h200/logs/conv-keep1200-bs64.txt');
  const snapshot = path.join(repo, 'test/fixtures/snapshots/h200-full-held.json');
  const env = { PATH: process.env.PATH, NO_COLOR: '1', LANG: 'C.UTF-8', COLUMNS: '80' };
  const run = (cli: string, args: string[]) => {
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('holds start, the explain command, its engine and terminal view in one file that imports only built-ins', () => {
    const entry = Object.keys(explainMeta.outputs).find(
      (k) => explainMeta.outputs[k]!.entryPoint === 'src/cli/explain-start.ts',
    )!;
    expect(path.resolve(repo, entry)).toBe(path.join(out, 'explain-tree/start.js'));
    const seen = new Set<string>();
    const stack = [entry];
    while (stack.length > 0) {
      const f = stack.pop()!;
      if (seen.has(f)) continue;
      seen.add(f);
      for (const i of explainMeta.outputs[f]!.imports)
        if (i.kind === 'import-statement' && !i.external && explainMeta.outputs[i.path]) stack.push(i.path);
    }
    const inputs = new Set([...seen].flatMap((f) => Object.keys(explainMeta.outputs[f]!.inputs)));
    for (const re of [
      /src\/cli\/main\.ts$/,
      /src\/commands\/explain\.ts$/,
      /src\/judge\/explain\/engine\.ts$/,
      /src\/report\/views\/explain\/terminal\.ts$/,
    ])
      expect(has(inputs, re)).toBe(true);
    // what explain leaves to its dynamic imports stays out, as in the shared chunks
    for (const re of [
      /src\/gather\/snapshot\/collect\.ts$/,
      /node_modules\/zod\//,
      /fast-xml-parser/,
      /src\/report\/html\//,
    ])
      expect(has(inputs, re)).toBe(false);
    // merged: the file itself loads no other file of the bundle when it loads (as CommonJS, the tree's imports are
    // its top-level requires: scripts/build.mjs treeAsCommonJs)
    const text = fs.readFileSync(path.join(out, 'explain-tree/start.js'), 'utf8');
    expect(JSON.parse(fs.readFileSync(path.join(out, 'explain-tree/package.json'), 'utf8'))).toEqual({
      type: 'commonjs',
    });
    const imported = [...text.matchAll(/^var \w+ = require\("([^"]+)"\);/gm)].map((m) => m[1]!);
    expect(imported.length).toBeGreaterThan(0);
    expect(imported.filter((s) => !s.startsWith('node:'))).toEqual([]);
    // what it loads later, by the same name it had as an ES module
    expect(text).toMatch(/__toESM\(require\("\.\/terminal-\w+\.js"\)\)/);
  });

  it('cli.js runs explain from that tree alone, and the other commands from the shared chunks alone', () => {
    const whole = path.join(out, 'cli.js');
    const explainArgs = [
      ['explain', log, '--no-machine'],
      ['explain', log, '--no-machine', '--json'],
      ['--lang', 'zh', 'explain', log, '--no-machine'],
    ];
    const checkArgs = [['check', '--from', snapshot, '--json'], ['libs', '--from', snapshot], ['--help']];
    const withoutChunks = tempDir('ged-dist-no-chunks-');
    fs.cpSync(out, withoutChunks, { recursive: true });
    fs.rmSync(path.join(withoutChunks, 'chunks'), { recursive: true });
    for (const args of explainArgs) {
      const expected = run(whole, args);
      expect(expected.status).toBe(1);
      expect(expected.stdout.length).toBeGreaterThan(100);
      expect(run(path.join(withoutChunks, 'cli.js'), args)).toEqual(expected);
    }
    const withoutTree = tempDir('ged-dist-no-explain-tree-');
    fs.cpSync(out, withoutTree, { recursive: true });
    fs.rmSync(path.join(withoutTree, 'explain-tree'), { recursive: true });
    for (const args of checkArgs) {
      const expected = run(whole, args);
      expect(expected.stdout.length).toBeGreaterThan(100);
      expect(run(path.join(withoutTree, 'cli.js'), args)).toEqual(expected);
    }
    // and the tree is not optional for explain: without it, cli.js cannot run explain (the test above is not vacuous)
    const broken = run(path.join(withoutTree, 'cli.js'), explainArgs[0]!);
    expect(broken.stdout).toBe('');
    expect(broken.stderr).toContain('explain-tree/start.js');
  });

  it('gives what the shared chunks give, for explain and for the other commands', () => {
    const driver = path.join(tempDir('ged-tree-driver-'), 'driver.mjs');
    fs.writeFileSync(driver, 'const { start } = await import(process.argv[2]);\nstart(process.argv.slice(3));\n');
    const sharedStart = Object.keys(meta.outputs).find((k) => meta.outputs[k]!.entryPoint === 'src/cli/start.ts')!;
    const trees = [path.resolve(repo, sharedStart), path.join(out, 'explain-tree/start.js')];
    for (const args of [
      ['explain', log, '--no-machine'],
      ['explain', log, '--no-machine', '--format', 'markdown'],
      ['explain', log, '--no-machine', '--lang', 'zh', '--json'],
      ['check', '--from', snapshot],
      ['check', '--from', snapshot, '--json'],
      ['libs', '--from', snapshot, '--lang', 'zh'],
      ['help', 'explain'],
    ]) {
      const [a, b] = trees.map((t) => run(driver, [t, ...args]));
      expect(a!.stdout.length).toBeGreaterThan(100);
      expect(b).toEqual(a);
    }
  });
});
