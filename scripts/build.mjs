// Bundles the CLI into dist/: the entry dist/cli.js and, in dist/chunks/, one lazily loaded chunk per command
// and per shared part (the probes, the checks, the knowledge tables, the explain engine, zod). A command loads
// only what it imports: `--version` reads a few kilobytes, `explain` does not load the probes of `check`.
// Type checking is separate (`tsc --noEmit`). `?raw` imports (the Python assets shipped inside the bundle)
// become strings, as Vite does in tests. The knowledge tables are validated here, at build time (and by the
// tests), not at every start: scripts/validate-data.mjs.
import { build, transform } from 'esbuild';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeCatalog } from './lib/explain-catalog.mjs';
import { mergeChunks } from './lib/merge-chunks.mjs';
import { eagerExplainStart } from './lib/eager-functions.mjs';
import { HOT_MESSAGES, writeHotMessages } from './lib/hot-messages.mjs';
import { writeSlots } from './lib/i18n-slots.mjs';
import { writeValidator } from './lib/snapshot-validator.mjs';
import { evalModule } from './lib/eval-module.mjs';
import { writeManPage } from './man.mjs';

const nodeRequire = createRequire(import.meta.url);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** For bundles run from elsewhere (the validation below, the benches): the knowledge tables where they are. */
export const KNOWLEDGE_DIR_SOURCE = JSON.stringify(pathToFileURL(path.join(repo, 'src/knowledge/')).href);

const rawPlugin = {
  name: 'raw',
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, (args) => ({
      path: path.resolve(args.resolveDir, args.path.replace(/\?raw$/, '')),
      namespace: 'raw',
    }));
    b.onLoad({ filter: /.*/, namespace: 'raw' }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      // JSON read as text (tables parsed on first use) loses nothing by losing its indentation.
      return {
        contents: args.path.includes('/knowledge/')
          ? '{}'
          : args.path.endsWith('.json')
            ? JSON.stringify(JSON.parse(text))
            : text,
        loader: 'text',
      };
    });
  },
};

// Large JSON tables become `JSON.parse("…")`: V8 parses a JSON string several times faster than the same data
// written as an object literal, which it must compile as code. Small JSON files stay object literals.
const LAZY_JSON_MIN_BYTES = 16 * 1024;
const jsonPlugin = {
  name: 'json-as-string',
  setup(b) {
    b.onLoad({ filter: /\.json$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (text.length < LAZY_JSON_MIN_BYTES) return { contents: text, loader: 'json' };
      const min = JSON.stringify(JSON.parse(text));
      return { contents: `export default JSON.parse(${JSON.stringify(min)});`, loader: 'js' };
    });
  },
};

/**
 * JSON written in ASCII only (every other character as a \\u escape): Node then decodes the file into a one-byte
 * string; a single non-ASCII character (a "…" in a message) makes the whole text a two-byte string, twice the
 * memory, slower to decode, slice and parse.
 */
