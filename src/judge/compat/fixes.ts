// Fix builders: the exact command that aligns versions on this machine. Each proposal is checked against
// the same verdicts the checks use, so a fix never proposes a combination the data calls incompatible.
import type { Fix } from '../finding.js';
import { knowledge } from '../../knowledge/index.js';
import { archCoverage, cudaSupportsComputeCapability, minDriverForCuda, type Os } from './cuda.js';
import { cudnnRelease } from './cudnn.js';
import { jaxRequirements, tensorflowBuild } from './frameworks.js';
import { effectiveMinComputeCapability, paddleInstallCommand } from './paddle.js';
import type { Framework } from './spec.js';
import type { Target } from './target.js';
import { compareVersions, majorMinor, majorOf, sortVersions } from './version.js';
import { joinList, t as tr } from '../../base/i18n/index.js';

/** What a build must run on. */
export interface MachineNeeds {
  os: Os;
  driver: string;
  /** compute capabilities of the GPUs that must work */
  ccs: string[];
  /** the environment's Python (major.minor), when known */
  python: string | null;
}

export interface Proposal {
  framework: Framework;
  version: string;
  /** torch "cu126", jax "cuda12", tensorflow "and-cuda" or null */
  variant: string | null;
  cuda: string;
  /** shell commands, safe to copy */
  commands: string[];
  text: string;
}

function coversAll(ccs: string[], sass: string[], ptx: string[], driver: string, fullDriver: string | null): boolean {
  return ccs.every((cc) => {
    const c = archCoverage(cc, sass, ptx);
    if (c.kind === 'none') return false;
    // PTX JIT needs the toolkit's own driver
    if (c.kind === 'ptx-jit') return fullDriver !== null && compareVersions(driver, fullDriver) >= 0;
    return true;
  });
}

function driverOk(cuda: string, n: MachineNeeds): { ok: boolean; full: string | null } {
  const d = minDriverForCuda(cuda, n.os);
  return { ok: d.min !== null && compareVersions(n.driver, d.min) >= 0, full: d.full };
}

function cudnnSupportsGpus(cudnn: string | null, ccs: string[]): boolean {
  if (!cudnn) return true;
  const r = cudnnRelease(cudnn);
  return !r || ccs.every((cc) => compareVersions(cc, r.minComputeCapability) >= 0);
}

/** The newest PyTorch build (release + CUDA variant) that runs on this machine, or null. */
export function newestTorchFor(n: MachineNeeds): Proposal | null {
  const releases = sortVersions(knowledge().pytorch.releases, (r) => r.version).reverse();
  for (const r of releases) {
    if (n.python && !r.python.includes(n.python)) continue;
    const variants = sortVersions(r.variants, (v) => v.cuda).reverse();
    for (const v of variants) {
      const d = driverOk(v.cuda, n);
      if (!d.ok) continue;
      if (!coversAll(n.ccs, v.sass, v.ptx, n.driver, d.full)) continue;
      if (!cudnnSupportsGpus(v.cudnn, n.ccs)) continue;
      return {
        framework: 'torch',
        version: r.version,
        variant: v.name,
        cuda: v.cuda,
        commands: [`pip install torch==${r.version} --index-url https://download.pytorch.org/whl/${v.name}`],
        text: tr('cfix.torch', {
          version: r.version,
          variant: v.name,
          cuda: v.cuda,
          cudnn: v.cudnn,
          driver: n.driver,
          ccs: n.ccs.length ? [...new Set(n.ccs)].join(', ') : 'none',
          python: n.python ?? 'none',
        }),
      };
    }
  }
  return null;
}

