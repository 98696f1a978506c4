// `fleet` as users run it: the built CLI over a folder of node snapshots, some broken.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeName, nodeSnapshot, PLANTED } from '../../bench/fleet-generate.js';
import { CSS as REPORT_CSS } from '../../src/report/html/style.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';
import { realSnapshot } from './h200-snapshot.js';

const base = { idle: realSnapshot('h200-idle.json'), held: realSnapshot('h200-memory-held.json') };
const N = 130;
let dir: string;

beforeAll(() => {
  dir = tempDir('ged-fleet-');
  const nodes = path.join(dir, 'nodes');
  for (let i = 0; i < N; i++) {
    const s = nodeSnapshot(i, base);
    if (i === 7) s.host.name = '<script>alert("x")</script>';
    const sub = path.join(nodes, `rack-${Math.floor(i / 40)}`);
    fs.mkdirSync(sub, { recursive: true });
    // Every third node sent its whole `check --json` output instead of a bare snapshot.
    const doc = i % 3 === 0 ? { schemaVersion: 1, snapshot: s, findings: [] } : s;
    fs.writeFileSync(path.join(sub, `${nodeName(i)}.json`), JSON.stringify(doc));
  }
  fs.writeFileSync(path.join(nodes, 'broken.json'), '{"schemaVersion": 1, "host": ');
  fs.writeFileSync(path.join(nodes, 'other.json'), '{"hello": "world"}');
  fs.writeFileSync(path.join(nodes, 'empty.json'), '');
  fs.writeFileSync(path.join(nodes, 'README.txt'), 'not a snapshot, not read');
});