function asciiJson(value) {
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

// The message catalogs (src/base/i18n/en.ts, zh.ts) are data written as TypeScript object literals. As code, V8 must
// parse all 300 kB of them at every start, both languages, whatever the command and the language. In the bundle
// they are JSON files in dist/i18n/ (V8 parses JSON several times faster than an object literal, and a file is not
// decoded and scanned with the code): English read when the i18n module loads, every other language on the first
// message asked in it, through a proxy over the parsed file, so that i18n/index.ts uses the same object either
// way. The tests import the TypeScript files themselves.
// `hot` (explain's tree): English is read first from dist/i18n/en-explain.json, the messages a short explain prints
// (scripts/lib/hot-messages.mjs writes it after the build), and the whole file only for a message not there.
const I18N_PLUGIN = 'i18n-catalogs-as-data';
const I18N_FILE = /[\\/]src[\\/]base[\\/]i18n[\\/](en|zh)\.ts$/;
function i18nPlugin(outdir, { hot = false } = {}) {
  return {
    name: I18N_PLUGIN,
    setup(b) {
      b.onLoad({ filter: I18N_FILE }, async (args) => {
        const lang = I18N_FILE.exec(args.path)[1];
        const data = (await evalModule(args.path))[lang];
        if (!data || typeof data !== 'object' || Object.values(data).some((v) => typeof v !== 'string'))
          throw new Error(`${args.path}: expected \`export const ${lang}\` holding strings only`);
        await mkdir(path.join(outdir, 'i18n'), { recursive: true });
        await writeFile(path.join(outdir, 'i18n', `${lang}.json`), asciiJson(data));
        const assets = JSON.stringify(path.join(repo, 'src/ports/assets.ts'));
        const url = `new URL(${JSON.stringify(`../i18n/${lang}.json`)}, import.meta.url)`;
        if (lang === 'en' && hot) {
          await writeFile(path.join(outdir, 'i18n', HOT_MESSAGES), '{}');
          return { contents: hotCatalogModule(assets), loader: 'js', resolveDir: path.dirname(args.path) };
        }
        if (lang === 'en') {
          return {
            contents: `import { readAssetText } from ${assets};\nexport const en = JSON.parse(readAssetText(${url}));\n`,
            loader: 'js',
            resolveDir: path.dirname(args.path),
          };
        }
        return {
          contents: `import { readAssetText } from ${assets};
let data;
const load = () => (data ??= JSON.parse(readAssetText(new URL(${JSON.stringify(`../i18n/${lang}.json`)}, import.meta.url))));
export const ${lang} = new Proxy({}, {
  get: (_, k) => load()[k],
  has: (_, k) => k in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, k) => Object.getOwnPropertyDescriptor(load(), k),
});
`,
          loader: 'js',
          resolveDir: path.dirname(args.path),
        };
      });
    },
  };
}

/** English as explain's tree reads it: the messages of dist/i18n/en-explain.json, then the whole catalog for any other
 *  (parsed once, on the first such message). The same object to i18n/words.ts: a proxy answering every key. */
function hotCatalogModule(assets) {
  return `import { readAssetText } from ${assets};
const read = (name) => JSON.parse(readAssetText(new URL("../i18n/" + name, import.meta.url)));
let all;
const whole = () => (all ??= read("en.json"));
export const en = new Proxy(read(${JSON.stringify(HOT_MESSAGES)}), {
  get: (hot, k) => (Object.hasOwn(hot, k) ? hot[k] : whole()[k]),
  has: (_, k) => k in whole(),
  ownKeys: () => Reflect.ownKeys(whole()),
  getOwnPropertyDescriptor: (_, k) => Object.getOwnPropertyDescriptor(whole(), k),
});
`;
}

// The Chinese wording of the explain catalog (src/base/i18n/signatures-zh.json, ~170 kB) is read only in Chinese
// output: in the bundle it is a file in dist/i18n/, parsed on the first row asked, not code parsed at every explain.
const SIGNATURES_ZH = /[\\/]src[\\/]base[\\/]i18n[\\/]signatures-zh\.json$/;
function signaturesZhPlugin(outdir) {
  return {
    name: 'signatures-zh-as-data',
    setup(b) {
      b.onLoad({ filter: SIGNATURES_ZH }, async (args) => {
        const data = JSON.parse(await readFile(args.path, 'utf8'));
        await mkdir(path.join(outdir, 'i18n'), { recursive: true });
        await writeFile(path.join(outdir, 'i18n', 'signatures-zh.json'), asciiJson(data));
        const assets = JSON.stringify(path.join(repo, 'src/ports/assets.ts'));
        return {
          contents: `import { readAssetText } from ${assets};
let data;
const load = () => (data ??= JSON.parse(readAssetText(new URL("../i18n/signatures-zh.json", import.meta.url))));
export default { get rows() { return load().rows; }, get handwritten() { return load().handwritten; } };
`,
          loader: 'js',
          resolveDir: path.dirname(args.path),
        };
      });
    },
  };
}

// The signature rows (the catalog's generated ones, the hand-written files, the families) get, in the bundle, the
// required literals of their patterns (src/judge/explain/signatures/literals.ts), computed here rather than at every
// start; the catalog's rows lose the fields the run never reads (the versions that print them, the notes: the
// source file keeps them).
const SIGNATURE_DATA = /[\\/]src[\\/]judge[\\/]explain[\\/](?:catalog[\\/]generated|signatures[\\/][a-z-]+)\.json$/;
const CATALOG_FIELDS_NOT_READ = ['file', 'captures', 'versions', 'note'];
/** The rows with the required literals of their patterns; the catalog's rows without the fields the run never reads. */
let literalsOf;
async function withLiterals(doc) {
  literalsOf ??= (await evalModule(path.join(repo, 'src/judge/explain/signatures/literals.ts'))).requiredClauses;
  const generated = !Array.isArray(doc);
  for (const row of generated ? doc.signatures : doc) {
    if (typeof row.pattern !== 'string') continue;
    // the flags the run compiles the row with (src/judge/explain/signatures/index.ts)
    row.literals = literalsOf(row.pattern, generated ? 'id' : (row.flags ?? 'i'));
    if (generated) for (const k of CATALOG_FIELDS_NOT_READ) delete row[k];
  }
  return doc;
}

/**
 * dist/explain/catalog.json from the generated catalog's JSON text. The catalog (~650 kB) is a file beside the chunks,
 * read when the signatures are first built: as a string in a chunk it was decoded, scanned and copied with the code.
 * Its first line holds what building the registry reads (the families, what building the registry computes from all
 * the signatures: Registry.digest, computed by the registry itself; each row's required literals, where each row's
 * line starts); then one row per line, each parsed only when its signature is first used. The format is
 * src/judge/explain/catalog/bundled.ts's, which reads it; src/judge/explain/signatures/index.ts takes either form. A
 * row's required literals are clauses (src/judge/explain/signatures/literals.ts requiredClauses).
 */
export async function catalogAsBundled(json) {
  const doc = await withLiterals(JSON.parse(json));
  const { Registry } = await evalModule(path.join(repo, 'src/judge/explain/signatures/index.ts'));
  const { bundledText } = await evalModule(path.join(repo, 'src/judge/explain/catalog/bundled.ts'));
  // the head counts the signatures: their ids are in their rows
  const { ids, ...digest } = new Registry().digest();
  return bundledText(doc, { count: ids.length, ...digest }, asciiJson);
}

function signatureDataPlugin(outdir) {
  return {
    name: 'signature-literals',
    setup(b) {
      b.onLoad({ filter: SIGNATURE_DATA }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (Array.isArray(JSON.parse(text)))
          return { contents: JSON.stringify(await withLiterals(JSON.parse(text))), loader: 'json' };
        await mkdir(path.join(outdir, 'explain'), { recursive: true });
        await writeFile(path.join(outdir, 'explain', 'catalog.json'), await catalogAsBundled(text));
        const assets = JSON.stringify(path.join(repo, 'src/ports/assets.ts'));
        const bundled = JSON.stringify(path.join(repo, 'src/judge/explain/catalog/bundled.ts'));
        return {
          contents: `import { readAssetBytes } from ${assets};
import { bundledCatalog } from ${bundled};
let url;
export default bundledCatalog((start, end) =>
  readAssetBytes((url ??= new URL("../explain/catalog.json", import.meta.url)), start, end));
`,
          loader: 'js',
          resolveDir: path.dirname(args.path),
        };
      });
    },
  };
}

