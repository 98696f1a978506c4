// After esbuild: the chunks that always load together merged into one file each. esbuild splits the code by the
// set of entry points (the entries and every dynamic import) that reach it, not knowing that a command's chunk is
// only ever loaded after start's, nor the terminal view after explain's: a short explain loaded 42 files, and each
// file costs the ES loader its resolve, read and compile (~0.25 ms here, whatever its size).
//
// The rule, exact by construction: a chunk loads when one of the entries whose static closure holds it loads. An
// entry E implies D when every chunk that imports E dynamically loads only where D has loaded (a fixed point). A
// chunk's entries are reduced to those not implying another of them; chunks with the same reduced entries always
// load together, and only together, so they become one file: no path of any command loads a byte it did not load
// before, and the worker threads' entries (which imply nothing) keep their own chunks. Each group is bundled again
// by esbuild (which renames what would clash) into the group's entry chunk, or its first chunk; the chunks merged
// away are deleted and the imports of their names, everywhere, point at the group's file under unique aliases.
import { build } from 'esbuild';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Which chunks go together. `outputs`: esbuild's metafile outputs (paths relative to `repo` as keys); `dir`: the
 * chunks' folder (only chunks there are merged: the entry files beside it keep their place). Returns the groups of two or more chunks,
 * each `{ into, members }` (into: the file that stays; members: all of the group's files, `into` first).
 */
export function chunkGroups(outputs, dir, repo = process.cwd()) {
  const js = Object.keys(outputs).filter((f) => f.endsWith('.js'));
  const entries = js.filter((f) => outputs[f].entryPoint);
  const staticImports = (f) =>
    outputs[f].imports
      .filter((i) => i.kind === 'import-statement' && !i.external && outputs[i.path])
      .map((i) => i.path);
  /** entry → the chunks its static closure holds */
  const closure = new Map();
  for (const e of entries) {
    const seen = new Set();
    const stack = [e];
    while (stack.length > 0) {
      const f = stack.pop();
      if (seen.has(f)) continue;
      seen.add(f);
      stack.push(...staticImports(f));
    }
    closure.set(e, seen);
  }
  /** chunk → the entries that load it */
  const loadedBy = new Map(js.map((f) => [f, entries.filter((e) => closure.get(e).has(f))]));
  /** entry → the chunks that import it dynamically */
  const importers = new Map(entries.map((e) => [e, []]));
  for (const f of js)
    for (const i of outputs[f].imports)
      if (i.kind === 'dynamic-import' && importers.has(i.path)) importers.get(i.path).push(f);
  // implies.get(E) = the entries D such that E loads only where D has loaded (greatest fixed point)
  const implies = new Map(entries.map((e) => [e, new Set(importers.get(e).length > 0 ? entries : [e])]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const e of entries) {
      for (const d of [...implies.get(e)]) {
        if (d === e) continue;
        const holds = importers
          .get(e)
          .every((c) => loadedBy.get(c).length > 0 && loadedBy.get(c).every((x) => x === d || implies.get(x).has(d)));
        if (!holds) {
          implies.get(e).delete(d);
          changed = true;
        }
      }
    }
  }
  const inDir = (f) => path.dirname(path.resolve(repo, f)) === path.resolve(repo, dir);
  const groups = new Map();
  for (const f of js) {
    if (!inDir(f) || loadedBy.get(f).length === 0) continue;
    const by = loadedBy.get(f);
    const reduced = by.filter((e) => !by.some((d) => d !== e && implies.get(e).has(d) && !implies.get(d).has(e)));
    const key = reduced.sort().join('\n');
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(f);
  }
  const result = [];
  for (const members of groups.values()) {
    // a group keeps one file name: its entry chunk's (imported by name), else its first chunk's
    const named = members.filter((f) => outputs[f].entryPoint);
    const rest = members.filter((f) => !outputs[f].entryPoint).sort();
    const into = named[0] ?? rest[0];
    const all = [into, ...rest.filter((f) => f !== into)];
    if (all.length > 1) result.push({ into, members: all });
  }
  return result;
}

const IMPORT_FROM = /^import\s*\{([^}]*)\}\s*from\s*"(\.{1,2}\/[^"]+)";/gm;
const IMPORT_BARE = /^import\s*"(\.{1,2}\/[^"]+)";/gm;

