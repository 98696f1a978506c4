// The signatures: generated from the message catalog (every entry a signature with its source, or a note saying
// why not), the hand-written rows valid, every example matched through the prefilter and its anchor, the same
// result behind every prefix style real logs put in front of a message, and the real logs they were made for.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, readCatalog } from '../../src/judge/explain/catalog/build.js';
import type { Notes } from '../../src/judge/explain/catalog/generate.js';
import { SIGNATURE_FILES, registry } from '../../src/judge/explain/signatures/index.js';
import { FamilyRow, FrameworkCueRow, SignatureRow } from '../../src/judge/explain/signatures/schema.js';
import families from '../../src/judge/explain/signatures/families.json' with { type: 'json' };
import frameworks from '../../src/judge/explain/signatures/frameworks.json' with { type: 'json' };
import { explainText } from '../../src/judge/explain/engine.js';
import { normaliseLine } from '../../src/judge/explain/read/normalise.js';

const CATALOG = path.resolve(__dirname, '../../src/judge/explain/catalog');
const CORPUS = path.resolve(__dirname, '../fixtures/corpus');
const H200 = path.resolve(__dirname, '../fixtures/h200/logs');
const GATHER = path.resolve(__dirname, '../fixtures/gather');
const corpusLog = (id: string): string => {
  const dir = id.startsWith('d') ? 'dev' : 'dev2';
  return JSON.parse(fs.readFileSync(path.join(CORPUS, dir, `${id}.json`), 'utf8')).log;
};
const h200 = (f: string): string => fs.readFileSync(path.join(H200, f), 'utf8');
const gather = (f: string): string => fs.readFileSync(path.join(GATHER, f), 'utf8');
const reg = registry();

describe('the message catalog becomes signatures', () => {
  const files = readCatalog(CATALOG);
  const entries = Object.values(files).flat();
  const notes = JSON.parse(fs.readFileSync(path.join(CATALOG, 'notes.json'), 'utf8')) as Notes;

  it('generated.json is what the generator makes from the catalog now', () => {
    const { json, problems } = buildCatalog(CATALOG);
    expect(problems).toEqual([]);
    expect(fs.readFileSync(path.join(CATALOG, 'generated.json'), 'utf8')).toBe(json);
  });

  it("holds the 738 messages of the shared catalog, the additions and the installed builds' wordings", () => {
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(['cuda', 'cudnn', 'pytorch', 'tensorflow', 'xla-jax', 'additions', 'installed']),
    );
    const shared = Object.entries(files)
      .filter(([f]) => f !== 'additions' && f !== 'installed')
      .flatMap(([, e]) => e);
    expect(shared.length).toBe(738);
    for (const e of entries) expect(e.source.path ?? e.source.repo, e.id).toBeTruthy();
  });

  it("every entry is a signature, or the project's copy says why not; every note is about a real entry and says why", () => {
    const ids = new Set(reg.signatures.filter((s) => s.catalog).map((s) => s.id));
    for (const e of entries) {
      if (ids.has(e.id)) continue;
      const n = notes.entries[e.id];
      expect(n?.role, `${e.id} has no signature and no note`).toBe('skip');
      expect(n?.why?.length ?? 0, e.id).toBeGreaterThan(20);
    }
    const known = new Set(entries.map((e) => e.id));
    for (const [id, n] of Object.entries(notes.entries)) {
      expect(known.has(id), `note for unknown entry ${id}`).toBe(true);
      // a correction of the catalog (causes, pattern, role) says why
      if (n.causes || n.pattern || n.role === 'skip' || n.role === 'context' || n.anchors)
        expect(n.why?.length ?? 0, id).toBeGreaterThan(20);
    }
    expect(ids.size).toBeGreaterThan(400);
  });

  it("placeholders become captures: TensorFlow's cuDNN line gives both versions, in all its wordings", () => {
    const v = (line: string) => explainText(line).signals.find((s) => s.signature === 'dnn.loaded_vs_compiled')?.values;
    expect(v('Loaded runtime CuDNN library: 7.1.4 but source was compiled with: 7.2.1')).toMatchObject({
      runtime: '7.1.4',
      compiled: '7.2.1',
    });
    expect(
      v(
        'E tensorflow/stream_executor/cuda/cuda_dnn.cc:343] Loaded runtime CuDNN library: 7.1.2 but source was compiled with: 7.2.1.  CuDNN library major and minor version needs to match',
      ),
    ).toMatchObject({ runtime: '7.1.2', compiled: '7.2.1' });
    expect(
      v(
        'Loaded runtime CuDNN library: 7005 (compatibility version 7000) but source was compiled with 7101 (compatibility version 7100)',
      ),
    ).toMatchObject({ runtime: '7005', compiled: '7101' });
    expect(
      v(
        'Loaded cudnn library: 5.1.5 but source was compiled against 6.0.21.  If using a binary install, upgrade your cudnn library to match.',
      ),
    ).toMatchObject({ runtime: '5.1.5', compiled: '6.0.21' });
    // the integer form is read as a version by the analysis: the fix names 7.1
    const d = explainText(
      'Loaded runtime CuDNN library: 7005 (compatibility version 7000) but source was compiled with 7101 (compatibility version 7100)',
    );
    expect(d.causes.find((c) => c.id === 'cudnn_version_mismatch')?.fix.text).toMatch(/7\.0\.5/);
  });
});