// picocolors asks `process.stdout.isTTY` when it is loaded: that builds Node's stdout stream (a pipe's loads the
// net module), which the CLI otherwise never creates (src/ports/stdio.ts writes with write(2)). In the bundle the
// same question is asked of the file descriptor: what the stream's isTTY reports is isatty(1). A pipe, a file
// (not character devices) or /dev/null are answered without the tty module (which loads net); the rest by it.
const PICOCOLORS_TTY = '(p.stdout || {}).isTTY';
const FD1_IS_TTY = `(() => {
  try {
    const fs = require("fs");
    if (!fs.fstatSync(1).isCharacterDevice()) return false;
    if (process.platform === "linux" && fs.readlinkSync("/proc/self/fd/1") === "/dev/null") return false;
  } catch {}
  return require("tty").isatty(1);
})()`;
// And picocolors as an ES module whose default colours are made on first use: it made them at load (its guess of
// colour support: the fd 1 questions above and ~40 closures), which only a coloured report reads, and esbuild's
// CommonJS wrapper copied the result's properties into a namespace. The default object holds createColors and a
// getter per colour (the names of picocolors' own object, read here), each answering what picocolors' object would.
const PICOCOLORS_EDITS = [
  [PICOCOLORS_TTY, FD1_IS_TTY],
  ['let isColorSupported =', 'let isColorSupported$ = () =>'],
  ['(enabled = isColorSupported)', '(enabled = isColorSupported$())'],
  ['module.exports = createColors()\nmodule.exports.createColors = createColors', 'PICOCOLORS_EXPORTS'],
];
const picocolorsExports = (names) => `let defaults$
const pc$ = { createColors }
for (const k of ${JSON.stringify(names)})
  Object.defineProperty(pc$, k, { get: () => (defaults$ ??= createColors())[k], enumerable: true })
export default pc$`;
export const picocolorsPlugin = {
  name: 'picocolors-without-stdout',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]picocolors[\\/]picocolors\.js$/ }, async (args) => {
      let text = (await readFile(args.path, 'utf8')).replace(/\r\n/g, '\n');
      const names = Object.keys(nodeRequire(args.path).createColors(false)).filter((k) => k !== 'createColors');
      for (const [from, to] of PICOCOLORS_EDITS) {
        if (!text.includes(from))
          throw new Error(`${args.path}: no "${from}" to replace (picocolors changed: see scripts/build.mjs)`);
        text = text.replace(from, to === 'PICOCOLORS_EXPORTS' ? picocolorsExports(names) : to);
      }
      return { contents: text, loader: 'js' };
    });
  },
};

