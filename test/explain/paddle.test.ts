// PaddlePaddle in explain: the numbers Paddle's own lines carry (rendered examples from shared/messages/paddle.json,
// copied here), and the fixes in Paddle's terms that explain's fixFor uses when the framework is Paddle, on
// Linux and on Windows.
import { describe, expect, it } from 'vitest';
import { fixFor } from '../../src/judge/explain/fixes/fixes.js';
import { paddleBuildOf, paddleFix, paddleLogFacts } from '../../src/judge/explain/paddle.js';

const L = {
  dll126:
    'RuntimeError: (PreconditionNotMet) The third-party dynamic library (cudnn64_8.dll) that Paddle depends on is not configured correctly. (error code is 126)',
  noCudnn: 'RuntimeError: (PreconditionNotMet) Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion.',
  cudnnWarn:
    'W1006 11:55:13.265031 83452 gpu_resources.cc:245] WARNING: device: 0. The installed Paddle is compiled with CUDNN 9.9, but CUDNN version in your machine is 9.5, which may cause serious incompatible bug. Please recompile or reinstall Paddle with compatible CUDNN version.',
  cudaWarn:
    'W0522 14:31:24.083271  3337 gpu_resources.cc:196] WARNING: device: 0. The installed \tPaddle is compiled with CUDA 11.8, but CUDA runtime version in your machine is 11.6, which may cause serious incompatible bug. Please recompile or reinstall Paddle with compatible CUDA version.',
  soMissing:
    'W0101 00:00:00.000000  1 dynamic_loader.cc:305] The third-party dynamic library (libcudnn.so) that Paddle depends on is not configured correctly. (error code is /usr/local/cuda/lib64/libcudnn.so: cannot open shared object file: No such file or directory)',
};

describe("the numbers in Paddle's lines", () => {
  it('reads compiled/found cuDNN and CUDA, the library, the error code', () => {
    expect(paddleLogFacts([L.cudnnWarn, L.cudaWarn, L.dll126])).toEqual({
      compiledCudnn: '9.9',
      machineCudnn: '9.5',
      compiledCuda: '11.8',
      driverCuda: '11.6',
      library: 'cudnn64_8.dll',
      errorCode: '126',
    });
    expect(paddleLogFacts([L.noCudnn])).toEqual({ cudnnNotLoaded: true });
    expect(paddleLogFacts([L.soMissing]).library).toBe('libcudnn.so');
  });
  it('a stated version names its build: .post120 → CUDA 12.0; the plain 2.5.x → the PyPI default (CUDA 11.8); 3.x → no single build', () => {
    expect(paddleBuildOf('2.6.1.post120')!.build).toMatchObject({ name: 'cu120', cuda: '12.0', cudnn: '8.9.1' });
    expect(paddleBuildOf('2.5.1')!.build).toMatchObject({ name: 'cu118', cudnn: '8.6.0' });
    expect(paddleBuildOf('3.0.0')!.build).toBeNull();
    expect(paddleBuildOf('9.9')).toBeNull();
    expect(paddleBuildOf(undefined)).toBeNull();
  });
});

describe("fixes in Paddle's terms", () => {
  it('cuDNN not loaded (Linux): Paddle 2.x brings none; the unversioned libcudnn.so; the cuDNN of the stated build', () => {
    const f = paddleFix('library_missing', { lines: [L.noCudnn], frameworkVersion: '2.5.2.post117' })!;
    expect(f.text).toMatch(/^Paddle could not open cuDNN\. Paddle 2\.x brings no CUDA libraries/);
    expect(f.text).toMatch(/paddlepaddle-gpu 2\.5\.2\.post117 \(CUDA 11\.7, cuDNN 8\.4\.1\)/);
    expect(f.text).toMatch(/opens the unversioned libcudnn\.so/);
    expect(f.commands).toEqual([
      'python -c "import paddle; paddle.utils.run_check()"',
      'ldconfig -p | grep -F libcudnn',
      'conda install -c conda-forge cudnn=8.4    # into the active environment',
    ]);
  });
  it("cudnn64_8.dll, error 126: said in Windows terms, and fixFor on Windows gives where.exe and conda's Library\\bin", () => {
    const f = fixFor('library_missing', {
      framework: 'paddle',
      hints: {},
      cudnnSymptoms: false,
      platform: 'windows',
      lines: [L.dll126],
      frameworkVersion: '2.5.2',
    });
    expect(f.text).toMatch(
      /Paddle could not open cudnn64_8\.dll \(Windows error 126: the DLL, or one it needs, is on no folder of PATH\)/,
    );
    expect(f.text).toMatch(/cudnn64_8\.dll is cuDNN \(cuDNN 8\.x\)/);
    expect(f.text).toMatch(/%CONDA_PREFIX%\\Library\\bin/);
    expect(f.commands).toEqual([
      'where.exe cudnn64_8.dll',
      'python -c "import paddle; paddle.utils.run_check()"',
      'conda install -c conda-forge cudnn=8.6',
    ]);
    expect(f.commands.join('\n')).not.toMatch(/ldconfig|#/);
  });
  it("an older cuDNN than the build: Paddle's own numbers, the cuDNN to install", () => {
    const f = paddleFix('cudnn_version_mismatch', { lines: [L.cudnnWarn] })!;
    expect(f.text).toMatch(/built with cuDNN 9\.9 and finds 9\.5 on this machine/);
    expect(f.commands).toContain('conda install -c conda-forge cudnn=9.9    # into the active environment');
  });
  it('"CUDA runtime version in your machine" is the driver\'s: the driver to install, or the build the driver runs', () => {
    const f = paddleFix('driver_too_old', { lines: [L.cudaWarn], frameworkVersion: '2.5.2' })!;
    expect(f.text).toMatch(/built with CUDA 11\.8, but the driver supports CUDA 11\.6/);
    expect(f.text).toMatch(/Update the NVIDIA driver to 450\.80\.02 or newer/);
    expect(f.commands).toEqual([
      'nvidia-smi',
      'python -m pip install paddlepaddle-gpu==2.5.2.post116 -f https://www.paddlepaddle.org.cn/whl/linux/mkl/avx/stable.html',
    ]);
    expect(f.manual).toHaveLength(1);
  });
  it("preallocation and memory in Paddle's flags; no Paddle fix where the generic one says it", () => {
    expect(paddleFix('framework_preallocation', { lines: [] })!.commands).toEqual([
      'export FLAGS_allocator_strategy=auto_growth',
    ]);
    expect(paddleFix('gpu_memory_exhausted', { lines: [] })!.text).toMatch(/paddle\.amp\.auto_cast/);
    expect(paddleFix('memory_held_by_other_process', { lines: [] })).toBeNull();
    expect(paddleFix('hardware_or_driver_fault', { lines: [] })).toBeNull();
  });
  it('fixFor falls back to the generic fix when Paddle has none, and leaves Linux fixes as they were', () => {
    const generic = fixFor('memory_held_by_other_process', {
      framework: 'paddle',
      hints: { pid: ['637'] },
      cudnnSymptoms: false,
    });
    expect(generic.manual![0]).toMatch(/^kill 637 /);
    const same = fixFor('framework_preallocation', { framework: 'tensorflow', hints: {}, cudnnSymptoms: false });
    expect(
      fixFor('framework_preallocation', {
        framework: 'tensorflow',
        hints: {},
        cudnnSymptoms: false,
        platform: 'linux',
      }),
    ).toEqual(same);
  });
});
