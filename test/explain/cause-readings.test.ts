// Each cause its own why and its own fix, over real reports (test/fixtures/corpus/dev3 and the H200 captures):
// a message's meaning is said once, under the first cause that reads it; a later cause says what the same line
// means under it (or only that it fits it too) and what tells it from the earlier cause; no raw "; one reason:"
// fragment, none that restates the cause's title; the terminal, Markdown and HTML show the same reasons; a fix
// speaks of the framework the input shows; a container's state leads the fix.
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';
import type { Diagnosis } from '../../src/judge/explain/types.js';
import { answerOf } from '../../src/report/views/explain/answer.js';
import { renderExplainMarkdown } from '../../src/report/views/explain/markdown.js';
import { renderExplainTerminal } from '../../src/report/views/explain/terminal.js';
import { renderHtml } from '../../src/report/html/render.js';
import { esc } from '../../src/report/html/escape.js';
import { mdText } from '../../src/report/escape.js';
import { buildReportModel } from '../../src/report/model.js';
import { getLang, setLang, wordsFor } from '../../src/base/i18n/index.js';
import { adaptFix } from '../../src/judge/platform/adapt-fix.js';
import { reasonAddsNothing } from '../../src/judge/explain/readings.js';

interface Report {
  id: string;
  log: string;
  env_text?: string;
  framework: string;
}
const corpus = new URL('../fixtures/corpus/dev3/', import.meta.url);
const REPORTS: Report[] = readdirSync(corpus)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, corpus), 'utf8')) as Report);
const report = (id: string) => REPORTS.find((r) => r.id === id)!;
const h200 = (f: string) => readFileSync(new URL(`../fixtures/h200/logs/${f}`, import.meta.url), 'utf8');
const H200 = readdirSync(new URL('../fixtures/h200/logs/', import.meta.url)).filter((f) => f.endsWith('.txt'));

/** each report's log alone and with the reporter's environment block */
const INPUTS: Array<[string, string]> = [
  ...REPORTS.flatMap(
    (r): Array<[string, string]> => [
      [r.id, r.log],
      ...(r.env_text ? [[`${r.id}+env`, `${r.log}\n\n${r.env_text}`] as [string, string]] : []),
    ],
  ),
  ...H200.map((f): [string, string] => [f, h200(f)]),
];

afterEach(() => setLang('en'));

/** "Line 3 (read under cause 1) also fits this cause", in either language */
const ALSO_EN = /^Line (\d+|\?) \(read under cause (\d+)\) also fits this cause/;
const ALSO_ZH = /^第 (\d+|\?) 行（见原因 (\d+)）也符合这个原因/;

function html(d: Diagnosis): string {
  const words = wordsFor(getLang());
  return renderHtml(
    words,
    buildReportModel(words, {
      kind: 'explain',
      generatedAt: 'now',
      tool: { name: 'gpu-env-doctor', version: '0' },
      snapshot: null,
      diagnosis: d,
    }),
  );
}

describe.each(['en', 'zh'] as const)('each cause its own reading (%s)', (lang) => {
  test('over every report: a meaning once, later causes say what the same line means to them', () => {
    setLang(lang);
    const words = wordsFor(lang);
    let later = 0;
    let alsoFits = 0;
    for (const [name, text] of INPUTS) {
      const d = explainText(text);
      const a = answerOf(words, d);
      const term = renderExplainTerminal(words, d, { color: false, verbose: false, width: 80, snapshot: null });
      // the catalog's glued fragment is gone in both languages
      expect(term, name).not.toMatch(/; one reason: |；其中一个原因：/);
      if (a.undecided) continue;
      const shown = new Map<string, number>();
      a.causes.forEach((c, i) => {
        const rank = i + 1;
        const cause = d.causes[i]!;
        const meanings = new Map((cause.readings ?? []).map((r) => [r.why, r.meaning]));
        for (const line of c.lines.details) {
          // a reading's meaning under a later cause only as the sentence that refers to the earlier one
          const meaning = meanings.get(line);
          if (meaning !== undefined) {
            expect(
              shown.get(meaning),
              `${name}: cause ${rank} repeats the reading of cause ${shown.get(meaning)}`,
            ).toBeUndefined();
            shown.set(meaning, rank);
          }
          const m = (lang === 'zh' ? ALSO_ZH : ALSO_EN).exec(line);
          if (m) {
            alsoFits++;
            // it points at an earlier cause
            expect(Number(m[2]), name).toBeLessThan(rank);
          }
        }
        // and the cause says what tells it from the first of those
        const refs = c.lines.details
          .map((x) => (lang === 'zh' ? ALSO_ZH : ALSO_EN).exec(x))
          .filter((m) => m !== null)
          .map((m) => Number(m[2]));
        if (refs.length > 0 && cause.test) {
          const tell = words.t('answer.tellApart', { rank: Math.min(...refs), test: '' }).replace(/[:：]\s*$/, '');
          expect(
            c.lines.details.some((x) => x.startsWith(tell)),
            `${name}: cause ${rank} says what tells it apart`,
          ).toBe(true);
          // its command whole among the fix's commands (never cut by the wrap of a sentence)
          const cmd = cause.test.command;
          const fix = c.lines.fix;
          if (cmd && fix && !fix.commands.some((x) => /^where\.exe/.test(x))) {
            expect(fix.commands, name).toContain(cmd);
            expect(
              c.lines.details.some((x) => x.includes(cmd)),
              name,
            ).toBe(false);
          }
        }
        if (i > 0) later++;
        // no reason line is said twice across the causes (the "also fits" sentences each name their cause)
      });
      const all = a.causes.flatMap((c) => c.lines.details.filter((x) => !/^(?:Line|第) /.test(x)));
      expect(new Set(all).size, `${name}: a reason said twice`).toBe(all.length);
      // the same reasons in the Markdown and the HTML
      const mdOut = renderExplainMarkdown(words, d, { snapshot: null });
      const page = html(d);
      for (const c of a.causes)
        for (const line of c.lines.details) {
          expect(mdOut, `${name} (Markdown)`).toContain(`- ${mdText(line)}`);
          expect(page, `${name} (HTML)`).toContain(`<p>${esc(line)}</p>`);
        }
    }
    // the corpus exercises it: many later causes, and many of them read a line an earlier cause showed
    expect(later).toBeGreaterThan(100);
    expect(alsoFits).toBeGreaterThan(50);
  });
});

