// One machine state, one spelling and one first step in every command and format: the same snapshot rendered
// by check (terminal, Markdown, HTML), procs, fix, explain with the machine's facts, run (terminal, HTML),
// fleet (terminal, HTML), the serve page and the fleet page. The GPU's total is one spelling; the free GPU is
// one spelling (by UUID); the first command for held memory is check's, whichever command shows the state.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/gather/snapshot/schema.js';
import { explainText } from '../../src/judge/explain/engine.js';
import { ALL_CHECKS } from '../../src/judge/checks/index.js';
import { runChecks } from '../../src/judge/checks/run-checks.js';
import { buildReportModel } from '../../src/report/model.js';
import { renderHtml } from '../../src/report/html/render.js';
import { failureReport } from '../../src/report/views/run.js';
import { buildPageModel, type LiveState } from '../../src/report/serve/model.js';
import { renderPage } from '../../src/report/serve/render.js';
import { MemoryHistory } from '../../src/report/serve/history.js';
import { answerJson, answerOf } from '../../src/report/views/explain/answer.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

const ROOT = path.resolve(__dirname, '../..');
const EXAMPLES = path.join(ROOT, 'examples/snapshots');
const HELD = path.join(EXAMPLES, 'h200-memory-held.json'); // the holder's standing is unknown
const ORPHAN = path.join(EXAMPLES, 'h200-orphan-held.json'); // the holder is an orphan
const OOM = path.join(ROOT, 'test/fixtures/h200/logs/conv-keep1200-bs64.txt');
const CUPY = path.join(ROOT, 'test/fixtures/h200/logs/cupy-oom-hog.txt'); // states no total of its own
const dir = tempDir('ged-across-');
const load = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8')) as Snapshot;

/** Every spelling of a GPU's total of about 140 GiB (143771 MiB): MiB, GiB with any rounding, GB. */
const TOTAL = /\b(?:14[0-4],?\d{3}(?:\.\d+)?\s*MiB|1(?:39|40|41)(?:\.\d+)?\s*GiB|15[01](?:\.\d+)?\s*GB)\b/g;

function runModel(snapPath: string, log: string) {
  const s = load(snapPath);
  const g = s.nvidia.ok ? s.nvidia.gpus[0]! : null;
  const text = fs.readFileSync(log, 'utf8');
  return buildReportModel(wordsFor(getLang()), {
    kind: 'run',
    generatedAt: '2026-12-03T12:00:00Z',
    tool: { name: 'gpu-env-doctor', version: '0' },
    snapshot: s,
    findings: runChecks(ALL_CHECKS, s).flatMap((r) => r.findings),
    diagnosis: explainText(text, { snapshot: s }),
    run: {
      argv: ['python3', 'train.py'],
      exitText: 'exit code 1',
      exitCode: 1,
      failed: true,
      durationMs: 9000,
      jobPids: [],
      totalLines: 1,
      droppedLines: 0,
      timeline: {
        available: true,
        intervalMs: 500,
        gpus: g
          ? [
              {
                index: g.index,
                uuid: g.uuid,
                totalMiB: g.memory.totalMiB,
                peakUsedMiB: g.memory.usedMiB,
                peakJobMiB: 896,
                points: [{ t: 0, usedMiB: g.memory.usedMiB, jobMiB: 896 }],
              },
            ]
          : [],
        processes: [],
      },
    },
  });
}

function servePage(snapPath: string): string {
  const s = load(snapPath);
  const now = Date.parse(s.collectedAt);
  const history = new MemoryHistory();
  if (s.nvidia.ok)
    for (const g of s.nvidia.gpus)
      history.add(now, { uuid: g.uuid, index: g.index, usedMiB: g.memory.usedMiB, totalMiB: g.memory.totalMiB });
  const st: LiveState = {
    host: s.host.name,
    now,
    intervalMs: 2000,
    good: { snapshot: s, at: now },
    latest: { snapshot: s, at: now },
    inFlightSince: null,
    hangAfterMs: 30_000,
    failingSince: null,
    history: history.snapshot(now),
    checks: {
      at: now,
      findings: runChecks(ALL_CHECKS, s).flatMap((r) => r.findings),
      everyMs: 60_000,
      runningSince: null,
    },
  };
  return renderPage(wordsFor(getLang()), buildPageModel(wordsFor(getLang()), st), {
    now,
    query: '',
    refreshS: 5,
    tool: 'gpu-env-doctor 0',
    historyWindowMs: 3600_000,
  });
}

