// The clean rebuild: when an environment mixes conda's and pip's CUDA libraries beyond one simple repair,
// patching library by library only moves the conflict. The plan is then the rebuild, as commands for the
// user: back up, make a fresh environment with one package manager and the framework build that fits this
// driver, verify with `check --deep`. Printed, never run. Pure.
import { t } from '../../base/i18n/index.js';
import type { Finding } from '../finding.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';
import { WHEEL_FRAMEWORKS, wheelFor, type GpuWheel, type WheelFramework } from '../../knowledge/python/gpu-wheels.js';

export type Framework = WheelFramework;
const FRAMEWORKS: Framework[] = [...WHEEL_FRAMEWORKS];

/** Root causes that a mixed conda + pip environment produces. */
const LIBRARY_CAUSES = new Set(['library_conflict', 'cudnn_version_mismatch', 'cuda_toolkit_mismatch']);

export interface RebuildPlan {
  why: string;
  /** the findings it replaces (their own fixes are not shown) */
  findings: Finding[];
  frameworks: Framework[];
  commands: string[];
  notes: string[];
}

function textOf(f: Finding): string {
  return [f.message, f.details ?? '', ...f.evidence.map((e) => `${e.text} ${e.source ?? ''}`)].join('\n');
}

/**
 * Library problems with both conda's and pip's copies at play, touching two or more libraries (in one
 * finding, like python.conda-pip-mix's "cuDNN, cuBLAS from both conda and pip", or across several): then one
 * repair would not be enough. A heuristic over the findings' words and affects.library; one conflicting
 * library stays a simple repair with its own fix.
 */
export function needsRebuild(findings: readonly Finding[], s: Snapshot): Finding[] | null {
  const lib = findings.filter(
    (f) => f.rootCause !== null && LIBRARY_CAUSES.has(f.rootCause) && f.status !== 'ok' && f.status !== 'skip',
  );
  if (lib.length === 0) return null;
  const libraries = new Set(
    lib.flatMap((f) =>
      (f.affects?.library ?? '')
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  );
  if (lib.length < 2 && libraries.size < 2) return null;
  const all = lib.map(textOf).join('\n');
  const conda =
    /\bconda\b|\/conda-meta\/|\/(ana|mini)conda\d?\/|\/envs\/[^/\s]+\/lib\//i.test(all) ||
    (s.env.CONDA_PREFIX !== undefined && all.includes(s.env.CONDA_PREFIX));
  const pip = /\bpip\b|site-packages\/nvidia\//i.test(all);
  return conda && pip ? lib : null;
}

export function frameworksOf(findings: readonly Finding[]): Framework[] {
  const named = new Set<Framework>();
  for (const f of findings) {
    const fw = f.affects?.framework?.toLowerCase();
    const key = fw === 'pytorch' ? 'torch' : fw;
    if (key && (FRAMEWORKS as string[]).includes(key)) named.add(key as Framework);
  }
  return FRAMEWORKS.filter((f) => named.has(f));
}

/** a word of a command line, quoted for the shell when it holds more than letters, digits, "." and "-" */
const shellWord = (w: string): string => (/^[\w.-]+$/.test(w) ? w : `'${w}'`);

/** The wheel's install line as the framework's docs write it: pip install 'torch==2.5.*' --index-url … */
export function installLine(w: GpuWheel): string {
  const requirement = w.lastRelease ? `${w.requirement}==${w.lastRelease}.*` : w.requirement;
  return [
    'pip install',
    ...(w.upgrade ? ['-U'] : []),
    shellWord(requirement),
    ...(w.indexUrl ? [`--index-url ${w.indexUrl}`] : []),
  ].join(' ');
}

/** The install line of the newest build whose CUDA this driver runs, or null. */
export function buildFor(fw: Framework, driverCuda: string | null): string | null {
  if (driverCuda === null || !/^\d+(\.\d+)*$/.test(driverCuda)) return null;
  const wheel = wheelFor(fw, driverCuda);
  return wheel ? installLine(wheel) : null;
}

export function rebuildPlan(lib: Finding[], all: readonly Finding[], s: Snapshot): RebuildPlan {
  const named = frameworksOf(lib);
  const frameworks = named.length > 0 ? named : frameworksOf(all);
  const driverCuda = s.nvidia.ok ? s.nvidia.cudaVersion : null;
  const shown = frameworks.length > 0 ? frameworks : FRAMEWORKS;
  const inConda = s.env.CONDA_PREFIX !== undefined;
  const notes: string[] = [];
  const installs: string[] = [];
  for (const fw of shown) {
    const line = buildFor(fw, driverCuda);
    if (line) installs.push(line);
    else notes.push(t('rebuild.noBuild', { fw, cuda: driverCuda ?? t('rebuild.unknown') }));
  }
  if (frameworks.length === 0) notes.push(t('rebuild.whichFramework'));
  notes.push(t('rebuild.reinstall'));
  const envDir = '~/.venvs/gpu-clean';
  return {
    why: t('rebuild.why', { n: lib.length }),
    findings: lib,
    frameworks: shown,
    commands: [
      'conda env export > env-backup.yml',
      'pip freeze > requirements-backup.txt',
      ...(inConda ? ['conda deactivate'] : []),
      `python3 -m venv ${envDir}`,
      `. ${envDir}/bin/activate`,
      'python -m pip install --upgrade pip',
      ...installs,
      'gpu-env-doctor check --deep',
    ],
    notes,
  };
}
