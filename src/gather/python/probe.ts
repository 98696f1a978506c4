// The Python probe: finds the environments, reads what the active one (or, with --all-envs, every one) has installed
// and how its frameworks were built — all from files, in milliseconds — and, only with --deep=frameworks, runs
// src/gather/python/assets/probe.py inside the interpreter: one framework per process, then a tiny convolution on the
// GPU as configured and, when that fails, again with memory growth / no preallocation.
import type { ProbeEnv } from '../probe-env.js';
import { readFrameworkBuilds } from './build-info.js';
import type { FatbinResults } from '../libraries/fatbin.js';
import { discoverDetailed, type DiscoveredEnvironment } from './discover.js';
import { runFrameworkProbe, type Framework } from './framework-probe.js';
import { readInventory } from './inventory.js';
import { growthLabel } from './memory-modes.js';
import { runVerdicts } from './run-trust.js';
import { t } from '../../base/i18n/index.js';
import type { FrameworkProbe, PythonEnvironmentFacts, PythonSection } from '../snapshot/schema-python.js';

/** Importing a framework and touching the GPU takes seconds; the limit is this many times --timeout. */
export const DEEP_TIMEOUT_FACTOR = 12;

/** Which environments `readPythonSection` looks into (the others are only listed). */
export function isScanned(e: DiscoveredEnvironment, allEnvs: boolean): boolean {
  return (e.active || e.explicit || allEnvs) && e.problems.length === 0;
}

export async function probePython(penv: ProbeEnv): Promise<PythonSection> {
  return runDeepProbes(penv, readPythonSection(penv));
}

/** The environments and what they have installed, from files only (milliseconds): `check` reads these while
 *  nvidia-smi is busy, and runs the framework imports (--deep) afterwards. `pre`: what `check` already has (the
 *  environments it discovered, torch's fatbinary targets read in a worker), so nothing is read twice. */
export function readPythonSection(
  penv: ProbeEnv,
  pre: { discovered?: DiscoveredEnvironment[]; fatbin?: FatbinResults } = {},
): PythonSection {
  const { options } = penv;
  const environments: PythonEnvironmentFacts[] = (pre.discovered ?? discoverDetailed(penv)).map((e) => {
    const scanned = e.active || e.explicit || options.allEnvs;
    const base: PythonEnvironmentFacts = {
      prefix: e.prefix,
      kind: e.kind,
      interpreter: e.interpreter,
      pythonVersion: e.pythonVersion,
      sitePackages: e.sitePackages,
      active: e.active,
      ...(e.name !== undefined ? { name: e.name } : {}),
      scanned,
      foundVia: e.foundVia,
      packages: [],
      distributionCount: 0,
      duplicates: [],
      frameworks: [],
      probes: [],
      problems: [...e.problems],
    };
    if (!scanned || e.problems.length > 0) return base;
    const inv = readInventory(penv.fs, e);
    return {
      ...base,
      packages: inv.packages,
      distributionCount: inv.distributionCount,
      duplicates: inv.duplicates,
      frameworks: readFrameworkBuilds(penv.fs, e.sitePackages, inv.packages, pre.fatbin),
      problems: [...base.problems, ...inv.problems],
    };
  });

  return { environments, deep: options.deep === 'frameworks', deepSkipped: null };
}

/** With --deep=frameworks, imports each framework in each scanned environment and runs its convolution (seconds). */
export async function runDeepProbes(penv: ProbeEnv, section: PythonSection): Promise<PythonSection> {
  const { options } = penv;
  const { environments } = section;
  const deep = options.deep === 'frameworks';
  let deepSkipped: string | null = null;
  if (deep) {
    if (penv.fs.root !== '/')
      deepSkipped =
        `the import probe does not run with --root ${penv.fs.root}: those interpreters are not this ` + `machine's`;
    else {
      // Only what the caller named or is running is executed (./run-trust.ts); the others keep their file facts.
      const candidates = environments.filter((e) => e.scanned && e.interpreter && e.frameworks.length > 0);
      const verdicts = runVerdicts(penv.fs, candidates, options.allEnvs);
      const refused = candidates.filter((e) => verdicts.get(e.prefix)?.run === false);
      if (options.allEnvs && penv.announce) {
        const starting = candidates.filter((e) => !refused.includes(e)).map((e) => e.interpreter!);
        const none = t('smoke.announceNone');
        penv.announce(
          t('smoke.announceDeep', {
            starting: starting.length > 0 ? starting.join(', ') : none,
            refused:
              refused.length > 0 ? refused.map((e) => `${e.prefix} (${verdicts.get(e.prefix)!.why})`).join('; ') : none,
          }),
        );
      }
      for (const e of candidates) {
        const v = verdicts.get(e.prefix);
        if (v && !v.run) {
          e.problems = [...e.problems, `--deep=frameworks did not start ${e.interpreter}: ${v.why}`];
          continue;
        }
        e.probes = await deepProbe(
          penv,
          e.interpreter!,
          e.frameworks.map((f) => f.framework),
        );
      }
    }
  }
  return { environments, deep, deepSkipped };
}

/**
 * Every framework at once first (seconds matter: this runs before jobs). A convolution that fails while
 * other frameworks ran beside it is retried alone, so that one framework's preallocation is not blamed
 * on another; one that still fails gets a run with memory growth (TF) / no preallocation (JAX).
 */
export async function deepProbe(
  penv: ProbeEnv,
  interpreter: string,
  frameworks: Framework[],
): Promise<FrameworkProbe[]> {
  const timeoutMs = penv.options.timeoutMs * DEEP_TIMEOUT_FACTOR;
  const alone = frameworks.length === 1;
  const run = (fw: Framework, mode: 'configured' | 'memory-growth', isAlone: boolean) =>
    runFrameworkProbe(penv.runner, interpreter, fw, { conv: true, mode, timeoutMs, env: penv.env, alone: isAlone });

  const first = await Promise.all(frameworks.map((fw) => run(fw, 'configured', alone)));
  const out: FrameworkProbe[] = [];
  for (const p of first) {
    let probe = p;
    if (!alone && convFailed(probe)) probe = await run(probe.framework, 'configured', true);
    if (convFailed(probe) && probe.framework !== 'torch') {
      // torch retried in-process already (empty_cache, cudnn.benchmark off); TF and JAX read their
      // memory settings at start, so they need a fresh process.
      const growth = await run(probe.framework, 'memory-growth', true);
      const attempt = growth.conv.find((c) => c.mode === 'memory-growth');
      if (attempt)
        probe = {
          ...probe,
          conv: [...probe.conv, attempt],
          stderrTail: `${probe.stderrTail}\n--- with ${growthLabel(probe.framework)} ---\n${growth.stderrTail}`.slice(
            -12000,
          ),
        };
      else if (growth.exit !== 'ok' || growth.imported !== true)
        probe = {
          ...probe,
          conv: [
            ...probe.conv,
            {
              mode: 'memory-growth',
              ok: false,
              error: {
                type: 'ProcessDied',
                message: growth.exitDetail ?? growth.importError?.message ?? 'the probe stopped without reporting',
              },
              alone: true,
              durationMs: null,
              freeMiB: null,
              totalMiB: null,
            },
          ],
        };
    }
    out.push(probe);
  }
  return out;
}

function convFailed(p: FrameworkProbe): boolean {
  return p.imported === true && p.conv.length > 0 && !p.conv.some((c) => c.ok);
}
