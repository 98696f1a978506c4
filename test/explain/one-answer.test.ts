// One diagnosis, one answer: the terminal, Markdown, HTML and JSON of the same input carry the same headline, the
// same cause order and the same next step; an undecided input names the step that decides and no cause's fix as
// the answer, in every format. The Markdown is read by the CommonMark reference parser, as GitHub would.
import { readFileSync } from 'node:fs';
import { HtmlRenderer, Parser } from 'commonmark';
import { afterEach, describe, expect, test } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';
import { answerJson, answerOf } from '../../src/report/views/explain/answer.js';
import { renderExplainMarkdown } from '../../src/report/views/explain/markdown.js';
import { renderExplainTerminal } from '../../src/report/views/explain/terminal.js';
import type { Diagnosis } from '../../src/judge/explain/types.js';
import { esc } from '../../src/report/html/escape.js';
import { renderHtml } from '../../src/report/html/render.js';
import { buildReportModel } from '../../src/report/model.js';
import type { Snapshot } from '../../src/gather/snapshot/schema.js';
import { setLang, getLang, wordsFor } from '../../src/base/i18n/index.js';
import { headroomCheck } from '../../src/judge/checks/memory/headroom.js';

const fx = (p: string) => readFileSync(new URL(`../fixtures/${p}`, import.meta.url), 'utf8');
const HELD = JSON.parse(fx('snapshots/h200-memory-held.json')) as Snapshot;
const ORPHAN = JSON.parse(
  readFileSync(new URL('../../examples/snapshots/h200-orphan-held.json', import.meta.url), 'utf8'),
) as Snapshot;
const ONE_LINE =
  'UnknownError: Failed to get convolution algorithm. This is probably because cuDNN failed to initialize, so try looking to see if a warning log message was printed above.\n';

const CASES: Array<[string, () => { d: Diagnosis; snapshot: Snapshot | null }]> = [
  ['undecided TensorFlow one-liner', () => ({ d: explainText(ONE_LINE), snapshot: null })],
  ['decided out-of-memory', () => ({ d: explainText(fx('h200/logs/torch-oom-huge.txt')), snapshot: null })],
  ['LD_PRELOAD', () => ({ d: explainText(fx('h200/logs/fake-cudnn-preload.txt')), snapshot: null })],
  [
    'held memory with the machine',
    () => ({ d: explainText(fx('h200/logs/conv-keep1200-bs64.txt'), { snapshot: HELD }), snapshot: HELD }),
  ],
  ['CUDA 13 JAX, no device', () => ({ d: explainText(fx('h200/logs/novis-jax.txt')), snapshot: null })],
];

const md = (s: string) => new HtmlRenderer().render(new Parser().parse(s));
/** positions of each string in `s`, in order; -1 for a missing one */
const order = (s: string, parts: string[]) => parts.map((p) => s.indexOf(p));
const increasing = (xs: number[]) => xs.every((x, i) => x >= 0 && (i === 0 || x > xs[i - 1]!));

afterEach(() => setLang('en'));