/** every output of the state, by name */
function outputs(snapPath: string): Record<string, string> {
  const html = path.join(dir, `check-${path.basename(snapPath)}.html`);
  const fleetHtml = path.join(dir, `fleet-${path.basename(snapPath)}.html`);
  const out: Record<string, string> = {
    check: runCli(['check', '--from', snapPath]).stdout,
    'check -v': runCli(['check', '--from', snapPath, '-v']).stdout,
    'check --markdown': runCli(['check', '--from', snapPath, '--markdown']).stdout,
    procs: runCli(['procs', '--from', snapPath]).stdout,
    fix: runCli(['fix', '--from', snapPath]).stdout,
    'explain --from -v': runCli(['explain', CUPY, '--from', snapPath, '-v']).stdout,
    fleet: runCli(['fleet', snapPath]).stdout,
  };
  runCli(['check', '--from', snapPath, '--html', html]);
  out['check --html'] = fs.readFileSync(html, 'utf8');
  runCli(['fleet', snapPath, '--html', fleetHtml]);
  out['fleet --html'] = fs.readFileSync(fleetHtml, 'utf8');
  const m = runModel(snapPath, CUPY);
  out.run = failureReport(wordsFor(getLang()), m, false, undefined, { width: 80 });
  out['run --report x.html'] = renderHtml(wordsFor(getLang()), m);
  out['serve page'] = servePage(snapPath);
  return out;
}

describe('one number per fact: the GPU total', () => {
  const all = outputs(HELD);
  it('check -v: no "holders: ok" under the warning that names the holder; the area line is not the headline', () => {
    const v = all['check -v']!;
    expect(v).not.toMatch(/Processes holding GPU memory: ok/);
    expect(v).toMatch(/• Processes holding GPU memory: named in the finding below \[memory\.holders\]/);
    expect(all.check).toMatch(/^\[!\] GPU memory & processes: GPU 0 has 1\.2 GiB free of 140\.4 GiB \(below\)$/m);
    // the whole headline once, in the finding's block
    expect(all.check!.split('a job that').length - 1).toBe(1);
  });

  it("fleet --html of one machine: singular counts, the reports' verdict box", () => {
    expect(all['fleet --html']).toMatch(/<p class="meta">1 file read, 0 skipped · 1 configuration · 0 outliers · /);
    expect(all['fleet --html']).toMatch(/<p class="verdict warn" id="verdict">/);
  });
  it.each(Object.keys(all))('%s spells the 143771 MiB GPU as 140.4 GiB, and only so', (name) => {
    const found = [...all[name]!.matchAll(TOTAL)].map((m) => m[0].replace(/\s+/g, ' '));
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found)).toEqual(new Set(['140.4 GiB']));
  });
});

