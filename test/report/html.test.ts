import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../src/report/model.js';
import { renderHtml } from '../../src/report/html/render.js';
import { esc } from '../../src/report/html/escape.js';
import { HOSTILE, HOSTILE_NAME, hogFindings, hogRunModel, hogSnapshot } from './sample.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

/** Every tag the report itself writes; a tag outside this list came from the data. */
const OUR_TAGS = new Set(
  'html head meta title style body header h1 h2 h3 p span section div svg rect ul li b pre line text polyline g table thead tbody tr th td details summary ol dl dt dd footer br i'.split(
    ' ',
  ),
);

function tagsOf(html: string): string[] {
  return [...html.matchAll(/<([a-zA-Z][\w-]*)/g)].map((m) => m[1]!.toLowerCase());
}

describe('HTML report: escaping', () => {
  const html = renderHtml(wordsFor(getLang()), hogRunModel());

  it('writes only its own tags: hostile log lines, process names and messages stay text', () => {
    const foreign = tagsOf(html).filter((t) => !OUR_TAGS.has(t));
    expect(foreign).toEqual([]);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<a\s/i);
    // the text is still there, escaped, for the reader
    expect(html).toContain('&lt;script&gt;window.__pwned = &quot;script&quot;&lt;/script&gt;');
    expect(html).toContain(esc(HOSTILE_NAME));
  });

  it('keeps every <svg> closed by its own </svg> (a log line with </svg> cannot end a chart early)', () => {
    expect((html.match(/<svg/g) ?? []).length).toBe((html.match(/<\/svg>/g) ?? []).length);
    expect(html).toContain('&lt;/svg&gt;');
  });

  it('loads nothing and runs nothing: no src/href/on* attributes, and a CSP that forbids scripts and fetches', () => {
    // Every "<" starts a well-formed tag of ours (attribute values double-quoted, with quotes escaped inside).
    const TAG = /^<(?:!DOCTYPE html|\/[a-z][\w-]*|[a-zA-Z][\w-]*((?:\s+[\w:-]+(?:="[^"<]*")?)*)\s*\/?)>/;
    const attributes: string[] = [];
    for (let i = html.indexOf('<'); i !== -1; i = html.indexOf('<', i + 1)) {
      const m = TAG.exec(html.slice(i));
      expect(m, html.slice(i, i + 80)).not.toBeNull();
      for (const a of (m![1] ?? '').matchAll(/\s([\w:-]+)(?:="[^"]*")?/g)) attributes.push(a[1]!.toLowerCase());
    }
    expect(attributes.filter((a) => /^(src|href|srcset|action|formaction|xlink:href|on\w+)$/.test(a))).toEqual([]);
    expect(new Set(attributes)).toContain('data-kind');
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';[^"]*script-src 'none'/,
    );
  });

  it('drops terminal colour codes and control characters', () => {
    expect(html).not.toContain('\u001b');
    expect(html).toContain('red ANSI text and');
  });

  it('escapes quotes inside attribute values', () => {
    expect(esc('" onmouseover="x')).toBe('&quot; onmouseover=&quot;x');
    expect(esc("'")).toBe('&#39;');
  });
});

describe('HTML report: content', () => {
  const model = hogRunModel(12);
  const html = renderHtml(wordsFor(getLang()), model);

  it('draws one stacked bar per GPU: this job, each other process by name, free', () => {
    expect((html.match(/<svg class="bar"/g) ?? []).length).toBe(1);
    const segs = [
      ...html.matchAll(/<rect class="seg[^"]*" data-kind="(\w+)" data-mib="([\d.]+)"(?: data-pid="(\d+)")?/g),
    ].map((m) => [m[1], Number(m[2]), m[3] ? Number(m[3]) : null]);
    expect(segs).toEqual([
      ['job', 896, null],
      ['other', 142848, 694],
      ['other', 12, 5150],
      ['free', 143771 - 896 - 142848 - 12, null],
    ]);
    expect(html).toContain('python3 (PID 694, bob)');
  });

  it('draws the timeline with one point per sample and the failure marked', () => {
    const used = /<polyline class="line-used" data-series="used" data-count="(\d+)" points="([^"]+)"/.exec(html);
    expect(used).not.toBeNull();
    expect(used![2]!.trim().split(/\s+/)).toHaveLength(12);
    const job = /<polyline class="line-job" data-series="job" data-count="(\d+)" points="([^"]+)"/.exec(html);
    expect(job![2]!.trim().split(/\s+/)).toHaveLength(11); // the first sample had no process list yet
    expect(html).toMatch(/<g class="failure" data-t="5620">/);
  });

  it('shows the diagnosis with its evidence highlighted in the log, every finding with evidence and fix', () => {
    expect(html).toContain('data-cause="memory_held_by_other_process"');
    expect(html).toMatch(
      /<li class="stderr hit" data-line="\d+"><span class="n">\d+<\/span>torch.OutOfMemoryError: CUDA out of memory/,
    );
    expect(html).toContain('data-check="memory.holders"');
    expect(html).toContain('data-check="memory.headroom"');
    expect(html).toContain('<b>Fix:</b> End it if it is yours.');
    expect(html).toContain('kill 694');
  });

  it('shows the version table with ✓ and ✗, and the library resolution table when the snapshot has one', () => {
    const s = hogSnapshot() as Record<string, unknown>;
    s.libraries = {
      consumers: [
        {
          path: '/opt/torch/.venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so',
          framework: 'torch',
          environment: '/opt/torch/.venv',
          resolved: [
            {
              name: 'libcudnn.so.9',
              path: '/opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9',
              version: '9.19.0',
              via: 'rpath',
            },
            { name: 'libnccl.so.2', path: null, version: null, via: 'not_found' },
          ],
        },
      ],
      copies: [],
      loaded: [],
    };
    s.python = {
      environments: [
        {
          prefix: '/opt/torch/.venv',
          pythonVersion: '3.12',
          frameworks: [{ framework: 'torch', version: '2.11.0+cu130', cuda: '13.0', cudnn: null, gpuBuild: true }],
        },
      ],
    };
    const m = buildReportModel(wordsFor(getLang()), {
      kind: 'check',
      generatedAt: 'now',
      tool: { name: 'gpu-env-doctor', version: '0' },
      snapshot: s as never,
      findings: [
        ...hogFindings(),
        {
          check: 'versions.cudnn',
          severity: 'error',
          status: 'fail',
          rootCause: 'cudnn_version_mismatch',
          message: 'torch 2.11 needs cuDNN 9.19, 9.14 loads',
          evidence: [],
          affects: { framework: 'torch' },
        },
      ],
      categoryOf: (id) => (id.startsWith('versions.') ? 'versions' : 'memory'),
    });
    const page = renderHtml(wordsFor(getLang()), m);
    const versions = /<table class="versions">([\s\S]*?)<\/table>/.exec(page)![1]!;
    expect(versions).toMatch(
      /<span class="mark ok" title="ok">✓<\/span><\/td><td>NVIDIA driver<\/td><td>580.159.04 \(CUDA ≤ 13.0\)/,
    );
    expect(versions).toMatch(
      /<span class="mark fail" title="error">✗<\/span><\/td><td>torch<\/td><td>2.11.0\+cu130, CUDA 13.0/,
    );
    expect(versions).toContain('versions.cudnn');
    const libs = /<table class="libraries">([\s\S]*?)<\/table>/.exec(page)![1]!;
    expect((libs.match(/<tr/g) ?? []).length).toBe(3);
    // relative to the environment, breakable only after a slash, the file name whole; how it was found in words
    expect(libs).toContain('site-packages/<wbr>nvidia/<wbr>cudnn/<wbr>lib/<wbr>libcudnn.so.9</td>');
    expect(libs).not.toContain('/opt/torch/.venv/lib/python3.12');
    expect(libs).toMatch(/<td>rpath<\/td>/);
    expect(libs).toMatch(
      /libnccl\.so\.2<\/td><td class="mono path"><span class="mark fail" title="error">✗<\/span> not found/,
    );
    // collapsed unless a library is missing (then open: the table is the evidence)
    expect(page).toMatch(
      /<details open><summary>2 libraries the frameworks load, 1 not found<\/summary><div class="table-wrap"><table class="libraries">/,
    );
  });

  it('leaves out the sections it has no facts for (no GPU: no bars; check: no timeline)', () => {
    const s = hogSnapshot();
    const noGpu = {
      ...s,
      nvidia: {
        ok: false as const,
        failure: { reason: 'not-installed' as const, message: 'nvidia-smi was not found on PATH' },
      },
    };
    const page = renderHtml(
      wordsFor(getLang()),
      buildReportModel(wordsFor(getLang()), {
        kind: 'check',
        generatedAt: 'now',
        tool: { name: 'g', version: '0' },
        snapshot: noGpu,
        findings: [],
      }),
    );
    expect(page).not.toContain('<svg');
    expect(page).not.toContain('id="timeline"');
    expect(page).toContain('nvidia-smi was not found on PATH');
    expect(page).toContain('No problems found.');
  });
});

