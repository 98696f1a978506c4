// A finding's consequences (what a framework does with the fact its headline states, at a certainty, with a
// source) go through the one finding model (src/report/finding-lines.ts), so the terminal, `libs`,
// Markdown and HTML all show them: the certainty always, the source in the reports and with -v.
import { describe, expect, it } from 'vitest';
import { finding, type Finding } from '../../src/judge/finding.js';
import { renderHtml } from '../../src/report/html/render.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { buildReportModel } from '../../src/report/model.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { realSnapshot } from '../helpers/snapshots.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

const f: Finding = finding({
  check: 'libraries.cudnn-sublibrary',
  severity: 'warn',
  status: 'warn',
  rootCause: 'cudnn_version_mismatch',
  message: 'PyTorch loads libcudnn.so.9 9.19.0 and its sub-libraries 9.14.0 from another folder',
  evidence: [{ text: 'libcudnn_graph.so.9 9.14.0', source: '/proc/1/maps' }],
  consequences: [
    {
      framework: 'torch',
      text: 'The first torch.backends.cudnn.version() call <raises>',
      outcome: 'fails',
      certainty: 'verified',
      source: 'H200 capture torch-system-first.txt',
    },
  ],
  fix: { text: 'Keep one cuDNN.', commands: [] },
});
const s = realSnapshot('h200-idle');
const model = () =>
  buildReportModel(wordsFor(getLang()), {
    kind: 'check',
    generatedAt: '2026-12-02T00:00:00Z',
    tool: { name: 'gpu-env-doctor', version: '0' },
    snapshot: s,
    findings: [f],
  });

describe('consequences in every output', () => {
  it('terminal: after the headline, before the evidence; its source with -v', () => {
    const plain = renderTerminal(wordsFor(getLang()), s, [f], {
      color: false,
      verbose: false,
      threshold: 'error',
      categoryOf: () => 'libraries',
      width: 200,
    });
    expect(plain).toContain('    → The first torch.backends.cudnn.version() call <raises> [seen]');
    expect(plain.indexOf('→ The first')).toBeLessThan(plain.indexOf('│ libcudnn_graph'));
    const verbose = renderTerminal(wordsFor(getLang()), s, [f], {
      color: false,
      verbose: true,
      threshold: 'error',
      categoryOf: () => 'libraries',
      width: 200,
    });
    expect(verbose).toContain('[seen: H200 capture torch-system-first.txt]');
  });

  it('Markdown and HTML: with certainty and source, escaped', () => {
    expect(renderMarkdown(wordsFor(getLang()), model())).toContain(
      '- The first torch.backends.cudnn.version() call &lt;raises&gt; _[seen: H200 capture torch-system-first.txt]_',
    );
    const html = renderHtml(wordsFor(getLang()), model());
    expect(html).toContain(
      '<li class="verified">→ The first torch.backends.cudnn.version() call &lt;raises&gt; <span class="src">[seen: H200 capture torch-system-first.txt]</span></li>',
    );
  });
});