describe('hand-written rows, families and framework cues', () => {
  it('validate against their schemas and have sources', () => {
    for (const rows of Object.values(SIGNATURE_FILES))
      for (const r of rows) expect(SignatureRow.parse(r).source.length).toBeGreaterThan(10);
    for (const r of families) FamilyRow.parse(r);
    for (const r of frameworks) FrameworkCueRow.parse(r);
  });

  it.each(reg.signatures.filter((s) => !s.catalog && s.kind !== 'family').map((s) => [s.id, s] as const))(
    '%s matches its examples, each holding one of its anchors',
    (_id, sig) => {
      for (const ex of sig.examples) {
        const line = normaliseLine(ex);
        expect(sig.re.test(line), ex).toBe(true);
        // by id: the anchor set holds its words as their UTF-8 bytes (a Chinese anchor is not its own string there)
        const held = reg.anchors.idsIn(line);
        expect(
          sig.anchors.some((a) => held.includes(reg.anchors.idOf(a) ?? -1)),
          `${ex} holds none of ${sig.anchors.join(', ')}`,
        ).toBe(true);
      }
    },
  );
});

// Prefixes real logs put in front of a message. None names a framework, so the diagnosis must not move.
const PREFIXES: Array<[string, (line: string) => string]> = [
  ['Windows build path', (l) => `E C:\\src\\build\\core\\platform\\util.cc:359] ${l}`],
  ['glog/absl', (l) => `E1202 14:56:51.774521    3686 executor.cc:1365] [0] ${l}`],
  ['Python logging', (l) => `2024-05-01 12:00:00,123 - trainer - ERROR - ${l}`],
  ['ISO timestamp', (l) => `2024-05-01T12:00:00.123456Z ${l}`],
  ['torchrun rank', (l) => `[rank3]: ${l}`],
  ['Ray worker pid', (l) => `(RayTrainWorker pid=4242, ip=10.0.0.7) ${l}`],
  ['MPI', (l) => `[1,0]<stderr>:${l}`],
  ['ANSI colour', (l) => `\x1b[1;31m${l}\x1b[0m`],
  ['Jupyter traceback (IPython colours)', (l) => `\x1b[0;31m${l}\x1b[0m`],
  ['docker compose', (l) => `trainer_1  | ${l}`],
  ['CRLF line ends', (l) => `first line\r\n${l}\r\nlast line\r\n`],
];

describe('every catalog message behind every prefix style gives the same result', () => {
  const sigs = reg.signatures.filter(
    (s) => s.catalog && (s.kind === 'evidence' || s.kind === 'symptom' || s.kind === 'memory'),
  );
  it.each(sigs.map((s) => [s.id, s] as const))('%s', (_id, sig) => {
    const bare = explainText(sig.examples[0]!);
    const groups = bare.signals.map((s) => s.signature);
    expect(groups, `the example does not give the signal: ${sig.examples[0]}`).toContain(sig.group);
    const ranking = bare.causes.map((c) => c.id);
    for (const [style, wrap] of PREFIXES) {
      const d = explainText(wrap(sig.examples[0]!));
      expect(
        d.signals.map((s) => s.signature),
        style,
      ).toContain(sig.group);
      expect(
        d.causes.map((c) => c.id),
        style,
      ).toEqual(ranking);
    }
  });
});

