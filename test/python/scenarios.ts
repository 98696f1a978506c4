// Environments with the problems the python.* checks look for, written as real file trees.
// Requires-Dist lines are the ones the named wheels publish on PyPI (torch 2.5.1 pins
// nvidia-cudnn-cu12==9.1.0.70; tensorflow 2.18.0's [and-cuda] extra wants nvidia-cudnn-cu12>=9.3.0.75,<10).
import { distInfo, tfBuildInfoPy, torchVersionPy, venvFiles, writeTree } from './helpers.js';

const SP = '/opt/env/lib/python3.11/site-packages';
const LINUX = 'platform_system == "Linux" and platform_machine == "x86_64"';

/** The H200 machine's venv, reduced to what matters (versions from test/fixtures/h200/idle/pip-list.txt). */
export function h200Venv(root: string): void {
  const sp = '/opt/torch/.venv/lib/python3.12/site-packages';
  writeTree(root, {
    ...venvFiles('/opt/torch/.venv'),
    '/usr/bin/python3.12': { mode: 0o755, text: '' },
    '/usr/lib/python3.12/os.py': '',
    ...distInfo(sp, 'torch', '2.11.0', {
      requires: [`nvidia-cudnn-cu13==9.19.0.56; ${LINUX}`, `nvidia-nccl-cu13==2.28.9; ${LINUX}`, 'filelock'],
    }),
    [`${sp}/torch/version.py`]: torchVersionPy('2.11.0+cu130', '13.0'),
    ...distInfo(sp, 'nvidia-cudnn-cu13', '9.19.0.56', { requires: ['nvidia-cublas'] }),
    ...distInfo(sp, 'nvidia-nccl-cu13', '2.28.9'),
    ...distInfo(sp, 'nvidia-cublas', '13.1.0.3'),
    ...distInfo(sp, 'jax', '0.11.2', {
      requires: ['jaxlib<=0.11.2,>=0.11.2', 'jax-cuda13-plugin[with-cuda]<=0.11.2,>=0.11.2; extra == "cuda13"'],
    }),
    ...distInfo(sp, 'jaxlib', '0.11.2'),
    [`${sp}/jaxlib/version.py`]: '_version: str = "0.11.2"\n__version__ = _get_version_string()\n',
    ...distInfo(sp, 'jax-cuda13-plugin', '0.11.2', {
      requires: ['jax-cuda13-pjrt==0.11.2', 'nvidia-cudnn-cu13<10.0,>=9.8; extra == "with-cuda"'],
    }),
    ...distInfo(sp, 'jax-cuda13-pjrt', '0.11.2'),
    ...distInfo(sp, 'cupy-cuda13x', '14.2.0'),
    ...distInfo(sp, 'numpy', '2.5.2'),
  });
}

/** torch 2.5.1 and tensorflow[and-cuda] 2.18.0 in one env: the cuDNN pins cannot both hold. */
export function conflictEnv(root: string): void {
  writeTree(root, {
    ...venvFiles('/opt/env', '3.11', '/usr/bin/python3.11'),
    '/usr/bin/python3.11': { mode: 0o755, text: '' },
    ...distInfo(SP, 'torch', '2.5.1', {
      requires: [
        `nvidia-cudnn-cu12==9.1.0.70; ${LINUX}`,
        `nvidia-cublas-cu12==12.4.5.8; ${LINUX}`,
        `nvidia-nccl-cu12==2.21.5; ${LINUX}`,
      ],
    }),
    [`${SP}/torch/version.py`]: torchVersionPy('2.5.1+cu124', '12.4'),
    ...distInfo(SP, 'tensorflow', '2.18.0', {
      requires: [
        'nvidia-cudnn-cu12<10.0,>=9.3.0.75; extra == "and-cuda"',
        'nvidia-cublas-cu12<13.0,>=12.5.3.2; extra == "and-cuda"',
        'nvidia-nccl-cu12<3.0,>=2.21.5; extra == "and-cuda"',
        'nvidia-cufft-cu12<12.0,>=11.2.3.61; extra == "and-cuda"',
      ],
    }),
    [`${SP}/tensorflow/python/platform/build_info.py`]: tfBuildInfoPy('12.5.1', '9', [
      'sm_60',
      'sm_70',
      'sm_80',
      'sm_89',
      'compute_90',
    ]),
    ...distInfo(SP, 'nvidia-cudnn-cu12', '9.3.0.75'),
    ...distInfo(SP, 'nvidia-cublas-cu12', '12.5.3.2'),
    // torch's pinned nccl is missing, and tensorflow's cufft extra was never installed (not a problem).
  });
}

