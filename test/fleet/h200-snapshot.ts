// A realistic snapshot of the H200 machine: the real probes (collectSnapshot) run over the real nvidia-smi
// captures (test/fixtures/h200) and a temp --root that mirrors what was read there (/proc/driver/nvidia/version,
// the hog process's /proc/PID/stat line, os-release). The python and libraries sections, which a bare temp
// root cannot reproduce, are filled from the same machine's captures (pip list, LD_DEBUG ground
// truth: torch loads pip's cuDNN 9.19 while the system has 9.14). Tests plant differences in copies of it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { collectSnapshot } from '../../src/gather/snapshot/collect.js';
import { createFileSystem } from '../../src/ports/fs.js';
import { DEFAULT_PROBE_OPTIONS } from '../../src/gather/probe-env.js';
import { QUERY_ARGS, XML_ARGS } from '../../src/gather/nvidia/run.js';
import { Snapshot } from '../../src/gather/snapshot/schema.js';
import { fakeRunner, ok } from '../helpers/fake-runner.js';

export const H200 = path.resolve(__dirname, '../fixtures/h200');
const read = (p: string) => fs.readFileSync(path.join(H200, p), 'utf8');

/** 2026-12-02 09:45 UTC, when the hog capture was taken */
export const CAPTURE_TIME = Date.UTC(2026, 11, 2, 9, 45, 0);
/** The hog's real stat line says it started 79.86 s after boot; boot so that it started a minute before the capture. */
const BOOT_TIME_S = Math.round(CAPTURE_TIME / 1000 - 79.86 - 60);
const SELF_PID = 4242;

export interface H200Options {
  host?: string;
  /** a second process holds the GPU: 'orphaned' (its parent is gone: stale) or 'active' (parent alive) */
  hog?: 'orphaned' | 'active';
}

function write(root: string, p: string, content: string): void {
  const abs = path.join(root, p);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}

/** The temp --root the probes read. */
export function h200Root(root: string, o: H200Options = {}): void {
  write(root, '/proc/sys/kernel/hostname', `${o.host ?? 'gpu-h200-01'}\n`);
  write(root, '/proc/sys/kernel/osrelease', '6.18.44-fc-v973-gpu\n');
  write(root, '/etc/os-release', 'PRETTY_NAME="Ubuntu 24.04.3 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\n');
  write(root, '/etc/passwd', 'root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000::/home/alice:/bin/bash\n');
  write(root, '/proc/driver/nvidia/version', read('idle/proc-driver-version.txt'));
  write(root, '/proc/uptime', `${CAPTURE_TIME / 1000 - BOOT_TIME_S}.00 200.00\n`);
  write(root, '/proc/stat', `cpu  1 2 3 4\nbtime ${BOOT_TIME_S}\n`);
  write(root, '/proc/1/stat', '1 (systemd) S 0 1 1 0 -1 4194560 0 0 0 0 10 10 0 0 20 0 1 0 1 0 0\n');
  write(root, '/proc/1/cgroup', '0::/init.scope\n');
  write(root, '/proc/self/status', 'Name:\tnode\nState:\tR (running)\nPPid:\t1\nUid:\t1000\t1000\t1000\t1000\n');
  for (const d of ['nvidia0', 'nvidiactl', 'nvidia-uvm']) write(root, `/dev/${d}`, '');
  if (o.hog) {
    // The real stat line of the hog (hog-1200-proc.txt), as PID 694 (the PID in the hog XML).
    const real = read('hog/hog-1200-proc.txt')
      .split('\n')
      .find((l) => /^\d+ \(python3\)/.test(l))!;
    const ppid = o.hog === 'orphaned' ? 1 : 418;
    write(root, '/proc/694/stat', real.replace(/^\d+ \(python3\) S \d+/, `694 (python3) S ${ppid}`));
    write(
      root,
      '/proc/694/status',
      'Name:\tpython3\nState:\tS (sleeping)\nPPid:\t' + ppid + '\nUid:\t1000\t1000\t1000\t1000\n',
    );
    write(root, '/proc/694/cmdline', 'python3\0hog.py\x000\x00600\0');
    fs.mkdirSync(path.join(root, '/proc/694/fd'), { recursive: true });
    fs.symlinkSync('/dev/nvidia0', path.join(root, '/proc/694/fd/11'));
    // the login shell that leads session 417 lives on (an orphan is then a leftover of a launcher that died)
    write(root, '/proc/417/stat', '417 (bash) S 1 417 417 0 -1 4194560 0 0 0 0 1 1 0 0 20 0 1 0 90 0 0\n');
    // its parent, as on the H200: the job's bash, in the job's session 417 (the hog's stat line says so)
    if (o.hog === 'active')
      write(root, '/proc/418/stat', '418 (bash) S 417 417 417 0 -1 4194560 0 0 0 0 1 1 0 0 20 0 1 0 100 0 0\n');
  }
}

