// Node's built-in modules in the bundle (scripts/build.mjs builtinsPlugin): each an ES module whose exports are
// read one by one from require()'s object, so that esbuild keeps only the names the code reads, and nothing copies
// a module's properties at start. A name the module lacks, or a module used whole, fails the build.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fake-bin.js';

// @ts-expect-error: a plain .mjs script without types
import * as buildScript from '../../scripts/build.mjs';

type Warning = { id?: string; text: string; location?: { file?: string; line?: number } | null };
const { builtinModuleSource, builtinProblems, builtinsPlugin, REQUIRE_BANNER } = buildScript as {
  REQUIRE_BANNER: string;
  builtinModuleSource: (name: string, mod: object) => string;
  builtinProblems: (warnings: Warning[], outputs: { path: string; text: string }[]) => string[];
  builtinsPlugin: object;
};

/** `files` bundled with the plugin (code splitting, as the real build); the outputs' text and the problems found */
async function bundle(files: Record<string, string>): Promise<{ dir: string; texts: string[]; problems: string[] }> {
  const dir = tempDir('ged-builtins-');
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const r = await build({
    absWorkingDir: dir,
    entryPoints: Object.keys(files).filter((f) => f.startsWith('entry')),
    outdir: path.join(dir, 'out'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    banner: { js: REQUIRE_BANNER },
    plugins: [builtinsPlugin as never],
    logLevel: 'silent',
    write: false,
  });
  for (const f of r.outputFiles) {
    fs.mkdirSync(path.dirname(f.path), { recursive: true });
    fs.writeFileSync(f.path, f.text);
  }
  const outputs = r.outputFiles.map((f) => ({ path: f.path, text: f.text }));
  return { dir, texts: outputs.map((o) => o.text), problems: builtinProblems(r.warnings as Warning[], outputs) };
}

describe("Node's built-in modules in the bundle", () => {
  it('each name of the module is an export of its own, read from the required module', () => {
    const src = builtinModuleSource('node:fs', fs);
    expect(src).toContain('process.getBuiltinModule?.("node:fs") ?? require("node:fs")');
    expect(src).toContain('export default $$mod;');
    expect(src).toMatch(/^export const readFileSync = \/\* @__PURE__ \*\/ \$\$get\("readFileSync"\);$/m);
    // accessors too (node:fs's promises): read only where the code reads them
    expect(src).toMatch(/^export const promises = /m);
  });

  it('keeps only the names read, copies nothing, and the bundle runs as the source does', async () => {
    const { dir, texts, problems } = await bundle({
      'entry-a.ts': [
        "import * as nfs from 'node:fs';",
        "import { join } from 'node:path';",
        "import * as os from 'node:os';",
        'const a = nfs.readFileSync(new URL(import.meta.url), "utf8").length > 0;',
        'console.log(a, join("x", "y"), typeof os.tmpdir());',
      ].join('\n'),
      'entry-b.ts': "import * as nfs from 'node:fs';\nconsole.log(typeof nfs.statSync);\n",
    });
    expect(problems).toEqual([]);
    const all = texts.join('\n');
    expect(all).toContain('$$get("readFileSync")');
    expect(all).toContain('$$get("statSync")');
    // names nobody reads are dropped, and no namespace copy remains
    expect(all).not.toContain('$$get("writeFileSync")');
    expect(all).not.toContain('$$get("promises")');
    expect(all).not.toMatch(/__toESM|__copyProps/);
    const run = (e: string) =>
      spawnSync(process.execPath, [path.join(dir, 'out', e)], { encoding: 'utf8' }).stdout.trim();
    expect(run('entry-a.js')).toBe('true x/y string');
    expect(run('entry-b.js')).toBe('function');
  });

  it('a name the module lacks fails the build', async () => {
    const { problems } = await bundle({
      'entry-a.ts': "import * as nfs from 'node:fs';\nconsole.log((nfs as any).noSuchThing);\n",
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('noSuchThing');
  });

  it('a module used whole (its namespace as a value) fails the build', async () => {
    const { problems } = await bundle({
      'entry-a.ts': "import * as nfs from 'node:fs';\nexport const all = () => nfs;\n",
    });
    expect(problems.join('\n')).toMatch(/kept whole \(node_fs_exports\)/);
  });

  it('the real build reads no built-in through a CommonJS wrapper', () => {
    const dist = path.resolve(__dirname, '../../dist');
    const files = [
      path.join(dist, 'cli.js'),
      ...fs.readdirSync(path.join(dist, 'chunks')).map((f) => path.join(dist, 'chunks', f)),
    ];
    for (const f of files) expect(fs.readFileSync(f, 'utf8')).not.toMatch(/require_node_\w+|builtin:node:\w+"\(/);
  });
});