// zod's verdict on a snapshot read back (src/gather/snapshot/zod-verdict.ts) is, in the bundle, a CommonJS file of
// its own with zod inside, dist/snapshot-zod.cjs, required when first asked: `fleet` asks it only about a snapshot its
// generated validator refused, so its threads load no zod (~750 kB) to read valid ones. The trees' code is one folder
// below dist/ (chunks/, entries/, explain-tree/); each ES chunk has a require() (REQUIRE_BANNER).
export const SNAPSHOT_ZOD = 'snapshot-zod.cjs';
const ZOD_FILE = JSON.stringify(`../${SNAPSHOT_ZOD}`);
const ZOD_VERDICT = /[\\/]src[\\/]gather[\\/]snapshot[\\/]zod-verdict\.ts$/;
const zodVerdictPlugin = {
  name: 'zod-verdict-required',
  setup(b) {
    // required at run time from the code's folder, not bundled
    b.onResolve({ filter: new RegExp(`^\\.\\./${SNAPSHOT_ZOD.replace('.', '\\.')}$`) }, (a) => ({
      path: a.path,
      external: true,
    }));
    b.onLoad({ filter: ZOD_VERDICT }, () => ({
      contents: `let m;\nexport const zodVerdict = (c) => (m ??= require(${ZOD_FILE})).zodVerdict(c);\n`,
      loader: 'js',
    }));
  },
};
/** One entry bundled whole into one CommonJS file (Node's built-ins left to require); `more`: esbuild options added. */
function bundleCommonJs(entry, outfile, more = {}) {
  return build({
    absWorkingDir: repo,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    legalComments: 'none',
    logLevel: 'warning',
    ...more,
  });
}
async function buildSnapshotZod(outdir) {
  await bundleCommonJs('src/gather/snapshot/zod-verdict.ts', path.join(outdir, SNAPSHOT_ZOD));
}

/** Bundles scripts/validate-data.ts in memory and runs it; throws with every problem found. */
export async function validateData() {
  const r = await build({
    absWorkingDir: repo,
    entryPoints: ['scripts/validate-data.ts'],
    bundle: true,
    write: false,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    plugins: [rawPlugin],
    define: { __KNOWLEDGE_DIR__: KNOWLEDGE_DIR_SOURCE },
    logLevel: 'warning',
  });
  const url = `data:text/javascript;base64,${Buffer.from(r.outputFiles[0].text).toString('base64')}`;
  const problems = (await import(url)).validateData();
  if (problems.length > 0)
    throw new Error(`the data files do not match their schemas:\n  ${problems.slice(0, 20).join('\n  ')}`);
}

// Node's built-in modules through require(), not import: an ES import of a built-in makes Node build its ES
// facade, which reads every export (node:fs's getters then load fs/promises and the stream classes). Each becomes
// an ES module here that takes its exports from require()'s object, one name each, marked pure so that esbuild
// keeps only the names the code reads: as a CommonJS module, esbuild's namespace wrapper (`__toESM`) copied every
// property of the module, once per importing file, at every start. A name the code reads is read once, when the
// chunk that holds it loads (an accessor such as node:util's `parseArgs` then, not at its first call); a name not
// in the module, or a module used whole, fails the build (builtinProblems).
const BUILTIN_IDENT = /^[A-Za-z_$][\w$]*$/;
/** The ES module standing for built-in `name`: its properties as pure reads of require()'s object. */
export function builtinModuleSource(name, mod) {
  // local names no built-in exports
  // process.getBuiltinModule (Node 20.16, 22.3) hands over the same object as require() without creating a require
  const id = JSON.stringify(name);
  const lines = [
    `const $$mod = process.getBuiltinModule?.(${id}) ?? require(${id});`,
    'const $$get = (k) => $$mod[k];',
  ];
  lines.push('export default $$mod;');
  for (const k of Object.getOwnPropertyNames(mod)) {
    if (k === 'default' || k.startsWith('$$') || !BUILTIN_IDENT.test(k)) continue;
    lines.push(`export const ${k} = /* @__PURE__ */ $$get(${JSON.stringify(k)});`);
  }
  return `${lines.join('\n')}\n`;
}
/**
 * What would make the built-ins' modules above wrong or slow, from esbuild's warnings and the chunks' code: a name
 * read that the module lacks (undefined at run time), or a module kept whole (its namespace used as a value: every
 * name read at load, node:fs's `promises` loading fs/promises).
 */
