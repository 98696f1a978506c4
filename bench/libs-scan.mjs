// Benchmark: the libraries probe on a large fake site-packages, through the built CLI (dist/cli.js).
// Builds a --root tree with N packages (dist-info with METADATA and RECORD, a few modules each), the pip
// nvidia-* libraries as real ELF files, torch/lib, and a big ld cache listing; then times
// `snapshot --root` (the 'libraries' probe timing) and `libs --json --root` end to end.
// Usage: node scripts/build.mjs && node bench/libs-scan.mjs [packages=3000] [runs=5]
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const N = Number(process.argv[2] ?? 3000);
const RUNS = Number(process.argv[3] ?? 5);
const cli = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '../dist/cli.js');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-libs-bench-'));
const SP = `${root}/opt/venv/lib/python3.12/site-packages`;
const mk = (p, text = '') => {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
};

// One real ELF shared library, copied under every library name.
fs.writeFileSync(`${root}/x.c`, 'int x(void){return 0;}\n');
execFileSync('gcc', [
  '-shared',
  '-fPIC',
  '-nostdlib',
  '-o',
  `${root}/x.so`,
  `${root}/x.c`,
  '-Wl,-soname,libx.so.1',
  '-Wl,--enable-new-dtags',
  '-Wl,-rpath,$ORIGIN',
]);
const elf = fs.readFileSync(`${root}/x.so`);

let files = 0;
mk(`${root}/opt/venv/pyvenv.cfg`, 'home = /usr/bin\n');
mk(`${root}/opt/venv/bin/python3`);
for (let i = 0; i < N; i++) {
  const name = `pkg_${i}`;
  const dist = `${SP}/${name}-1.${i % 50}.0.dist-info`;
  const mods = [
    `${name}/__init__.py`,
    `${name}/core.py`,
    `${name}/util.py`,
    `${name}/_ext.cpython-312-x86_64-linux-gnu.so`,
  ];
  for (const m of mods) mk(`${SP}/${m}`, '# x\n');
  mk(`${dist}/METADATA`, `Metadata-Version: 2.1\nName: ${name}\nVersion: 1.${i % 50}.0\n`);
  mk(`${dist}/RECORD`, mods.map((m) => `${m},sha256=abc,4`).join('\n'));
  files += mods.length + 2;
}
const nvidia = {
  cudnn: [
    'libcudnn.so.9',
    'libcudnn_graph.so.9',
    'libcudnn_ops.so.9',
    'libcudnn_cnn.so.9',
    'libcudnn_adv.so.9',
    'libcudnn_heuristic.so.9',
    'libcudnn_engines_precompiled.so.9',
    'libcudnn_engines_runtime_compiled.so.9',
  ],
  cu13: [
    'libcudart.so.13',
    'libcublas.so.13',
    'libcublasLt.so.13',
    'libcufft.so.12',
    'libcurand.so.10',
    'libcusparse.so.12',
    'libcusolver.so.12',
    'libnvrtc.so.13',
    'libnvJitLink.so.13',
  ],
  nccl: ['libnccl.so.2'],
};
for (const [pkg, libs] of Object.entries(nvidia)) {
  for (const l of libs)
    fs.mkdirSync(`${SP}/nvidia/${pkg}/lib`, { recursive: true }), fs.writeFileSync(`${SP}/nvidia/${pkg}/lib/${l}`, elf);
  mk(`${SP}/nvidia_${pkg}-1.0.0.dist-info/RECORD`, libs.map((l) => `nvidia/${pkg}/lib/${l},sha256=x,1`).join('\n'));
  files += libs.length;
}
fs.mkdirSync(`${SP}/torch/lib`, { recursive: true });
for (let i = 0; i < 60; i++) fs.writeFileSync(`${SP}/torch/lib/libtorch_part${i}.so`, elf);
fs.writeFileSync(`${SP}/torch/lib/libtorch_cuda.so`, elf);
files += 61;
mk(`${root}/etc/ld.so.cache`, fs.readFileSync('/etc/ld.so.cache'));

const time = (args) => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, ...args, '--root', root], {
    encoding: 'utf8',
    env: { PATH: '/opt/venv/bin:/usr/bin:/bin', NO_COLOR: '1' },
    maxBuffer: 256 * 1024 * 1024,
  });
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, out: r.stdout, code: r.status, err: r.stderr };
};
const probeMs = [];
const wallMs = [];
let copies = 0;
for (let i = 0; i < RUNS; i++) {
  const s = time(['snapshot']);
  const snap = JSON.parse(s.out);
  probeMs.push(snap.probes.find((p) => p.id === 'libraries').durationMs);
  const l = time(['libs', '--json']);
  wallMs.push(l.ms);
  copies = JSON.parse(l.out).copies.length;
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`site-packages: ${N} packages, ${files} files; ${copies} library copies found`);
console.log(
  `libraries probe (snapshot --root): median ${med(probeMs).toFixed(1)} ms, min ${Math.min(...probeMs).toFixed(1)} ms over ${RUNS} runs`,
);
console.log(
  `libs --json --root end to end (node start, all probes): median ${med(wallMs).toFixed(0)} ms, min ${Math.min(...wallMs).toFixed(0)} ms`,
);
fs.rmSync(root, { recursive: true, force: true });
