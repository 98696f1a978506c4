// explain says only what is true of its input: a catalog reading or a fix names no framework (or a part only one
// framework has) that the input is not, and installs no wheel for another CUDA or cuDNN than the input names.
// Real reports (test/fixtures/corpus), the H200 captures (test/fixtures/h200/logs, test/fixtures/logs-extra), in
// English and Chinese.
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';
import { textOf, type CorpusCase } from '../../src/judge/explain/priors/corpus.js';
import type { Diagnosis } from '../../src/judge/explain/types.js';
import { renderExplainTerminal } from '../../src/report/views/explain/terminal.js';
import { setLang, wordsFor } from '../../src/base/i18n/index.js';
import { en } from '../../src/base/i18n/en.js';
import { family, NAMED_WORDS, namesOtherFramework } from '../../src/judge/explain/fixes/family.js';
import { cudaMajorOfInput, cudnnWheel, tfLoadsPipCuda } from '../../src/judge/explain/fixes/versions.js';
import { fixFor } from '../../src/judge/explain/fixes/fixes.js';
import generated from '../../src/judge/explain/catalog/generated.json';
import { FAMILY_OF, familiesIn, frameworkProblem } from '../../bench/lib/framework-words.mjs';

const corpusDir = (d: string) => new URL(`../fixtures/corpus/${d}/`, import.meta.url);
const REPORTS: CorpusCase[] = ['dev', 'dev2', 'dev3'].flatMap((d) =>
  readdirSync(corpusDir(d))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(new URL(f, corpusDir(d)), 'utf8')) as CorpusCase),
);
const report = (id: string) => REPORTS.find((r) => r.id === id)!;
const captures = (dir: string): Array<[string, string]> =>
  readdirSync(new URL(`../fixtures/${dir}/`, import.meta.url))
    .filter((f) => /\.(?:txt|log)$/.test(f))
    .map((f) => [f, readFileSync(new URL(`../fixtures/${dir}/${f}`, import.meta.url), 'utf8')]);
/** every input: each report's log alone and with its environment block, and the GPU captures */
const INPUTS: Array<[string, string]> = [
  ...REPORTS.flatMap(
    (r): Array<[string, string]> => [
      [r.id, textOf(r, 'log')],
      [`${r.id}+env`, textOf(r, 'env')],
    ],
  ),
  ...captures('h200/logs'),
  ...captures('logs-extra'),
];

/** the families a text of cause `cause` names that the input is not (the bench's oracle, independent of the
 *  engine's list): with no framework detected, any family at all */
function othersNamed(text: string, d: Diagnosis, cause: string): string[] {
  const fw = d.environment.framework?.value;
  const own = fw ? FAMILY_OF[fw] : undefined;
  if (!own) return [...familiesIn(text)].filter((f) => f !== 'xla');
  return frameworkProblem(text, own, cause)?.split('+') ?? [];
}
const terminal = (d: Diagnosis, lang: 'en' | 'zh') =>
  renderExplainTerminal(wordsFor(lang), d, { color: false, verbose: false, width: 80, snapshot: null });

afterEach(() => setLang('en'));