export function builtinProblems(warnings, outputs) {
  const problems = warnings
    .filter((w) => w.id === 'import-is-undefined' && /"builtin:node:/.test(w.text))
    .map((w) => `${w.location?.file ?? '?'}:${w.location?.line ?? '?'}: ${w.text}`);
  for (const { path: file, text } of outputs) {
    const whole = /\b(?:init_node_\w+|node_\w+_exports)\b/.exec(text);
    if (whole) problems.push(`${path.basename(file)}: a built-in module kept whole (${whole[0]})`);
  }
  return problems;
}
export const builtinsPlugin = {
  name: 'builtins-by-require',
  setup(b) {
    // node:module stays an import: the banner below imports it in every chunk anyway
    b.onResolve({ filter: /^node:/ }, (args) =>
      args.kind === 'import-statement' && args.namespace === 'file' && args.path !== 'node:module'
        ? { path: args.path, namespace: 'builtin' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
      contents: builtinModuleSource(args.path, nodeRequire(args.path)),
      loader: 'js',
    }));
  },
};

/** The require() of every chunk: made by createRequire on its first call. */
export const REQUIRE_BANNER =
  'import { createRequire as __cr } from "node:module"; let __rq; ' +
  'const require = (id) => (__rq ??= __cr(import.meta.url))(id);';

/** Fails the build on a built-in module bundled the wrong way in any output of `result` (see builtinProblems). */
async function checkBuiltins(result, label) {
  const outputs = await Promise.all(
    Object.keys(result.metafile.outputs)
      .filter((f) => f.endsWith('.js'))
      .map(async (f) => ({ path: f, text: await readFile(path.resolve(repo, f), 'utf8') })),
  );
  const problems = builtinProblems(result.warnings, outputs);
  if (problems.length > 0) throw new Error(`Node's built-in modules${label}:\n  ${problems.join('\n  ')}`);
}

/** explain's own tree, beside the chunks (dist/cli.js loads it for a command line naming explain). */
export const EXPLAIN_TREE = 'explain-tree';

/**
 * explain's own tree (src/cli/explain-start.ts): the whole program again, bundled from an entry whose static
 * closure holds start, the explain command and its terminal view. Once merged (scripts/lib/merge-chunks.mjs: every
 * other entry of this tree loads only after that one), a short explain loads that one file where the shared chunks
 * made it load thirty, each costing Node's ES loader a resolve, a read, a compile-cache lookup and a link. Its code
 * reaches the workers and the data files by the same relative paths as the chunks (one folder below dist/); the
 * workers are the shared tree's. `options`: the shared tree's, whose entries and chunk names are replaced.
 */
async function buildExplainTree(outdir, options) {
  const result = await build({
    ...options,
    plugins: options.plugins.map((p) => (p.name === I18N_PLUGIN ? i18nPlugin(outdir, { hot: true }) : p)),
    entryPoints: { start: 'src/cli/explain-start.ts' },
    entryNames: `${EXPLAIN_TREE}/[name]`,
    chunkNames: `${EXPLAIN_TREE}/[name]-[hash]`,
  });
  await checkBuiltins(result, ` (${EXPLAIN_TREE})`);
  await mergeChunks(result.metafile.outputs, repo, path.join(outdir, EXPLAIN_TREE));
  await treeAsCommonJs(path.join(outdir, EXPLAIN_TREE));
  return result;
}

const BARE_IMPORT = /^import\s*"[^"]+";\n/gm;

/**
 * explain's tree as CommonJS, the same files and module graph (dist/cli.js runs start.js with a code cache made
 * after the run: src/cli/explain-load.ts). Each file is transformed alone: an import becomes a require() of the same
 * file (esbuild's interop reads an imported name through a getter: live, one instance per file), a dynamic import a
 * require() inside a promise, import.meta.url the banner's value. esbuild refuses a top-level await in CommonJS (the
 * build then fails). The ES chunks' require() banner goes (CommonJS has its own); a file imported bare more than once
 * (the merge's `import "./start.js";` lines) is required once.
 */
