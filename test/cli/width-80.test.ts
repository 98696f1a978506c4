// Every command's terminal output fits 80 columns, over every captured log and every snapshot: no line wider than
// 80 (display width: a Chinese character counts two) except a line that is one unbreakable token (a URL, a path,
// a command to copy, shown after "$ "). The error text is wrapped under its gutter, never cut.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, test } from 'vitest';
import { displayWidth } from '../../src/report/layout.js';
import { runCli } from '../helpers/cli.js';

const ROOT = path.resolve(__dirname, '../..');
const WIDTH = 80;
const SNAPSHOTS = [
  ...['examples/snapshots', 'test/fixtures/snapshots'].flatMap((d) =>
    fs
      .readdirSync(path.join(ROOT, d))
      .filter((f) => f.endsWith('.json'))
      .map((f) => path.join(ROOT, d, f)),
  ),
];
const LOGS = ['test/fixtures/h200/logs', 'test/fixtures/logs-extra', 'test/fixtures/logs-zh'].flatMap((d) =>
  fs
    .readdirSync(path.join(ROOT, d))
    .filter((f) => /\.(txt|log)$/.test(f))
    .map((f) => path.join(ROOT, d, f)),
);

/** the lines wider than WIDTH that are not a single unbreakable token or a command to copy */
function overflowing(out: string): string[] {
  return out.split('\n').filter((l) => {
    if (displayWidth(l) <= WIDTH) return false;
    // a command line: "$ cmd" after an indent, a gutter or a mark
    if (/^\s*(?:\S+\s+)?\$ /.test(l)) return false;
    const indent = displayWidth(/^[\s│]*/.exec(l)![0]);
    const tokens = l.trim().split(/\s+/);
    // one token too long for any line (a path, a URL) stands alone after its hanging indent
    return !tokens.some((tok) => indent + displayWidth(tok) + 4 > WIDTH) || tokens.length > 3;
  });
}

const env = { COLUMNS: String(WIDTH) };
const held = SNAPSHOTS.find((s) => s.endsWith('h200-memory-held.json'))!;

describe.each(['en', 'zh'])('at 80 columns (%s)', (lang) => {
  const e = { ...env, LANG: lang === 'zh' ? 'zh_CN.UTF-8' : 'C.UTF-8' };
  test.each(LOGS.map((l) => path.relative(ROOT, l)))('explain %s', (log) => {
    for (const extra of [['--no-machine'], ['--from', held], ['--no-machine', '-v']]) {
      const r = runCli(['explain', path.join(ROOT, log), ...extra], { env: e });
      expect(r.stderr).toBe('');
      expect(overflowing(r.stdout), `explain ${log} ${extra.join(' ')}`).toEqual([]);
    }
  });

  test.each(SNAPSHOTS.map((s) => path.relative(ROOT, s)))('check, libs, compat, diff, fix with --from %s', (snap) => {
    const abs = path.join(ROOT, snap);
    const runs: string[][] = [
      ['check', '--from', abs],
      ['check', '--from', abs, '-v'],
      ['libs', '--from', abs],
      ['compat', 'torch==2.1.0+cu121', '--from', abs],
      ['compat', 'tensorflow==2.15.0', '--from', abs],
      ['diff', abs, held],
      ['fix', '--from', abs],
    ];
    for (const args of runs) {
      const r = runCli(args, { env: e });
      expect(overflowing(r.stdout), args.join(' ')).toEqual([]);
    }
  });

  test('fleet over the examples and the fixtures', () => {
    for (const dir of ['examples/snapshots', 'test/fixtures/snapshots']) {
      const r = runCli(['fleet', path.join(ROOT, dir)], { env: e });
      expect(overflowing(r.stdout), `fleet ${dir}`).toEqual([]);
    }
  });
});

test('the rule can fail: a long prose line is caught, a lone path and a command are not', () => {
  expect(overflowing(`${'word '.repeat(30)}`)).toHaveLength(1);
  expect(overflowing(`    /${'a'.repeat(90)}/lib.so`)).toEqual([]);
  expect(
    overflowing(`  $ pip install torch --index-url https://download.pytorch.org/whl/cu132 --extra-index-url x`),
  ).toEqual([]);
});