describe.each(['en', 'zh'] as const)('words true of the input (%s)', (lang) => {
  test('over every input: no reading names a framework the input is not; no held-memory fix names DataLoader', () => {
    setLang(lang);
    let readings = 0;
    let neutral = 0;
    const wrong: string[] = [];
    for (const [name, text] of INPUTS) {
      const d = explainText(text);
      for (const c of d.causes) {
        for (const r of c.readings ?? []) {
          readings++;
          for (const s of [r.meaning, r.reason ?? '']) {
            const other = othersNamed(s, d, c.id);
            if (other.length > 0) wrong.push(`${name} ${c.id}: ${other.join('+')}: ${s}`);
          }
          if (/^(?:A CUDA library could not be loaded|无法加载某个 CUDA 动态库)/.test(r.meaning)) neutral++;
        }
        if (c.id === 'memory_held_by_other_process' && d.environment.framework?.value !== 'pytorch')
          expect(c.fix.text, name).not.toMatch(/DataLoader/);
      }
    }
    expect(wrong).toEqual([]);
    // the corpus exercises it: many readings, and the glibc loader line read in neutral words many times
    expect(readings).toBeGreaterThan(1000);
    expect(neutral).toBeGreaterThan(20);
  });

  test('tj-009 (a TensorFlow log: libcudnn.so.8 cannot be opened): no libtorch; system cuDNN, no pip wheel', () => {
    setLang(lang);
    const d = explainText(report('tj-009').log);
    expect(d.environment.framework?.value).toBe('tensorflow');
    const out = terminal(d, lang);
    expect(out).not.toMatch(/libtorch|torch/i);
    const first = d.causes[0]!;
    expect(first.id).toBe('library_missing');
    // TensorFlow before 2.14 (its loader's path tensorflow/stream_executor/) never looks in pip's nvidia wheels
    expect(first.fix.commands.join('\n')).not.toMatch(/pip install|nvidia-cudnn/);
    expect(first.fix.commands).toContain('conda install -c conda-forge cudnn=8');
    expect(first.fix.text).toMatch(lang === 'en' ? /TensorFlow before 2\.14/ : /早于 2\.14 的 TensorFlow/);
    for (const c of d.causes) expect(c.fix.commands.join('\n'), c.id).not.toMatch(/nvidia-[a-z-]+-cu\d\d/);
  });

  test('tj-037 ("No algorithm worked … CUDA 11.0 and Tensorflow 2.4.1"): no nvidia-*-cu12 wheel, the tested cuDNN', () => {
    setLang(lang);
    const d = explainText(report('tj-037').log);
    expect(d.environment.frameworkVersion?.value).toMatch(/^2\.4/);
    for (const c of d.causes) expect(c.fix.commands.join('\n'), c.id).not.toMatch(/nvidia-[a-z-]+-cu\d\d/);
    const cudnn = d.causes.find((c) => c.id === 'cudnn_version_mismatch');
    expect(cudnn).toBeDefined();
    // TensorFlow 2.4's tested build: CUDA 11.0, cuDNN 8.0 (shared/compat/tensorflow.json)
    expect(cudnn!.fix.commands).toContain('conda install -c conda-forge cudatoolkit=11.0 cudnn=8.0');
    expect(cudnn!.fix.text).toMatch(/CUDA 11\.0/);
  });

  test("d064 (a PyTorch thread: libcudnn.so.8 cannot be opened at import) keeps PyTorch's reading", () => {
    setLang(lang);
    for (const text of [report('d064').log, textOf(report('d064'), 'env')]) {
      const d = explainText(text);
      expect(d.environment.framework?.value).toBe('pytorch');
      const meanings = d.causes.flatMap((c) => (c.readings ?? []).map((r) => r.meaning));
      expect(meanings.some((m) => /libtorch_global_deps/.test(m))).toBe(true);
    }
  });

  test('a PyTorch capture keeps its own words: DataLoader in the held-memory fix, PyTorch in the readings', () => {
    setLang(lang);
    const log = readFileSync(new URL('../fixtures/logs-extra/h200-held-keep600.log', import.meta.url), 'utf8');
    const d = explainText(log);
    expect(d.environment.framework?.value).toBe('pytorch');
    const held = d.causes.find((c) => c.id === 'memory_held_by_other_process');
    expect(held?.fix.text).toMatch(/DataLoader/);
    expect(terminal(d, lang)).toMatch(/PyTorch/);
  });

  test('JAX with CUDA 11 (tj-029 with its environment): the last CUDA 11 release beside jax[cuda12]', () => {
    setLang(lang);
    const d = explainText(textOf(report('tj-029'), 'env'));
    const cmds = d.causes.flatMap((c) => c.fix.commands).join('\n');
    expect(cmds).toMatch(/jax\[cuda11_pip\]==0\.4\.25/);
    const all = d.causes.map((c) => c.fix.text).join('\n');
    expect(all).toMatch(/0\.4\.25/);
    expect(all).toMatch(/525\.60\.13/);
  });
});

describe("the catalog rows' neutral words", () => {
  const rows = new Map(
    (generated as unknown as { signatures: Array<{ id: string; reasons: Record<string, string> }> }).signatures.map(
      (s) => [s.id, s],
    ),
  );
  const handwritten = new Set(
    readdirSync(new URL('../../src/judge/explain/signatures/', import.meta.url))
      .filter((f) => f.endsWith('.json'))
      .flatMap(
        (f) =>
          JSON.parse(readFileSync(new URL(`../../src/judge/explain/signatures/${f}`, import.meta.url), 'utf8')) as {
            id?: string;
          }[],
      )
      .map((r) => r.id),
  );
  const keys = Object.keys(en).filter((k) => k.startsWith('reading.neutral.'));

  test('each names a real row (and a cause that row has a reason for), and names no framework itself', () => {
    expect(keys.length).toBeGreaterThan(15);
    for (const k of keys) {
      const rest = k.slice('reading.neutral.'.length);
      const row = rows.has(rest) || handwritten.has(rest) ? rest : rest.replace(/\.[a-z_]+$/, '');
      const cause = row === rest ? null : rest.slice(row.length + 1);
      expect(rows.has(row) || handwritten.has(row), k).toBe(true);
      if (cause) expect(rows.get(row)?.reasons[cause], k).toBeDefined();
      expect(namesOtherFramework(en[k as keyof typeof en], undefined), k).toBe(false);
    }
  });

  test("namesOtherFramework: XLA is TensorFlow's and JAX's; libtorch and DataLoader are PyTorch's", () => {
    expect(namesOtherFramework('libtorch_global_deps could not load', 'tensorflow')).toBe(true);
    expect(namesOtherFramework('libtorch_global_deps could not load', 'pytorch')).toBe(false);
    expect(namesOtherFramework('a known class of XLA defects', 'jax')).toBe(false);
    expect(namesOtherFramework('a known class of XLA defects', 'tensorflow')).toBe(false);
    expect(namesOtherFramework('a known class of XLA defects', 'pytorch')).toBe(true);
    expect(namesOtherFramework('Leftover workers (DataLoader, …)', undefined)).toBe(true);
    expect(namesOtherFramework('cuDNN could not initialise', undefined)).toBe(false);
  });

  test("namesOtherFramework's one pattern answers as the other families' patterns one by one", () => {
    const texts = [
      ...Object.values(en),
      ...captures('h200/logs').flatMap(([, t]) => t.split('\n')),
      ...REPORTS.flatMap((r) => textOf(r, 'env').split('\n')),
    ];
    const frameworks = [undefined, 'pytorch', 'tensorflow', 'keras', 'jax', 'xla', 'paddle', 'caffe', 'mxnet'] as const;
    let named = 0;
    for (const fw of frameworks) {
      const own = fw === 'caffe' ? 'caffe' : family(fw);
      const others = NAMED_WORDS.filter(([f]) => !(f === own || (f === 'xla' && (own === 'tf' || own === 'jax'))));
      for (const text of texts) {
        const oneByOne = others.some(([, re]) => re.test(text));
        if (oneByOne) named++;
        if (namesOtherFramework(text, fw) !== oneByOne) throw new Error(`${fw}: ${text.slice(0, 200)}`);
      }
    }
    expect(named).toBeGreaterThan(1000);
  });
});