/** pip list of the H200 venv, the GPU-relevant part (what the python probe keeps). */
export function pythonSectionFromCaptures(): unknown {
  const pip = JSON.parse(read('idle/pip-list.json')) as { name: string; version: string }[];
  const relevant = pip.filter(
    (p) => /^(nvidia-|torch$|torchvision$|jax|cupy|cuda-)/.test(p.name.toLowerCase()) && p.name !== 'jaxtyping',
  );
  const site = '/opt/torch/.venv/lib/python3.12/site-packages';
  return {
    environments: [
      {
        prefix: '/opt/torch/.venv',
        kind: 'venv',
        interpreter: '/opt/torch/.venv/bin/python3',
        pythonVersion: '3.12',
        sitePackages: [site],
        active: true,
        scanned: true,
        foundVia: ['VIRTUAL_ENV'],
        packages: relevant.map((p) => ({
          name: p.name.toLowerCase(),
          version: p.version,
          source: 'dist-info',
          path: `${site}/${p.name.replace(/-/g, '_')}-${p.version}.dist-info`,
          installer: 'pip',
        })),
        distributionCount: pip.length,
        duplicates: [],
        frameworks: [
          {
            framework: 'torch',
            version: '2.11.0+cu130',
            cuda: '13.0',
            cudnn: null,
            hip: null,
            gpuBuild: true,
            computeCapabilities: null,
            sources: [`${site}/torch/version.py`],
            details: {},
          },
          {
            framework: 'jax',
            version: '0.11.2',
            cuda: '13',
            cudnn: null,
            hip: null,
            gpuBuild: true,
            computeCapabilities: null,
            sources: [`${site}/jax/version.py`],
            details: { plugin: '0.11.2' },
          },
        ],
        probes: [],
        problems: [],
      },
    ],
    deep: false,
    deepSkipped: null,
  };
}

/**
 * What loads, from the LD_DEBUG capture ("calling init: .../nvidia/cudnn/lib/libcudnn.so.9" for torch: pip's
 * cuDNN 9.19 through torch's RPATH) and the files found on disk (libs-found.txt: the system's 9.14 too),
 * in the shape of src/gather/snapshot/schema-libraries.ts.
 */
