// A --root tree shaped like the H200 machine (test/fixtures/h200/idle: libs-found.txt, sp-nvidia.txt,
// readelf.txt, ldconfig.txt): real tiny ELF libraries built with gcc at the same paths, sonames, RPATH and
// RUNPATH as the real ones, pip's cuDNN 9.19 in the venv, apt's cuDNN 9.14 in the ld cache, a container
// driver in /usr/local/nvidia/lib64 and the CUDA 13.0 forward-compatibility libcuda 580.95.05.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../helpers/fake-bin.js';
import { buildLib, gcc } from './build.js';

export const SP = '/opt/torch/.venv/lib/python3.12/site-packages';
export const H200_ENV = {
  LD_LIBRARY_PATH: '/usr/local/nvidia/lib64:/usr/local/nvidia/lib',
  PATH: '/opt/torch/.venv/bin:/usr/local/cuda/bin:/usr/bin:/bin',
};

/** Writes a new-format ld.so.cache ("glibc-ld.so.cache1.1") with these entries. */
export function writeLdCache(
  file: string,
  entries: { name: string; path: string }[],
  generator = 'ldconfig (GNU libc) 2.39',
): void {
  const strings: Buffer[] = [];
  const headerLen = 48 + entries.length * 24;
  let strOff = headerLen;
  const offsets: [number, number][] = [];
  const addStr = (s: string) => {
    const at = strOff;
    const b = Buffer.from(`${s}\0`);
    strings.push(b);
    strOff += b.length;
    return at;
  };
  for (const e of entries) offsets.push([addStr(e.name), addStr(e.path)]);
  const genAt = strOff;
  const gen = Buffer.from(generator);
  strings.push(gen);
  strOff += gen.length;
  const pad = (8 - (strOff % 8)) % 8;
  strings.push(Buffer.alloc(pad));
  strOff += pad;
  const extAt = strOff;
  const ext = Buffer.alloc(8 + 16);
  ext.writeUInt32LE(0xeaa42174, 0);
  ext.writeUInt32LE(1, 4);
  ext.writeUInt32LE(0, 8); // tag: generator
  ext.writeUInt32LE(0, 12);
  ext.writeUInt32LE(genAt, 16);
  ext.writeUInt32LE(gen.length, 20);
  const head = Buffer.alloc(headerLen);
  head.write('glibc-ld.so.cache1.1', 0, 'latin1');
  head.writeUInt32LE(entries.length, 20);
  head.writeUInt32LE(strOff - headerLen, 24);
  head.writeUInt32LE(extAt, 32);
  entries.forEach((_, i) => {
    const o = 48 + i * 24;
    head.writeInt32LE(0x0303, o);
    head.writeUInt32LE(offsets[i]![0], o + 4);
    head.writeUInt32LE(offsets[i]![1], o + 8);
  });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.concat([head, ...strings, ext]));
}

const CUDNN_SUBS = [
  'libcudnn_graph',
  'libcudnn_engines_precompiled',
  'libcudnn_engines_runtime_compiled',
  'libcudnn_heuristic',
  'libcudnn_ops',
  'libcudnn_cnn',
  'libcudnn_adv',
];

const header = (v: string) => {
  const [a, b, c] = v.split('.');
  return `#define CUDNN_MAJOR ${a}\n#define CUDNN_MINOR ${b}\n#define CUDNN_PATCHLEVEL ${c}\n`;
};

