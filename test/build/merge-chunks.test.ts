// The chunks that always load together become one file (scripts/lib/merge-chunks.mjs): the rule on esbuild's
// metafile (which chunks may merge, which never), then a real split build merged in place, run before and after.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fake-bin.js';

// @ts-expect-error: a plain .mjs script without types
import * as merge from '../../scripts/lib/merge-chunks.mjs';

type Imp = { path: string; kind: string; external?: boolean };
type Outputs = Record<string, { imports: Imp[]; exports?: string[]; entryPoint?: string; inputs?: object }>;
const { chunkGroups, mergeChunks } = merge as {
  chunkGroups: (o: Outputs, dir: string, repo: string) => { into: string; members: string[] }[];
  mergeChunks: (o: Outputs, repo: string, dir: string) => Promise<{ deleted: string[] }>;
};

const st = (p: string): Imp => ({ path: `d/c/${p}.js`, kind: 'import-statement' });
const dyn = (p: string): Imp => ({ path: `d/c/${p}.js`, kind: 'dynamic-import' });
/** a metafile: name → [entry?, imports]; 'cli' and 'worker' live in d/, the rest in d/c/ */
function outputs(spec: Record<string, [boolean, Imp[]]>): Outputs {
  return Object.fromEntries(
    Object.entries(spec).map(([name, [entry, imports]]) => [
      name === 'cli' || name === 'worker' ? `d/${name}.js` : `d/c/${name}.js`,
      { imports, ...(entry ? { entryPoint: `src/${name}.ts` } : {}) },
    ]),
  );
}
const names = (groups: { members: string[] }[]) =>
  groups.map((g) => g.members.map((m) => path.basename(m, '.js')).join('+')).sort();

describe('which chunks merge', () => {
  // cli → start (dynamic); start → cmdA, cmdB (dynamic); cmdA → view (dynamic); a worker beside
  const graph = outputs({
    cli: [true, [dyn('start')]],
    start: [true, [st('s1'), st('s2'), st('shared'), dyn('cmdA'), dyn('cmdB')]],
    s1: [false, [st('s2')]],
    s2: [false, []],
    shared: [false, []],
    cmdA: [true, [st('ab'), st('a1'), st('s1'), dyn('view')]],
    a1: [false, []],
    cmdB: [true, [st('ab'), st('b1')]],
    ab: [false, []],
    b1: [false, []],
    view: [true, [st('v1'), st('a1')]],
    v1: [false, []],
    worker: [true, [st('shared'), st('w1')]],
    w1: [false, []],
  });

  it("what start loads goes into start's file, what a command alone loads into its own; the worker's stay apart", () => {
    // a1 (cmdA's and its view's) loads whenever cmdA does, as the view loads only after cmdA; v1 only with the view
    expect(names(chunkGroups(graph, 'd/c', '/r'))).toEqual(['cmdA+a1', 'cmdB+b1', 'start+s1+s2', 'view+v1']);
  });

  it('a chunk shared by two commands, or by start and a worker thread, is never merged', () => {
    const all = chunkGroups(graph, 'd/c', '/r').flatMap((g) => g.members.map((m) => path.basename(m, '.js')));
    expect(all).not.toContain('ab');
    expect(all).not.toContain('shared');
    expect(all).not.toContain('w1');
  });

  it('a view imported by a second command no longer implies the first: their shared chunk stays apart', () => {
    const g2 = { ...graph };
    g2['d/c/cmdB.js'] = { ...g2['d/c/cmdB.js']!, imports: [...g2['d/c/cmdB.js']!.imports, dyn('view')] };
    // a1 (cmdA's and the view's) would load under cmdB's view without cmdA
    expect(names(chunkGroups(g2, 'd/c', '/r'))).toEqual(['cmdB+b1', 'start+s1+s2', 'view+v1']);
  });
});

describe('merging a real split build', () => {
  it('runs as before with fewer files, names that clashed across chunks kept apart', async () => {
    const dir = tempDir('ged-merge-');
    const src = path.join(dir, 'src');
    fs.mkdirSync(src);
    const files: Record<string, string> = {
      'cli.ts': "const { start } = await import('./start.js');\nawait start(process.argv[2] ?? 'a');\n",
      'start.ts': [
        "import { label } from './label.js';",
        "import { counter } from './state.js';",
        "const x = '!';",
        'export async function start(cmd: string) {',
        "  const m = cmd === 'a' ? await import('./cmd-a.js') : await import('./cmd-b.js');",
        '  console.log(label(m.run()) + x, counter.n);',
        '}',
      ].join('\n'),
      'label.ts': "const x = 'L';\nexport const label = (s: string) => `${x}:${s}`;\n",
      'state.ts': 'export const counter = { n: 0 };\n',
      'cmd-a.ts': [
        "import { counter } from './state.js';",
        "import { both } from './both.js';",
        "import { onlyA } from './only-a.js';",
        'export const run = () => { counter.n += 1; return `${both()}${onlyA()}`; };',
      ].join('\n'),
      'cmd-b.ts':
        "import { both } from './both.js';\nimport { label } from './label.js';\nexport const run = () => label(both());\n",
      'both.ts': "const x = 'B';\nexport const both = () => x;\n",
      'only-a.ts': "const x = 'A';\nexport const onlyA = () => x;\n",
    };
    for (const [f, t] of Object.entries(files)) fs.writeFileSync(path.join(src, f), t);
    const out = path.join(dir, 'dist');
    const r = await build({
      absWorkingDir: dir,
      entryPoints: { cli: 'src/cli.ts' },
      outdir: out,
      entryNames: '[name]',
      chunkNames: 'chunks/[name]-[hash]',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      metafile: true,
      logLevel: 'silent',
    });
    const run = (cmd: string) =>
      spawnSync(process.execPath, [path.join(out, 'cli.js'), cmd], { encoding: 'utf8' }).stdout.trim();
    const before = [run('a'), run('b')];
    expect(before).toEqual(['L:BA! 1', 'L:L:B! 0']);
    const count = () => fs.readdirSync(path.join(out, 'chunks')).length;
    const n = count();
    const { deleted } = await mergeChunks(r.metafile.outputs as Outputs, dir, path.join(out, 'chunks'));
    expect(deleted.length).toBeGreaterThan(0);
    expect(count()).toBe(n - deleted.length);
    expect([run('a'), run('b')]).toEqual(before);
    // the state module shared by start and a command is one instance still (cmd-a's count shows in start)
    expect(run('a')).toBe('L:BA! 1');
    // label.ts and state.ts (start's and the commands') went into start's file, beside start's own `x`
    const startFile = fs.readdirSync(path.join(out, 'chunks')).find((f) => f.startsWith('start-'))!;
    const text = fs.readFileSync(path.join(out, 'chunks', startFile), 'utf8');
    expect(text).toContain('"L"');
    expect(text).toContain('counter');
  });
});