export function librariesSectionFromCaptures(): unknown {
  const site = '/opt/torch/.venv/lib/python3.12/site-packages';
  const pipCudnn = `${site}/nvidia/cudnn/lib/libcudnn.so.9`;
  const pipCudart = `${site}/nvidia/cu13/lib/libcudart.so.13`;
  const sysCudnn = '/usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0';
  const pkg = (name: string, version: string) => ({ manager: 'pip', name, version, prefix: '/opt/torch/.venv' });
  const resolved = (
    name: string,
    family: string,
    path: string,
    version: string,
    how: 'needed' | 'dlopen',
    shadowed: unknown[] = [],
  ) => ({
    name,
    family,
    path,
    realPath: path,
    version,
    via: 'rpath',
    how,
    requestedBy: `${site}/torch/lib/libtorch_cuda.so`,
    shadowed,
  });
  return {
    ok: true,
    ldCache: { source: '/etc/ld.so.cache', format: 'glibc-ld.so-1.7.0', entries: 519, glibc: '2.39' },
    ldLibraryPath: ['/usr/local/nvidia/lib64', '/usr/local/nvidia/lib'],
    defaultDirs: ['/lib/x86_64-linux-gnu', '/usr/lib/x86_64-linux-gnu', '/lib', '/usr/lib'],
    hwcaps: ['x86-64-v4', 'x86-64-v3', 'x86-64-v2'],
    environments: [{ prefix: '/opt/torch/.venv', kind: 'venv', sitePackages: [site] }],
    copies: [
      {
        name: 'libcudnn',
        path: sysCudnn,
        version: '9.14.0',
        versionSource: 'file name',
        origin: 'system',
        soname: 'libcudnn.so.9',
        links: ['/usr/lib/x86_64-linux-gnu/libcudnn.so.9', '/usr/lib/x86_64-linux-gnu/libcudnn.so'],
        package: null,
        foundBy: ['ld_cache'],
      },
      {
        name: 'libcudnn',
        path: pipCudnn,
        version: '9.19.0',
        versionSource: 'package nvidia-cudnn-cu13',
        origin: 'pip',
        soname: 'libcudnn.so.9',
        links: [],
        package: pkg('nvidia-cudnn-cu13', '9.19.0.56'),
        foundBy: ['site-packages'],
      },
      {
        name: 'libcudart',
        path: pipCudart,
        version: '13.0.96',
        versionSource: 'package nvidia-cuda-runtime',
        origin: 'pip',
        soname: 'libcudart.so.13',
        links: [],
        package: pkg('nvidia-cuda-runtime', '13.0.96'),
        foundBy: ['site-packages'],
      },
    ],
    consumers: [
      {
        path: `${site}/torch/lib/libtorch_cuda.so`,
        framework: 'torch',
        environment: '/opt/torch/.venv',
        resolved: [
          resolved('libcudart.so.13', 'libcudart', pipCudart, '13.0.96', 'needed'),
          resolved('libcudnn.so.9', 'libcudnn', pipCudnn, '9.19.0', 'needed', [
            { path: '/lib/x86_64-linux-gnu/libcudnn.so.9', realPath: sysCudnn, version: '9.14.0', via: 'ld_cache' },
          ]),
        ],
        notes: [],
      },
    ],
    loaded: [],
    processes: [],
    packages: [pkg('nvidia-cudnn-cu13', '9.19.0.56'), pkg('nvidia-cuda-runtime', '13.0.96'), pkg('torch', '2.11.0')],
  };
}

/** Runs the real probes over the captures; `root` must be an empty temp folder. */
export async function h200Snapshot(root: string, o: H200Options = {}): Promise<Snapshot> {
  h200Root(root, o);
  const xml = o.hog ? read('hog/nvidia-smi-q-hog.xml') : read('idle/nvidia-smi-q.xml');
  const runner = fakeRunner([
    { command: 'nvidia-smi', args: XML_ARGS, result: ok(xml) },
    { command: 'nvidia-smi', args: QUERY_ARGS, result: ok(read('idle/query-gpu.csv')) },
  ]);
  const env = {
    PATH: '/opt/torch/.venv/bin:/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    LD_LIBRARY_PATH: '/usr/local/nvidia/lib64:/usr/local/nvidia/lib',
    CUDA_HOME: '/usr/local/cuda',
    NVIDIA_VISIBLE_DEVICES: '0',
    NVIDIA_DRIVER_CAPABILITIES: 'compute,graphics,utility',
    VIRTUAL_ENV: '/opt/torch/.venv',
    HOME: '/root',
  };
  const s = await collectSnapshot({
    fs: createFileSystem(root),
    runner,
    env,
    now: () => CAPTURE_TIME,
    pid: SELF_PID,
    options: { ...DEFAULT_PROBE_OPTIONS },
  });
  const doc = s as Record<string, unknown>;
  // The temp root has no venv or library folders, so these two come from the captures in every build.
  doc.python = pythonSectionFromCaptures();
  doc.libraries = librariesSectionFromCaptures();
  // Through the schema, as `--from` would read it.
  return Snapshot.parse(JSON.parse(JSON.stringify(doc)));
}

/** A deep copy to plant differences in. */
export function clone<T>(x: T): T {
  return JSON.parse(JSON.stringify(x)) as T;
}

/** The real snapshots taken on the H200 machine (test/fixtures/snapshots, first taken for examples/), with the capture-built sections added. */
export const EXAMPLES = path.resolve(__dirname, '../fixtures/snapshots');
export function realSnapshot(file: 'h200-idle.json' | 'h200-memory-held.json', sections = true): Snapshot {
  const doc = JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8')) as Record<string, unknown>;
  if (sections) {
    doc.python ??= pythonSectionFromCaptures();
    doc.libraries ??= librariesSectionFromCaptures();
  }
  return Snapshot.parse(doc);
}