describe('a reason that restates the cause or is a remedy is left out', () => {
  test.each([
    ['no GPU visible', 'no_device_visible', 'CUDA found no usable GPU'],
    ['device full', 'gpu_memory_exhausted', 'A device allocation failed'],
    ['incompatible cuDNN', 'cudnn_version_mismatch', 'cuDNN could not initialise'],
    ['set memory growth to leave room for cuDNN', 'framework_preallocation', 'cuDNN failed to initialize'],
  ] as const)('%s under %s', (reason, cause, meaning) => {
    expect(reasonAddsNothing(reason, cause, meaning)).toBe(true);
  });
  test.each([
    ['container lost access to /dev/nvidia* (cgroup/systemd issue)', 'no_device_visible', 'Unspecified NVML failure'],
    ['another process holds the memory needed for context/handles', 'memory_held_by_other_process', 'A CUDA call'],
    ['torch built for a different CUDA major', 'cuda_toolkit_mismatch', 'could not load the CUDA runtime'],
  ] as const)('kept: %s under %s', (reason, cause, meaning) => {
    expect(reasonAddsNothing(reason, cause, meaning)).toBe(false);
  });
  test('the H200 no-device JAX log: its first cause does not end on "no GPU visible"', () => {
    const d = explainText(h200('novis-jax.txt'));
    expect(d.causes[0]!.id).toBe('no_device_visible');
    for (const w of d.causes[0]!.why) expect(w).not.toMatch(/no GPU visible$/);
  });
});

/** words of each framework's own settings, packages and APIs in a fix */
const FRAMEWORK_WORDS: Record<string, RegExp> = {
  pytorch: /\btorch\b|PyTorch|PYTORCH_|TORCH_/,
  tensorflow: /tensorflow|TensorFlow|\bTF_|\btf\./,
  jax: /\bjax|JAX|XLA_/,
  paddle: /paddle|Paddle|FLAGS_/,
  onnxruntime: /onnxruntime|ONNX Runtime/,
  cupy: /cupy|CuPy/,
};
const FAMILY: Record<string, string> = { keras: 'tensorflow', xla: 'jax' };

