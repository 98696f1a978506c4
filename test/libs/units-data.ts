// Hand-made snapshot and libraries section for the check unit tests: a conda environment with TensorFlow,
// conda's cudnn/cudatoolkit and pip's nvidia-cudnn-cu12, an old cuBLAS in LD_LIBRARY_PATH, a missing cuDNN 8.
import type { LibrariesSection } from '../../src/gather/snapshot/schema-libraries.js';
import type { Snapshot } from '../../src/gather/snapshot/schema.js';

const SP = '/opt/conda/envs/tf/lib/python3.11/site-packages';

export function conda_pip_section(): LibrariesSection {
  return {
    ok: true,
    ldCache: { source: '/etc/ld.so.cache', format: 'new', entries: 10, glibc: '2.35' },
    ldLibraryPath: ['/usr/local/cuda-11.2/lib64', '/usr/local/nvidia/lib64'],
    defaultDirs: ['/lib/x86_64-linux-gnu', '/usr/lib/x86_64-linux-gnu', '/lib', '/usr/lib'],
    hwcaps: [],
    environments: [{ prefix: '/opt/conda/envs/tf', kind: 'conda', sitePackages: [SP] }],
    copies: [
      {
        name: 'libcudnn',
        path: '/opt/cudnn8/lib/libcudnn.so.8.9.7',
        version: '8.9.7',
        versionSource: 'file name',
        origin: 'other',
        soname: 'libcudnn.so.8',
        links: ['/opt/cudnn8/lib/libcudnn.so.8'],
        package: null,
        foundBy: ['default'],
      },
    ],
    consumers: [
      {
        path: `${SP}/tensorflow/libtensorflow_framework.so.2`,
        framework: 'tensorflow',
        environment: '/opt/conda/envs/tf',
        notes: [],
        resolved: [
          {
            name: 'libcudnn.so.8',
            family: 'libcudnn',
            path: null,
            realPath: null,
            version: null,
            via: 'not_found',
            how: 'needed',
            requestedBy: `${SP}/tensorflow/libtensorflow_framework.so.2`,
            shadowed: [],
            error: 'libcudnn.so.8: cannot open shared object file: No such file or directory',
          },
          {
            name: 'libcublas.so.11',
            family: 'libcublas',
            path: '/usr/local/cuda-11.2/lib64/libcublas.so.11',
            realPath: '/usr/local/cuda-11.2/lib64/libcublas.so.11.4.1.1043',
            version: '11.4.1.1043',
            via: 'ld_library_path',
            how: 'dlopen',
            requestedBy: `${SP}/tensorflow/libtensorflow_framework.so.2`,
            shadowed: [
              {
                path: `${SP}/nvidia/cublas/lib/libcublas.so.11`,
                realPath: `${SP}/nvidia/cublas/lib/libcublas.so.11`,
                version: '11.11.3.6',
                via: 'rpath',
              },
            ],
          },
        ],
      },
    ],
    loaded: [],
    processes: [],
    packages: [
      { manager: 'conda', name: 'cudnn', version: '8.1.0.77', prefix: '/opt/conda/envs/tf' },
      { manager: 'conda', name: 'cudatoolkit', version: '11.2.2', prefix: '/opt/conda/envs/tf' },
      { manager: 'conda', name: 'python', version: '3.11.5', prefix: '/opt/conda/envs/tf' },
      { manager: 'pip', name: 'nvidia-cudnn-cu12', version: '8.9.7.29', prefix: SP },
      { manager: 'pip', name: 'tensorflow', version: '2.15.0', prefix: SP },
    ],
  };
}

export function baseSnapshot(libraries: LibrariesSection): Snapshot {
  return {
    schemaVersion: 1,
    tool: { name: 'gpu-env-doctor', version: 'test' },
    collectedAt: '2026-12-02T00:00:00.000Z',
    host: { name: 'test' },
    self: { pid: 1, uid: 0, user: 'root', pidNamespace: null },
    system: {
      os: null,
      kernel: null,
      arch: 'x64',
      container: { kind: 'none', evidence: [] },
      wsl: false,
      kernelModule: { version: '535.54.03', line: 'NVRM version: 535.54.03' },
      nvidiaDevices: [],
      uptimeSeconds: null,
      clockTicks: 100,
    },
    nvidia: { ok: false, failure: { reason: 'not-installed', message: 'nvidia-smi not found' } },
    processes: { ok: true, list: [] },
    env: {},
    probes: [],
    libraries,
  } as Snapshot;
}
