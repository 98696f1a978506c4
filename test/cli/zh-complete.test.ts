// In Chinese mode every sentence the tool prints comes from the zh catalog: no English sentence in the output of
// any command over the captured logs and snapshots, outside what is not prose (commands after "$ ", log lines
// under the evidence gutter, quoted messages, paths, versions and identifiers).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';

const ROOT = path.resolve(__dirname, '../..');
const SNAPSHOTS = ['examples/snapshots', 'test/fixtures/snapshots'].flatMap((d) =>
  fs
    .readdirSync(path.join(ROOT, d))
    .filter((f) => f.endsWith('.json'))
    .map((f) => path.join(d, f)),
);
const LOGS = ['test/fixtures/h200/logs', 'test/fixtures/logs-extra', 'test/fixtures/logs-zh'].flatMap((d) =>
  fs
    .readdirSync(path.join(ROOT, d))
    .filter((f) => /\.(txt|log)$/.test(f))
    .map((f) => path.join(d, f)),
);

/** the English sentences (four or more English words in a row) left in zh output, outside code and quotes */
function englishIn(out: string): string[] {
  const found: string[] = [];
  let fence = false;
  for (const raw of out.split('\n')) {
    // a Markdown code block (log lines, commands)
    if (/^\s*```/.test(raw)) fence = !fence;
    if (fence || /^\s*```/.test(raw)) continue;
    // a command to copy, a log line under the evidence gutter or with the line it was read from
    if (/^\s*(?:\S+\s+)?\$ /.test(raw) || /│/.test(raw) || /[(（]第 \d+ 行[)）]\s*$/.test(raw)) continue;
    const prose = raw
      .replace(/`[^`]*`/g, ' ')
      .replace(/"[^"]*"|“[^”]*”|「[^」]*」|'[^']*'/g, ' ')
      // a comment after a command, a path, a URL, an option, a key=value, a version
      .replace(/#\s.*$/, ' ')
      .replace(/\S*[/\\=<>@]\S*/g, ' ')
      .replace(/\S*\d\S*/g, ' ');
    // a sentence, not a list of names: four words in a row, one of them a word only sentences use
    const m = /\b[A-Za-z][a-z]*(?: +[a-z]+){3,}\b/.exec(prose);
    if (
      m &&
      /\b(?:the|a|an|is|are|of|to|in|on|for|with|not|and|or|from|by|that|this|it|was|has|have|can|no|if|its)\b/i.test(
        m[0],
      )
    )
      found.push(raw.trim());
  }
  return found;
}

const zh = { LANG: 'zh_CN.UTF-8', COLUMNS: '200' };

describe('zh output is Chinese', () => {
  test.each(LOGS)('explain %s', (log) => {
    for (const extra of [
      ['--no-machine'],
      ['--from', 'examples/snapshots/h200-memory-held.json'],
      ['--no-machine', '--markdown'],
    ]) {
      const r = runCli(['explain', path.join(ROOT, log), ...extra], { env: zh, cwd: ROOT });
      expect(englishIn(r.stdout), `explain ${log} ${extra.join(' ')}`).toEqual([]);
    }
  });

  test.each(SNAPSHOTS)('check, libs, compat, diff, procs, fix with --from %s', (snap) => {
    const runs: string[][] = [
      ['check', '--from', snap],
      ['check', '--from', snap, '-v'],
      ['check', '--from', snap, '--markdown'],
      ['libs', '--from', snap],
      ['compat', 'torch==2.1.0+cu121', '--from', snap],
      ['diff', snap, 'examples/snapshots/h200-idle.json'],
      ['procs', '--from', snap],
    ];
    for (const args of runs) {
      const r = runCli(args, { env: zh, cwd: ROOT });
      expect(englishIn(r.stdout), args.join(' ')).toEqual([]);
    }
  });

  test('fleet', () => {
    const r = runCli(['fleet', 'examples/snapshots'], { env: zh, cwd: ROOT });
    expect(englishIn(r.stdout)).toEqual([]);
  });

  test('an I/O error is said in Chinese', () => {
    const r = runCli(['explain', 'nosuch.txt', '--no-machine'], { env: zh, cwd: ROOT });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/cannot read|no such file/);
  });

  test('the detector can fail', () => {
    expect(englishIn('修复：Windows finds a DLL in the application folder')).toHaveLength(1);
    expect(englishIn('  $ pip install the thing you need now')).toEqual([]);
    expect(englishIn('    │ RuntimeError: this is the log itself')).toEqual([]);
  });
});
