// One screen never contradicts itself: procs' PARENT column and its verdict line; compat's CUDA build against the
// driver's own CUDA (minor-version compatibility said where it applies); explain -v's percentages; and --deep offered
// only by the commands whose output uses the smoke test.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCEPTS } from '../../src/cli/options.js';
import { minorCompatNote } from '../../src/commands/compat.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';

const ROOT = path.resolve(__dirname, '../..');
const SNAPSHOTS = [
  ...fs.readdirSync(path.join(ROOT, 'examples/snapshots')).map((f) => path.join(ROOT, 'examples/snapshots', f)),
  ...fs
    .readdirSync(path.join(ROOT, 'test/fixtures/snapshots'))
    .map((f) => path.join(ROOT, 'test/fixtures/snapshots', f)),
  path.join(ROOT, 'test/fixtures/redact/h200-memory-held-full.json'),
].filter((f) => f.endsWith('.json'));
const LOGS = path.join(ROOT, 'test/fixtures/h200/logs');
const dir = tempDir('ged-one-screen-');

describe("procs: the PARENT column and the verdict line say the same of the process's parent", () => {
  const ADOPTED = /its parent process has exited/;
  const NOT_SHOWN = /nothing shows that the process that started it has exited/;
  it.each(SNAPSHOTS)('%s', (snap) => {
    const out = runCli(['procs', '--from', snap]).stdout;
    const lines = out.split('\n');
    const head = lines.findIndex((l) => /^GPU +PID +USER/.test(l));
    if (head < 0) return; // no process holds GPU memory: no table
    const cols = lines[head]!.split(/ {2,}/);
    const parentCol = cols.indexOf('PARENT');
    const rows = lines.slice(head + 1, lines.indexOf('', head));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const cells = row.split(/ {2,}/);
      const pid = cells[1]!;
      const parent = cells[parentCol]!;
      const reason = out
        .slice(out.indexOf(`\nPID ${pid}: `))
        .split('\n\n')[0]!
        .replace(/\s+/g, ' ');
      if (parent.startsWith('gone→')) {
        expect(reason).not.toMatch(NOT_SHOWN);
        expect(reason).toMatch(ADOPTED);
      }
      if (ADOPTED.test(reason)) expect(parent).toMatch(/^gone→/);
      if (NOT_SHOWN.test(reason)) expect(parent).not.toMatch(/^gone→/);
    }
  });

  it('covers both kinds: an adopted holder and one whose parent is alive', () => {
    const orphan = runCli(['procs', '--from', path.join(ROOT, 'examples/snapshots/h200-orphan-held.json')]).stdout;
    expect(orphan).toMatch(/ gone→process_api +same +orphaned /);
    const held = runCli(['procs', '--from', path.join(ROOT, 'examples/snapshots/h200-memory-held.json')]).stdout;
    expect(held).toMatch(/ process_api +same +unknown /);
    expect(held.replace(/\s+/g, ' ')).toMatch(/PID 666: unknown: .* nothing shows that the process that started it/);
  });
});

