// Applies a proposed fix to a snapshot the way running it would change the facts, so tests can re-run the
// checks: pip/conda installs replace the framework build and its cuDNN; a driver upgrade sets the driver.
// It understands exactly the commands the fix builders write; anything else fails the test.
import type { Fix } from '../../src/judge/finding.js';
import type { Snapshot } from '../../src/gather/snapshot/schema.js';
import { knowledge } from '../../src/knowledge/index.js';
import { jaxRequirements, tensorflowBuild, torchBuild } from '../../src/judge/compat/frameworks.js';
import { frameworkBuild } from './helpers.js';
import { compareVersions } from '../../src/judge/compat/version.js';

type Env = NonNullable<Snapshot['python']>['environments'][number];

function setPackage(env: Env, name: RegExp, pkgName: string, version: string): void {
  env.packages = env.packages.filter((p) => !name.test(p.name));
  env.packages.push({
    name: pkgName,
    version,
    source: 'dist-info',
    path: `/x/${pkgName}-${version}.dist-info`,
    installer: 'pip',
  });
}

function replaceFramework(
  env: Env,
  fw: 'torch' | 'tensorflow' | 'jax',
  build: ReturnType<typeof frameworkBuild>,
): void {
  env.frameworks = env.frameworks.filter((f) => f.framework !== fw);
  env.frameworks.push(build);
  // the old build's import probe no longer describes what is installed
  env.probes = env.probes.filter((p) => p.framework !== fw);
}

export function applyCommand(s: Snapshot, cmd: string): void {
  const env = s.python!.environments.find((e) => e.active)!;
  let m = /^pip install torch==([\d.]+) --index-url https:\/\/download\.pytorch\.org\/whl\/(cu\d+)$/.exec(cmd);
  if (m) {
    const b = torchBuild(m[1]!, m[2]!);
    if (!b?.variant) throw new Error(`fix proposes a torch build the data does not have: ${cmd}`);
    replaceFramework(
      env,
      'torch',
      frameworkBuild({ framework: 'torch', version: m[1]!, variant: m[2]!, cuda: b.variant.cuda }),
    );
    const major = Number(b.variant.cuda.split('.')[0]);
    // pip wheels depend on nvidia-cudnn-cuXX from 1.13; older ones bundle cuDNN inside
    if (compareVersions(m[1]!, '1.13.0') >= 0)
      setPackage(env, /^nvidia-cudnn/, major >= 12 ? `nvidia-cudnn-cu${major}` : 'nvidia-cudnn-cu11', b.variant.cudnn);
    else env.packages = env.packages.filter((p) => !/^nvidia-cudnn/.test(p.name));
    return;
  }
  m = /^pip install '(tensorflow|tensorflow-gpu)(\[and-cuda\])?==([\d.]+)\.\*'$/.exec(cmd);
  if (m) {
    const b = tensorflowBuild(m[3]!, 'linux');
    if (!b?.cuda) throw new Error(`fix proposes a TF build the data does not have: ${cmd}`);
    replaceFramework(
      env,
      'tensorflow',
      frameworkBuild({ framework: 'tensorflow', version: b.version, cuda: b.cuda, cudnnBuilt: b.cudnn }),
    );
    if (m[2]) setPackage(env, /^nvidia-cudnn/, `nvidia-cudnn-cu${b.cuda.split('.')[0]}`, `${b.cudnn}.0`);
    return;
  }
  m = /^conda install -c conda-forge cudatoolkit=([\d.]+) cudnn=([\d.]+)$/.exec(cmd);
  if (m) {
    setPackage(env, /^nvidia-cudnn|^cudnn$/, 'cudnn', `${m[2]}.0`);
    return;
  }
  m = /^pip install -U 'jax\[(cuda\d+)[\w-]*\]==([\d.]+)'$/.exec(cmd);
  if (m) {
    const j = jaxRequirements(m[2]!, m[1]!);
    if (!j) throw new Error(`fix proposes a JAX build the data does not have: ${cmd}`);
    const major = m[1]!.replace('cuda', '');
    replaceFramework(env, 'jax', frameworkBuild({ framework: 'jax', version: m[2]! }));
    env.packages = env.packages.filter((p) => !/^jax-cuda\d+-|^nvidia-cuda-runtime|^nvidia-cudnn/.test(p.name));
    setPackage(env, /^jax-cuda\d+-plugin$/, `jax-cuda${major}-plugin`, m[2]!);
    setPackage(env, /^nvidia-cuda-runtime$/, 'nvidia-cuda-runtime', `${j.variants[0]!.minCuda}.0`);
    setPackage(env, /^nvidia-cudnn/, `nvidia-cudnn-cu${major}`, j.variants[0]!.minCudnn!);
    return;
  }
  m = /^pip install(?: -U)? '(nvidia-cudnn-cu\d+)(==|>=)([\d.]+)(?:,<\d+)?'$/.exec(cmd);
  if (m) {
    setPackage(env, /^nvidia-cudnn/, m[1]!, m[3]!);
    for (const p of env.probes) if (p.info) delete p.info.cudnnVersion;
    return;
  }
  m = /^python -m pip install paddlepaddle-gpu==([\w.]+) (?:-i|-f) https:\/\/\S+$/.exec(cmd);
  if (m) {
    // Paddle has no build-file reader: its package record is the fact the checks judge
    setPackage(env, /^paddlepaddle(-gpu)?$/, 'paddlepaddle-gpu', m[1]!);
    return;
  }
  throw new Error(`the test does not know how to apply: ${cmd}`);
}

/** The driver version a fix asks to upgrade to, from its prose ("upgrade the NVIDIA driver to X or newer"). */
export function driverOfFix(fix: Fix): string | null {
  return /upgrade the NVIDIA driver to ([\d.]+) or newer/i.exec(fix.text)?.[1] ?? null;
}

export function applyDriver(s: Snapshot, version: string): void {
  if (!s.nvidia.ok) throw new Error('no GPU');
  s.nvidia.driverVersion = version;
  const cuda = [...knowledge().cudaDriver.toolkits].filter((t) => t.linux).map((t) => t.cuda);
  s.nvidia.cudaVersion = cuda[cuda.length - 1] ?? null;
}