/** The newest TensorFlow (Linux GPU build) that runs on this machine, or null. */
export function newestTensorflowFor(n: MachineNeeds): Proposal | null {
  const tf = knowledge().tensorflow;
  const rows = sortVersions(
    tf.builds.filter((b) => b.platform === 'linux' && b.gpu && b.cuda),
    (b) => b.version,
  ).reverse();
  for (const row of rows) {
    if (n.python && !row.python.includes(n.python)) continue;
    const b = tensorflowBuild(row.version, 'linux');
    if (!b || !b.cuda) continue;
    const d = driverOk(b.cuda, n);
    if (!d.ok) continue;
    if (!coversAll(n.ccs, b.sass, b.ptx, n.driver, d.full)) continue;
    if (!cudnnSupportsGpus(b.cudnn, n.ccs)) continue;
    const series = majorMinor(b.version);
    const commands = b.andCuda
      ? [`pip install 'tensorflow[and-cuda]==${series}.*'`]
      : b.package === 'tensorflow-gpu' && majorOf(b.version) < 2
        ? [
            `conda install -c conda-forge cudatoolkit=${b.cuda} cudnn=${b.cudnn}`,
            `pip install 'tensorflow-gpu==${series}.*'`,
          ]
        : [
            `conda install -c conda-forge cudatoolkit=${b.cuda} cudnn=${b.cudnn}`,
            `pip install 'tensorflow==${series}.*'`,
          ];
    return {
      framework: 'tensorflow',
      version: b.version,
      variant: b.andCuda ? 'and-cuda' : null,
      cuda: b.cuda,
      commands,
      text: tr('cfix.tf', {
        series,
        cuda: b.cuda,
        cudnn: b.cudnn,
        driver: n.driver,
        python: n.python ?? 'none',
        andCuda: b.andCuda ? 'yes' : 'no',
      }),
    };
  }
  return null;
}

/** The newest JAX with a CUDA plugin/wheel that runs on this machine, or null. */
export function newestJaxFor(n: MachineNeeds): Proposal | null {
  const rows = sortVersions(knowledge().jax.releases, (r) => r.version).reverse();
  for (const row of rows) {
    const j = jaxRequirements(row.version);
    if (!j) continue;
    if (n.python && j.pythonMin && compareVersions(n.python, j.pythonMin) < 0) continue;
    const variants = [...j.variants].filter((v) => !v.local && v.minCuda).sort((a, b) => b.cudaMajor - a.cudaMajor);
    for (const v of variants) {
      const d = driverOk(v.minCuda!, n);
      if (!d.ok) continue;
      if (v.minComputeCapability && !n.ccs.every((cc) => compareVersions(cc, v.minComputeCapability!) >= 0)) continue;
      // XLA compiles for the GPU with the CUDA of the wheel: that CUDA must know the architecture (no sm_120 in 11.8)
      const cc = v.builtWith ?? v.minCuda!;
      if (!n.ccs.every((c) => cudaSupportsComputeCapability(cc, c) !== false)) continue;
      const extra = v.extras[0] ?? v.name;
      return {
        framework: 'jax',
        version: row.version,
        variant: v.name,
        cuda: v.minCuda!,
        commands: [`pip install -U 'jax[${extra}]==${row.version}'`],
        text: tr('cfix.jax', {
          version: row.version,
          major: v.cudaMajor,
          kind: v.plugin ? 'plugin' : 'wheel',
          driver: n.driver,
          python: n.python ?? 'none',
        }),
      };
    }
  }
  return null;
}

export function newestFor(framework: Framework, n: MachineNeeds): Proposal | null {
  switch (framework) {
    case 'torch':
      return newestTorchFor(n);
    case 'tensorflow':
      return newestTensorflowFor(n);
    case 'jax':
      return newestJaxFor(n);
    case 'paddle':
      return newestPaddleFor(n);
  }
}

/**
 * The newest paddlepaddle-gpu build (release + CUDA build) that runs on this machine, or null. Rows recalled rather
 * than read are skipped.
 */
