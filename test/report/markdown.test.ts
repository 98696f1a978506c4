import { describe, expect, it } from 'vitest';
import { fence, renderMarkdown, text } from '../../src/report/markdown.js';
import { buildReportModel } from '../../src/report/model.js';
import { hogFindings, hogRunModel, hogSnapshot } from './sample.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

describe('Markdown report (for a GitHub issue)', () => {
  const md = renderMarkdown(wordsFor(getLang()), hogRunModel());

  it('starts with the verdict and the problems table, and folds the details', () => {
    const head = md.split('<details>')[0]!;
    expect(head).toMatch(/^### gpu-env-doctor run on gpu-node-17\.example\.com: the job failed/);
    expect(head).toContain('**✗ The command failed (exit code 1): most likely another process holds the GPU memory.**');
    expect(head).toContain('| ✗ | GPU memory &amp; processes |');
    // ranks are "1.", never a severity symbol; ids only in the "About this finding" line of the details
    expect(head).toMatch(/1\. \*\*Another process holds the GPU memory\*\* \(90%\)/);
    expect(head).not.toContain('memory_held_by_other_process');
    expect(head).toMatch(/\| 0 NVIDIA H200 \| 140\.4 GiB \| 896 MiB \| python3 \(PID 694, bob\): 139\.5 GiB; /);
    const summaries = [...md.matchAll(/<details>\n<summary>([^<]*)<\/summary>\n\n/g)].map((m) => m[1]);
    expect(summaries).toEqual([
      'Memory over time',
      'Findings: evidence and fixes',
      'Diagnosis: evidence and fixes',
      'Versions',
      'The output (33 lines)',
      'Facts',
    ]);
    expect((md.match(/<details>/g) ?? []).length).toBe((md.match(/<\/details>/g) ?? []).length);
  });

  it('puts the log in a code fence longer than any run of backticks in it', () => {
    // the log holds ``` and ```` : the fence must be 5 backticks
    expect(md).toMatch(/\n`````\n<script>window.__pwned = "script"<\/script>\n/);
    const body = md.split('\n`````\n')[1]!;
    expect(body).toContain('red ANSI text and ``` backticks ```` inside');
    expect(body).not.toContain('\u001b');
  });

  it('escapes inline text: no HTML, no emphasis, no table break, no @mention', () => {
    expect(text('<b>x</b> *y* a|b @alice #5')).toBe('&lt;b&gt;x&lt;/b&gt; \\*y\\* a\\|b @&#8203;alice \\#5');
    const outsideFences = md.split(/\n`{3,}[a-z]*\n[\s\S]*?\n`{3,}\n/).join('\n');
    expect(outsideFences).not.toMatch(/<(script|img|a|svg)\b/i);
  });

  it('fences: three backticks at least, one more than the longest run inside', () => {
    expect(fence('plain')).toBe('```\nplain\n```\n');
    expect(fence('a ```` b', 'sh')).toBe('`````sh\na ```` b\n`````\n');
  });

  it('one spelling for each label: Fix:, the acting command first, "By hand, after checking:" (issue 16.8)', () => {
    const out = renderMarkdown(
      wordsFor(getLang()),
      buildReportModel(wordsFor(getLang()), {
        kind: 'check',
        generatedAt: 'now',
        tool: { name: 'gpu-env-doctor', version: '0' },
        snapshot: hogSnapshot(),
        findings: hogFindings(),
        categoryOf: () => 'memory',
      }),
    );
    expect(out).not.toMatch(/Check first|manual step|# check first|⚠/);
    expect(out).toContain('**Fix:**');
    expect(out).toMatch(/By hand, after checking:\n\n```\nkill 694\n```/);
  });

  it('a placeholder in a by-hand step stays text (GitHub would swallow <index of an idle GPU> as a tag)', () => {
    const m = buildReportModel(wordsFor(getLang()), {
      kind: 'explain',
      generatedAt: 'now',
      tool: { name: 'gpu-env-doctor', version: '0' },
      diagnosis: {
        causes: [
          {
            id: 'memory_held_by_other_process',
            confidence: 0.8,
            summary: 's',
            evidence: [],
            fix: {
              text: 'Free it.',
              commands: [],
              manual: ['Or run on a free GPU: CUDA_VISIBLE_DEVICES=<index of an idle GPU> python ...'],
            },
          },
        ],
      },
    });
    const out = renderMarkdown(wordsFor(getLang()), m);
    const outsideFences = out.split(/\n`{3,}[a-z]*\n[\s\S]*?\n`{3,}\n/).join('\n');
    expect(outsideFences).not.toContain('<index');
    expect(out).toMatch(/```\nOr run on a free GPU: CUDA_VISIBLE_DEVICES=<index of an idle GPU> python \.\.\.\n```/);
  });

  it('renders a check report without a run: no timeline section', () => {
    const m = buildReportModel(wordsFor(getLang()), {
      kind: 'check',
      generatedAt: 'now',
      tool: { name: 'gpu-env-doctor', version: '0' },
      snapshot: hogSnapshot(),
      findings: hogFindings(),
      categoryOf: () => 'memory',
    });
    const out = renderMarkdown(wordsFor(getLang()), m);
    expect(out).toMatch(/^### gpu-env-doctor check on gpu-node-17\.example\.com\n\n\*\*✗ 1 error, 1 warning\.\*\*/);
    expect(out).not.toContain('Memory over time');
    expect(out).toContain('<summary>Findings: evidence and fixes</summary>');
  });
});
