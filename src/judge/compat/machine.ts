// compat's machine verdict: does this machine (or a saved snapshot) satisfy a spec? For a spec with several
// builds (torch without +cuXXX, jax without [cudaNN]) the best build for the machine is chosen.
import type { Fix } from '../finding.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';
import { adaptFix } from '../platform/adapt-fix.js';
import { platformOfSnapshot } from '../platform/detect.js';
import { machineFacts, type MachineFacts } from './facts.js';
import { driverUpgrade, newestFor, toFix } from './fixes.js';
import { judgeArch, judgeDriver, judgeNvcc, judgePython, targetLabel, type Verdict } from './judge.js';
import type { CompatRequirements } from './requirements.js';
import { targetsFromRequirements, type Target } from './target.js';
import { compareVersions } from './version.js';
import { joinList, t as tr } from '../../base/i18n/index.js';

export interface MachineVerdict {
  host: string;
  driver: string | null;
  gpus: { index: number; name: string; computeCapability: string | null }[];
  python: string | null;
  /** the build judged: "cu130", "cuda13", "tensorflow" */
  build: string | null;
  /** true when every verdict is ok or warn */
  ok: boolean;
  verdicts: Verdict[];
  /** every build of the spec and whether it fits, when there are several */
  builds: { build: string | null; ok: boolean }[];
  fix?: Fix;
}

function judgeTarget(t: Target, m: MachineFacts, python: string | null): Verdict[] {
  return [
    judgeDriver(t, m),
    ...judgeArch(t, m),
    judgePython(t, python, tr('compat.activeEnv')),
    judgeNvcc(t, m),
  ].filter((v): v is Verdict => v !== null);
}

const fails = (vs: Verdict[]) => vs.some((v) => v.status === 'fail');

/** The Python of the active environment (else the first scanned one), major.minor. */
function activePython(m: MachineFacts): string | null {
  return (m.envs.find((e) => e.active) ?? m.envs[0])?.python ?? null;
}

export function machineVerdict(r: CompatRequirements, s: Snapshot): MachineVerdict {
  const m = machineFacts(s);
  const python = activePython(m);
  const base = {
    host: s.host.name,
    driver: m.driver,
    gpus: m.gpus.map((g) => ({ index: g.index, name: g.name, computeCapability: g.cc })),
    python,
  };
  if (!r.gpu) {
    return {
      ...base,
      build: r.variant ?? null,
      ok: false,
      builds: [],
      verdicts: [
        {
          id: 'driver',
          status: 'fail',
          rootCause: 'no_device_visible',
          message: tr('compat.noGpuSupport', {
            what: `${r.framework} ${r.version}${r.variant ? `+${r.variant}` : ''}`,
          }),
          evidence: [],
        },
      ],
    };
  }
  if (m.driver === null || m.gpus.length === 0) {
    return {
      ...base,
      build: null,
      ok: false,
      builds: [],
      verdicts: [
        { id: 'driver', status: 'fail', rootCause: 'no_device_visible', message: tr('compat.noSmiGpu'), evidence: [] },
      ],
    };
  }
  const targets = targetsFromRequirements(r);
  const judged = targets.map((t) => ({ t, vs: judgeTarget(t, m, python) }));
  // prefer a build that fits; among those the newest CUDA
  const ranked = [...judged].sort(
    (a, b) => Number(fails(a.vs)) - Number(fails(b.vs)) || compareVersions(b.t.cuda ?? '0', a.t.cuda ?? '0'),
  );
  const best = ranked[0]!;
  const ok = !fails(best.vs);
  const out: MachineVerdict = {
    ...base,
    build: best.t.build,
    ok,
    verdicts: best.vs,
    builds: judged.length > 1 ? judged.map((j) => ({ build: j.t.build, ok: !fails(j.vs) })) : [],
  };
  if (!ok) {
    const needs = {
      os: m.os,
      driver: m.driver,
      ccs: m.gpus.map((g) => g.cc).filter((c): c is string => c !== null),
      python,
    };
    const p = newestFor(r.framework, needs);
    const driverFails = best.vs.filter((v) => v.status === 'fail' && v.rootCause === 'driver_too_old');
    // a failing driver verdict needs the CUDA floor; a failing PTX-JIT verdict (gpu-arch) needs the full driver
    const up =
      driverFails.length === 0
        ? null
        : driverUpgrade(best.t, m.os, driverFails.some((v) => v.id === 'driver') ? 'min' : 'full');
    out.fix = toFix(p, up, tr('compat.noBuildFits', { fw: r.framework }));
    if (p) out.fix.text = joinList([tr('compat.doesNotFit', { label: targetLabel(best.t) }), out.fix.text], 'sentence');
    // under WSL2 the driver is the Windows host's; on Windows the commands are cmd's and PowerShell's
    out.fix = adaptFix(out.fix, platformOfSnapshot(s), { cause: driverFails.length > 0 ? 'driver_too_old' : null });
  }
  return out;
}