export function newestPaddleFor(n: MachineNeeds): Proposal | null {
  const rows = sortVersions(
    // read rows only, and no pre-release: a fix must not rest on memory or a beta
    knowledge().paddle.releases.filter(
      (r) => r.platform === n.os && r.confidence === 'read' && !/[a-z]/i.test(r.version),
    ),
    (r) => r.version,
  ).reverse();
  for (const r of rows) {
    if (n.python && !r.python.includes(n.python)) continue;
    const variants = sortVersions(r.variants, (v) => v.cuda).reverse();
    for (const v of variants) {
      if (!driverOk(v.cuda, n).ok) continue;
      const floor = effectiveMinComputeCapability(r.minComputeCapability, v.cuda);
      if (!n.ccs.every((cc) => compareVersions(cc, floor) >= 0 && cudaSupportsComputeCapability(v.cuda, cc) !== false))
        continue;
      if (!cudnnSupportsGpus(v.cudnn, n.ccs)) continue;
      const bundles = compareVersions(r.version, '3.0.0a0') >= 0;
      return {
        framework: 'paddle',
        version: r.version,
        variant: v.name,
        cuda: v.cuda,
        commands: [paddleInstallCommand(v)],
        text: tr('cfix.paddle', {
          pip: v.pip,
          cuda: v.cuda,
          cudnn: v.cudnn ? v.cudnn : 'none',
          cudnnRaw: v.cudnn ?? '',
          driver: n.driver,
          ccs: n.ccs.length ? [...new Set(n.ccs)].join(', ') : 'none',
          python: n.python ?? 'none',
          bundles: bundles ? 'yes' : 'no',
        }),
      };
    }
  }
  return null;
}

/** The driver to upgrade to for a target: prose and the root-needing steps (never in `commands`). */
export function driverUpgrade(
  t: Target,
  os: Os,
  need: 'min' | 'full' = 'min',
): { version: string; text: string; manual: string[] } | null {
  const full = t.driverFull[os];
  // 'full': PTX JIT needs the toolkit's own driver, not just the minor-version-compatibility floor
  const min = need === 'full' && full ? full : t.driverMin[os];
  if (!min) return null;
  const branch = min.split('.')[0];
  const text =
    full && full !== min
      ? tr('cfix.upgradeFull', { min, full, cuda: t.cuda ?? '?' })
      : need === 'full'
        ? tr('cfix.upgradeJit', { min, cuda: t.cuda ?? '?' })
        : tr('cfix.upgrade', { min });
  const manual =
    os === 'linux'
      ? [
          `sudo apt install nvidia-driver-${branch}   # or newer branch; use your distribution's driver packages`,
          'sudo reboot',
        ]
      : [tr('cfix.windowsDriver', { min })];
  return { version: min, text, manual };
}

/** The fix of a cuDNN mismatch: the cuDNN the build wants, as a pip pin in that environment. */
export function cudnnFix(t: Target): Fix | null {
  if (!t.cuda) return null;
  const major = majorOf(t.cuda);
  const pkg = major >= 12 ? `nvidia-cudnn-cu${major}` : 'nvidia-cudnn-cu11';
  if (t.cudnnMin) {
    return {
      text: tr('cfix.cudnnMin', { major: majorOf(t.cudnnMin), min: t.cudnnMin, cuda: major }),
      commands: [`pip install -U '${pkg}>=${t.cudnnMin},<${majorOf(t.cudnnMin) + 1}'`],
    };
  }
  if (t.cudnnBuilt) {
    // the exact build for torch (its wheel pins it); TF's tested minor otherwise
    const pin =
      t.cudnnBuilt.split('.').length >= 4
        ? `==${t.cudnnBuilt}`
        : `>=${majorMinor(t.cudnnBuilt)},<${majorOf(t.cudnnBuilt) + 1}`;
    return {
      text: tr('cfix.cudnnBuilt', { fw: t.framework, built: t.cudnnBuilt, cuda: major }),
      commands: [`pip install '${pkg}${pin}'`],
    };
  }
  return null;
}

/** Combine a "newest build" proposal and a driver upgrade into one Fix. */
export function toFix(p: Proposal | null, upgrade: ReturnType<typeof driverUpgrade>, fallback: string): Fix {
  const parts = [p?.text, upgrade?.text].filter((x): x is string => !!x);
  return {
    text: parts.length ? joinList(parts, 'sentence') : fallback,
    commands: p?.commands ?? [],
    ...(upgrade ? { manual: upgrade.manual } : {}),
  };
}
