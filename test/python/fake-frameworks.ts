// Stand-ins for torch, jax and tensorflow, written as plain Python modules so the real probe
// (src/gather/python/assets/probe.py) runs under the real python3 of this machine, which has no GPU frameworks.
// Their answers are the H200's (test/fixtures/h200/idle/torch-info.txt: torch 2.11.0+cu130, cuDNN 91900,
// arch list sm_75..sm_120, 150109880320 bytes); their failures are the texts captured there
// (test/fixtures/h200/logs). What each one does is chosen by environment variables:
//   FAKE_TORCH_CONV = ok | oom | oom-once | cudnn | version-check | segv | hang
//     (version-check: torch/backends/cudnn/__init__.py's _init() as in torch 2.11: it stores the version, then
//      raises; every later call returns True. conv2d does not call it. The H200's system cuDNN 9.14 first on
//      LD_LIBRARY_PATH did exactly this: conv2d ran, the first cudnn.version() raised.)
//   FAKE_JAX_CONV   = ok | prealloc (fails unless XLA_PYTHON_CLIENT_PREALLOCATE=false)
//   FAKE_TF_IMPORT  = ok | missing-cudnn
import * as path from 'node:path';
import { writeTree } from './helpers.js';

const TORCH = `
import os, signal, time
__version__ = '2.11.0+cu130'
_calls = {'conv': 0}

class version:
    cuda = '13.0'
    hip = None
    git_version = '449b1768410104d3ed79d3bcfe4ba1d65c7f22c0'

class _Props:
    name = 'NVIDIA H200'
    major = 9
    minor = 0
    total_memory = 150109880320

class AcceleratorError(RuntimeError):
    pass

class _T:
    def float(self): return self
    def abs(self): return self
    def sum(self): return self
    def item(self): return 1.0

class cuda:
    is_available = staticmethod(lambda: True)
    device_count = staticmethod(lambda: 1)
    get_device_properties = staticmethod(lambda i: _Props())
    get_arch_list = staticmethod(lambda: ['sm_75', 'sm_80', 'sm_86', 'sm_90', 'sm_100', 'sm_120'])
    get_allocator_backend = staticmethod(lambda: 'native')
    mem_get_info = staticmethod(lambda i=0: (1258291200, 150109880320))
    synchronize = staticmethod(lambda: None)
    @staticmethod
    def empty_cache():
        _calls['emptied'] = True

_cudnn = {'version': None}

def _cudnn_init():
    if _cudnn['version'] is None:
        broken = os.environ.get('FAKE_TORCH_CONV') == 'version-check'
        _cudnn['version'] = 91400 if broken else 91900
        if broken:
            raise RuntimeError('cuDNN version incompatibility: PyTorch was compiled  against (9, 19, 0) but found runtime version (9, 14, 0). PyTorch already comes bundled with cuDNN. One option to resolving this error is to ensure PyTorch can find the bundled cuDNN. Looks like your LD_LIBRARY_PATH contains incompatible version of cudnn. Please either remove it from the path or install cudnn (9, 19, 0)')
    return True

class _C:
    class _cudnn:
        getCompileVersion = staticmethod(lambda: (9, 19, 0))
        getRuntimeVersion = staticmethod(lambda: (9, 14, 0) if os.environ.get('FAKE_TORCH_CONV') == 'version-check' else (9, 19, 0))

class backends:
    class cudnn:
        enabled = True
        benchmark = True
        version = staticmethod(lambda: _cudnn['version'] if _cudnn_init() else None)
        is_available = staticmethod(lambda: True)

def randn(*a, **k):
    return _T()

class nn:
    class functional:
        @staticmethod
        def conv2d(x, w, padding=0):
            _calls['conv'] += 1
            mode = os.environ.get('FAKE_TORCH_CONV', 'ok')
            if mode == 'oom':
                raise AcceleratorError("CUDA error: out of memory\\nSearch for \`cudaErrorMemoryAllocation' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.")
            if mode == 'oom-once' and not (_calls.get('emptied') and not backends.cudnn.benchmark):
                raise RuntimeError('CUDA out of memory. Tried to allocate 784.00 MiB. GPU 0 has a total capacity of 139.80 GiB of which 297.56 MiB is free.')
            if mode == 'cudnn':
                raise RuntimeError('cuDNN error: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH')
            if mode == 'segv':
                os.kill(os.getpid(), signal.SIGSEGV)
            if mode == 'hang':
                time.sleep(60)
            return _T()
`;

const JAX_INIT = `
import os
__version__ = '0.11.2'
from . import numpy, lax

class _Dev:
    id = 0
    platform = 'gpu'
    device_kind = 'NVIDIA H200'
    def memory_stats(self):
        return {'bytes_limit': 112583507968}

def default_backend():
    return 'gpu'

def devices():
    return [_Dev()]
`;

const JAX_LAX = `
import os, sys

class _Arr:
    def block_until_ready(self):
        if os.environ.get('FAKE_JAX_CONV') == 'prealloc' and os.environ.get('XLA_PYTHON_CLIENT_PREALLOCATE') != 'false':
            sys.stderr.write('E1202 09:42:05.337998    1069 cuda_executor.cc:1365] [0] Failed to allocate device memory of 104.85GiB (112583507968 bytes): RESOURCE_EXHAUSTED: : CUDA_ERROR_OUT_OF_MEMORY: out of memory\\n')
            raise RuntimeError('INTERNAL: Failed to initialize cuBLAS: failed to create cublas handle: the resource allocation failed')
        return self

def conv_general_dilated(x, w, strides, padding):
    return _Arr()
`;

const JAX_NUMPY = `
float32 = 'float32'
class _R:
    def sum(self): return 1.0
def ones(shape, dtype=None): return _R()
def abs(x): return _R()
`;

const TF = `
import os
if os.environ.get('FAKE_TF_IMPORT') == 'missing-cudnn':
    raise ImportError('libcudnn.so.8: cannot open shared object file: No such file or directory')
__version__ = '2.15.0'
`;

/** Writes the fake packages into `sitePackages` (a venv's, or a folder for PYTHONPATH). */
export function writeFakeFrameworks(root: string, sitePackages: string): void {
  const sp = path.join(root, sitePackages);
  writeTree(sp, {
    'torch/__init__.py': TORCH,
    'jax/__init__.py': JAX_INIT,
    'jax/lax.py': JAX_LAX,
    'jax/numpy.py': JAX_NUMPY,
    'jaxlib/__init__.py': "__version__ = '0.11.2'\n",
    'tensorflow/__init__.py': TF,
  });
}