describe.each(['en', 'zh'] as const)('one answer in every format (%s)', (lang) => {
  test.each(CASES)('%s', (_name, make) => {
    setLang(lang);
    const { d, snapshot } = make();
    const a = answerOf(wordsFor(getLang()), d, { snapshot });
    const json = answerJson(a);
    const term = renderExplainTerminal(wordsFor(getLang()), d, { color: false, verbose: false, width: 80, snapshot });
    const mdText = renderExplainMarkdown(wordsFor(getLang()), d, { snapshot });
    const mdHtml = md(mdText);
    const page = renderHtml(
      wordsFor(getLang()),
      buildReportModel(wordsFor(getLang()), {
        kind: 'explain',
        generatedAt: 'now',
        tool: { name: 'gpu-env-doctor', version: '0' },
        snapshot,
        diagnosis: d,
      }),
    );
    // the headline: the same words everywhere (the terminal wraps it: compared without line breaks)
    expect(json.headline).toBe(d.verdict);
    expect(term.replace(/\n\s*/g, ' ')).toContain(a.headline);
    expect(mdHtml).toContain(`<strong>${esc(a.headline).replace(/&#39;/g, "'")}</strong>`.replace(/&quot;/g, '"'));
    expect(page).toMatch(new RegExp(`id="verdict">[^\\n]*${esc(a.headline).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    // the causes in the same order
    const titles = a.causes.map((c) => c.title);
    expect(json.causeOrder).toEqual(a.causes.map((c) => c.id));
    expect(increasing(order(term, titles))).toBe(true);
    expect(
      increasing(
        order(
          mdHtml,
          titles.map((x) => esc(x).replace(/&#39;/g, "'")),
        ),
      ),
    ).toBe(true);
    expect(
      increasing(
        order(
          page.slice(page.indexOf('id="diagnosis"')),
          titles.map((x) => esc(x)),
        ),
      ),
    ).toBe(true);
    // the same first command of the next step
    const first = json.nextStep!.commands[0]!;
    expect(term).toContain(`$ ${first}`);
    expect(mdText).toContain(first);
    expect(page).toContain(`$ ${esc(first)}`);
    if (a.undecided) {
      // said once, no cause's fix offered as the answer, no red "most likely"
      expect(first).toMatch(/^gpu-env-doctor check/);
      expect(page).toMatch(/<p class="verdict unknown" id="verdict">/);
      expect(page).not.toMatch(/Most likely|最可能/);
      for (const out of [term, mdText, page]) expect(out).not.toMatch(/Fix:|修复：|\*\*修复\*\*/);
      // the evidence once
      const ev = a.evidence[0]!.text.slice(0, 40);
      for (const out of [term.replace(/\n\s*│\s*/g, ' '), mdText, page]) expect(out.split(ev).length - 1).toBe(1);
    } else {
      expect(page).toMatch(/<p class="verdict fail" id="verdict">/);
    }
    // Markdown that renders: no literal ** left, bold labels are <strong>
    expect(mdHtml.replace(/<code>[\s\S]*?<\/code>/g, '')).not.toMatch(/\*\*/);
  });
});

describe('the same state, the same first command', () => {
  test("memory held by a holder of unknown standing: check's first step (look at it), not fix", () => {
    const d = explainText(fx('h200/logs/conv-keep1200-bs64.txt'), { snapshot: HELD });
    expect(d.causes[0]!.id).toBe('memory_held_by_other_process');
    const a = answerOf(wordsFor(getLang()), d, { snapshot: HELD });
    const holder = HELD.processes.list.find((p) => (p.usedMiB ?? 0) > 1000)!.pid;
    // check's finding on the same snapshot
    const check = headroomCheck.evaluate(HELD).find((f) => f.status === 'fail')!;
    expect(check.fix!.commands[0]).toBe(`ps -o pid,ppid,user,etime,stat,cmd -p ${holder}`);
    expect(answerJson(a).nextStep!.commands[0]).toBe(check.fix!.commands[0]);
    const term = renderExplainTerminal(wordsFor(getLang()), d, {
      color: false,
      verbose: false,
      width: 80,
      snapshot: HELD,
    });
    expect(term).toContain(`\n      $ ps -o pid,ppid,user,etime,stat,cmd -p ${holder}\n`);
    expect(term).not.toMatch(/gpu-env-doctor fix {3}#/);
  });

  test('memory held by an orphan: gpu-env-doctor fix first, as check says it', () => {
    const d = explainText(fx('h200/logs/conv-keep1200-bs64.txt'), { snapshot: ORPHAN });
    const a = answerOf(wordsFor(getLang()), d, { snapshot: ORPHAN });
    expect(answerJson(a).nextStep!.commands[0]).toBe('gpu-env-doctor fix');
    expect(
      renderExplainTerminal(wordsFor(getLang()), d, { color: false, verbose: false, width: 80, snapshot: ORPHAN }),
    ).toMatch(/\$ gpu-env-doctor fix {3}# shows the plan and asks first/);
  });
});

describe('Markdown from hostile facts', () => {
  test('GPU and OS facts with images, links and </details> stay text under CommonMark', () => {
    const log = [
      'OS: Ubuntu ![x](https://evil.example/p.png) </details><script>alert(1)</script>',
      'GPU 0: NVIDIA [click](https://evil.example) </details> (UUID: GPU-1)',
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 GiB. GPU 0 has a total capacity of 79.11 GiB of which 1.00 GiB is free.',
    ].join('\n');
    const mdOut = renderExplainMarkdown(wordsFor(getLang()), explainText(log));
    const html = md(mdOut);
    expect(html).not.toMatch(/<img|<a |<script/);
    // the one </details> is the tool's own
    expect(html.match(/<\/details>/g) ?? []).toHaveLength(mdOut.includes('<details>') ? 1 : 0);
  });

  test('zh bold labels render as bold on a CommonMark renderer', () => {
    setLang('zh');
    const html = md(renderExplainMarkdown(wordsFor(getLang()), explainText(fx('h200/logs/torch-oom-huge.txt'))));
    expect(html).toMatch(/<strong>下一步<\/strong>：/);
    expect(html).not.toMatch(/\*\*/);
  });
});

describe("a PID from the log is the host's in a container", () => {
  const oom =
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 784.00 MiB. GPU 0 has a total capacity of 139.80 GiB of which 297.56 MiB is free. Process 637 has 138.62 GiB memory in use. Including non-PyTorch memory, this process has 896.00 MiB memory in use.';
  const held = (d: Diagnosis, s: Snapshot | null) =>
    answerOf(wordsFor(getLang()), d, { snapshot: s })
      .causes.find((c) => c.id === 'memory_held_by_other_process')!
      .lines.fix!.byHand.join('\n');

  test("outside a container the log's PID is offered as it is", () => {
    expect(held(explainText(`${oom}\n`), null)).toMatch(/^kill 637 /m);
  });

  test('the log says container: no kill for its PID, the reason said, fix named', () => {
    const d = explainText(`Running in a docker container\n${oom}\n`);
    expect(d.environment.container).toBeDefined();
    const byHand = held(d, null);
    expect(byHand).not.toMatch(/kill 637/);
    expect(byHand).toMatch(/PID 637 comes from the log: in a container that is the host's PID/);
  });

  test('a PID the snapshot paired with a local one: that local PID, and the pairing said', () => {
    const s = structuredClone(HELD);
    const holder = s.processes.list.find((p) => (p.usedMiB ?? 0) > 1000)!;
    holder.nvidiaSmiPid = 637;
    s.system.container = { kind: 'docker', evidence: ['/.dockerenv exists'] };
    const byHand = held(explainText(`${oom}\n`, { snapshot: s }), s);
    expect(byHand).toMatch(new RegExp(`^kill ${holder.pid}\\b`, 'm'));
    expect(byHand).toMatch(new RegExp(`PID 637 in the log is PID ${holder.pid} here`));
    expect(byHand).not.toMatch(/^kill 637\b/m);
  });
});