describe('the real build after merging', () => {
  it("says its chunks' module type beside them (Node then stops looking for it at the first folder)", () => {
    const dist = path.resolve(__dirname, '../../dist');
    expect(JSON.parse(fs.readFileSync(path.join(dist, 'chunks/package.json'), 'utf8'))).toEqual({ type: 'module' });
    // a copy of the build under a folder with no package.json still loads its chunks as ES modules, and runs
    const copy = tempDir('ged-dist-copy-');
    fs.cpSync(dist, path.join(copy, 'dist'), { recursive: true });
    const log = path.resolve(__dirname, '../fixtures/h200/logs/conv-keep1200-bs64.txt');
    const r = spawnSync(process.execPath, [path.join(copy, 'dist/cli.js'), 'explain', log, '--no-machine', '--json'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).causes.length).toBeGreaterThan(0);
  });

  it('every import between its files names a file there and a name that file exports', () => {
    const dist = path.resolve(__dirname, '../../dist');
    const files = [
      ...fs.readdirSync(dist).filter((f) => f.endsWith('.js')),
      ...fs.readdirSync(path.join(dist, 'chunks')).map((f) => `chunks/${f}`),
      // the shared tree's entries (dist/cli.js loads entries/cli.js)
      ...fs.readdirSync(path.join(dist, 'entries')).map((f) => `entries/${f}`),
      // explain's own tree (scripts/build.mjs buildExplainTree), merged by the same rule
      ...fs.readdirSync(path.join(dist, 'explain-tree')).map((f) => `explain-tree/${f}`),
    ].filter((f) => f.endsWith('.js'));
    const exportsOf = (text: string) =>
      new Set(
        [...text.matchAll(/^export\s*\{([^}]*)\};/gm)].flatMap((m) =>
          m[1]!
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
            .map((s) => s.split(/\s+as\s+/).pop()!),
        ),
      );
    let imports = 0;
    let requires = 0;
    for (const f of files) {
      const text = fs.readFileSync(path.join(dist, f), 'utf8');
      for (const m of text.matchAll(/^import\s*\{([^}]*)\}\s*from\s*"(\.{1,2}\/[^"]+)";/gm)) {
        const target = path.join(dist, path.dirname(f), m[2]!);
        expect(fs.existsSync(target), `${f} imports ${m[2]}`).toBe(true);
        const exported = exportsOf(fs.readFileSync(target, 'utf8'));
        for (const s of m[1]!
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)) {
          expect(exported.has(s.split(/\s+as\s+/)[0]!), `${f}: ${s} from ${m[2]}`).toBe(true);
          imports += 1;
        }
      }
      for (const m of text.matchAll(/import\("(\.{1,2}\/[^"]+)"\)/g))
        expect(fs.existsSync(path.join(dist, path.dirname(f), m[1]!)), `${f} loads ${m[1]}`).toBe(true);
      // explain's tree is CommonJS (scripts/build.mjs treeAsCommonJs): its imports are requires
      for (const m of text.matchAll(/\brequire\("(\.{1,2}\/[^"]+)"\)/g)) {
        expect(fs.existsSync(path.join(dist, path.dirname(f), m[1]!)), `${f} requires ${m[1]}`).toBe(true);
        requires += 1;
      }
    }
    expect(requires).toBeGreaterThan(100);
    expect(imports).toBeGreaterThan(100);
    // cli.js names explain's tree and the shared entry by paths the bundler left as they are: those files are there
    const cli = fs.readFileSync(path.join(dist, 'cli.js'), 'utf8');
    const tree = /\["(explain-tree)", "([^"]+\.js)"\]/.exec(cli);
    expect(tree?.slice(1)).toEqual(['explain-tree', 'start.js']);
    expect(fs.existsSync(path.join(dist, tree![1]!, tree![2]!))).toBe(true);
    const entry = /"(\.\/entries\/[^"]+\.js)"/.exec(cli)?.[1];
    expect(entry).toBe('./entries/cli.js');
    expect(fs.existsSync(path.join(dist, entry!))).toBe(true);
  });
});
