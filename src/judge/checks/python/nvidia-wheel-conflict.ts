// python.nvidia-wheel-conflict: the pins the frameworks' wheels place on the nvidia-* CUDA wheels
// (METADATA Requires-Dist, e.g. torch 2.5.1: nvidia-cudnn-cu12==9.1.0.70) checked against what is
// installed. Two frameworks in one environment that pin different cuDNN / cuBLAS versions cannot both be
// satisfied: pip installs the last one asked for, and the other framework loads a library it was not
// built against. A pinned wheel that is missing means the framework falls back to whatever copy the
// system has, if any.
import { fail, warn, type Finding } from '../../finding.js';
import type { RootCauseId } from '../../../knowledge/root-causes.js';
import { markerExtra, parseRequirement } from '../../../gather/python/metadata.js';
import { satisfies } from '../../../base/pep440.js';
import type { PythonEnvironmentFacts, PythonPackage } from '../../../gather/snapshot/schema-python.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { appliesPython, envLabel, pipCommand, scannedEnvs, shq } from './common.js';
import { t } from '../../../base/i18n/index.js';

export interface Pin {
  by: PythonPackage;
  name: string;
  specifier: string;
  raw: string;
  extra: string | null;
}

export interface WheelProblem {
  kind: 'conflict' | 'unsatisfied' | 'missing';
  name: string;
  installed: PythonPackage | null;
  /** the pins the installed version breaks */
  broken: Pin[];
  /** the pins it meets (another framework's, in a conflict) */
  met: Pin[];
}

/**
 * Markers are evaluated for Linux on this machine's architecture; `extra == "and-cuda"` requirements
 * apply only when that wheel is installed at all (we cannot see which extras the user asked for).
 */
export function markerApplies(marker: string | null, arch: string): boolean {
  if (!marker) return true;
  if (/\bor\b/.test(marker)) return true; // cannot tell cheaply: assume it applies
  const machine = arch === 'arm64' ? 'aarch64' : arch === 'x64' ? 'x86_64' : arch;
  for (const clause of marker.split(/\band\b/)) {
    const m = /^\s*\(?\s*(platform_system|sys_platform|platform_machine)\s*(==|!=)\s*["']([^"']+)["']\s*\)?\s*$/.exec(
      clause,
    );
    if (!m) continue;
    const actual = m[1] === 'platform_system' ? 'Linux' : m[1] === 'sys_platform' ? 'linux' : machine;
    const eq = m[3]!.toLowerCase() === actual.toLowerCase();
    if ((m[2] === '==') !== eq) return false;
  }
  return true;
}

