// The signature data: valid rows with sources, every example a real line it matches, the prefilter lets
// every example through, and the signatures fire on the real logs they were written from.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_FILES, PREFILTER, signatures, frameworkCues } from '../../src/explain/signatures/index.js';
import { FrameworkCueRow, SignatureRow } from '../../src/explain/signatures/schema.js';
import frameworkCueRows from '../../src/explain/signatures/frameworks.json' with { type: 'json' };
import { explainText } from '../../src/explain/engine.js';
import { normaliseLine } from '../../src/explain/read/normalise.js';

// A copy of shared/corpus/dev (real reports from public issue threads, labelled with the cause that fixed them).
const CORPUS = path.resolve(__dirname, '../fixtures/corpus/dev');
const H200 = path.resolve(__dirname, '../fixtures/h200/logs');
const corpusLog = (id: string): string => JSON.parse(fs.readFileSync(path.join(CORPUS, `${id}.json`), 'utf8')).log;
const h200 = (f: string): string => fs.readFileSync(path.join(H200, f), 'utf8');

describe('signature data', () => {
  const all = signatures();

  it('every row validates and has a source; ids are unique', () => {
    let n = 0;
    for (const rows of Object.values(SIGNATURE_FILES)) for (const r of rows) {
      const row = SignatureRow.parse(r);
      expect(row.source.length).toBeGreaterThan(10);
      n++;
    }
    expect(new Set(all.map((s) => s.id)).size).toBe(n);
    expect(n).toBeGreaterThan(90);
  });

  it.each(all.map((s) => [s.id, s] as const))('%s matches each of its examples, which pass the prefilter', (_id, sig) => {
    for (const ex of sig.examples) {
      const line = normaliseLine(ex);
      expect(sig.re.test(line), ex).toBe(true);
      expect(PREFILTER.test(line), `prefilter drops: ${ex}`).toBe(true);
    }
  });

  it('non-context signatures indicate at least one cause', () => {
    for (const s of all.filter((x) => x.kind !== 'context' && x.id !== 'tf.bfc.summary' && x.id !== 'torch.supported_archs')) {
      expect(Object.values(s.indicates).some((w) => w > 0), s.id).toBe(true);
    }
  });

  it('framework cues validate and compile', () => {
    for (const r of frameworkCueRows) FrameworkCueRow.parse(r);
    expect(frameworkCues().length).toBe(frameworkCueRows.length);
    expect(frameworkCues().length).toBeGreaterThan(5);
  });
});