/** Builds the tree; returns its root folder. */
export function buildH200Tree(): string {
  const root = tempDir('ged-h200-');
  const R = (p: string) => path.join(root, p);
  const w = (p: string, text: string) => {
    fs.mkdirSync(path.dirname(R(p)), { recursive: true });
    fs.writeFileSync(R(p), text);
  };
  const lib = (
    file: string,
    soname: string,
    opts: { needed?: string[]; rpath?: string; runpath?: string; links?: string[] } = {},
  ) =>
    buildLib(root, {
      file: file.slice(1),
      soname,
      nostdlib: true,
      ...(opts.needed ? { needed: opts.needed } : {}),
      ...(opts.rpath ? { rpath: opts.rpath } : {}),
      ...(opts.runpath ? { runpath: opts.runpath } : {}),
      links: (opts.links ?? []).map((l) => l.slice(1)),
    });
  // Merged /usr: /lib → usr/lib, as on Ubuntu 24.04.
  fs.mkdirSync(R('usr/lib/x86_64-linux-gnu'), { recursive: true });
  fs.symlinkSync('usr/lib', R('lib'));
  // System cuDNN 9.14 from apt.
  const sys = '/usr/lib/x86_64-linux-gnu';
  lib(`${sys}/libcudnn.so.9.14.0`, 'libcudnn.so.9', { links: [`${sys}/libcudnn.so.9`, `${sys}/libcudnn.so`] });
  for (const s of CUDNN_SUBS)
    lib(`${sys}/${s}.so.9.14.0`, `${s}.so.9`, { links: [`${sys}/${s}.so.9`, `${sys}/${s}.so`] });
  w('/usr/include/x86_64-linux-gnu/cudnn_version_v9.h', header('9.14.0'));
  // Container driver libraries and the forward-compatibility package.
  lib('/usr/local/nvidia/lib64/libcuda.so.580.159.04', 'libcuda.so.1', {
    links: ['/usr/local/nvidia/lib64/libcuda.so.1', '/usr/local/nvidia/lib64/libcuda.so'],
  });
  lib('/usr/local/nvidia/lib64/libnvidia-ml.so.580.159.04', 'libnvidia-ml.so.1', {
    links: ['/usr/local/nvidia/lib64/libnvidia-ml.so.1'],
  });
  const tk = '/usr/local/cuda-13.0';
  lib(`${tk}/compat/libcuda.so.580.95.05`, 'libcuda.so.1', {
    links: [`${tk}/compat/libcuda.so.1`, `${tk}/compat/libcuda.so`],
  });
  lib(`${tk}/targets/x86_64-linux/lib/libcudart.so.13.0.96`, 'libcudart.so.13', {
    links: [`${tk}/targets/x86_64-linux/lib/libcudart.so.13`],
  });
  lib(`${tk}/targets/x86_64-linux/lib/libcublasLt.so.13.1.0.3`, 'libcublasLt.so.13', {
    links: [`${tk}/targets/x86_64-linux/lib/libcublasLt.so.13`],
  });
  lib(`${tk}/targets/x86_64-linux/lib/libcublas.so.13.1.0.3`, 'libcublas.so.13', {
    links: [`${tk}/targets/x86_64-linux/lib/libcublas.so.13`],
    needed: [R(`${tk}/targets/x86_64-linux/lib/libcublasLt.so.13`)],
    runpath: '$ORIGIN',
  });
  fs.symlinkSync('cuda-13.0', R('usr/local/cuda'));
  // The venv: pip's cuDNN 9.19 and CUDA 13 wheels, torch with its RPATH.
  w('/opt/torch/.venv/pyvenv.cfg', 'home = /usr/bin\nversion = 3.12.3\n');
  w('/opt/torch/.venv/bin/python3', '');
  const cudnn = `${SP}/nvidia/cudnn/lib`;
  const cu13 = `${SP}/nvidia/cu13/lib`;
  lib(`${cudnn}/libcudnn.so.9`, 'libcudnn.so.9', { runpath: '$ORIGIN' });
  for (const s of CUDNN_SUBS) lib(`${cudnn}/${s}.so.9`, `${s}.so.9`, { runpath: '$ORIGIN' });
  w(`${SP}/nvidia/cudnn/include/cudnn_version_v9.h`, header('9.19.0'));
  lib(`${cu13}/libcudart.so.13`, 'libcudart.so.13', { runpath: '$ORIGIN' });
  lib(`${cu13}/libcublasLt.so.13`, 'libcublasLt.so.13', { runpath: '$ORIGIN' });
  lib(`${cu13}/libcublas.so.13`, 'libcublas.so.13', { needed: [R(`${cu13}/libcublasLt.so.13`)], runpath: '$ORIGIN' });
  const rec = (dist: string, files: string[]) =>
    w(`${SP}/${dist}/RECORD`, files.map((f) => `${f},sha256=x,1`).join('\n'));
  rec('nvidia_cudnn_cu13-9.19.0.56.dist-info', [
    'nvidia/cudnn/lib/libcudnn.so.9',
    ...CUDNN_SUBS.map((s) => `nvidia/cudnn/lib/${s}.so.9`),
  ]);
  rec('nvidia_cuda_runtime-13.0.96.dist-info', ['nvidia/cu13/lib/libcudart.so.13']);
  rec('nvidia_cublas-13.1.0.3.dist-info', ['nvidia/cu13/lib/libcublas.so.13', 'nvidia/cu13/lib/libcublasLt.so.13']);
  const torchRpath = '$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN/../../nvidia/cu13/lib:$ORIGIN';
  lib(`${SP}/torch/lib/libtorch_global_deps.so`, 'libtorch_global_deps.so', {
    needed: [R(`${cu13}/libcudart.so.13`)],
    rpath: torchRpath,
  });
  lib(`${SP}/torch/lib/libtorch_cuda.so`, 'libtorch_cuda.so', {
    needed: [R(`${cu13}/libcudart.so.13`), R(`${cu13}/libcublas.so.13`), R(`${cudnn}/libcudnn.so.9`)],
    rpath: torchRpath,
  });
  rec('torch-2.11.0.dist-info', ['torch/lib/libtorch_cuda.so', 'torch/lib/libtorch_global_deps.so']);
  // JAX's CUDA plugin: it preloads nvidia/cudnn/lib/libcudnn.so.9 by path, like torch.
  lib(`${SP}/jax_plugins/xla_cuda13/xla_cuda_plugin.so`, 'xla_cuda_plugin.so', {
    rpath: '$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN/../../nvidia/cu13/lib',
  });
  // The ld cache, as ldconfig.txt shows it: apt's cuDNN, the toolkit, the container driver first.
  const entries = [
    ...['libcudnn', ...CUDNN_SUBS].map((s) => ({ name: `${s}.so.9`, path: `/lib/x86_64-linux-gnu/${s}.so.9` })),
    { name: 'libcudart.so.13', path: '/usr/local/cuda/targets/x86_64-linux/lib/libcudart.so.13' },
    { name: 'libcublasLt.so.13', path: '/usr/local/cuda/targets/x86_64-linux/lib/libcublasLt.so.13' },
    { name: 'libcublas.so.13', path: '/usr/local/cuda/targets/x86_64-linux/lib/libcublas.so.13' },
    { name: 'libcuda.so.1', path: '/usr/local/nvidia/lib64/libcuda.so.1' },
    { name: 'libnvidia-ml.so.1', path: '/usr/local/nvidia/lib64/libnvidia-ml.so.1' },
  ].sort((a, b) => b.name.localeCompare(a.name));
  writeLdCache(R('etc/ld.so.cache'), entries);
  w(
    '/proc/cpuinfo',
    'processor\t: 0\nflags\t\t: fpu sse sse2 ssse3 cx16 sse4_1 sse4_2 popcnt lahf_lm avx avx2 bmi1 bmi2 f16c fma abm movbe xsave avx512f avx512bw avx512cd avx512dq avx512vl\n',
  );
  w(
    '/proc/driver/nvidia/version',
    'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (dvs-builder@U22-I3-AF03-09-1)  Thu Oct 30 2025\nGCC version:  gcc version 13.3.0\n',
  );
  // A running torch process (hog/procinfo.txt: PID 1578) and what it mapped.
  const mapped = [
    `${cu13}/libcublasLt.so.13`,
    `${cu13}/libcublas.so.13`,
    `${cu13}/libcudart.so.13`,
    `${cudnn}/libcudnn.so.9`,
    `${SP}/torch/lib/libtorch_cuda.so`,
    '/usr/local/nvidia/lib64/libcuda.so.580.159.04',
  ];
  w(
    '/proc/1578/maps',
    mapped.map((p, i) => `7f00${i}000-7f00${i}fff r-xp 00000000 08:01 ${1000 + i}                  ${p}`).join('\n') +
      '\n',
  );
  w('/proc/1578/environ', 'PATH=/usr/bin\0LD_LIBRARY_PATH=/usr/local/nvidia/lib64:/usr/local/nvidia/lib\0');
  w('/proc/1578/status', 'Name:\tpython3\nState:\tS (sleeping)\nPPid:\t418\nUid:\t0\t0\t0\t0\n');
  return root;
}

export { gcc };