/**
 * esbuild's CommonJS exports (`var x_exports = {}; __export(x_exports, { a: () => a, … }); module.exports =
 * __toCommonJS(x_exports);`) as one object literal of getters: esbuild defines each getter alone and then copies them
 * all onto a second object, each copy a getter reading the first (start.js exports ~240 names: ~2.5 M instructions
 * of V8 map transitions at every start, and two getters at every read of an import). The same names, read live.
 * Code of another shape is left as esbuild wrote it.
 */
export function exportsAsLiteral(code) {
  const m = /^var (\w+_exports) = \{\};\n__export\w*\(\1, \{\n((?: {2}[\w$]+: \(\) => [\w$]+,?\n)+)\}\);\n/m.exec(code);
  if (!m) return code;
  const toCommonJs = `module.exports = __toCommonJS(${m[1]});`;
  if (code.split(toCommonJs).length !== 2) return code;
  const getters = [...m[2].matchAll(/^ {2}([\w$]+): \(\) => ([\w$]+),?$/gm)].map(
    ([, name, local]) => `  get ${name}() {\n    return ${local};\n  },`,
  );
  return code
    .replace(m[0], () => `var ${m[1]} = {\n${getters.join('\n')}\n};\n`)
    .replace(
      toCommonJs,
      () => `Object.defineProperty(${m[1]}, "__esModule", { value: true });\nmodule.exports = ${m[1]};`,
    );
}

async function treeAsCommonJs(dir) {
  for (const f of (await readdir(dir)).filter((n) => n.endsWith('.js'))) {
    const file = path.join(dir, f);
    const seen = new Set();
    const text = (await readFile(file, 'utf8'))
      .replace(REQUIRE_BANNER, '')
      .replace(BARE_IMPORT, (line) => (seen.has(line) ? '' : (seen.add(line), line)));
    const r = await transform(text, {
      sourcefile: f,
      loader: 'js',
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      supported: { 'dynamic-import': false },
      define: { 'import.meta.url': '__ged_meta.url' },
      banner: CJS_META_BANNER,
      legalComments: 'none',
      logLevel: 'silent',
    });
    if (r.warnings.length > 0) throw new Error(`${EXPLAIN_TREE}/${f}: ${r.warnings.map((w) => w.text).join('; ')}`);
    if (/\bimport\.meta\b/.test(r.code)) throw new Error(`${EXPLAIN_TREE}/${f}: import.meta left in CommonJS`);
    await writeFile(file, exportsAsLiteral(r.code));
  }
  await writeFile(path.join(dir, 'package.json'), '{ "type": "commonjs" }\n');
}

/**
 * explain's start file rewritten for a short explain (scripts/lib/eager-functions.mjs): in ASCII, and the functions
 * it runs compiled with the file, asked of the built tree on the H200 out-of-memory log in the terminal and the
 * --json form (what users and the speed benches run). Run once the whole of dist/ is written.
 */
export const EAGER_LOG = 'test/fixtures/h200/logs/conv-keep1200-bs64.txt';
function eagerExplain(outdir) {
  const log = path.join(repo, EAGER_LOG);
  const start = path.join(outdir, EXPLAIN_TREE, 'start.js');
  const moved = eagerExplainStart(outdir, start, [
    ['explain', log, '--no-machine'],
    ['explain', log, '--no-machine', '--json'],
  ]);
  // dist/cli.js reads the file as latin1 (src/cli/explain-load.ts): right for ASCII only
  if (!/^[\x00-\x7f]*$/.test(readFileSync(start, 'latin1'))) throw new Error(`${start}: not ASCII`);
  return moved;
}

// The worker threads started at check's start (the library scan beside nvidia-smi, src/gather/libraries/
// libraries-job.ts; torch's fatbinary, src/gather/libraries/fatbin.ts), each one self-contained CommonJS file,
// dist/NAME.cjs: an ES module entry makes the thread load Node's ES module loader and then link each chunk it
// imports, before any of the scan runs. No compile cache there: turning it on loads node:module (and the ES
// loader with it) for no measured gain on ~100 kB of code. src/ports/worker.ts starts NAME.cjs where the sources
// name NAME.js.
export const WORKER_ENTRIES = {
  'libraries-worker': 'src/gather/libraries/libraries-worker.ts',
  'fatbin-worker': 'src/gather/libraries/fatbin-worker.ts',
  // explain's first pass over a range of a big log (src/judge/explain/read/split.ts)
  'explain-worker': 'src/judge/explain/read/range-worker.ts',
};
/** import.meta.url in a CommonJS file (a worker, a file of explain's tree): its own file's URL, made once when first
 *  read (node:url loads then). */
const CJS_META_BANNER =
  '"use strict";\nconst __ged_meta = { get url() { return (this.u ??= require("node:url").pathToFileURL(__filename).href); } };';
