#!/usr/bin/env node
// A new check in one step: `npm run new-check -- <area>.<name>` writes the check's file, registers it in
// src/judge/checks/index.ts (after its area's last check), adds its title and messages to both catalogs (next to its
// area's keys), a page stub in docs/findings/ with its row in the index, and a test mirroring src/. What is left to
// write is marked TODO. Nothing is overwritten: an id already there is refused.
//   node scripts/new-check.mjs <area>.<name> [--root DIR] [--dry-run]
//   --root DIR   the checkout to write into (default: this one)
//   --dry-run    print what would be written and changed, write nothing
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** area of the id → the folder of src/judge/checks and the report category its checks take */
export const AREAS = {
  env: { folder: 'env', category: 'env' },
  gpu: { folder: 'gpu', category: 'gpu' },
  libs: { folder: 'libraries', category: 'libraries' },
  memory: { folder: 'memory', category: 'memory' },
  node: { folder: 'node', category: 'system' },
  python: { folder: 'python', category: 'python' },
  system: { folder: 'system', category: 'system' },
  versions: { folder: 'versions', category: 'versions' },
};

class UsageError extends Error {}

const camel = (name) => name.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
const words = (name) => name.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** Every file the check needs, as { file, text } to create and { file, edit } to change, for `id` in `root`. */
export function plan(id, root) {
  const m = /^([a-z]+)\.([a-z][a-z0-9]*(?:-[a-z0-9]+)*)$/.exec(id);
  if (!m) throw new UsageError(`"${id}" is not a check id like node.fans (<area>.<name>, lower case, hyphens)`);
  const [, area, name] = m;
  const a = AREAS[area];
  if (!a) throw new UsageError(`unknown area "${area}" (one of ${Object.keys(AREAS).join(', ')})`);
  const checkVar = `${camel(name)}Check`;
  const src = `src/judge/checks/${a.folder}/${name}.ts`;
  const test = `test/checks/${a.folder}/${name}.test.ts`;
  const page = `docs/findings/${id}.md`;
  for (const f of [src, test, page])
    if (fs.existsSync(path.join(root, f))) throw new UsageError(`${f} exists already: ${id} is taken`);
  const title = words(name);
  return [
    { file: src, text: checkFile(id, a.category, checkVar) },
    { file: test, text: testFile(id, a.folder, name, checkVar) },
    { file: page, text: pageFile(id, title) },
    { file: 'src/judge/checks/index.ts', edit: (t) => register(t, a.folder, name, checkVar) },
    {
      file: 'src/base/i18n/en.ts',
      edit: (t) => addKeys(t, area, id, [title, `TODO: what ${id} found`, 'TODO: the fix.']),
    },
    {
      file: 'src/base/i18n/zh.ts',
      edit: (t) => addKeys(t, area, id, [`${title}（待译）`, `TODO：${id} 发现的问题`, 'TODO：修复方法。']),
    },
    { file: 'docs/findings/README.md', edit: (t) => addRow(t, area, `| [\`${id}\`](${id}.md) | ${title} |`) },
  ];
}

function checkFile(id, category, checkVar) {
  return `// ${id}: TODO what it reads in the snapshot, and why a job fails when that is wrong (the rule, its why).
import { warn, type Finding } from '../../finding.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

export const ${checkVar}: Check = {
  id: '${id}',
  category: '${category}',
  get title() {
    return t('title.${id}');
  },
  evaluate(s: Snapshot): Finding[] {
    // TODO: read the facts the check needs from \`s\`; no finding means ok
    const found = s.nvidia.ok && s.nvidia.gpus.length < 0;
    if (!found) return [];
    return [
      warn({
        check: this.id,
        rootCause: null,
        message: t('${id}.found'),
        fix: { text: t('${id}.fix'), commands: [] },
      }),
    ];
  },
};
`;
}

function testFile(id, folder, name, checkVar) {
  return `// ${id}: TODO the verdicts on real snapshots (test/helpers/snapshots.ts plants a problem in a real capture).
import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../../src/judge/checks/index.js';
import { ${checkVar} } from '../../../src/judge/checks/${folder}/${name}.js';
import { realSnapshot } from '../../helpers/snapshots.js';

describe('${id}', () => {
  it('is registered once', () => {
    expect(ALL_CHECKS.filter((c) => c.id === '${id}')).toEqual([${checkVar}]);
  });

  it('finds nothing wrong on a healthy machine', () => {
    expect(${checkVar}.evaluate(realSnapshot('h200-idle'))).toEqual([]);
  });
});
`;
}

function pageFile(id, title) {
  return `# ${title} (\`${id}\`)

**What it checks.** TODO: the facts it reads and the line it draws.

**Why it matters.** TODO: what fails, with the message users see.

**How to fix.** TODO: the commands, and the manual steps.

See the finding's evidence (\`gpu-env-doctor check -v\`) and \`--json\` (its \`check\` field is \`${id}\`).
`;
}

