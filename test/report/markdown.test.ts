import { describe, expect, it } from 'vitest';
import { fence, renderMarkdown, text } from '../../src/reporters/markdown.js';
import { buildReportModel } from '../../src/reporters/report-model.js';
import { hogFindings, hogRunModel, hogSnapshot } from './sample.js';

describe('Markdown report (for a GitHub issue)', () => {
  const md = renderMarkdown(hogRunModel());

  it('starts with the verdict and the problems table, and folds the details', () => {
    const head = md.split('<details>')[0]!;
    expect(head).toMatch(/^### gpu-env-doctor run on gpu-node-17\.example\.com: the job failed/);
    expect(head).toContain('**✗ The command failed (exit code 1): most likely another process holds the GPU memory.**');
    expect(head).toContain('| ✗ | GPU memory &amp; processes |');
    expect(head).toMatch(/1\. \*\*Another process holds the GPU memory\*\* \(`memory_held_by_other_process`, 90%\)/);
    expect(head).toMatch(/\| 0 NVIDIA H200 \| 140\.4 GiB \| 896 MiB \| python3 \(PID 694, bob\): 139\.5 GiB; /);
    const summaries = [...md.matchAll(/<details>\n<summary>([^<]*)<\/summary>\n\n/g)].map((m) => m[1]);
    expect(summaries).toEqual(['Memory over time', 'Findings: evidence and fixes', 'Diagnosis: evidence from the output', 'Versions', 'The output (33 lines)', 'Facts']);
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

  it('renders a check report without a run: no timeline section', () => {
    const m = buildReportModel({ kind: 'check', generatedAt: 'now', tool: { name: 'gpu-env-doctor', version: '0' }, snapshot: hogSnapshot(), findings: hogFindings(), categoryOf: () => 'memory' });
    const out = renderMarkdown(m);
    expect(out).toMatch(/^### gpu-env-doctor check on gpu-node-17\.example\.com\n\n\*\*✗ 1 error, 1 warning\.\*\*/);
    expect(out).not.toContain('Memory over time');
    expect(out).toContain('<summary>Findings: evidence and fixes</summary>');
  });
});
