// A --root tree shaped like the H200 machine at the size that matters for speed, for bench/speed.mjs (bundled
// by it with esbuild: Node 20 cannot run .ts). On top of test/libs/h200-tree.ts (the real layout: pip cuDNN 9.19
// and CUDA 13 wheels, apt's cuDNN 9.14, the container driver, the compat libcuda, the ld cache) it adds what
// costs time there: the venv's 197 distributions (test/fixtures/h200/idle/pip-list.json) with their metadata,
// torch's RECORD of ~16,000 files, torch/lib's shared libraries, the JAX CUDA plugin and CuPy, and a
// libtorch_cuda.so whose .nv_fatbin section holds `fatbinEntries` entry headers spread over ~1 GiB (a sparse
// file: the payloads are holes, so it takes no disk space, but the reader walks the same headers).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildH200Tree, SP } from '../test/libs/h200-tree.js';

export interface MachineOptions {
  /** the repository (for the fixture lists); default: the folder above this file */
  repo?: string;
  /** fatbinary entries in libtorch_cuda.so (each a 64-byte header; 7 per compilation unit: 6 SASS + 1 PTX) */
  fatbinEntries?: number;
  /** bytes the fatbinary section spans */
  fatbinBytes?: number;
}

export function buildMachine(o: MachineOptions = {}): string {
  const root = buildH200Tree();
  const R = (p: string) => path.join(root, p);
  const w = (p: string, text: string | Buffer) => {
    fs.mkdirSync(path.dirname(R(p)), { recursive: true });
    fs.writeFileSync(R(p), text);
  };
  const repo = o.repo ?? path.resolve(__dirname, '..');
  const pkgs = JSON.parse(fs.readFileSync(path.join(repo, 'test/fixtures/h200/idle/pip-list.json'), 'utf8')) as {
    name: string;
    version: string;
  }[];
  const readme = 'A package.\n\n'.repeat(800);
  for (const p of pkgs) {
    const mod = p.name.replace(/-/g, '_').toLowerCase();
    const dist = `${SP}/${p.name.replace(/-/g, '_')}-${p.version}.dist-info`;
    const files = [`${mod}/__init__.py`, `${mod}/core.py`, `${mod}/utils.py`];
    for (const f of files) if (!fs.existsSync(R(`${SP}/${f}`))) w(`${SP}/${f}`, '# x\n');
    if (fs.existsSync(R(`${dist}/RECORD`))) continue; // written by the h200 tree (the nvidia wheels, torch)
    w(
      `${dist}/METADATA`,
      `Metadata-Version: 2.1\nName: ${p.name}\nVersion: ${p.version}\nRequires-Dist: numpy\n\n${readme}`,
    );
    w(`${dist}/INSTALLER`, 'uv\n');
    w(`${dist}/RECORD`, files.map((f) => `${f},sha256=abc,4`).join('\n'));
  }
  // torch: its version file, a long RECORD and METADATA, the libraries of torch/lib.
  w(
    `${SP}/torch/version.py`,
    "__version__ = '2.11.0+cu130'\ndebug = False\ncuda: Optional[str] = '13.0'\ngit_version = '0123456789abcdef'\nhip: Optional[str] = None\n",
  );
  w(`${SP}/torch/__init__.py`, '');
  const torchLibs = [
    'libc10.so',
    'libc10_cuda.so',
    'libtorch.so',
    'libtorch_cpu.so',
    'libtorch_python.so',
    'libshm.so',
    'libcaffe2_nvrtc.so',
    'libgomp.so.1',
    'libtorch_cuda_linalg.so',
  ];
  const tiny = fs.readFileSync(R(`${SP}/torch/lib/libtorch_global_deps.so`));
  for (const l of torchLibs) w(`${SP}/torch/lib/${l}`, tiny);
  const record = [
    ...torchLibs.map((l) => `torch/lib/${l}`),
    'torch/lib/libtorch_cuda.so',
    'torch/lib/libtorch_global_deps.so',
  ];
  for (let i = 0; record.length < 16000; i++) record.push(`torch/_module_${Math.floor(i / 40)}/file_${i}.py`);
  w(
    `${SP}/torch-2.11.0+cu130.dist-info/RECORD`,
    record.map((f) => `${f},sha256=abcdefabcdefabcdefabcdefabcdefabcdefabcdefa,${1000 + (f.length % 97)}`).join('\n'),
  );
  w(
    `${SP}/torch-2.11.0+cu130.dist-info/METADATA`,
    `Metadata-Version: 2.1\nName: torch\nVersion: 2.11.0+cu130\nRequires-Dist: nvidia-cudnn-cu13==9.19.0.56; platform_system == "Linux"\nRequires-Dist: nvidia-cuda-runtime==13.0.96\n\n${readme}`,
  );
  w(`${SP}/torch-2.11.0+cu130.dist-info/INSTALLER`, 'uv\n');
  // JAX's CUDA plugin and CuPy's runtime module: more consumers for the loader emulation.
  const cu13 = `${SP}/nvidia/cu13/lib`;
  const cudnn = `${SP}/nvidia/cudnn/lib`;
  w(`${SP}/jax_plugins/xla_cuda13/xla_cuda_plugin.so`, tiny);
  w(`${SP}/jax_plugins/xla_cuda13/__init__.py`, '');
  w(`${SP}/cupy_backends/cuda/api/runtime.cpython-312-x86_64-linux-gnu.so`, tiny);
  for (const l of [
    'libcufft.so.12',
    'libcurand.so.10',
    'libcusparse.so.12',
    'libcusolver.so.12',
    'libnvrtc.so.13',
    'libnvJitLink.so.13',
    'libnvblas.so.13',
    'libcufile.so.0',
  ])
    w(`${cu13}/${l}`, tiny);
  for (const [d, l] of [
    ['nccl', 'libnccl.so.2'],
    ['nvshmem', 'libnvshmem_host.so.3'],
    ['cusparselt', 'libcusparseLt.so.0'],
  ] as const)
    w(`${SP}/nvidia/${d}/lib/${l}`, tiny);
  void cudnn;
  // libtorch_cuda.so with its fatbinary.
  addFatbin(R(`${SP}/torch/lib/libtorch_cuda.so`), o.fatbinEntries ?? 21000, o.fatbinBytes ?? 1 << 30);
  return root;
}

