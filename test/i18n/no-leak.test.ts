// No output path bypasses the catalog: every command that prints human text, run with --lang zh on the example
// snapshots and real H200 logs, must not print any English sentence of the catalog. The sentences looked for
// are built from the English catalog itself (runs of four or more English words in its literal text), not from
// a hand-made list, so a new text that is put in the catalog but printed around it is caught too. A run that
// also appears in the Chinese catalog (a command, a flag, a library name) is not a leak.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { en, type MessageKey } from '../../src/i18n/en.js';
import { zh } from '../../src/i18n/zh.js';
import { literalPieces } from '../../src/i18n/format.js';
import { runCli } from '../helpers/cli.js';

const ROOT = path.resolve(__dirname, '../..');
const HELD = 'examples/snapshots/h200-memory-held.json';
const IDLE = 'examples/snapshots/h200-idle.json';
const LOGS = ['conv-keep1200-bs64.txt', 'jax-prealloc-halfheld.txt', 'torch-oom-huge.txt', 'novis-torch.txt', 'fake-cudnn-preload.txt', 'cupy-oom-hog.txt'].map((f) => `test/fixtures/h200/logs/${f}`);

/** English word runs of the catalog: what a leak would look like. */
function needles(): Map<string, MessageKey> {
  const zhText = Object.values(zh).join('\n');
  const out = new Map<string, MessageKey>();
  for (const k of Object.keys(en) as MessageKey[]) {
    // a quoted phrase ("cuDNN could not get memory", an error message) is a citation: it may be printed as it is
    for (const piece of literalPieces(en[k]).map((p) => p.replace(/"[^"]*"/g, '"…"'))) {
      for (const m of piece.matchAll(/[A-Za-z][A-Za-z’'-]*(?: [A-Za-z][A-Za-z’'-]*){3,}/g)) {
        const run = m[0];
        if (run.length < 15 || !/[a-z]{3}/.test(run) || zhText.includes(run)) continue;
        out.set(run, k);
      }
    }
  }
  return out;
}

function leaks(text: string, found: Map<string, MessageKey>): string[] {
  return [...found].filter(([run]) => text.includes(run)).map(([run, k]) => `${k}: "${run}"`);
}

const html = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ged-zh-')), 'report.html');

const RUNS: string[][] = [
  ['check', '--from', HELD],
  ['check', '--from', IDLE, '-v'],
  ['check', '--from', HELD, '--markdown'],
  ['check', '--from', HELD, '--html', html],
  ['explain', '--no-machine', LOGS[0]!],
  ['explain', '--from', HELD, LOGS[0]!, '-v'],
  ['explain', '--no-machine', '--markdown', LOGS[0]!],
  ['explain', '--from', HELD, '--html', html, LOGS[0]!],
  ...LOGS.slice(1).map((l) => ['explain', '--no-machine', l]),
  ['explain', '--no-machine', 'test/fixtures/logs-zh/gbk-windows-tf.log'],
  ['procs', '--from', HELD],
  ['fix', '--dry-run', '--from', HELD],
  ['compat', 'torch==2.1.0+cu121', '--from', HELD],
  ['compat', 'paddlepaddle-gpu==2.6.1.post120', '--from', IDLE],
  ['libs', '--from', HELD],
  ['diff', HELD, IDLE],
  ...['check', 'explain', 'run', 'libs', 'procs', 'compat', 'fix', 'preamble', 'snapshot', 'diff', 'fleet', 'completion', 'serve'].map((c) => [c, '--help']),
  ['--help'],
];

describe('--lang zh: no English sentence of the catalog leaks into any output', () => {
  const found = needles();

  it('the catalog gives enough English runs to look for', () => {
    expect(found.size).toBeGreaterThan(300);
  });

  for (const args of RUNS) {
    it(args.join(' '), () => {
      const r = runCli([...args, '--lang', 'zh'], { cwd: ROOT, timeoutMs: 60000 });
      expect(r.stderr).not.toMatch(/internal error/);
      let out = r.stdout + r.stderr;
      if (args.includes('--html')) out += fs.readFileSync(html, 'utf8');
      // the translated paths are Chinese at all (diff, procs, libs and compat keep their own frame in English)
      if (['check', 'explain', '--help'].includes(args[0]!) || args.includes('--help')) expect(out).toMatch(/[\u4e00-\u9fff]/);
      expect(leaks(out, found)).toEqual([]);
    });
  }
});

describe('the language is chosen from the locale, and --lang overrides it', () => {
  it('LANG=zh_CN.UTF-8 picks Chinese; --lang en forces English; LC_ALL outranks LANG', () => {
    const zhOut = runCli(['check', '--from', HELD], { cwd: ROOT, env: { LANG: 'zh_CN.UTF-8' } });
    expect(zhOut.stdout).toContain('显存与进程');
    const enOut = runCli(['check', '--from', HELD, '--lang', 'en'], { cwd: ROOT, env: { LANG: 'zh_CN.UTF-8' } });
    expect(enOut.stdout).toContain('GPU memory & processes');
    expect(enOut.stdout).not.toMatch(/[\u4e00-\u9fff]/);
    const plain = runCli(['check', '--from', HELD], { cwd: ROOT });
    expect(enOut.stdout).toBe(plain.stdout);
    const lcAll = runCli(['check', '--from', HELD], { cwd: ROOT, env: { LANG: 'zh_CN.UTF-8', LC_ALL: 'en_US.UTF-8' } });
    expect(lcAll.stdout).toBe(plain.stdout);
  });

  it('a bad --lang is one line and exit 2', () => {
    const r = runCli(['check', '--from', HELD, '--lang', 'fr'], { cwd: ROOT });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--lang fr: unknown language \(en or zh\)/);
    const missing = runCli(['explain', '--lang'], { cwd: ROOT });
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--json is data: the same English with --lang zh as with --lang en', () => {
    const strip = (s: string) => s.replace(/"generatedAt":\s*"[^"]*"/g, '');
    for (const args of [['check', '--from', HELD, '--json'], ['explain', '--no-machine', '--json', LOGS[0]!], ['procs', '--from', HELD, '--json']]) {
      const a = runCli([...args, '--lang', 'zh'], { cwd: ROOT });
      const b = runCli([...args, '--lang', 'en'], { cwd: ROOT });
      expect(strip(a.stdout)).toBe(strip(b.stdout));
      expect(a.stdout).not.toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('help and completion know the option', () => {
    expect(runCli(['check', '--help'], { cwd: ROOT }).stdout).toMatch(/--lang LANG +the language of the text: en or zh/);
    expect(runCli(['completion', 'bash'], { cwd: ROOT }).stdout).toContain('--lang) COMPREPLY=($(compgen -W "en zh"');
    expect(runCli(['--help', '--lang', 'zh'], { cwd: ROOT }).stdout).toContain('命令：');
  });
});

describe('docs/zh/README.md', () => {
  it('shows what the CLI prints now for the README samples (regenerate: node scripts/zh-readme.mjs)', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/zh-readme.mjs'), '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