export async function buildWorkers(outdir) {
  for (const [name, entry] of Object.entries(WORKER_ENTRIES)) {
    const outfile = path.join(outdir, `${name}.cjs`);
    const result = await bundleCommonJs(entry, outfile, {
      banner: { js: CJS_META_BANNER },
      plugins: [rawPlugin, jsonPlugin, builtinsPlugin],
      define: {
        __GED_BUNDLE__: 'true',
        __KNOWLEDGE_DIR__: '"../knowledge/"',
        'import.meta.url': '__ged_meta.url',
      },
    });
    const text = await readFile(outfile, 'utf8');
    // a built-in's module is lazily initialised here (init_node_*) when only a dynamic import reaches it
    const problems = builtinProblems(result.warnings, []);
    const whole = /\bnode_\w+_exports\b/.exec(text);
    if (whole) problems.push(`a built-in module kept whole (${whole[0]})`);
    // the file sits in dist/, not in dist/chunks/: an asset URL made from it would miss the files beside the chunks
    if (/new URL\([^)]*__ged_meta\.url/.test(text)) problems.push('a file read relative to the worker file');
    if (problems.length > 0) throw new Error(`${name}.cjs:\n  ${problems.join('\n  ')}`);
  }
}

/**
 * dist/explain-load.cjs, what dist/cli.js loads explain's tree with (src/cli/explain-load.ts), one CommonJS file
 * required by cli.js: imported by cli.ts, it would make cli.js import esbuild's helper chunk (--version too).
 */
export const EXPLAIN_LOAD = 'explain-load.cjs';
async function buildExplainLoad(outdir) {
  const outfile = path.join(outdir, EXPLAIN_LOAD);
  await bundleCommonJs('src/cli/explain-load.ts', outfile);
  // built-ins come through the caller's require: the file loads nothing itself
  if (/(?<![.\w$])require\(/.test(await readFile(outfile, 'utf8')))
    throw new Error(`${EXPLAIN_LOAD}: a require() of its own`);
}

/**
 * fleet's worker thread (src/judge/fleet/worker.ts; src/judge/fleet/parallel.ts starts it),
 * dist/entries/fleet-worker.js: one self-contained ES module beside the shared tree's entry (its data files at the
 * same relative paths), not an entry of the shared tree: there the thread's Node loader resolved, read, compiled and
 * linked each of the ~30 chunks it imports before the slice's first file was read. `options`: the shared tree's,
 * whose entries are replaced.
 */
async function buildFleetWorker(outdir, options) {
  const outfile = path.join(outdir, ENTRIES, 'fleet-worker.js');
  const { outdir: _, entryNames, chunkNames, ...rest } = options;
  const result = await build({ ...rest, entryPoints: ['src/judge/fleet/worker.ts'], outfile, splitting: false });
  await checkBuiltins(result, ' (fleet-worker)');
  if (/^import\b[^;]*from\s*"\.{1,2}\//m.test(await readFile(outfile, 'utf8')))
    throw new Error('fleet-worker.js: imports a file of the tree');
  return result;
}

/** The shared tree's entries (ES modules): dist/entries/cli.js (src/cli/entry.ts) and fleet's worker. */
export const ENTRIES = 'entries';
/** What dist/cli.js may load: the built-ins it uses and explain's loader beside it. */
const EXECUTABLE_REQUIRES = new Set(['node:fs', 'node:path', 'node:module', './explain-load.cjs']);

/**
 * dist/cli.js, the executable (src/cli.ts), CommonJS as dist/package.json says: a main file that is an ES module
 * makes Node start its ES loader first, which a short explain (CommonJS throughout) never needs. It loads the
 * shared tree's entry (an ES module, dist/entries/) by import(). Fails the build on anything that would make
 * --version load another file: an esbuild helper, a require() of something else.
 */
async function buildExecutable(outdir, define) {
  const outfile = path.join(outdir, 'cli.js');
  await bundleCommonJs('src/cli.ts', outfile, { define });
  await chmod(outfile, 0o755);
  await writeFile(path.join(outdir, 'package.json'), '{ "type": "commonjs" }\n');
  const text = await readFile(outfile, 'utf8');
  const problems = [];
  if (/\b__(?:toESM|commonJS|esm|export|copyProps|require)\b/.test(text)) problems.push('an esbuild helper');
  for (const m of text.matchAll(/\brequire\(([^)]*)\)/g)) {
    const id = /^"([^"]*)"$/.exec(m[1])?.[1] ?? m[1];
    if (!EXECUTABLE_REQUIRES.has(id) && !/^EXPLAIN_LOAD$/.test(id)) problems.push(`require(${m[1]})`);
  }
  if (problems.length > 0) throw new Error(`cli.js: ${problems.join(', ')}`);
}