// Real lines → the signal that must fire on them (corpus reports, H200 captures, the gather run's staged failures).
const REAL: Array<[string, () => string, string]> = [
  ['torch.oom.current', () => h200('conv-keep1200-bs64.txt'), 'h200 conv-keep1200-bs64'],
  ['torch.oom.current', () => h200('torch-oom-huge.txt'), 'h200 torch-oom-huge'],
  ['torch.oom.legacy', () => corpusLog('d055'), 'corpus d055'],
  ['cuda.error.out_of_memory', () => h200('conv-small-hog.txt'), 'h200 conv-small-hog'],
  ['cupy.out_of_memory', () => h200('cupy-oom-hog.txt'), 'h200 cupy-oom-hog'],
  ['xla.failed_to_allocate', () => h200('jax-prealloc-halfheld.txt'), 'h200 jax-prealloc-halfheld'],
  ['h200-xla-all-backends-failed', () => gather('jax-hog700.txt'), 'gather jax-hog700'],
  ['cuda-no-device', () => h200('novis-jax.txt'), 'h200 novis-jax'],
  ['pt-no-cuda-gpus', () => h200('novis-torch.txt'), 'h200 novis-torch'],
  ['ld.preload_failed', () => h200('fake-cudnn-preload.txt'), 'h200 fake-cudnn-preload'],
  ['tf.cuda_driver.failed_to_allocate', () => corpusLog('d033'), 'corpus d033'],
  ['dnn.loaded_vs_compiled', () => corpusLog('d002'), 'corpus d002'],
  ['xla-dnn-init-failed', () => corpusLog('d003'), 'corpus d003'],
  ['torch.cudnn_incompatibility', () => corpusLog('d027'), 'corpus d027'],
  ['torch.cudnn_incompatibility', () => gather('torch-system-first.txt'), 'gather torch-system-first'],
  ['tf-conv-algo-cudnn-init', () => corpusLog('d026'), 'corpus d026'],
  ['cudnn-not-initialized', () => corpusLog('d001'), 'corpus d001'],
  ['torch.driver_too_old', () => corpusLog('d069'), 'corpus d069'],
  ['cuda.insufficient_driver', () => corpusLog('d071'), 'corpus d071'],
  ['torch.sm_not_compatible', () => corpusLog('d010'), 'corpus d010'],
  ['torch.supported_archs', () => corpusLog('d010'), 'corpus d010'],
  ['cuda.no_kernel_image', () => corpusLog('d066'), 'corpus d066'],
  ['tf.could_not_load_dynamic_library', () => corpusLog('d011'), 'corpus d011'],
  ['lib.cannot_open_shared_object', () => corpusLog('d024'), 'corpus d024'],
  ['caffe-cuda-check-oom', () => corpusLog('j003'), 'corpus j003'],
  ['tf-selfcheck-missing-dll', () => corpusLog('t027'), 'corpus t027'],
  ['nvml-driver-library-mismatch', () => corpusLog('t008'), 'corpus t008 (NVML_ERROR_LIB_RM_VERSION_MISMATCH)'],
  ['setting.pytorch_cuda_alloc_conf', () => gather('torch-allocconf-garbage.txt'), 'gather torch-allocconf-garbage'],
  ['setting.pytorch_cuda_alloc_conf', () => gather('torch-allocconf-badvalue.txt'), 'gather torch-allocconf-badvalue'],
  [
    'setting.pytorch_cuda_alloc_conf',
    () => gather('torch-allocconf-unknownkey.txt'),
    'gather torch-allocconf-unknownkey',
  ],
  ['setting.xla_python_client_mem_fraction', () => gather('jax-memfrac-abc.txt'), 'gather jax-memfrac-abc'],
  ['h200-jax-versions-helpers-cuinit', () => gather('jax-compat.txt'), 'gather jax-compat'],
];

describe('signatures fire on real logs', () => {
  it.each(REAL)('%s on %s', (id, text, _where) => {
    expect(explainText(text()).signals.map((s) => s.signature)).toContain(id);
  });

  it('extracts the numbers and names the messages carry', () => {
    expect(
      explainText(h200('conv-keep1200-bs64.txt')).signals.find((s) => s.signature === 'torch.oom.current')?.values,
    ).toMatchObject({ requested: '784.00 MiB', total: '139.80 GiB', free: '297.56 MiB', gpu: '0' });
    expect(
      explainText(corpusLog('d002')).signals.find((s) => s.signature === 'dnn.loaded_vs_compiled')?.values,
    ).toMatchObject({ runtime: '8.0.5', compiled: '8.1.0' });
    expect(
      explainText(corpusLog('d069')).signals.find((s) => s.signature === 'torch.driver_too_old')?.values,
    ).toMatchObject({ driverCuda: '11060' });
    expect(
      explainText(corpusLog('d024')).signals.find((s) => s.signature === 'lib.cannot_open_shared_object')?.values,
    ).toEqual({ lib: 'libcublas.so.9.0' });
    expect(
      explainText(h200('cupy-oom-hog.txt')).signals.find((s) => s.signature === 'cupy.out_of_memory')?.values,
    ).toMatchObject({ bytes: '4,294,967,296', soFar: '0' });
    expect(
      explainText(h200('jax-prealloc-halfheld.txt')).signals.find((s) => s.signature === 'xla.failed_to_allocate')
        ?.count,
    ).toBe(4);
  });

  it('a short CUDA status text counts beside GPU words only; its enum name counts alone', () => {
    expect(explainText('ValueError: invalid argument').causes).toEqual([]);
    expect(explainText('RuntimeError: CUDA error: invalid argument').signals.map((s) => s.signature)).toContain(
      'cuda-invalid-argument',
    );
    expect(explainText('status: NVML_ERROR_LIB_RM_VERSION_MISMATCH').signals.map((s) => s.signature)).toContain(
      'nvml-driver-library-mismatch',
    );
  });
});
