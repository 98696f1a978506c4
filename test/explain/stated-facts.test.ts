// Facts the input states beside its message (a version in the environment block, what the reporter says of the
// machine) read against what the message and its source say: each rule asserted by what it changes.
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';

const ids = (t: string) => explainText(t).causes.map((c) => c.id);

describe("ONNX Runtime's CUDA provider names the majors its build requires", () => {
  // dev3 ox-037: onnxruntime-gpu 1.19 (CUDA 12 / cuDNN 9) on a machine with CUDA 11.7
  const warning =
    '2024-08-16 15:41:33.8037106 [W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 ' +
    'onnxruntime::python::CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Require cuDNN 9.* ' +
    'and CUDA 12.*, and the latest MSVC runtime. Please install all dependencies as mentioned in the GPU requirements ' +
    "page (https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements), make sure they're " +
    'in the PATH, and that your GPU is supported.';
  const load =
    '[E:onnxruntime:Default, provider_bridge_ort.cc:1992 onnxruntime::TryGetProviderInfo_CUDA] ' +
    'onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 "" when ' +
    'trying to load "C:\\Users\\u\\anaconda3\\lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll"';
  const log = `${load}\n${warning}`;

  it('a stated CUDA of another major: the build and the toolkit do not match, first', () => {
    const d = explainText(`${log}\n- CUDA version: 11.7\n- OS: Windows`);
    expect(d.causes[0]!.id).toBe('cuda_toolkit_mismatch');
    expect(d.causes[0]!.summary).toMatch(/requires CUDA 12\.\* but CUDA 11\.7/);
  });

  it('a stated cuDNN of another major: the cuDNN does not match', () => {
    expect(ids(`${log}\n- CUDA version: 12.4\n- cuDNN version: 8.9`)[0]).toBe('cudnn_version_mismatch');
  });

  it('the stated versions fit the requirement, or none is stated: no version claim, the missing DLL stays first', () => {
    for (const env of ['\n- CUDA version: 12.4\n- cuDNN version: 9.1', '']) {
      const d = explainText(`${log}${env}`);
      expect(d.causes[0]!.id).toBe('library_missing');
      expect(d.causes.map((c) => c.summary).join('\n')).not.toMatch(/requires CUDA/);
    }
  });
});

describe('a machine stated to have no NVIDIA GPU has no driver to be too old', () => {
  // dev3 pt-010: bitsandbytes on a laptop with Intel graphics only
  const log =
    'Error CUDA driver version is insufficient for CUDA runtime version at line 167 in file ' +
    'D:\\ai\\tool\\bitsandbytes\\csrc\\ops.cu';

  it.each([['Intel Iris Xe (integrated, no NVIDIA GPU)'], ['AMD Radeon RX 6600XT']])(
    '"insufficient driver" with the GPU stated as %s: no device, first and without the old-driver reading',
    (gpu) => {
      const got = ids(`${log}\n- GPU model and memory: ${gpu}\n- OS Platform and Distribution: Windows 11`);
      expect(got[0]).toBe('no_device_visible');
      expect(got).not.toContain('driver_too_old');
    },
  );

  it('an NVIDIA GPU stated (or none): the old driver keeps its reading', () => {
    expect(ids(`${log}\n- GPU model and memory: GeForce RTX 3060`)[0]).toBe('driver_too_old');
    expect(ids(log)[0]).toBe('driver_too_old');
  });
});

describe('the reporter says the GPU works in other programs: not the GPU', () => {
  const failure = 'RuntimeError: CUDA error: unspecified launch failure';

  it.each([
    ['在其他程序中验证过GPU可以使用GPU加速，但是这里会完成一个epoch之后报错'],
    ['The GPU works fine with other programs, only this script fails'],
  ])('the hardware reading is ruled out, the framework defect is first: %s', (said) => {
    const d = explainText(`${failure}\n${said}`);
    expect(d.causes[0]!.id).toBe('framework_bug');
    expect(d.causes.map((c) => c.id)).not.toContain('hardware_or_driver_fault');
  });

  it('without it the hardware reading of an unspecified launch failure stays first', () => {
    expect(ids(failure)[0]).toBe('hardware_or_driver_fault');
    // "works fine" of something else is no such statement
    expect(ids(`${failure}\nIt works fine in Kernel 4.19 and systemd 239`)[0]).toBe('hardware_or_driver_fault');
  });
});

describe('a missing CUDA library with no CUDA stated: the message alone, no guessed toolkit', () => {
  // dev3 tj-036: TensorFlow 2.0's import, nothing said of the installed CUDA
  const log =
    'ImportError: Traceback (most recent call last):\n' +
    '  File "/usr/local/miniconda3/envs/dl/lib/python3.6/site-packages/tensorflow/python/pywrap_tensorflow.py", ' +
    'line 58, in <module>\n' +
    'ImportError: libcublas.so.10.0: cannot open shared object file: No such file or directory';

  it('the library is missing first; another CUDA installed is not claimed without a stated CUDA', () => {
    const d = explainText(log);
    expect(d.causes[0]!.id).toBe('library_missing');
    expect(d.causes.map((c) => c.why.join(' ')).join(' ')).not.toMatch(/another CUDA version is often/);
  });

  it('a stated CUDA of another version decides the toolkit mismatch', () => {
    expect(ids(`${log}\n- CUDA version: 10.1`)[0]).toBe('cuda_toolkit_mismatch');
  });
});