/** Pure: the nvidia-* / cuda-* requirements of the installed packages, checked against what is installed. */
export function findWheelProblems(e: PythonEnvironmentFacts, arch: string): WheelProblem[] {
  const pipPkgs = e.packages.filter((p) => p.source !== 'conda-meta');
  const installed = new Map(pipPkgs.map((p) => [p.name, p]));
  const pins = new Map<string, Pin[]>();
  for (const p of pipPkgs) {
    for (const raw of p.requires ?? []) {
      const r = parseRequirement(raw);
      if (!r || !/^(nvidia-|cuda-)/.test(r.name) || r.specifier === '') continue;
      if (!markerApplies(r.marker, arch)) continue;
      const extra = markerExtra(r.marker);
      if (extra !== null && !installed.has(r.name)) continue;
      const list = pins.get(r.name) ?? [];
      list.push({ by: p, name: r.name, specifier: r.specifier, raw, extra });
      pins.set(r.name, list);
    }
  }
  const out: WheelProblem[] = [];
  for (const [name, all] of pins) {
    const have = installed.get(name) ?? null;
    // Pins behind extras are alternatives (cuda-core[cu12] pins cuda-bindings 12.*, [cu13] pins 13.*): pip
    // does not record which extra was asked for, so when one of a package's extra pins is met, that is the
    // extra in use and its other extra pins for the same wheel do not apply.
    const met = (p: Pin) => have !== null && satisfies(have.version, p.specifier) === true;
    const list = all.filter(
      (p) => p.extra === null || met(p) || !all.some((q) => q.by === p.by && q.extra !== null && met(q)),
    );
    if (!have) {
      const hard = list.filter((p) => p.extra === null);
      if (hard.length > 0) out.push({ kind: 'missing', name, installed: null, broken: hard, met: [] });
      continue;
    }
    const broken = list.filter((p) => satisfies(have.version, p.specifier) === false);
    if (broken.length === 0) continue;
    const metPins = list.filter((p) => satisfies(have.version, p.specifier) === true);
    const frameworksInvolved = new Set([...broken, ...metPins].map((p) => p.by.name));
    out.push({
      kind: metPins.length > 0 && frameworksInvolved.size > 1 ? 'conflict' : 'unsatisfied',
      name,
      installed: have,
      broken,
      met: metPins,
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

function rootCauseFor(name: string): RootCauseId {
  if (name.startsWith('nvidia-cudnn')) return 'cudnn_version_mismatch';
  if (/^nvidia-(cuda-runtime|cuda-nvrtc|cublas|nvjitlink|cuda-nvcc)/.test(name)) return 'cuda_toolkit_mismatch';
  return 'library_conflict';
}

const pinText = (p: Pin) =>
  t(p.extra ? 'pin.requiresExtra' : 'pin.requires', {
    by: p.by.name,
    byVersion: p.by.version,
    name: p.name,
    spec: p.specifier,
    extra: p.extra ?? '',
  });

export const nvidiaWheelConflictCheck: Check = {
  id: 'python.nvidia-wheel-conflict',
  category: 'python',
  get title() {
    return t('title.python.nvidia-wheel-conflict');
  },
  applies: appliesPython,
  evaluate(s: Snapshot): Finding[] {
    const out: Finding[] = [];
    for (const e of scannedEnvs(s)) {
      for (const w of findWheelProblems(e, s.system.arch)) {
        const evidence = [
          ...(w.installed
            ? [
                {
                  text: t('pin.installed', { name: w.installed.name, version: w.installed.version }),
                  source: w.installed.path,
                },
              ]
            : [{ text: t('pin.notInstalled', { name: w.name }) }]),
          ...[...w.broken, ...w.met].map((p) => ({ text: `Requires-Dist: ${p.raw}`, source: `${p.by.path}/METADATA` })),
        ];
        const first = w.broken[0]!;
        if (w.kind === 'missing') {
          out.push(
            warn({
              check: this.id,
              rootCause: 'library_missing',
              message: t('pin.missing', { pin: pinText(first), env: envLabel(e) }),
              evidence,
              affects: { library: w.name, framework: first.by.name },
              fix: {
                text: t('pin.missingFix', { by: first.by.name }),
                commands: [pipCommand(e, ['install', `${w.name}${first.specifier}`])],
              },
            }),
          );
          continue;
        }
        const conflict = w.kind === 'conflict';
        out.push(
          fail({
            check: this.id,
            severity: conflict ? 'error' : 'warn',
            rootCause: rootCauseFor(w.name),
            message: conflict
              ? t('pin.conflict', {
                  broken: w.broken.map((p) => `${p.by.name} ${p.by.version}`).join(', '),
                  met: [...new Set(w.met.map((p) => `${p.by.name} ${p.by.version}`))].join(', '),
                  name: w.name,
                  installed: w.installed!.version,
                  needed: w.broken.map((p) => p.specifier).join(' / '),
                })
              : t('pin.wrong', { pin: pinText(first), installed: w.installed!.version, env: envLabel(e) }),
            evidence,
            affects: { library: w.name, framework: first.by.name },
            fix: conflict
              ? {
                  text: t('pin.conflictFix', { name: w.name }),
                  commands: [
                    `python3 -m venv ~/.venvs/${first.by.name}`,
                    `~/.venvs/${first.by.name}/bin/python -m pip install ` +
                      `${shq(`${first.by.name}==${first.by.version}`)}`,
                  ],
                }
              : {
                  text: t('pin.wrongFix', { by: first.by.name }),
                  commands: [pipCommand(e, ['install', `${w.name}${first.specifier}`])],
                },
          }),
        );
      }
    }
    return out;
  },
};