/** A conda env with conda's pytorch and cuDNN, plus pip's cuDNN wheel on top. */
export function condaMixEnv(root: string): void {
  const prefix = '/opt/conda/envs/mix';
  const sp = `${prefix}/lib/python3.11/site-packages`;
  const rec = (o: object) => JSON.stringify(o);
  writeTree(root, {
    [`${prefix}/bin/python3`]: { mode: 0o755, text: '' },
    [`${prefix}/conda-meta/history`]: '',
    [`${prefix}/conda-meta/pytorch-2.1.0-py3.11_cuda12.1_cudnn8.9.2_0.json`]: rec({
      name: 'pytorch',
      version: '2.1.0',
      build: 'py3.11_cuda12.1_cudnn8.9.2_0',
      channel: 'https://conda.anaconda.org/pytorch/linux-64',
      depends: ['pytorch-cuda >=12.1,<12.2', 'python >=3.11,<3.12.0a0'],
      files: [
        'lib/python3.11/site-packages/torch-2.1.0.dist-info/METADATA',
        'lib/python3.11/site-packages/torch/version.py',
      ],
    }),
    [`${prefix}/conda-meta/cudnn-8.9.2.26-cuda12_0.json`]: rec({
      name: 'cudnn',
      version: '8.9.2.26',
      build: 'cuda12_0',
      channel: 'https://conda.anaconda.org/nvidia/linux-64',
      depends: [],
      files: ['lib/libcudnn.so.8'],
    }),
    [`${prefix}/conda-meta/numpy-1.26.0-py311h.json`]: rec({
      name: 'numpy',
      version: '1.26.0',
      build: 'py311h',
      depends: [],
      files: [],
    }),
    // conda wrote this dist-info without an INSTALLER file; its record lists it, so it is conda's.
    ...distInfo(sp, 'torch', '2.1.0', { installer: null }),
    [`${sp}/torch/version.py`]: torchVersionPy('2.1.0', '12.1'),
    ...distInfo(sp, 'nvidia-cudnn-cu12', '9.1.0.70', { installer: 'pip' }),
  });
}

/** One env with every problem of its kind: CPU-only frameworks and packages installed twice. */
export function cpuAndDuplicatesEnv(root: string): void {
  writeTree(root, {
    ...venvFiles('/opt/env', '3.11', '/usr/bin/python3.11'),
    '/usr/bin/python3.11': { mode: 0o755, text: '' },
    ...distInfo(SP, 'torch', '2.5.1+cpu'),
    ...distInfo(SP, 'torch', '2.4.0'),
    [`${SP}/torch/version.py`]: torchVersionPy('2.5.1+cpu', null),
    ...distInfo(SP, 'tensorflow-cpu', '2.15.0'),
    [`${SP}/tensorflow/python/platform/build_info.py`]: tfBuildInfoPy(null, null, []),
    ...distInfo(SP, 'jax', '0.4.30'),
    ...distInfo(SP, 'jaxlib', '0.4.30'),
    ...distInfo(SP, 'six', '1.16.0'),
    [`${SP}/six-1.15.0-py3.11.egg-info`]: 'Metadata-Version: 1.1\nName: six\nVersion: 1.15.0\n',
    // Debian's layout: one install recorded as a dist-info and a version-less egg-info of the same version.
    ...distInfo(SP, 'cryptography', '38.0.4'),
    [`${SP}/cryptography.egg-info/PKG-INFO`]: 'Metadata-Version: 2.1\nName: cryptography\nVersion: 38.0.4\n',
  });
}

export const ENV_SP = SP;
