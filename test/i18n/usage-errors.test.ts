// Usage errors are translated: a refusal is one line on stderr, exit 2, in the chosen language (--lang, else the
// locale), worded from the catalog like every other sentence. Only data stays English: --json/--format json
// output (its refusals after the arguments were read included) and the MCP server's answers to its client.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Lang, type MessageKey, tIn } from '../../src/base/i18n/index.js';
import { runCli } from '../helpers/cli.js';

const SRC = path.resolve(__dirname, '../../src');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

/** `new UsageError(` followed by a string or template literal: a sentence that bypasses the catalog. */
function literalRefusals(file: string): number {
  return [...readFileSync(file, 'utf8').matchAll(/new UsageError\(\s*(['"`])/g)].length;
}

/**
 * Refusals worded in English below cli/ and commands/, by file: none. The layers below raise an InputError (a key
 * and its params) that main() words in the chosen language.
 */
const BELOW_CLI: Record<string, number> = {};
/** The MCP server's refusals of a tool call go to its client as protocol data: English, like --json. */
const DATA: Record<string, number> = { 'commands/mcp.ts': 2 };

/** The catalog's sentence for a case (a key chosen from the table, so its slots are checked at run time). */
const say = (lang: Lang, key: MessageKey, params: Record<string, string | number> = {}) =>
  tIn(lang, key, params as never);

describe('usage errors', () => {
  it('are worded from the catalog in cli/ and commands/ (the MCP protocol apart), and the rest is listed', () => {
    const found: Record<string, number> = {};
    for (const f of tsFiles(SRC)) {
      const n = literalRefusals(f);
      if (n > 0) found[path.relative(SRC, f).split(path.sep).join('/')] = n;
    }
    expect(found).toEqual({ ...BELOW_CLI, ...DATA });
  });

  it('are never raised as a UsageError by the pure domain (judge/): it raises InputError, a key and its params', () => {
    const raising = tsFiles(path.join(SRC, 'judge')).filter((f) => /new UsageError\(/.test(readFileSync(f, 'utf8')));
    expect(raising.map((f) => path.relative(SRC, f))).toEqual([]);
  });

  // a --from file that nests too deep: refused by the snapshot loader, below cli/
  const deep = path.join(mkdtempSync(path.join(os.tmpdir(), 'ged-usage-')), 'deep.json');
  writeFileSync(deep, `${'['.repeat(100)}${']'.repeat(100)}`);

  // each refusal of a command, the message it must give, in both languages
  const CASES: { args: string[]; key: MessageKey; params?: Record<string, string | number> }[] = [
    { args: ['check', 'extra'], key: 'usage.check.noArgs', params: { arg: 'extra' } },
    { args: ['fix', 'extra'], key: 'usage.fix.noArgs', params: { arg: 'extra' } },
    { args: ['procs', '--count', '2'], key: 'usage.procs.watchOnly' },
    { args: ['serve', '--port', 'x'], key: 'usage.serve.port', params: { value: 'x' } },
    { args: ['compat'], key: 'usage.compat.needsSpec' },
    { args: ['compat', 'a', 'b'], key: 'usage.compat.oneSpec', params: { n: 2 } },
    { args: ['explain', '-', '-'], key: 'usage.explain.stdinOnce' },
    { args: ['libs', '--pid', 'x'], key: 'usage.libs.pid', params: { value: 'x' } },
    { args: ['run'], key: 'usage.run.none' },
    { args: ['completion'], key: 'usage.completion.needsShell' },
    { args: ['completion', 'tcsh'], key: 'usage.completion.unknownShell', params: { shell: 'tcsh' } },
    { args: ['diff', 'a', 'b', 'c'], key: 'usage.diff.count', params: { n: 3 } },
    { args: ['preamble'], key: 'usage.preamble.needsFramework', params: { list: 'torch, tensorflow, jax' } },
    { args: ['snapshot', 'extra'], key: 'usage.snapshot.noArgs', params: { arg: 'extra' } },
    { args: ['check', '--ignore', 'nope.nope'], key: 'usage.config.unknownIgnored' },
    { args: ['check', '--lang', 'xx'], key: 'error.lang', params: { value: 'xx' } },
    // raised below cli/ (judge/compat, gather/snapshot) as an InputError, worded by main()
    { args: ['compat', 'torch'], key: 'usage.spec.noVersion', params: { spec: 'torch' } },
    { args: ['compat', 'foo==1'], key: 'usage.spec.unknownFramework', params: { name: 'foo' } },
    { args: ['compat', 'torch==2.x'], key: 'usage.spec.badVersion', params: { version: '2.x', spec: 'torch==2.x' } },
    { args: ['compat', 'torch==9.9'], key: 'usage.spec.unknownVersion' },
    { args: ['check', '--from', deep], key: 'usage.from.tooDeep', params: { file: deep, max: '64' } },
  ];

  // the system's reason is a word of the catalog too: no English "no such file" inside a Chinese refusal
  it.each(['en', 'zh'] as const)('a missing --from file or log gives its reason in the language (%s)', (lang) => {
    const missing = '/nonexistent/snapshot.json';
    const reason = say(lang, 'file.err.noSuchFile');
    const from = runCli(['check', '--from', missing, '--lang', lang], { env: { HOME: '/nonexistent' } });
    expect(from.code).toBe(2);
    expect(from.stderr.trim()).toBe(`gpu-env-doctor: ${say(lang, 'usage.file.cannotRead', { file: missing, reason })}`);
    const log = runCli(['explain', missing, '--lang', lang], { env: { HOME: '/nonexistent' } });
    expect(log.code).toBe(2);
    expect(log.stderr.trim()).toBe(
      `gpu-env-doctor: ${say(lang, 'explain.err.cannotRead', { file: missing, why: reason })}`,
    );
  });

  for (const lang of ['en', 'zh'] as const) {
    it(`come as one line in ${lang === 'en' ? 'English' : 'Chinese'}, exit 2, for every command's refusal`, () => {
      for (const c of CASES) {
        const args = c.key === 'error.lang' ? c.args : [...c.args, '--lang', lang];
        const r = runCli(args, { env: { HOME: '/nonexistent' } });
        expect(r.code, args.join(' ')).toBe(2);
        const lines = r.stderr.split('\n').filter((l) => l !== '');
        expect(lines, args.join(' ')).toHaveLength(1);
        if (c.key === 'usage.config.unknownIgnored') {
          // the guess depends on the registry: the sentence up to it is the catalog's
          const head = say(lang, c.key, { id: 'nope.nope', hasGuess: 'no', guess: '' }).split('"nope.nope"')[0]!;
          expect(lines[0], args.join(' ')).toContain(head);
        } else if (c.key === 'usage.spec.unknownVersion') {
          // the versions known depend on the data: the sentence up to them is the catalog's
          const params = { framework: 'torch', version: '9.9', oldest: '\u0000', newest: '' };
          expect(lines[0], args.join(' ')).toContain(say(lang, c.key, params).split('\u0000')[0]!);
        } else if (c.key === 'error.lang') {
          expect(lines[0]).toBe(`gpu-env-doctor: ${say('en', c.key, { value: 'xx' })}`);
        } else {
          expect(lines[0], args.join(' ')).toBe(`gpu-env-doctor: ${say(lang, c.key, c.params)}`);
        }
        // Chinese refusals are Chinese: full-width punctuation or Han characters, not an English sentence
        if (lang === 'zh' && c.key !== 'error.lang') expect(lines[0], args.join(' ')).toMatch(/[\u4e00-\u9fff]/);
      }
    }, 120_000);
  }
});