export async function buildCli(outdir = path.join(repo, 'dist')) {
  // the explain catalog's signatures are built from their sources, not committed
  await writeCatalog();
  // the slots of every message, for the type checker (committed; rewritten here when en.ts changed)
  await writeSlots();
  // fleet's snapshot validator, as code from the zod schema (committed; rewritten here when the schema changed)
  await writeValidator();
  await validateData();
  // dist/sea and dist/wheels hold the single executable and the wheel (npm run wheel): kept across rebuilds
  for (const e of await readdir(outdir).catch(() => [])) {
    if (e !== 'sea' && e !== 'wheels') await rm(path.join(outdir, e), { recursive: true, force: true });
  }
  // the npm package ships dist/ but not the single executables and wheels built into it (npm run wheel)
  await mkdir(outdir, { recursive: true });
  await writeFile(path.join(outdir, '.npmignore'), 'sea/\nwheels/\n');
  // The knowledge tables ship as JSON files beside the chunks, read when first asked (src/knowledge/index.ts).
  await mkdir(path.join(outdir, 'knowledge'), { recursive: true });
  for (const f of (await readdir(path.join(repo, 'src/knowledge'))).filter((n) => n.endsWith('.json'))) {
    await writeFile(
      path.join(outdir, 'knowledge', f),
      asciiJson(JSON.parse(await readFile(path.join(repo, 'src/knowledge', f), 'utf8'))),
    );
  }
  const options = {
    absWorkingDir: repo,
    // the shared tree's entry (dist/cli.js, built apart as CommonJS, loads it), in a folder of ES modules; fleet's
    // worker is built apart, beside it (buildFleetWorker), the library scan's and the fatbinary's workers as
    // CommonJS (buildWorkers)
    entryPoints: { cli: 'src/cli/entry.ts' },
    outdir,
    entryNames: `${ENTRIES}/[name]`,
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // Bundled CommonJS dependencies (picocolors) and the built-ins call require(); every chunk gets one, made on
    // its first call (createRequire costs ~0.1 ms, and most chunks never call it)
    banner: { js: REQUIRE_BANNER },
    plugins: [
      rawPlugin,
      i18nPlugin(outdir),
      signaturesZhPlugin(outdir),
      signatureDataPlugin(outdir),
      picocolorsPlugin,
      zodVerdictPlugin,
      jsonPlugin,
      builtinsPlugin,
    ],
    define: {
      __GED_BUNDLE__: 'true',
      __KNOWLEDGE_DIR__: '"../knowledge/"',
      __TOOL_VERSION__: JSON.stringify(JSON.parse(await readFile(path.join(repo, 'package.json'), 'utf8')).version),
    },
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  };
  const result = await build(options);
  await checkBuiltins(result, '');
  const fleetWorker = await buildFleetWorker(outdir, options);
  await buildExecutable(outdir, options.define);
  await buildWorkers(outdir);
  await buildSnapshotZod(outdir);
  await buildExplainLoad(outdir);
  // the chunks that always load together, one file each (scripts/lib/merge-chunks.mjs): fewer files to load
  await mergeChunks(result.metafile.outputs, repo, path.join(outdir, 'chunks'));
  // The chunks' module type beside them: Node looks for the nearest package.json of every .js file it loads and
  // does not remember a folder that has none (two failed opens per chunk before the project's own was found).
  await writeFile(path.join(outdir, 'chunks', 'package.json'), '{ "type": "module" }\n');
  await writeFile(path.join(outdir, ENTRIES, 'package.json'), '{ "type": "module" }\n');
  const explainTree = await buildExplainTree(outdir, options);
  // the manual page, from the same option table and help texts as --help (package.json "man")
  await writeManPage(repo, path.join(outdir, 'gpu-env-doctor.1'), {
    plugins: [rawPlugin],
    define: { __KNOWLEDGE_DIR__: KNOWLEDGE_DIR_SOURCE },
  });
  const eager = eagerExplain(outdir);
  const log = path.join(repo, EAGER_LOG);
  const hotMessages = writeHotMessages(outdir, [
    ['explain', log, '--no-machine'],
    ['explain', log, '--no-machine', '--json'],
  ]);
  return Object.assign(result, { explainTree, fleetWorker, eager, hotMessages });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await buildCli();
  } catch (err) {
    console.error(`build failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