/** The first command a text names after its fix label (terminal "$ …", HTML "$ …" in a <pre>, Markdown `…`). */
function firstDollar(text: string, after: RegExp): string | null {
  const i = text.search(after);
  if (i < 0) return null;
  const m = /\$ ([^\n<#]+?)\s*(?:#|\n|<)/.exec(text.slice(i));
  return m ? m[1]!.trim() : null;
}

describe('the same state, the same first command (check, explain, run, procs, fix, serve)', () => {
  const CASES: Array<[string, string, string]> = [
    ['a holder of unknown standing', HELD, 'ps -o pid,ppid,user,etime,stat,cmd -p 666'],
    ['an orphaned holder', ORPHAN, 'gpu-env-doctor fix'],
  ];
  it.each(CASES)('%s: %s', (_name, snap, first) => {
    const s = load(snap);
    // check: the memory finding's fix, in the terminal and as data
    const check = runCli(['check', '--from', snap]).stdout;
    expect(firstDollar(check, /\n {4}Fix: /)).toBe(first);
    const json = JSON.parse(runCli(['check', '--from', snap, '--json']).stdout);
    const f = json.findings.find((x: { check: string; status: string }) => x.check === 'memory.headroom');
    expect(f.fix.commands[0]).toBe(first);
    // explain with the machine's facts: the next step, in the terminal, Markdown and JSON
    const ex = runCli(['explain', OOM, '--from', snap]).stdout;
    expect(firstDollar(ex, /\n1\. /)).toBe(first);
    const exJson = JSON.parse(runCli(['explain', OOM, '--from', snap, '--json']).stdout);
    expect(exJson.answer.nextStep.commands[0]).toBe(first);
    const exMd = runCli(['explain', OOM, '--from', snap, '--markdown']).stdout;
    expect(exMd).toContain(first);
    expect(
      answerJson(
        answerOf(wordsFor(getLang()), explainText(fs.readFileSync(OOM, 'utf8'), { snapshot: s }), { snapshot: s }),
      ),
    ).toMatchObject({ nextStep: { commands: [first] } });
    // run: the diagnosis and the findings say the same first command, in the terminal and the HTML
    const m = runModel(snap, OOM);
    const runText = failureReport(wordsFor(getLang()), m, false, undefined, { width: 80 });
    expect(firstDollar(runText, /\n1\. |Fix: /)).toBe(first);
    const page = renderHtml(wordsFor(getLang()), m);
    const firsts = [...page.matchAll(/<pre>\$ ([^\n<]+)/g)].map((x) => x[1]!.replace(/&#39;/g, "'").trim());
    expect(firsts[0]).toBe(first);
    // procs: stale → "To end it: gpu-env-doctor fix"; unknown → check's first command
    const procs = runCli(['procs', '--from', snap]).stdout;
    if (first === 'gpu-env-doctor fix') expect(procs).toMatch(/To end it: gpu-env-doctor fix/);
    else expect(procs).toContain(`\n  $ ${first}\n`);
    // fix: the orphan is in its plan to end; an unknown holder is left alone and check's step is given
    const fix = runCli(['fix', '--from', snap]).stdout;
    if (first === 'gpu-env-doctor fix') expect(fix).toMatch(/Processes to end[^\n]*\n\s+skip PID 461/);
    else expect(fix).toContain(`$ ${first}`);
    // serve: the stale holder with gpu-env-doctor fix; otherwise check's finding with its first command
    const serve = servePage(snap);
    expect(serve).toContain(`$ ${first.replace(/'/g, '&#39;')}`);
  });

  it('the free GPU: check, the fix placeholder and serve pick the same GPU and spell it by UUID', () => {
    // four GPUs: GPU 0 held, GPU 1 has a small job of someone else with 60 GiB free, GPUs 2 and 3 free
    const s = load(HELD);
    if (!s.nvidia.ok) throw new Error('fixture');
    const g0 = s.nvidia.gpus[0]!;
    const gpu = (i: number, usedMiB: number, processes = [] as typeof g0.processes) => ({
      ...structuredClone(g0),
      index: i,
      uuid: `GPU-0000000${i}-7950-6451-53ef-58bd5f0e3df7`,
      memory: { ...g0.memory, usedMiB, freeMiB: g0.memory.totalMiB - usedMiB - (g0.memory.reservedMiB ?? 0) },
      processes,
    });
    s.nvidia.gpus = [
      g0,
      gpu(1, 83000, [{ pid: 99999, name: 'python3', usedMiB: 82500, type: 'C' }]),
      gpu(2, 0),
      gpu(3, 0),
    ];
    const f = path.join(dir, 'four.json');
    fs.writeFileSync(f, JSON.stringify(s));
    const uuid2 = 'GPU-00000002-7950-6451-53ef-58bd5f0e3df7';
    const check = runCli(['check', '--from', f]).stdout;
    expect(check).toContain(`$ export CUDA_VISIBLE_DEVICES=${uuid2}`);
    expect(check.replace(/\s+/g, ' ')).toMatch(/Or run on a free GPU \(2, 3\): the command below picks GPU 2/);
    const serve = servePage(f);
    expect(serve).toMatch(new RegExp(`<pre id="free-line">export CUDA_VISIBLE_DEVICES=${uuid2}\\npython train.py`));
    // one spelling on the page: no nvidia-smi index form anywhere
    expect(serve).not.toMatch(/CUDA_VISIBLE_DEVICES=\d/);
    expect(check).not.toMatch(/CUDA_VISIBLE_DEVICES=\d/);
  });
});

describe("explain of a log that states a total: the log's figures are the log's, in the one rule", () => {
  /** every size in a sentence the tool wrote (not the log line it quotes) */
  const SIZE = /\b\d[\d,]*(?:\.\d+)?\s*(?:bytes|KiB|MiB|GiB|TiB)\b/g;
  const exJson = JSON.parse(runCli(['explain', OOM, '--from', HELD, '--json']).stdout);
  const own: string[] = [
    ...exJson.causes.flatMap((c: { why: string[] }) => c.why),
    ...exJson.causes.flatMap((c: { evidence: Array<{ text: string; source?: string }> }) =>
      c.evidence.filter((e) => e.source === 'machine').map((e) => e.text),
    ),
  ];

  it("writes every size of its own in fmtMiB's rule: GiB with one decimal, whole MiB", () => {
    const sizes = own.flatMap((s) => [...s.matchAll(SIZE)].map((m) => m[0]));
    expect(sizes).toContain('784 MiB');
    expect(sizes).toContain('139.8 GiB'); // the log's "139.80 GiB total capacity"
    for (const s of sizes) expect(s).toMatch(/^\d+ MiB$|^\d+\.\d GiB$/);
  });

  it("says the total from the log is the log's, also in a line of the machine's facts", () => {
    const machine = exJson.causes.flatMap((c: { evidence: Array<{ text: string; source?: string }> }) =>
      c.evidence.filter((e) => e.source === 'machine').map((e) => e.text),
    ) as string[];
    const fits = machine.find((s) => /fits in/.test(s));
    expect(fits).toMatch(/fits in the GPU's 139\.8 GiB \(the total the log states\)$/);
    // a total in a line of this machine is the snapshot's 140.4 GiB, or labelled the log's
    for (const line of machine)
      for (const m of line.matchAll(TOTAL))
        if (m[0] !== '140.4 GiB') expect(line).toContain('(the total the log states)');
    const text = runCli(['explain', OOM, '--from', HELD, '-v']).stdout.replace(/\s*\n\s*│?\s*/g, ' ');
    expect(text).toContain("fits in the GPU's 139.8 GiB (the total the log states)");
    expect(text).toMatch(/GPU memory now: GPU 0 138\.6 GiB of 140\.4 GiB used/);
    const zh = runCli(['explain', OOM, '--from', HELD, '--lang', 'zh']).stdout.replace(/\s*\n\s*│?\s*/g, '');
    expect(zh).toContain('放得进 GPU 的 139.8 GiB（日志所写的总量）');
  });
});