describe('vLLM named in the input: its reservation is a candidate', () => {
  // dev3 pt-021: a vision encoder beside vLLM's engine in one process
  const log =
    '[rank0]: RuntimeError: CUDA error: unknown error\n' +
    '[rank0]: CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below ' +
    'might be incorrect.';

  it('a CUDA failure where vLLM is in use: the reservation is among the causes', () => {
    const got = ids(`${log}\n- Installed using: conda env, python 3.10, vLLM + GOT vision encoder`);
    expect(got).toContain('framework_preallocation');
  });

  it('not from the word inside a file name, nor without vLLM', () => {
    expect(ids(`${log}\nllamafactory-cli api examples/inference/llama3_vllm.yaml`)).not.toContain(
      'framework_preallocation',
    );
    expect(ids(log)).not.toContain('framework_preallocation');
  });
});

describe('a reading the message itself states stays on the list, whatever its share', () => {
  // TensorFlow's "Loaded runtime CuDNN library: X but source was compiled with: Y" names an old cuDNN and the copy
  // found first (dev2 t038: PyTorch's bundled cuDNN loaded before TensorFlow's)
  const log =
    'tensorflow/stream_executor/cuda/cuda_dnn.cc:343] Loaded runtime CuDNN library: 7.1.2 but source was compiled ' +
    'with: 7.2.1.  CuDNN library major and minor version needs to match or have higher minor version in case of ' +
    'CuDNN 7.0 or later version. If using a binary install, upgrade your CuDNN library.';

  it('the conflict is shown second even when stated versions leave it a few hundredths', () => {
    const d = explainText(`${log}\n- TensorFlow version: 1.13.1\n- cuDNN version: 7.1.2`);
    expect(d.causes[0]!.id).toBe('cudnn_version_mismatch');
    expect(d.causes[1]?.id).toBe('library_conflict');
    expect(d.causes[1]!.confidence).toBeLessThan(0.05);
  });
});

describe("onnxruntime-gpu's build for its release (knowledge/onnxruntime.json) against the stated versions", () => {
  // dev3 ox-038: the 1.17.1 CUDA 12 package (cuDNN 8) on a machine with cuDNN 9
  const log = 'Loadlibrary failed with error 126 when trying to load onnxruntime_providers_cuda.dll';
  const env = (ort: string, cudnn: string, cuda = '12.4') =>
    `${log}\n- ONNX Runtime version: ${ort}\n- CUDA version: ${cuda}\n- cuDNN version: ${cudnn}\n- OS: Windows 11`;

  it('the package names its CUDA 12 build: cuDNN 8 is what it links, a stated cuDNN 9 does not match', () => {
    const d = explainText(env('onnxruntime-win-x64-cuda12-1.17.1', '9'));
    expect(d.environment.frameworkVersion?.value).toBe('1.17.1');
    expect(d.environment.buildCuda?.value).toBe('12');
    expect(d.causes[0]!.id).toBe('cudnn_version_mismatch');
    expect(d.causes[0]!.summary).toMatch(/links against cuDNN 8, but cuDNN 9/);
  });

  it('the release whose CUDA 12 build moved to cuDNN 9 (1.18.1): no cuDNN claim, the missing DLL stays first', () => {
    const d = explainText(env('onnxruntime-win-x64-cuda12-1.18.1', '9'));
    expect(d.causes[0]!.id).toBe('library_missing');
    expect(d.causes.map((c) => c.summary).join(' ')).not.toMatch(/links against cuDNN/);
  });

  it('the default PyPI build of a release (1.15: CUDA 11.8) against a stated CUDA 12: the toolkit, by major', () => {
    const got = explainText(env('1.15.1', '8.9', '12.1')).causes.map((c) => c.summary);
    expect(got.join(' ')).toMatch(/CUDA 11\.8 build needs the CUDA 11\.8 libraries, but CUDA 12\.1/);
    // another minor of the same major is no mismatch (the libraries carry the major only)
    const same = explainText(env('1.15.1', '8.9', '11.4')).causes.map((c) => c.summary);
    expect(same.join(' ')).not.toMatch(/build needs the CUDA/);
  });
});

describe("TensorFlow's pool against the GPU's total: what is left for the context and the libraries", () => {
  // dev3 tj-005: TensorFlow 2.2 on a 2 GB GeForce 940MX
  const log = (pool: number) =>
    [
      '2020-06-21 14:29:33.337117: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1561] Found device 0 with ' +
        'properties: ',
      'pciBusID: 0000:01:00.0 name: GeForce 940MX computeCapability: 5.0',
      'coreClock: 1.189GHz coreCount: 3 deviceMemorySize: 1.96GiB deviceMemoryBandwidth: 37.33GiB/s',
      '2020-06-21 14:29:33.499229: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1247] Created TensorFlow device ' +
        `(/job:localhost/replica:0/task:0/device:GPU:0 with ${pool} MB memory) -> physical GPU (device: 0, name: ` +
        'GeForce 940MX, pci bus id: 0000:01:00.0, compute capability: 5.0)',
      'Failed to get convolution algorithm',
    ].join('\n');

  it('less than a context with its handles left outside the pool: the preallocation, stated by the figures', () => {
    const d = explainText(log(1538));
    expect(d.environment.gpus[0]).toMatchObject({ name: 'GeForce 940MX', poolMiB: 1538 });
    expect(d.causes[0]!.id).toBe('framework_preallocation');
    expect(d.causes[0]!.summary).toMatch(/the 469 MiB left is less than/);
  });

  it('room enough left (a pool of 512 MB on 2 GB): the figures claim nothing', () => {
    const d = explainText(log(512));
    expect(d.causes.map((c) => c.summary).join(' ')).not.toMatch(/left is less than a CUDA context/);
  });
});
