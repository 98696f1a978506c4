// Typed slots: t(key, params) with a slot missing or unknown does not compile, and the slot list the checker reads
// (src/base/i18n/slots.generated.ts) is the one the catalog gives today.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SLOTS_FILE, slotsSource } from '../../scripts/lib/i18n-slots.mjs';

const repo = path.resolve(__dirname, '../..');

/** The type errors of a snippet that imports the i18n module, by line (1-based) of the snippet. */
function errorsOf(snippet: string): Map<number, string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-slots-'));
  try {
    const file = path.join(dir, 'probe.ts');
    const index = JSON.stringify(path.join(repo, 'src/base/i18n/index.js'));
    fs.writeFileSync(file, `import { t, tIn, type MessageKey } from ${index};\n${snippet}\n`);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: true,
      types: [],
      lib: ['lib.es2023.d.ts'],
    });
    const out = new Map<number, string>();
    for (const d of ts.getPreEmitDiagnostics(program)) {
      if (d.file?.fileName !== file || d.start === undefined) continue;
      const line = d.file.getLineAndCharacterOfPosition(d.start).line; // 0-based, and line 0 is the import
      out.set(line, ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    }
    return out;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('typed slots', () => {
  it('refuse a missing slot, an unknown slot, and slots for a message that takes none', () => {
    const errors = errorsOf(
      [
        "t('title.live', { command: 'check', host: 'gpu01' });", // 1: right
        "t('title.live', { command: 'check' });", // 2: host missing
        "t('title.live', { command: 'check', host: 'gpu01', user: 'x' });", // 3: user unknown
        "t('title.live');", // 4: no params at all
        "t('label.noProblems');", // 5: right
        "t('label.noProblems', { n: 1 });", // 6: takes none
        "t('reason.connections', { n: 2 });", // 7: right (a plural's slot)
        "tIn('zh', 'title.live', { command: 'check' });", // 8: tIn is checked the same way
        "const k = 'label.noProblems' as MessageKey; t(k, { any: 1 });", // 9: a key chosen at run time
      ].join('\n'),
    );
    expect([...errors.keys()].sort()).toEqual([2, 3, 4, 6, 8]);
    expect(errors.get(2)).toMatch(/host/);
    expect(errors.get(3)).toMatch(/user/);
  }, 60_000);

  it('read the slots from the catalog as it is now (npm run build rewrites the file)', async () => {
    expect(fs.readFileSync(SLOTS_FILE, 'utf8')).toBe(await slotsSource());
  });

  it('list a plural, a select and the slots inside their branches', () => {
    const text = fs.readFileSync(SLOTS_FILE, 'utf8');
    expect(text).toContain("  'reason.connections': 'n';\n");
    // {kind, select, plugin {plugin} other {wheel}}: the branches' words are text; {python} inside one is a slot
    expect(text).toContain("  'cfix.jax': 'driver' | 'kind' | 'major' | 'python' | 'version';\n");
    expect(text).toContain("  'title.live': 'command' | 'host';\n");
    expect(text).not.toContain("'label.noProblems'");
  });
});