describe('HTML report of explain (the engine Diagnosis, as `explain --html` will pass it)', () => {
  it('renders the engine real output for the H200 out-of-memory log, with the machine at the failure', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const { FIXTURES } = await import('../helpers/fake-bin.js');
    const { explainText } = await import('../../src/judge/explain/engine.js');
    const log = fs.readFileSync(path.join(FIXTURES, 'h200/logs/conv-keep1200-bs64.txt'), 'utf8');
    const snapshot = hogSnapshot();
    const diagnosis = explainText(log, { snapshot });
    const lines = log.split('\n').map((text, i) => ({ n: i + 1, text }));
    const m = buildReportModel(wordsFor(getLang()), {
      kind: 'explain',
      generatedAt: 'now',
      tool: { name: 'gpu-env-doctor', version: '0' },
      snapshot,
      diagnosis,
      log: { title: 'The log', lines },
    });
    expect(m.causes[0]!.id).toBe('memory_held_by_other_process');
    const page = renderHtml(wordsFor(getLang()), m);
    expect(page).toMatch(/<p class="verdict fail" id="verdict">.*Most likely: another process holds the GPU memory/);
    expect(page).toContain('<span class="src">(this machine)</span>');
    const oom = lines.find((l) => l.text.startsWith('torch.OutOfMemoryError'))!.n;
    expect(page).toContain(`<li class="hit" data-line="${oom}">`);
  });
});
