// Layout decides by structure, never by the words: a check with nothing to say carries `bare`, and the terminal,
// libs and HTML reports skip it in either language. The same snapshot in English and Chinese gives the same areas
// with the same marks, and no bare "<title>: ok" line is shown as an area's answer in either.
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { ALL_CHECKS } from '../../src/judge/checks/index.js';
import { runChecks } from '../../src/judge/checks/run-checks.js';
import { isBareOk } from '../../src/judge/checks/check.js';
import { readFileSync } from 'node:fs';

const SNAPS = ['h200-idle.json', 'h200-memory-held.json', 'h200-orphan-held.json'].map((f) =>
  path.resolve(__dirname, '../../examples/snapshots', f),
);
const areaMarks = (out: string) =>
  out
    .split('\n')
    .filter((l) => /^\[.\] /.test(l))
    .map((l) => l.slice(0, 3));

describe('layout by structure', () => {
  it('marks a check with nothing to say as bare, whatever the language', () => {
    const s = JSON.parse(readFileSync(SNAPS[0]!, 'utf8'));
    const found = runChecks(ALL_CHECKS, s).flatMap((r) => r.findings);
    const bare = found.filter((f) => isBareOk(f));
    expect(bare.length).toBeGreaterThan(0);
    for (const f of bare) expect(f.status).toBe('ok');
    expect(found.filter((f) => f.status !== 'ok').every((f) => !isBareOk(f))).toBe(true);
  });

  it.each(SNAPS)('the same areas and marks in English and Chinese: %s', (snap) => {
    const en = runCli(['check', '--from', snap, '--lang', 'en']).stdout;
    const zh = runCli(['check', '--from', snap, '--lang', 'zh']).stdout;
    expect(areaMarks(en).length).toBeGreaterThan(3);
    expect(areaMarks(zh)).toEqual(areaMarks(en));
    // an area line never answers with the runner's bare line
    for (const l of en.split('\n').filter((x) => /^\[.\] /.test(x))) expect(l).not.toMatch(/: ok$/);
    for (const l of zh.split('\n').filter((x) => /^\[.\] /.test(x))) expect(l).not.toMatch(/：正常$/);
  });
});
