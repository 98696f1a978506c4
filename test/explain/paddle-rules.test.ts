// PaddlePaddle's release facts in the ranking (src/explain/diagnose.ts, analyse/versions.ts, signatures/misc.json):
// 1.x preallocates and 2.x does not; a cuDNN status Paddle relays without a memory report of its own is a version
// problem; the wheel's build (.postNNN) against the stated cuDNN and CUDA; CUDA error 35 printed by number only.
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';

const MEMORY = ['gpu_memory_exhausted', 'framework_preallocation', 'memory_held_by_other_process'];
const ids = (t: string) => explainText(t).causes.map((c) => c.id);

describe('Paddle before 2.0 reserves its pool up front', () => {
  it("1.x's allocator failure is the preallocation", () => {
    expect(
      ids('paddle.fluid.core.EnforceNotMet: enforce allocating <= available failed, 14802874401 > 12088311552')[0],
    ).toBe('framework_preallocation');
  });
  it('a 2.x out-of-memory report is not (auto_growth is the default from 2.0)', () => {
    const log =
      'RuntimeError: ResourceExhaustedError:\n\nOut of memory error on GPU 0. Cannot allocate 1.500000GB memory on GPU 0, 9.500000GB memory has been allocated and available memory is only 400.000000MB.\n- paddlepaddle-gpu 2.4.2';
    expect(ids(log)[0]).not.toBe('framework_preallocation');
  });
});

describe("a cuDNN status Paddle relays, with no memory report of Paddle's", () => {
  const status =
    "(External) CUDNN error(1), CUDNN_STATUS_NOT_INITIALIZED.\n  [Hint: Please search for the error code(1) on website (https://docs.nvidia.com/deeplearning/cudnn/api/index.html#cudnnStatus_t) to get Nvidia's official solution and advice about CUDNN Error.] (at /paddle/paddle/phi/backends/gpu/gpu_resources.cc:227)";
  it('ranks a version cause first, not memory', () => {
    const got = ids(status);
    expect(MEMORY).not.toContain(got[0]);
    expect(['cudnn_version_mismatch', 'cuda_toolkit_mismatch', 'driver_too_old']).toContain(got[0]);
  });
  it('the same status relayed by TensorFlow keeps its memory reading', () => {
    const tf =
      'E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED';
    expect(MEMORY).toContain(ids(tf)[0]);
  });
});

describe("the paddlepaddle-gpu wheel's build against the stated versions", () => {
  const log = (cudnn: string) =>
    `    ExternalError: CUDNN error(9), CUDNN_STATUS_NOT_SUPPORTED.\n      [Hint: 'CUDNN_STATUS_NOT_SUPPORTED'.  The functionality requested is not presently supported by cuDNN.  ] (at ../paddle/phi/kernels/fusion/gpu/conv_fusion_kernel.cu:616)\n- OS linux\n- paddlepaddle-gpu          2.5.1.post117\n- cuda:11.7\n- cudnn:${cudnn}\n`;
  it('a cuDNN of another major.minor than the build (8.4 for 2.5 post117) is the mismatch', () => {
    const d = explainText(log('8.8.1'));
    expect(d.causes[0]!.id).toBe('cudnn_version_mismatch');
    expect(d.causes[0]!.why.join(' ')).toMatch(/built for cuDNN 8\.4, and cuDNN 8\.8\.1 is installed/);
  });
  it("the build's own cuDNN states nothing", () => {
    expect(
      explainText(log('8.4.1'))
        .causes.flatMap((c) => c.why)
        .join(' '),
    ).not.toMatch(/built for cuDNN/);
  });
});

describe('Paddle 1.8: .postXY names CUDA X with cuDNN Y, and the docs ask for cuDNN 7.6', () => {
  // Paddle 1.8's install docs: "CUDA toolkit 9.0/10.0/10.1/10.2 with cuDNN v7.6+"; post97 = CUDA 9.0 + cuDNN 7,
  // post107 = CUDA 10.0 + cuDNN 7, the plain version the CUDA 10.0 build
  const log = (pip: string, cudnn: string, cuda = '10.0') =>
    `paddle.fluid.core_avx.EnforceNotMet: Cudnn error, CUDNN_STATUS_EXECUTION_FAILED at (/paddle/paddle/fluid/operators/conv_cudnn_op.cu:312)\n- PaddlePaddle version: paddlepaddle-gpu ${pip}\n- CUDA version: ${cuda}\n- cuDNN version: ${cudnn}\n`;
  it('an older cuDNN than the 1.8 build asks for is the mismatch, whatever the status', () => {
    const d = explainText(log('1.8.3.post97', '7.3.1', '9.0'));
    expect(d.causes[0]!.id).toBe('cudnn_version_mismatch');
    expect(d.causes[0]!.why.join(' ')).toMatch(
      /1\.8\.3\.post97 \(the 1\.8 release's build for CUDA 9\.0\) asks for cuDNN 7\.6/,
    );
  });
  it('post107 is read as CUDA 10.0 (not 10.7), and the floor is a floor: CUDA 10.0 with cuDNN 7.6.5 states nothing', () => {
    const why = explainText(log('1.8.5.post107', '7.6.5'))
      .causes.flatMap((c) => c.why)
      .join(' ');
    expect(why).not.toMatch(/built for CUDA|asks for cuDNN/);
  });
  it("1.7's floor is cuDNN 7.3 (its docs): 7.4 is not below it; the plain version is the CUDA 10.0 build", () => {
    const why = (cudnn: string, cuda: string) =>
      explainText(log('1.7.2', cudnn, cuda))
        .causes.flatMap((c) => c.why)
        .join(' ');
    expect(why('7.4.2', '10.0')).not.toMatch(/asks for cuDNN/);
    expect(why('7.1.4', '10.0')).toMatch(/asks for cuDNN 7\.3 or newer, and cuDNN 7\.1\.4/);
    expect(why('7.4.2', '9.0')).toMatch(/1\.7\.2 is built for CUDA 10\.0, and CUDA 9\.0 is stated/);
  });
});

describe('CUDA error 35 printed by number (Paddle 1.x)', () => {
  const line = (code: number) =>
    `Error: cudaGetDeviceCount failed in paddle::platform::GetCUDADeviceCountImpl, error code : ${code}, Please see detail in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html at (/paddle/paddle/fluid/platform/gpu_info.cc:67)`;
  it('is cudaErrorInsufficientDriver: the driver is too old', () => {
    expect(ids(line(35))[0]).toBe('driver_too_old');
  });
  it('another number is not read as 35', () => {
    expect(explainText(line(35)).signals.map((s) => s.signature)).toContain('cuda.error_code_35');
    expect(explainText(line(350)).signals.map((s) => s.signature)).not.toContain('cuda.error_code_35');
  });
});