describe('gpu-env-doctor fleet', () => {
  it('--json: machines, groups, outliers and findings in the contract shape; bad files skipped with reasons', () => {
    const r = runCli(['fleet', 'nodes', '--json'], { cwd: dir });
    expect(r.stderr).toContain('3 files skipped');
    expect(r.code).toBe(1); // the nodes with a leftover process holding the memory have errors
    const out = JSON.parse(r.stdout);
    expect(out.machines).toBe(N);
    expect(out.inputs.files).toBe(N + 3);
    expect(out.inputs.skipped.map((s: { file: string }) => s.file).sort()).toEqual([
      'nodes/broken.json',
      'nodes/empty.json',
      'nodes/other.json',
    ]);
    expect(out.inputs.skipped.find((s: { file: string }) => s.file === 'nodes/broken.json').reason).toMatch(/not JSON/);
    expect(out.inputs.skipped.find((s: { file: string }) => s.file === 'nodes/other.json').reason).toMatch(
      /not a gpu-env-doctor snapshot/,
    );
    // contract: groups[].key/machines, outliers[].machine/differs[].fact/value/usual, findings[].check/machines
    expect(out.groups[0]).toMatchObject({
      key: expect.stringContaining('driver 580.159.04'),
      machines: expect.any(Array),
    });
    expect(out.outliers.map((o: { machine: string }) => o.machine).sort()).toEqual(
      Object.values(PLANTED)
        .map((p) => nodeName(p.index))
        .sort(),
    );
    expect(out.outliers[0].differs[0]).toEqual({
      fact: 'driver',
      label: 'NVIDIA driver',
      impact: 'critical',
      value: '570.172.08',
      usual: '580.159.04',
    });
    const headroom = out.findings.find((f: { check: string }) => f.check === 'memory.headroom');
    expect(headroom.machines).toEqual([49, 99].map(nodeName));
  });

  it('terminal: configurations, outliers with usual values, findings, skipped files', () => {
    const r = runCli(['fleet', 'nodes'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`Fleet: ${N} machines from ${N + 3} files, 3 skipped`);
    expect(r.stdout).toMatch(/129 × driver 580\.159\.04 · 1× NVIDIA H200/);
    expect(r.stdout).toMatch(/critical +driver: 570\.172\.08 \(usual: 580\.159\.04\)/);
    expect(r.stdout).toMatch(/wheel\[nvidia-cudnn-cu13\]: \(not set\) \(usual: 9\.19\.0\.56\)/);
    expect(r.stdout).toMatch(/! memory\.headroom on 2 machines: /);
    expect(r.stdout).toContain('skipped nodes/broken.json');
  });

  it('--fail-on: a fleet whose nodes only have warnings passes at "error"', () => {
    const sub = path.join(dir, 'nodes', 'rack-1');
    const r = runCli(
      ['fleet', path.join(sub, `${nodeName(40)}.json`), path.join(sub, `${nodeName(41)}.json`), '--json'],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).machines).toBe(2);
  });

  it('--html: a self-contained page with every value escaped', () => {
    const r = runCli(['fleet', 'nodes', '--html', 'fleet.html'], { cwd: dir });
    expect(r.code).toBe(1);
    const html = fs.readFileSync(path.join(dir, 'fleet.html'), 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)=["']?https?:/i);
    expect(html).toContain('<h2>Outliers</h2>');
    expect(html).toContain('570.172.08');
    // the same page style as the other reports: their stylesheet (light, dark, print), fits a phone
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain(REPORT_CSS);
    expect(html).toMatch(/@media \(prefers-color-scheme:dark\)\{:root\{--fg:#e6edf3/);
    // on a phone each row is a card of labelled cells, and a long value wraps instead of widening the page
    expect(html).toMatch(
      /@media \(max-width:640px\)\{table\.stack,table\.stack tbody,table\.stack tr,table\.stack td\{display:block/,
    );
    expect(html).toMatch(/<td data-label="impact"><span class="impact-critical">/);
    // the header as the other reports have it: a meta line with plurals right, a verdict box
    expect(html).toMatch(/<p class="meta">133 files read, 3 skipped · 2 configurations · 4 outliers · generated /);
    expect(html).toMatch(/<p class="verdict (warn|fail)" id="verdict">/);
    // severities as marks with their words, never the raw "warn"
    expect(html).not.toMatch(/<td[^>]*>warn<\/td>/);
  });

  it('--html in Chinese: the same page, in Chinese', () => {
    const r = runCli(['fleet', 'nodes', '--html', 'fleet-zh.html', '--lang', 'zh'], { cwd: dir });
    expect(r.code).toBe(1);
    const html = fs.readFileSync(path.join(dir, 'fleet-zh.html'), 'utf8');
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain(REPORT_CSS);
    expect(html).toMatch(/此文件自包含/);
  });

  it("a refused snapshot's reason: where it is wrong (zod's verdict, loaded only then), or that it is too deep", () => {
    const bad = tempDir('ged-fleet-bad-');
    const good = nodeSnapshot(1, base);
    fs.writeFileSync(path.join(bad, 'good.json'), JSON.stringify(good));
    fs.writeFileSync(path.join(bad, 'wrong.json'), JSON.stringify({ ...good, nvidia: { ok: 'yes' } }));
    const gpus = (good.nvidia as { gpus: object[] }).gpus;
    let nested: unknown = 1;
    for (let i = 0; i < 61; i++) nested = [nested];
    // a key the schema does not name, kept as read: measured against the depth bound all the same
    const gpu = { ...gpus[0], future: nested };
    fs.writeFileSync(path.join(bad, 'deep.json'), JSON.stringify({ ...good, nvidia: { ...good.nvidia, gpus: [gpu] } }));
    const r = runCli(['fleet', bad, '--json']);
    const skipped = JSON.parse(r.stdout).inputs.skipped as { file: string; reason: string }[];
    const reasonOf = (f: string) => skipped.find((s) => s.file.endsWith(f))?.reason;
    expect(reasonOf('wrong.json')).toMatch(/not a gpu-env-doctor snapshot.*\bnvidia\.ok\b/);
    expect(reasonOf('deep.json')).toBe('is not a gpu-env-doctor snapshot');
    expect(skipped).toHaveLength(2);
    const deep = runCli(['check', '--from', path.join(bad, 'deep.json')]);
    expect(deep.stderr).toMatch(/deep\.json is not a gpu-env-doctor snapshot: it nests deeper than 64 levels\n$/);
    // the same verdicts, with zod's whole message, where one snapshot is read
    const one = runCli(['check', '--from', path.join(bad, 'wrong.json')]);
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/is not a gpu-env-doctor snapshot: \S.* at nvidia\.ok\n$/);
  });

  it('exit 2 with one line when nothing can be read', () => {
    const missing = runCli(['fleet', 'no-such-folder'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('no snapshot could be read (no-such-folder: no such file or folder)');
    const broken = runCli(['fleet', 'nodes/broken.json', 'nodes/empty.json'], { cwd: dir });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/no snapshot could be read \(nodes\/broken\.json: .*; and 1 more\)/);
    expect(runCli(['fleet'], { cwd: dir }).code).toBe(2);
  });

  it('a usage error after the worker was started early (a folder given) ends at once, with one line', () => {
    fs.writeFileSync(path.join(dir, 'bad-config.json'), 'not json');
    const started = Date.now();
    const r = runCli(['fleet', 'nodes', '--config', 'bad-config.json'], { cwd: dir, timeoutMs: 20_000 });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('bad-config.json');
    // the worker waiting for its inputs does not hold the process (spawnSync's limit would end it: code null)
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
