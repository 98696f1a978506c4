// What follows a failure is not its cause: JAX drops a CUDA plugin whose initialize() raised from its backends, so
// "Backend 'cuda' is not in the list of known backends" after the plugin's exception is that exception's
// consequence (src/explain/diagnose.ts); and ptxas given PTX of a newer ISA names a toolkit mismatch.
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';

const UNKNOWN =
  "RuntimeError: Unable to initialize backend 'cuda': Backend 'cuda' is not in the list of known backends: ['cpu', 'tpu']. (set JAX_PLATFORMS='' to automatically choose an available backend)";
// as jax 0.11 prints it with CUDA_VISIBLE_DEVICES="" (a capture of gpu-lab/repro, novis.jax-1)
const PLUGIN_RAISED = `Jax plugin configuration error: Exception when calling jax_plugins.xla_cuda13.initialize()
Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/jax/_src/xla_bridge.py", line 496, in discover_pjrt_plugins
    plugin_module.initialize()
RuntimeError: jaxlib/cuda/versions_helpers.cc:135: operation cuInit(0) failed: CUDA_ERROR_NO_DEVICE
Traceback (most recent call last):
${UNKNOWN}`;

describe("JAX's unknown backend after its plugin raised", () => {
  it("the plugin's exception decides: no device visible", () => {
    expect(explainText(PLUGIN_RAISED).causes[0]!.id).toBe('no_device_visible');
  });
  it('alone, the unknown backend is not read as no device', () => {
    const d = explainText(UNKNOWN.replace(/ \(set JAX_PLATFORMS.*$/, ''));
    expect(d.causes[0]!.id).toBe('library_missing');
  });
});

describe('ptxas and a newer PTX ISA', () => {
  it('is a toolkit mismatch', () => {
    const d = explainText(
      "ptxas /tmp/k_isa9.1.ptx, line 9; fatal   : Unsupported .version 9.1; current version is '9.0'\nptxas fatal   : Ptx assembly aborted due to errors",
    );
    expect(d.causes[0]!.id).toBe('cuda_toolkit_mismatch');
  });
});

describe('a CUDA-enabled jaxlib "not installed" after the plugin raised', () => {
  // jax/_src/xla_bridge.py prints it whenever a GPU is present and no CUDA backend came up
  const FALLBACK =
    'An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.';
  it("the plugin's exception decides", () => {
    const d = explainText(PLUGIN_RAISED.replace(`Traceback (most recent call last):\n${UNKNOWN}`, FALLBACK));
    expect(d.causes[0]!.id).toBe('no_device_visible');
    expect(d.causes.map((c) => c.id)).not.toContain('library_missing');
  });
  it('alone, a jaxlib without CUDA is one of its readings', () => {
    expect(explainText(FALLBACK).causes.map((c) => c.id)).toContain('library_missing');
  });
});

describe('messages that only report the failure printed before them', () => {
  const ids = (t: string) => explainText(t).causes.map((c) => [c.id, c.confidence]);
  it("TensorRT's engine deserialization failure after the reason it printed", () => {
    const why =
      '[E] 6: The engine plan file is not compatible with this version of TensorRT, expecting library version 8.6.1.6 got 8.5.3.1, please rebuild.';
    const after =
      '[E] 4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error (Engine deserialization failed.)';
    expect(ids(`${why}\n${after}`)).toEqual(ids(why));
    expect(explainText(after).causes.length).toBeGreaterThan(0);
  });
  it("StreamExecutor's 'without BLAS support' after cuBLAS's handle failed", () => {
    const why =
      'E tensorflow/stream_executor/cuda/cuda_blas.cc:238] failed to create cublas handle: CUBLAS_STATUS_ALLOC_FAILED';
    const after =
      'W tensorflow/stream_executor/stream.cc:2041] attempting to perform BLAS operation using StreamExecutor without BLAS support';
    expect(ids(`${why}\n${after}`)).toEqual(ids(why));
    expect(explainText(after).causes.length).toBeGreaterThan(0);
  });
});
