// No output path bypasses the catalog: every command that prints human text, run with --lang zh on the example
// snapshots and real H200 logs, must not print any English sentence of the catalog. The sentences looked for
// are built from the English catalog itself (runs of four or more English words in its literal text), not from
// a hand-made list, so a new text that is put in the catalog but printed around it is caught too. A run that
// also appears in the Chinese catalog (a command, a flag, a library name) is not a leak.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/registry.js';
import { en, type MessageKey } from '../../src/base/i18n/en.js';
import { setLang, getLang, wordsFor } from '../../src/base/i18n/index.js';
import { cudnnSmokeCheck } from '../../src/judge/checks/libraries/cudnn-smoke.js';
import { SMOKE_STATUSES } from '../../src/judge/checks/libraries/smoke-status.js';
import type { SmokeGpu, SmokeRun } from '../../src/gather/snapshot/schema-smoke.js';
import { buildPageModel } from '../../src/report/serve/model.js';
import { renderPage } from '../../src/report/serve/render.js';
import { FleetWatcher } from '../../src/act/serve/fleet.js';
import { renderFleetPage } from '../../src/report/serve/fleet-render.js';
import { createFileSystem } from '../../src/ports/fs.js';
import { planted } from '../helpers/snapshots.js';
import { sampleState } from '../serve/sample-state.js';
import { zh } from '../../src/base/i18n/zh.js';
import { literalPieces } from '../../src/base/i18n/format.js';
import { runCli } from '../helpers/cli.js';

const ROOT = path.resolve(__dirname, '../..');
const HELD = 'examples/snapshots/h200-memory-held.json';
const IDLE = 'examples/snapshots/h200-idle.json';
const LOGS = [
  'conv-keep1200-bs64.txt',
  'jax-prealloc-halfheld.txt',
  'torch-oom-huge.txt',
  'novis-torch.txt',
  'fake-cudnn-preload.txt',
  'cupy-oom-hog.txt',
].map((f) => `test/fixtures/h200/logs/${f}`);

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
  ['libs', '--from', HELD, '-v'],
  ['procs', '--from', HELD, '-v'],
  ['procs', '--from', 'examples/snapshots/h200-orphan-held.json'],
  ['fix', '--dry-run', '--from', 'examples/snapshots/h200-orphan-held.json'],
  ['diff', HELD, IDLE],
  ['diff', HELD, IDLE, '-v', '--all'],
  ['diff', HELD, 'test/fixtures/snapshots/h200-full-idle.json', '--markdown'],
  ['diff', 'test/fixtures/snapshots/h200-full-held.json', 'test/fixtures/snapshots/h200-full-idle.json'],
  ['fleet', 'examples/snapshots', 'test/fixtures/snapshots'],
  ['fleet', 'examples/snapshots', 'test/fixtures/snapshots', '-v'],
  ['fleet', 'examples/snapshots', 'test/fixtures/snapshots', '--html', html],
  // every command's help, from the registry: a new command is covered without touching this list
  ...Object.keys(COMMANDS).map((c) => [c, '--help']),
  ['--help'],
];