/**
 * Appends a `.nv_fatbin` section to an ELF64 file: blobs of 7 entries (SASS for sm_75 … sm_120, PTX for
 * compute_120), with the blob and entry headers nvcc writes (see src/gather/libraries/fatbin.ts) and the payloads left as
 * holes. The section header table and a new section-name table go after it.
 */
export function addFatbin(file: string, entries: number, spanBytes: number): void {
  const orig = fs.readFileSync(file);
  const shoff = Number(orig.readBigUInt64LE(0x28));
  const shentsize = orig.readUInt16LE(0x3a);
  const shnum = orig.readUInt16LE(0x3c);
  const shstrndx = orig.readUInt16LE(0x3e);
  const shdrs = orig.subarray(shoff, shoff + shnum * shentsize);
  const strOff = Number(shdrs.readBigUInt64LE(shstrndx * shentsize + 24));
  const strSize = Number(shdrs.readBigUInt64LE(shstrndx * shentsize + 32));
  const names = Buffer.concat([orig.subarray(strOff, strOff + strSize), Buffer.from('.nv_fatbin\0')]);
  const fatStart = Math.ceil(orig.length / 4096) * 4096;
  const archs: [number, number][] = [
    [2, 75],
    [2, 80],
    [2, 86],
    [2, 90],
    [2, 100],
    [2, 120],
    [1, 120],
  ];
  const blobs = Math.max(1, Math.ceil(entries / archs.length));
  const payload = Math.max(64, Math.floor(spanBytes / entries / 8) * 8);
  const fd = fs.openSync(file, 'r+');
  let p = fatStart;
  let written = 0;
  const eh = Buffer.alloc(64);
  for (let b = 0; b < blobs && written < entries; b++) {
    const n = Math.min(archs.length, entries - written);
    const blob = Buffer.alloc(16);
    blob.writeUInt32LE(0xba55ed50, 0);
    blob.writeUInt16LE(1, 4);
    blob.writeUInt16LE(16, 6);
    blob.writeBigUInt64LE(BigInt(n * (64 + payload)), 8);
    fs.writeSync(fd, blob, 0, 16, p);
    p += 16;
    for (let i = 0; i < n; i++) {
      const [kind, arch] = archs[i]!;
      eh.fill(0);
      eh.writeUInt16LE(kind, 0);
      eh.writeUInt16LE(0x0101, 2);
      eh.writeUInt32LE(64, 4);
      eh.writeBigUInt64LE(BigInt(payload), 8);
      eh.writeUInt32LE(arch, 28);
      fs.writeSync(fd, eh, 0, 64, p);
      p += 64 + payload;
      written++;
    }
  }
  const fatSize = p - fatStart;
  const namesAt = p;
  fs.writeSync(fd, names, 0, names.length, namesAt);
  const newShoff = Math.ceil((namesAt + names.length) / 8) * 8;
  const table = Buffer.alloc((shnum + 2) * shentsize);
  shdrs.copy(table);
  // the new name table replaces the old one as e_shstrndx; the old entry stays, unused
  const strHdr = table.subarray(shnum * shentsize, (shnum + 1) * shentsize);
  shdrs.copy(strHdr, 0, shstrndx * shentsize, (shstrndx + 1) * shentsize);
  strHdr.writeBigUInt64LE(BigInt(namesAt), 24);
  strHdr.writeBigUInt64LE(BigInt(names.length), 32);
  const fat = table.subarray((shnum + 1) * shentsize);
  fat.writeUInt32LE(strSize, 0); // sh_name: ".nv_fatbin" at the end of the old names
  fat.writeUInt32LE(1, 4); // SHT_PROGBITS
  fat.writeBigUInt64LE(2n, 8); // SHF_ALLOC
  fat.writeBigUInt64LE(BigInt(fatStart), 24);
  fat.writeBigUInt64LE(BigInt(fatSize), 32);
  fat.writeBigUInt64LE(8n, 48);
  fs.writeSync(fd, table, 0, table.length, newShoff);
  const head = Buffer.alloc(8);
  head.writeBigUInt64LE(BigInt(newShoff), 0);
  fs.writeSync(fd, head, 0, 8, 0x28);
  const counts = Buffer.alloc(4);
  counts.writeUInt16LE(shnum + 2, 0);
  counts.writeUInt16LE(shnum, 2);
  fs.writeSync(fd, counts, 0, 4, 0x3c);
  fs.closeSync(fd);
}