describe('the versions a fix installs', () => {
  test('cuDNN wheels exist for these CUDA and cuDNN versions only (shared/compat cudnn.json, jax.json pins)', () => {
    expect(cudnnWheel('11', '8.6')).toBe('nvidia-cudnn-cu11==8.6.*');
    expect(cudnnWheel('12', '8.9')).toBe('nvidia-cudnn-cu12==8.9.*');
    expect(cudnnWheel('12', '8')).toBe('nvidia-cudnn-cu12==8.*');
    expect(cudnnWheel('12', '9.1')).toBe('nvidia-cudnn-cu12==9.1.*');
    expect(cudnnWheel('13', '9')).toBe('nvidia-cudnn-cu13==9.*');
    // no pip wheel: cuDNN 7, a cuDNN 8 before 8.9 for CUDA 12, before 8.6 for CUDA 11, cuDNN 9.11+ for CUDA 11
    expect(cudnnWheel('11', '7.6')).toBeNull();
    expect(cudnnWheel('12', '8.1')).toBeNull();
    expect(cudnnWheel('11', '8.1')).toBeNull();
    expect(cudnnWheel('11', '9.12')).toBeNull();
  });

  test('the CUDA major of the input: packages first, then the libraries asked for, then what is stated', () => {
    expect(cudaMajorOfInput(["Could not load dynamic library 'cudart64_110.dll'"])).toBe('11');
    expect(cudaMajorOfInput(["Could not load dynamic library 'libcudart.so.10.1'"])).toBe('10');
    expect(cudaMajorOfInput(['cublas64_12.dll not found'])).toBe('12');
    expect(cudaMajorOfInput(['torch 1.13.1+cu117', 'libcudart.so.12'])).toBe('11');
    expect(cudaMajorOfInput(['nothing here'], '11.2')).toBe('11');
    expect(cudaMajorOfInput(['nothing here'])).toBeNull();
  });

  test('TensorFlow takes pip CUDA wheels from 2.14 on Linux; its loader path tells an older one', () => {
    expect(tfLoadsPipCuda('2.4.1', [])).toBe(false);
    expect(tfLoadsPipCuda('2.13.0', [])).toBe(false);
    expect(tfLoadsPipCuda('2.14.0', [])).toBe(true);
    expect(tfLoadsPipCuda(undefined, ['W tensorflow/stream_executor/platform/default/dso_loader.cc:60] x'])).toBe(
      false,
    );
    expect(tfLoadsPipCuda('2.16.1', [], 'windows')).toBe(false);
    expect(tfLoadsPipCuda(undefined, ['W external/local_tsl/tsl/platform/default/dso_loader.cc:70] x'])).toBeNull();
  });

  test('a CUDA mismatch of TensorFlow 2.4.1 installs its tested CUDA 11.0 through conda, not tensorflow[and-cuda]', () => {
    const lines = report('tj-009').log.split('\n');
    const old = fixFor('cuda_toolkit_mismatch', {
      framework: 'tensorflow',
      hints: {},
      cudnnSymptoms: false,
      lines,
      frameworkVersion: '2.4.1',
    });
    expect(old.commands).toContain(
      'conda install -c conda-forge cudatoolkit=11.0 cudnn    # in the TensorFlow environment',
    );
    expect(old.commands.join('\n')).not.toMatch(/and-cuda/);
    const current = fixFor('cuda_toolkit_mismatch', {
      framework: 'tensorflow',
      hints: {},
      cudnnSymptoms: false,
      lines: [],
      frameworkVersion: '2.16.1',
    });
    expect(current.commands).toContain('pip install "tensorflow[and-cuda]"');
  });
});