describe('--lang zh: no English sentence of the catalog leaks into any output', () => {
  const found = needles();

  it('the catalog gives enough English runs to look for', () => {
    expect(found.size).toBeGreaterThan(500);
  });

  for (const args of RUNS) {
    it(args.join(' '), () => {
      const r = runCli([...args, '--lang', 'zh'], { cwd: ROOT, timeoutMs: 60000 });
      expect(r.stderr).not.toMatch(/internal error/);
      let out = r.stdout + r.stderr;
      if (args.includes('--html')) out += fs.readFileSync(html, 'utf8');
      // every translated path is Chinese at all: its frame, headings and column heads
      expect(out).toMatch(/[\u4e00-\u9fff]/);
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
    // the snapshot's age ("10h 53m ago") may cross a minute between two runs: compared without it
    const noAge = (s: string) => s.replace(/\b\d+[dhms]( \d+[hms])? ago\b/g, 'AGE ago');
    expect(noAge(enOut.stdout)).toBe(noAge(plain.stdout));
    const lcAll = runCli(['check', '--from', HELD], { cwd: ROOT, env: { LANG: 'zh_CN.UTF-8', LC_ALL: 'en_US.UTF-8' } });
    expect(noAge(lcAll.stdout)).toBe(noAge(plain.stdout));
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
    for (const args of [
      ['check', '--from', HELD, '--json'],
      ['explain', '--no-machine', '--json', LOGS[0]!],
      ['procs', '--from', HELD, '--json'],
    ]) {
      const a = runCli([...args, '--lang', 'zh'], { cwd: ROOT });
      const b = runCli([...args, '--lang', 'en'], { cwd: ROOT });
      expect(strip(a.stdout)).toBe(strip(b.stdout));
      expect(a.stdout).not.toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('help and completion know the option', () => {
    expect(runCli(['check', '--help'], { cwd: ROOT }).stdout).toMatch(
      /--lang LANG +the language of the text: en or zh/,
    );
    expect(runCli(['completion', 'bash'], { cwd: ROOT }).stdout).toContain('--lang) COMPREPLY=($(compgen -W "en zh"');
    expect(runCli(['--help', '--lang', 'zh'], { cwd: ROOT }).stdout).toContain('命令：');
  });
});

describe('docs/zh/README.md', () => {
  it('shows what the CLI prints now for the README samples (regenerate: node scripts/zh-readme.mjs)', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/zh-readme.mjs'), '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});

describe('--lang zh in-process: the cuDNN smoke status lines and the serve pages', () => {
  const found = needles();
  afterEach(() => setLang('en'));

  /** Runs of the native smoke test on the H200 snapshot: CUDA failing to start, cuDNN failing on GPU 0, cuBLAS failing, a convolution failing. */
  function smokeFindings(): string {
    const base = {
      consumers: [
        { framework: 'torch', path: '/v/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so', environment: '/v' },
      ],
      interpreter: '/v/bin/python3',
      files: [
        { role: 'libcudnn', path: '/v/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9', version: '9.19.0' },
      ],
      exit: 'ok' as const,
      exitDetail: null,
      load: { ok: true, error: null, file: null },
      versions: { cudnn: 91900 },
      mapped: [],
      durationMs: 700,
      stderrTail: '',
    };
    const gpu = (over: Partial<SmokeGpu>): SmokeGpu => ({
      device: 0,
      busId: '0000:00:06.0',
      contextMs: 260,
      freeBeforeMiB: 120,
      totalMiB: 143771,
      handle: false,
      cublas: null,
      conv: [],
      freeAfterMiB: 100,
      error: null,
      ms: 300,
      ...over,
    });
    const runs: SmokeRun[] = [
      {
        ...base,
        exit: 'non-zero',
        exitDetail: 'exit 4',
        devices: {
          ok: false,
          count: null,
          error: {
            api: 'cuda',
            call: 'cudaGetDeviceCount',
            code: 803,
            name: 'cudaErrorSystemDriverMismatch',
            text: 'system has unsupported display driver / cuda driver combination',
          },
        },
        gpus: [],
      },
      {
        ...base,
        devices: { ok: true, count: 1, error: null },
        gpus: [
          gpu({
            error: { api: 'cudnn', call: 'cudnnCreate', code: 4, name: 'CUDNN_STATUS_ALLOC_FAILED', requestedMiB: 64 },
            cublas: { code: 3, name: 'CUBLAS_STATUS_ALLOC_FAILED' },
          }),
        ],
      },
      {
        ...base,
        devices: { ok: true, count: 1, error: null },
        gpus: [
          gpu({
            handle: true,
            freeBeforeMiB: 90_000,
            conv: [
              {
                shape: [8, 16, 64, 64, 32],
                workspace: 'smallest',
                algo: null,
                workspaceMiB: 0,
                tensorsMiB: 3,
                ok: false,
                error: {
                  api: 'cudnn',
                  call: 'cudnnConvolutionForward',
                  code: 8,
                  name: 'CUDNN_STATUS_EXECUTION_FAILED',
                },
                freeAtFailureMiB: 89_000,
              },
            ],
          }),
        ],
      },
    ];
    const s = planted('h200-idle', (x) => {
      x.smoke = { skipped: null, runs };
    });
    return cudnnSmokeCheck
      .evaluate(s)
      .flatMap((f) => [f.message, f.details ?? '', f.fix?.text ?? '', ...f.evidence.map((e) => e.text)])
      .join('\n');
  }

  it('libs.cudnn-smoke: every status line, its meaning and its evidence in Chinese; the English lines are as before', () => {
    const english = smokeFindings();
    expect(english).toContain(
      "CUDA could not start with PyTorch's files: cudaErrorSystemDriverMismatch (803) from cudaGetDeviceCount: the libcuda that loaded does not match the kernel driver",
    );
    expect(english).toContain(
      'cuDNN could not start on GPU 0 (NVIDIA H200): CUDNN_STATUS_ALLOC_FAILED (4, cudnn) from cudnnCreate: cuDNN could not allocate the memory it needs',
    );
    expect(english).toContain('cudnnCreate returned CUDNN_STATUS_ALLOC_FAILED = 4, asking for 64 MiB');
    setLang('zh');
    const chinese = smokeFindings();
    expect(chinese).toContain(
      'CUDA 无法用 PyTorch 的文件启动：cudaGetDeviceCount 返回 cudaErrorSystemDriverMismatch (803)：加载的 libcuda 与内核驱动不匹配',
    );
    expect(chinese).toContain(
      'cuDNN 无法在 GPU 0（NVIDIA H200） 上启动：cudnnCreate 返回 CUDNN_STATUS_ALLOC_FAILED (4, cudnn)：cuDNN 无法分配所需的内存',
    );
    expect(chinese).toContain('cuDNN 在 GPU 0（NVIDIA H200） 上执行卷积失败');
    expect(leaks(chinese, found)).toEqual([]);
    // no English meaning of the status table is printed either
    for (const st of SMOKE_STATUSES) expect(chinese, st.name).not.toContain(st.meaning);
  });

  it('every status of the smoke table has its meaning in Chinese', () => {
    for (const st of SMOKE_STATUSES) expect(st.meaningZh, st.name).toMatch(/[\u4e00-\u9fff]/);
  });

  const OPTS = { now: 1_800_000_000_000, query: '', refreshS: 5, tool: 'gpu-env-doctor 0', historyWindowMs: 3_600_000 };
  const text = (html: string) =>
    html
      .replace(/<style>[\s\S]*?<\/style>|<script>[\s\S]*?<\/script>/g, '')
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');

  it('serve\'s page: lang="zh-CN", every frame text from the catalog', () => {
    setLang('zh');
    for (const o of [{}, { frameworks: true }, { hostile: true }]) {
      const page = renderPage(wordsFor(getLang()), buildPageModel(wordsFor(getLang()), sampleState(o)), OPTS);
      expect(page).toContain('<html lang="zh-CN">');
      expect(page).toContain('现在空闲');
      expect(leaks(text(page), found)).toEqual([]);
    }
    setLang('en');
    expect(renderPage(wordsFor(getLang()), buildPageModel(wordsFor(getLang()), sampleState()), OPTS)).toContain(
      '<html lang="en">',
    );
  });

  it("serve --fleet's page: the same", async () => {
    setLang('zh');
    const w = new FleetWatcher({
      fs: createFileSystem('/'),
      cwd: '/',
      dir: path.join(ROOT, 'test/fixtures/snapshots'),
      now: () => OPTS.now,
      intervalMs: 1000,
      mergeEveryMs: 0,
      oldAfterMs: 600_000,
      onChange: () => undefined,
    });
    await w.scan();
    const page = renderFleetPage(wordsFor(getLang()), w.model(), OPTS);
    expect(page).toContain('<html lang="zh-CN">');
    expect(page).toContain('GPU 机群');
    expect(leaks(text(page), found)).toEqual([]);
  });
});