/** esbuild's `{ a, b as c }` list: [imported, local] pairs */
function specifiers(list) {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = /^(\S+)\s+as\s+(\S+)$/.exec(s);
      return m ? [m[1], m[2]] : [s, s];
    });
}

/**
 * Merges each group in place (see above). `outputs`: the metafile's; `repo`: the folder its paths are relative to;
 * `dir`: the chunks' folder. Returns the groups and the files deleted.
 */
export async function mergeChunks(outputs, repo, dir) {
  const abs = (f) => path.resolve(repo, f);
  const groups = chunkGroups(outputs, dir, repo);
  /** a merged-away chunk's absolute path → { into, alias(name) } */
  const moved = new Map();
  for (const [g, { into, members }] of groups.entries()) {
    for (const [m, f] of members.entries()) {
      if (f === into) continue;
      moved.set(abs(f), { into: abs(into), alias: (name) => `${name}$m${g}_${m}` });
    }
  }
  for (const { into, members } of groups) {
    const inGroup = new Set(members.map(abs));
    const lines = [`export * from ${JSON.stringify(abs(into))};`];
    for (const f of members) {
      if (f === into) continue;
      const alias = moved.get(abs(f)).alias;
      const names = outputs[f].exports ?? [];
      if (names.length > 0)
        lines.push(`export { ${names.map((n) => `${n} as ${alias(n)}`).join(', ')} } from ${JSON.stringify(abs(f))};`);
      else lines.push(`import ${JSON.stringify(abs(f))};`);
    }
    const r = await build({
      stdin: { contents: lines.join('\n'), resolveDir: path.dirname(abs(into)), loader: 'js' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      legalComments: 'none',
      logLevel: 'silent',
      plugins: [
        {
          name: 'group-only',
          setup(b) {
            b.onResolve({ filter: /.*/ }, (args) => {
              if (args.kind === 'entry-point') return undefined;
              const target = args.path.startsWith('.') ? path.resolve(args.resolveDir, args.path) : args.path;
              if (path.isAbsolute(target) && inGroup.has(target) && args.kind === 'import-statement')
                return { path: target };
              if (path.isAbsolute(args.path) && inGroup.has(args.path)) return { path: args.path };
              // everything else stays an import of its own file, relative to the group's file (same folder)
              const rel = path.isAbsolute(target)
                ? `./${path
                    .relative(path.dirname(abs(into)), target)
                    .split(path.sep)
                    .join('/')}`
                : args.path;
              return { path: rel, external: true };
            });
          },
        },
      ],
    });
    if (r.errors.length > 0 || r.warnings.length > 0)
      throw new Error(`merging ${into}: ${[...r.errors, ...r.warnings].map((m) => m.text).join('; ')}`);
    await writeFile(abs(into), r.outputFiles[0].text);
  }
  // every import of a merged-away chunk's names now reads them from the group's file
  const kept = Object.keys(outputs)
    .filter((f) => f.endsWith('.js') && !moved.has(abs(f)))
    .map(abs);
  for (const file of kept) {
    const text = await readFile(file, 'utf8');
    const target = (spec) => moved.get(path.resolve(path.dirname(file), spec));
    const relTo = (to) => {
      const r = path.relative(path.dirname(file), to).split(path.sep).join('/');
      return r.startsWith('.') ? r : `./${r}`;
    };
    let out = text.replace(IMPORT_FROM, (whole, list, spec) => {
      const m = target(spec);
      if (!m) return whole;
      const names = specifiers(list).map(([imported, local]) => `${m.alias(imported)} as ${local}`);
      return `import { ${names.join(', ')} } from ${JSON.stringify(relTo(m.into))};`;
    });
    out = out.replace(IMPORT_BARE, (whole, spec) => {
      const m = target(spec);
      return m ? `import ${JSON.stringify(relTo(m.into))};` : whole;
    });
    if (out !== text) await writeFile(file, out);
  }
  for (const f of moved.keys()) await rm(f);
  return { groups, deleted: [...moved.keys()] };
}