// Real lines → the signature that must fire on them (corpus reports and H200 captures).
const REAL: Array<[string, () => string, string]> = [
  ['torch.oom.current', () => h200('conv-keep1200-bs64.txt'), 'h200 conv-keep1200-bs64'],
  ['torch.oom.current', () => h200('torch-oom-huge.txt'), 'h200 torch-oom-huge'],
  ['torch.oom.legacy', () => corpusLog('d055'), 'corpus d055'],
  ['torch.oom.legacy', () => corpusLog('d056'), 'corpus d056'],
  ['cuda.error.out_of_memory', () => h200('conv-small-hog.txt'), 'h200 conv-small-hog'],
  ['cupy.out_of_memory', () => h200('cupy-oom-hog.txt'), 'h200 cupy-oom-hog'],
  ['xla.failed_to_allocate', () => h200('jax-prealloc-halfheld.txt'), 'h200 jax-prealloc-halfheld'],
  ['cublas.status.alloc_failed', () => h200('jax-prealloc-halfheld.txt'), 'h200 jax-prealloc-halfheld'],
  ['cuda.no_device', () => h200('novis-jax.txt'), 'h200 novis-jax'],
  ['torch.no_cuda_gpus', () => h200('novis-torch.txt'), 'h200 novis-torch'],
  ['ld.preload_failed', () => h200('fake-cudnn-preload.txt'), 'h200 fake-cudnn-preload'],
  ['cuda.context.oom', () => corpusLog('d032'), 'corpus d032'],
  ['xla.no_supported_devices', () => corpusLog('d032'), 'corpus d032'],
  ['tf.cuda_driver.failed_to_allocate', () => corpusLog('d033'), 'corpus d033'],
  ['dnn.loaded_vs_compiled', () => corpusLog('d002'), 'corpus d002'],
  ['dnn.library_not_found', () => corpusLog('d002'), 'corpus d002'],
  ['dnn.initialization_failed', () => corpusLog('d003'), 'corpus d003'],
  ['torch.cudnn_incompatibility', () => corpusLog('d027'), 'corpus d027'],
  ['torch.cudnn_incompatibility', () => corpusLog('d028'), 'corpus d028'],
  ['tf.failed_to_get_convolution_algorithm', () => corpusLog('d026'), 'corpus d026'],
  ['cudnn.status.not_initialized', () => corpusLog('d001'), 'corpus d001'],
  ['cudnn.status.internal_error', () => corpusLog('d049'), 'corpus d049'],
  ['cudnn.status.execution_failed', () => corpusLog('d059'), 'corpus d059'],
  ['cudnn.status.arch_mismatch', () => corpusLog('d074'), 'corpus d074'],
  ['cudnn.status.bad_param', () => corpusLog('d038'), 'corpus d038'],
  ['cudnn.status.alloc_failed', () => corpusLog('d053'), 'corpus d053'],
  ['torch.driver_too_old', () => corpusLog('d069'), 'corpus d069'],
  ['cuda.insufficient_driver', () => corpusLog('d071'), 'corpus d071'],
  ['torch.sm_not_compatible', () => corpusLog('d010'), 'corpus d010'],
  ['torch.supported_archs', () => corpusLog('d010'), 'corpus d010'],
  ['cuda.no_kernel_image', () => corpusLog('d066'), 'corpus d066'],
  ['ptxas.unknown_arch', () => corpusLog('d051'), 'corpus d051'],
  ['tf.could_not_load_dynamic_library', () => corpusLog('d011'), 'corpus d011'],
  ['lib.cannot_open_shared_object', () => corpusLog('d024'), 'corpus d024'],
  ['lib.cannot_load_symbol', () => corpusLog('d065'), 'corpus d065'],
  ['lib.dll_missing', () => corpusLog('d081'), 'corpus d081'],
  ['cuda.ecc_uncorrectable', () => corpusLog('d018'), 'corpus d018'],
  ['cuda.ecc_uncorrectable', () => corpusLog('d020'), 'corpus d020'],
  ['cuda.unspecified_launch_failure', () => corpusLog('d021'), 'corpus d021'],
  ['cuda.unknown_error_env', () => corpusLog('d022'), 'corpus d022'],
  ['cublas.status.alloc_failed', () => corpusLog('d039'), 'corpus d039'],
  ['cublas.create_handle_failed', () => corpusLog('d041'), 'corpus d041'],
  ['torch.cudnn_frontend_no_engine', () => corpusLog('d037'), 'corpus d037'],
  ['torch.no_valid_cudnn_algorithm', () => corpusLog('d078'), 'corpus d078'],
  ['xla.invalid_dnn_data_type', () => corpusLog('d034'), 'corpus d034'],
  ['glibc.heap_corruption', () => corpusLog('d068'), 'corpus d068'],
  ['segfault', () => corpusLog('d063'), 'corpus d063'],
];

describe('signatures fire on real logs', () => {
  it.each(REAL)('%s on %s', (id, text, _where) => {
    const d = explainText(text());
    expect(d.signals.map((s) => s.signature)).toContain(id);
  });

  it('extracts the numbers and names the messages carry', () => {
    const d = explainText(h200('conv-keep1200-bs64.txt'));
    expect(d.signals.find((s) => s.signature === 'torch.oom.current')?.values).toMatchObject({ requested: '784.00 MiB', total: '139.80 GiB', free: '297.56 MiB', gpu: '0' });
    const v = explainText(corpusLog('d002')).signals.find((s) => s.signature === 'dnn.loaded_vs_compiled')?.values;
    expect(v).toEqual({ runtime: '8.0.5', compiled: '8.1.0' });
    expect(explainText(corpusLog('d069')).signals.find((s) => s.signature === 'torch.driver_too_old')?.values).toEqual({ driverCuda: '11060' });
    expect(explainText(corpusLog('d010')).signals.find((s) => s.signature === 'torch.sm_not_compatible')?.values).toEqual({ sm: '86' });
    expect(explainText(corpusLog('d024')).signals.find((s) => s.signature === 'lib.cannot_open_shared_object')?.values).toEqual({ lib: 'libcublas.so.9.0' });
    expect(explainText(h200('jax-prealloc-halfheld.txt')).signals.find((s) => s.signature === 'xla.failed_to_allocate')?.count).toBe(4);
  });
});