/** The import after the folder's last import, the check after the folder's last check in ALL_CHECKS. */
function register(text, folder, name, checkVar) {
  const lines = text.split('\n');
  const imports = lines.flatMap((l, i) => (l.startsWith('import ') ? [i] : []));
  const ofFolder = imports.filter((i) => lines[i].includes(`from './${folder}/`));
  const at = (ofFolder.length > 0 ? ofFolder : imports).at(-1);
  if (at === undefined) throw new Error('src/judge/checks/index.ts: no imports found');
  const vars = ofFolder.map((i) => /import \{ (\w+) \}/.exec(lines[i])?.[1]).filter(Boolean);
  lines.splice(at + 1, 0, `import { ${checkVar} } from './${folder}/${name}.js';`);
  const start = lines.findIndex((l) => l.startsWith('export const ALL_CHECKS'));
  const end = lines.findIndex((l, i) => i > start && l.startsWith('];'));
  if (start < 0 || end < 0) throw new Error('src/judge/checks/index.ts: no ALL_CHECKS list found');
  let after = end - 1;
  for (let i = start + 1; i < end; i++) if (vars.includes(lines[i].trim().replace(/,$/, ''))) after = i;
  lines.splice(after + 1, 0, `  ${checkVar},`);
  return lines.join('\n');
}

/** The end of the entry that starts on line `i` (an entry may wrap: its value on the next lines). */
function entryEnd(lines, i) {
  let j = i;
  while (j < lines.length && !/,\s*$/.test(lines[j])) j++;
  return j;
}

/** The title after the area's last title, the messages after the area's last message key. */
function addKeys(text, area, id, [title, found, fix]) {
  const lines = text.split('\n');
  const q = (s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const lastKey = (prefix) => lines.findLastIndex((l) => l.trimStart().startsWith(`'${prefix}`));
  const msgAt = lastKey(`${area}.`);
  const msgLines = [`  '${id}.found': ${q(found)},`, `  '${id}.fix': ${q(fix)},`];
  // the messages first: inserting them does not move the titles, which come earlier in the catalog
  const titleAt = lastKey(`title.${area}.`);
  const ops = [
    [msgAt >= 0 ? entryEnd(lines, msgAt) : lines.findLastIndex((l) => l.startsWith('}')) - 1, msgLines],
    [titleAt >= 0 ? entryEnd(lines, titleAt) : -1, [`  'title.${id}': ${q(title)},`]],
  ].sort((x, y) => y[0] - x[0]);
  for (const [at, add] of ops) {
    if (at < 0) throw new Error(`no key of the area ${area} to put ${id}'s keys next to`);
    lines.splice(at + 1, 0, ...add);
  }
  return lines.join('\n');
}

/** The page's row after the area's last row of the findings index (or at the table's end). */
function addRow(text, area, row) {
  const lines = text.split('\n');
  const rows = lines.flatMap((l, i) => (l.startsWith('| [`') ? [i] : []));
  const ofArea = rows.filter((i) => lines[i].startsWith(`| [\`${area}.`));
  const at = (ofArea.length > 0 ? ofArea : rows).at(-1);
  if (at === undefined) throw new Error('docs/findings/README.md: no table of pages found');
  lines.splice(at + 1, 0, row);
  return lines.join('\n');
}

function main(argv) {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  let root = repo;
  let dry = false;
  const ids = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dry-run') dry = true;
    else if (a === '--root') {
      if (!argv[i + 1]) throw new UsageError('--root needs a folder');
      root = path.resolve(argv[++i]);
    } else if (a.startsWith('-')) throw new UsageError(`unknown option ${a} (use --root DIR, --dry-run)`);
    else ids.push(a);
  }
  if (ids.length !== 1) throw new UsageError('name one check: npm run new-check -- <area>.<name> (e.g. node.fans)');
  const steps = plan(ids[0], root);
  // every edit is computed before anything is written: a step that fails leaves the checkout as it was
  const results = steps.map((s) => {
    const target = path.join(root, s.file);
    if (s.text !== undefined) return { ...s, content: s.text, verb: 'create' };
    return { ...s, content: s.edit(fs.readFileSync(target, 'utf8')), verb: 'change' };
  });
  for (const r of results) {
    if (dry) {
      console.log(`would ${r.verb} ${r.file}`);
      continue;
    }
    const target = path.join(root, r.file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, r.content);
    console.log(`${r.verb === 'create' ? 'created' : 'changed'} ${r.file}`);
  }
  if (!dry) console.log(`next: the TODOs in these files, then npx vitest run ${results[1].file}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    console.error(`new-check: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(err instanceof UsageError ? 2 : 1);
  }
}