describe('a fix speaks of the framework the input shows', () => {
  test('over every report with a known framework: no other framework named in a fix', () => {
    let checked = 0;
    for (const [name, text] of INPUTS) {
      const d = explainText(text);
      const raw = d.environment.framework?.value;
      const fw = raw ? (FAMILY[raw] ?? raw) : undefined;
      if (!fw || !FRAMEWORK_WORDS[fw]) continue;
      for (const c of d.causes) {
        // a framework that reserved the memory may be another one in the same process: that fix names both
        if (c.id === 'framework_preallocation') continue;
        // (and what tells it apart, which names a setting too)
        const fix = [
          c.fix.text,
          ...c.fix.commands,
          ...(c.fix.manual ?? []),
          c.test?.text ?? '',
          c.test?.command ?? '',
        ].join('\n');
        for (const [other, re] of Object.entries(FRAMEWORK_WORDS))
          if (other !== fw) expect(fix, `${name} (${fw}): ${c.id} names ${other}`).not.toMatch(re);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(150);
  });

  test("Paddle's no kernel image: Paddle's builds, not TORCH_CUDA_ARCH_LIST", () => {
    const d = explainText(report('ox-005').log);
    const arch = d.causes.find((c) => c.id === 'gpu_arch_unsupported')!;
    expect(arch.fix.text).toMatch(/paddlepaddle-gpu/);
    expect(arch.fix.text).not.toMatch(/TORCH_CUDA_ARCH_LIST/);
  });

  test.each([
    [
      'TensorFlow',
      'tensorflow/core/kernels/conv_ops.cc: no kernel image is available for execution on the device',
      /TF_CUDA_COMPUTE_CAPABILITIES/,
    ],
    [
      'PyTorch',
      'torch.AcceleratorError: CUDA error: no kernel image is available for execution on the device',
      /TORCH_CUDA_ARCH_LIST/,
    ],
    [
      'JAX',
      'jaxlib.xla_extension.XlaRuntimeError: INTERNAL: no kernel image is available for execution on the device',
      /--cuda_compute_capabilities/,
    ],
    [
      'ONNX Runtime',
      'onnxruntime::CudaCall CUDA failure 209: no kernel image is available for execution on the device',
      /CMAKE_CUDA_ARCHITECTURES/,
    ],
    [
      'CuPy',
      'cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorNoKernelImageForDevice: no kernel image is available for execution on the device',
      /CUPY_NVCC_GENERATE_CODE/,
    ],
  ] as const)('no kernel image in a %s log: its own source-build setting, no other framework', (_fw, line, word) => {
    const d = explainText(`${line}\n`);
    const arch = d.causes.find((c) => c.id === 'gpu_arch_unsupported')!;
    expect(arch.fix.text).toMatch(word);
    const others = Object.values(FRAMEWORK_WORDS).filter((re) => !re.test(line));
    for (const re of others) expect(arch.fix.text).not.toMatch(re);
  });

  test('no framework known: the arch fix names none', () => {
    const d = explainText('no kernel image is available for execution on the device\n');
    expect(d.environment.framework).toBeUndefined();
    const arch = d.causes.find((c) => c.id === 'gpu_arch_unsupported')!;
    for (const re of Object.values(FRAMEWORK_WORDS)) expect(arch.fix.text).not.toMatch(re);
  });

  test("CuPy's pool: CuPy's words for fragmentation, no PyTorch setting", () => {
    const d = explainText(h200('cupy-oom-hog.txt'));
    const frag = d.causes.find((c) => c.id === 'allocator_fragmentation');
    if (frag) {
      expect(frag.fix.text).toMatch(/CuPy/);
      expect(frag.fix.commands.join('\n')).not.toMatch(/PYTORCH_CUDA_ALLOC_CONF/);
    }
    for (const c of d.causes) expect(c.fix.text, c.id).not.toMatch(/PyTorch|torch\./);
    // and its title is the framework's pool, in the terminal and the HTML alike
    const words = wordsFor('en');
    const titles = answerOf(words, d).causes.map((c) => c.title);
    const page = html(d);
    for (const t of titles) {
      expect(t).not.toMatch(/PyTorch/);
      expect(page).toContain(esc(t));
    }
  });

  test('ONNX Runtime built for another CUDA: its own words about the CUDA it loads', () => {
    const d = explainText(report('ox-037').log);
    const cuda = d.causes.find((c) => c.id === 'cuda_toolkit_mismatch')!;
    expect(cuda.fix.text).toMatch(/onnxruntime-gpu/);
    expect(cuda.fix.text).not.toMatch(/PyTorch|TensorFlow|JAX/);
  });
});

describe("the container's or WSL's fact is the fix's first sentence", () => {
  test('Docker without the NVIDIA runtime', () => {
    const d = explainText(report('ox-008').log);
    expect(d.causes[0]!.id).toBe('no_device_visible');
    expect(d.causes[0]!.fix.text).toMatch(/^Docker has no runtime for --gpus/);
    expect(d.causes[0]!.fix.manual?.join('\n')).toMatch(/nvidia-ctk runtime configure --runtime=docker/);
  });

  test('NVML "Unknown Error" in a container that lost its devices', () => {
    for (const id of ['ox-006', 'ox-007']) {
      const d = explainText(report(id).log);
      const c = d.causes.find((x) => x.id === 'no_device_visible')!;
      expect(c.fix.text, id).toMatch(/^The job runs in a container, and NVML's "Unknown Error" there/);
      expect(c.fix.manual?.join('\n'), id).toMatch(/create-dev-char-symlinks/);
    }
  });

  test('Chinese: the same facts, first', () => {
    setLang('zh');
    const d = explainText(report('ox-008').log);
    expect(d.causes[0]!.fix.text).toMatch(/^Docker 没有可用于 --gpus 的运行时/);
  });

  test('WSL: the Windows driver leads the fix of a driver too old', () => {
    const f = adaptFix(
      { text: 'The NVIDIA driver is older than the CUDA in use needs.', commands: ['nvidia-smi'], manual: [] },
      'wsl',
      { cause: 'driver_too_old' },
    );
    expect(f.text).toMatch(/^WSL2: /);
    expect(f.text).toMatch(/The NVIDIA driver is older/);
  });
});

describe('a fix sentence said once', () => {
  test('the Windows DLL facts of a Paddle report come under the first cause only', () => {
    const words = wordsFor('en');
    const d = explainText(report('ox-001').log);
    const a = answerOf(words, d);
    const texts = a.causes.map((c) => c.lines.fix?.text ?? '');
    const dll = /cublas64_11\.dll is cuBLAS/;
    expect(texts.filter((x) => dll.test(x))).toHaveLength(1);
    // while the JSON keeps each cause's whole fix
    expect(d.causes.filter((c) => dll.test(c.fix.text)).length).toBeGreaterThan(1);
  });
});
