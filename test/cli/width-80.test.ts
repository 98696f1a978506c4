// Every command's terminal output fits 80 columns, over every captured log and every snapshot: no line wider than
// 80 (display width: a Chinese character counts two). A path or URL longer than a line is broken at its separators;
// a command to copy (after "$ ") is broken only before an argument, with " \\", so the only line allowed over is a
// command's line holding one argument longer than any line (a quoted `python -c` program).
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

/** the lines wider than WIDTH, except a command's line (after "$ ", or after a line ending " \\") that holds one
 *  argument too long for any line */
function overflowing(out: string): string[] {
  let continued = false;
  return out.split('\n').filter((l) => {
    const command = continued || /^\s*(?:\S+\s+)?\$ /.test(l);
    continued = command && l.endsWith(' \\');
    if (displayWidth(l) <= WIDTH) return false;
    if (!command) return true;
    const words = l
      .replace(/^\s*(?:\S+\s+)?\$ /, '')
      .replace(/ \\$/, '')
      .trim();
    // one argument (a quoted program holds spaces): the line could not be broken where the shell ignores it
    return !/^(?:"[^"]*"|'[^']*'|\S+)$/.test(words);
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

test('the rule can fail: a long prose line, a lone path and a long command are caught; a long argument is not', () => {
  expect(overflowing(`${'word '.repeat(30)}`)).toHaveLength(1);
  expect(overflowing(`    /${'a'.repeat(90)}/lib.so`)).toHaveLength(1);
  expect(
    overflowing(`  $ pip install torch --index-url https://download.pytorch.org/whl/cu132 --extra-index-url x`),
  ).toHaveLength(1);
  // a quoted program that could go to a line of its own must
  expect(
    overflowing(`      $ python -c "import torch; print(torch.cuda.get_device_capability(), torch.version.cuda)"`),
  ).toHaveLength(1);
  expect(
    overflowing(
      `  $ python -c \\\n    "import torch; print(torch.cuda.get_device_capability(), torch.version.cuda, 1, 2, 3)"`,
    ),
  ).toEqual([]);
});
