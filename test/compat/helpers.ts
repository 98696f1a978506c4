// Snapshots for the version tests: the real H200 snapshot (test/fixtures/snapshots, first taken for examples/), with a Python section
// planted in the shape of src/gather/snapshot/schema-python.ts, validated by the Snapshot schema so no test builds
// impossible facts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Snapshot } from '../../src/gather/snapshot/schema.js';
import type { FrameworkBuild, PythonPackage } from '../../src/gather/snapshot/schema-python.js';

const REAL = path.resolve(__dirname, '../fixtures/snapshots/h200-idle.json');

export function h200(): Snapshot {
  return Snapshot.parse(JSON.parse(fs.readFileSync(REAL, 'utf8')));
}

export interface PlantedFramework {
  framework: 'torch' | 'tensorflow' | 'jax';
  version: string;
  /** torch "cu126"; jax "cuda13" */
  variant?: string;
  cuda?: string | null;
  cudnnBuilt?: string | null;
  archList?: string[];
  /** torch.backends.cudnn.version() as the probe reports it */
  cudnnInt?: number;
}

export interface PlantedEnv {
  python: string;
  frameworks: PlantedFramework[];
  packages?: [string, string][];
}

const SP = '/opt/env/lib/python3/site-packages';

function pkg(name: string, version: string): PythonPackage {
  return { name, version, source: 'dist-info', path: `${SP}/${name}-${version}.dist-info`, installer: 'pip' };
}

export function frameworkBuild(f: PlantedFramework): FrameworkBuild {
  const version = f.framework === 'torch' && f.variant ? `${f.version}+${f.variant}` : f.version;
  return {
    framework: f.framework,
    version,
    cuda: f.cuda === undefined ? null : f.cuda,
    cudnn: f.cudnnBuilt ?? null,
    hip: null,
    gpuBuild: f.cuda === null ? false : f.cuda !== undefined ? true : f.framework === 'jax' ? null : null,
    computeCapabilities: f.framework === 'tensorflow' ? (f.archList ?? null) : null,
    sources: [`${SP}/${f.framework}/version.py`],
    details: f.framework === 'torch' ? { localVersion: f.variant ?? null } : {},
  };
}

/** The real H200 snapshot with one scanned, active Python environment holding `env`. */
export function withEnv(env: PlantedEnv, change?: (s: Snapshot) => void): Snapshot {
  const s = structuredClone(h200());
  const probes = env.frameworks
    .filter((f) => f.archList || f.cudnnInt)
    .map((f) => ({
      framework: f.framework,
      interpreter: '/opt/env/bin/python3',
      exit: 'ok' as const,
      exitDetail: null,
      durationMs: 100,
      imported: true,
      importError: null,
      info: {
        ...(f.archList && f.framework === 'torch' ? { archList: f.archList } : {}),
        ...(f.cudnnInt ? { cudnnVersion: f.cudnnInt } : {}),
      },
      conv: [],
      loadedLibraries: [],
      stderrTail: '',
    }));
  s.python = {
    deep: probes.length > 0,
    deepSkipped: null,
    environments: [
      {
        prefix: '/opt/env',
        kind: 'venv',
        interpreter: '/opt/env/bin/python3',
        pythonVersion: env.python,
        sitePackages: [SP],
        active: true,
        scanned: true,
        foundVia: ['VIRTUAL_ENV'],
        packages: (env.packages ?? []).map(([n, v]) => pkg(n, v)),
        distributionCount: 100,
        duplicates: [],
        frameworks: env.frameworks.map(frameworkBuild),
        probes,
        problems: [],
      },
    ],
  };
  change?.(s);
  return Snapshot.parse(s);
}

export function setDriver(s: Snapshot, driver: string): void {
  if (!s.nvidia.ok) throw new Error('no GPU in snapshot');
  s.nvidia.driverVersion = driver;
}

export function setGpu(s: Snapshot, name: string, cc: string | null): void {
  if (!s.nvidia.ok) throw new Error('no GPU in snapshot');
  for (const g of s.nvidia.gpus) {
    g.name = name;
    g.computeCapability = cc;
  }
}

/** The real H200 environment: torch 2.11.0+cu130 with pip cuDNN 9.19, JAX 0.11.2 with the CUDA 13 plugin, Python 3.12. */
export function realH200Env(): PlantedEnv {
  return {
    python: '3.12',
    frameworks: [
      {
        framework: 'torch',
        version: '2.11.0',
        variant: 'cu130',
        cuda: '13.0',
        archList: ['sm_75', 'sm_80', 'sm_86', 'sm_90', 'sm_100', 'sm_120'],
        cudnnInt: 91900,
      },
      { framework: 'jax', version: '0.11.2' },
    ],
    packages: [
      ['torch', '2.11.0'],
      ['nvidia-cudnn-cu13', '9.19.0.56'],
      ['nvidia-cuda-runtime', '13.0.96'],
      ['jax', '0.11.2'],
      ['jaxlib', '0.11.2'],
      ['jax-cuda13-plugin', '0.11.2'],
      ['jax-cuda13-pjrt', '0.11.2'],
    ],
  };
}
