// Every JSON document the tool writes says which version of its shape it is (schemaVersion), in every command that
// writes one: --json, --format json, procs --watch --json (one document a line), run --report FILE.json. The
// documents that judge the machine (check, run) carry the summary a script reads first.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCEPTS } from '../../src/cli/options.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';

const ROOT = path.resolve(__dirname, '../..');
const HELD = path.join(ROOT, 'examples/snapshots/h200-memory-held.json');
const IDLE = path.join(ROOT, 'examples/snapshots/h200-idle.json');
const LOG = path.join(ROOT, 'test/fixtures/h200/logs/conv-keep1200-bs64.txt');
const dir = tempDir('ged-json-every-');

/** per command, the ways it prints JSON on stdout */
const CASES: Record<string, string[][]> = {
  check: [
    ['check', '--from', HELD, '--json'],
    ['check', '--from', IDLE, '--format', 'json'],
  ],
  snapshot: [['snapshot', '--from', HELD, '--json']],
  explain: [
    ['explain', LOG, '--no-machine', '--json'],
    ['explain', LOG, '--from', HELD, '--format', 'json'],
  ],
  diff: [
    ['diff', HELD, IDLE, '--json'],
    ['diff', HELD, IDLE, '--format', 'json'],
  ],
  fleet: [
    ['fleet', HELD, IDLE, '--json'],
    ['fleet', HELD, '--format', 'json'],
  ],
  libs: [
    ['libs', '--from', HELD, '--json'],
    ['libs', '--from', HELD, '--format', 'json'],
  ],
  procs: [['procs', '--from', HELD, '--json']],
  fix: [['fix', '--from', HELD, '--json']],
  compat: [
    ['compat', 'torch==2.1.0+cu121', '--no-machine', '--json'],
    ['compat', 'torch==2.1.0+cu121', '--from', IDLE, '--json'],
  ],
};

describe('schemaVersion in every JSON document', () => {
  it('covers every command that takes --json', () => {
    const withJson = Object.entries(ACCEPTS)
      .filter(([, opts]) => opts.includes('json'))
      .map(([name]) => name)
      .sort();
    expect(withJson).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.values(CASES).flat())('%s %s %s %s %s', (...args) => {
    const r = runCli(args);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout);
    expect(doc.schemaVersion).toBe(1);
    // the shapes of the contract: the named top-level fields
    const required: Record<string, string[]> = {
      check: ['snapshot', 'findings', 'summary'],
      explain: ['causes'],
      libs: ['consumers', 'copies', 'loaded'],
      compat: ['framework', 'version', 'requires', 'sources'],
      fleet: ['machines', 'groups', 'outliers'],
    };
    for (const k of required[args[0]!] ?? []) expect(doc).toHaveProperty(k);
  });

  it('check: the summary gives the counts and the exit code check returns', () => {
    const r = runCli(['check', '--from', HELD, '--json', '--fail-on', 'warn']);
    const { summary } = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ errors: 0, warnings: 1, unknown: 0, failOn: 'warn', exitCode: 1 });
    expect(r.code).toBe(1);
  });

  it('procs --watch --json: every line a document with its schemaVersion', () => {
    const r = runCli(['procs', '--watch', '--count', '2', '--interval', '0.1', '--json'], { cwd: dir });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(JSON.parse(l).schemaVersion).toBe(1);
  });

  it('run --report FILE.json: schemaVersion and the summary, with the code run exits with (the job’s)', () => {
    const report = path.join(dir, 'run.json');
    const r = runCli(['run', '--report', report, '--', 'sh', '-c', 'exit 3'], { cwd: dir });
    expect(r.code).toBe(3);
    const doc = JSON.parse(fs.readFileSync(report, 'utf8'));
    expect(doc.schemaVersion).toBe(1);
    expect(doc.summary).toMatchObject({ exitCode: 3 });
    expect(doc.summary.checks).toBe(new Set(doc.findings.map((f: { check: string }) => f.check)).size);
    expect(doc.summary.errors).toBe(
      doc.findings.filter(
        (f: { severity: string; status: string }) => f.severity === 'error' && f.status !== 'ok' && f.status !== 'skip',
      ).length,
    );
  });
});