describe("compat: a build of a newer CUDA minor than the driver's own says why it runs", () => {
  const IDLE = path.join(ROOT, 'examples/snapshots/h200-idle.json');

  it('torch cu121 on a driver of CUDA 13.0: the CUDA 13.2 build, with minor-version compatibility', () => {
    const out = runCli(['compat', 'torch==2.1.0+cu121', '--from', IDLE]).stdout.replace(/\s+/g, ' ');
    expect(out).toMatch(/torch 2\.\d+\.\d+\+cu132 \(CUDA 13\.2,/);
    expect(out).toContain(
      "Driver 580.159.04 reports CUDA 13.0 as its own; a CUDA 13.2 build runs on it through CUDA's " +
        'minor-version compatibility',
    );
    // the same words in the data
    const doc = JSON.parse(runCli(['compat', 'torch==2.1.0+cu121', '--from', IDLE, '--json']).stdout);
    expect(doc.machine.fix.text).toContain("CUDA 13.2 build runs on it through CUDA's minor-version compatibility");
    const zh = runCli(['compat', 'torch==2.1.0+cu121', '--from', IDLE, '--lang', 'zh']).stdout.replace(/\s+/g, '');
    expect(zh).toContain('驱动580.159.04自身报告的是CUDA13.0；CUDA13.2的构建仍可在其上运行，靠的是CUDA的次版本兼容');
  });

  it('says it only where it applies: a newer minor of the same major', () => {
    const fix = 'torch 2.14.0+cu132 (CUDA 13.2, cuDNN 9) is the newest PyTorch build';
    expect(minorCompatNote(fix, '580.159.04', '13.0')).toMatch(/CUDA 13\.2 build runs on it/);
    expect(minorCompatNote(fix, '590.10', '13.2')).toBeNull(); // the driver's own CUDA
    expect(minorCompatNote(fix, '595.10', '13.4')).toBeNull(); // an older minor
    expect(minorCompatNote('torch 2.5.1+cu124 (CUDA 12.4, cuDNN 9)', '580.159.04', '13.0')).toBeNull(); // older major
    expect(minorCompatNote(fix, null, '13.0')).toBeNull(); // no driver
    expect(minorCompatNote(fix, '580.159.04', null)).toBeNull();
  });
});

describe('explain -v: one percentage per cause, no weights beside it', () => {
  const oneLine = path.join(dir, 'tf-one-line.txt');
  fs.writeFileSync(oneLine, 'ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory\n');
  const logs = [...fs.readdirSync(LOGS).map((f) => path.join(LOGS, f)), oneLine];

  it.each(logs)('%s', (log) => {
    const json = JSON.parse(runCli(['explain', log, '--json']).stdout);
    const pcts: number[] = json.causes.map((c: { confidence: number }) => Math.round(c.confidence * 100));
    if (pcts.length === 0) return;
    const text = runCli(['explain', log, '-v']).stdout;
    const md = runCli(['explain', log, '--markdown', '-v']).stdout;
    for (const out of [text, md]) expect(out).not.toMatch(/\bweights?\b/i);
    // the headline and each numbered cause: the cause's own percentage
    const head = (s: string) => Number(/Most likely: [^\n]*\((\d+)%\)/.exec(s)?.[1]);
    expect(head(text)).toBe(pcts[0]);
    expect(head(md)).toBe(pcts[0]);
    const listed = (s: string, re: RegExp) => [...s.matchAll(re)].map((m) => Number(m[1]));
    expect(listed(text, /^\d+\. [^\n]*? (\d+)%/gm)).toEqual(
      pcts.slice(0, listed(text, /^\d+\. [^\n]*? (\d+)%/gm).length),
    );
    expect(listed(md, /^### \d+\. [^\n]*\((\d+)%\)/gm)).toEqual(
      pcts.slice(0, listed(md, /^### \d+\. [^\n]*\((\d+)%\)/gm).length),
    );
  });
});

describe('--deep: offered only where the output uses the smoke test', () => {
  // check judges it, snapshot records it, diff compares it, run reports it, libs and fix act on its findings
  const USES = ['check', 'snapshot', 'diff', 'run', 'libs', 'fix'];

  it('the option table', () => {
    const offered = Object.entries(ACCEPTS)
      .filter(([, opts]) => opts.includes('deep'))
      .map(([name]) => name)
      .sort();
    expect(offered).toEqual([...USES].sort());
  });

  it.each(['procs', 'compat', 'explain'])('%s --deep: one line that names check --deep, exit 2', (cmd) => {
    const args = cmd === 'compat' ? ['compat', 'torch==2.1.0', '--deep'] : [cmd, '--deep'];
    const r = runCli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `gpu-env-doctor: --deep is not an option of ${cmd}: it shows nothing of the cuDNN smoke test; ` +
        'run it with gpu-env-doctor check --deep\n',
    );
    expect(runCli([...args, '--help']).stdout).not.toMatch(/--deep/);
  });
});
