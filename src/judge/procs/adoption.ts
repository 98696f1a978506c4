// Was this process orphaned? Only positive evidence says yes. Pure: facts from /proc (probes/procfs) in,
// a three-way answer out. verdict.ts is the one caller that turns this into a verdict; the process probe
// records the answer's kind in HolderProcess.orphaned for readers of the JSON.
//
// Why evidence and not the parent's name: a process whose parent is PID 1, systemd, supervisord, tini,
// containerd-shim, conmon, process_api… was as often started by that parent (a service, a container's main
// process, every job of a container whose PID 1 is a job runner) as adopted by it. The kernel keeps no
// "original parent", but two facts survive reparenting and cannot come from a fork by the current parent:
//   - the parent started after the child: it cannot have forked it;
//   - the child's session differs from its parent's and the child did not start that session itself
//     (sid ≠ pid): a fork copies the session, and only setsid() changes it, which makes sid = pid.
//     Not when the session's leader is still an ancestor through the current parent (the parent, or one of
//     its ancestors, called setsid() after forking it), nor when the parent leads a session it started
//     after the child was born (it forked, then called setsid()).
// Neither holds for a service or a supervised child, whatever the supervisor's name.
// "Adopted" says only that the launching process is gone, not that nobody needs this one: leftover.ts decides that.
import type { HolderProcess } from '../../gather/snapshot/schema.js';
import { t } from '../../base/i18n/index.js';
import { eitherOf, regexOf } from '../../base/regex.js';

/**
 * Parents that may have started a process or adopted it: init systems, supervisors, container shims and
 * job runners. With one of these as parent and no evidence, the answer is "unknown", never "orphaned".
 */
export const SUPERVISOR_NAMES = regexOf([
  '^(',
  eitherOf([
    /init|systemd/, // init systems
    /tini|tini-static|dumb-init|docker-init|catatonit/, // a container's init
    /s6-svscan|s6-supervise/, // supervisors
    /containerd-shim.*|conmon/, // container shims
    /runsv|runsvdir|supervisord|process_api|runc|crun|bwrap|slurmstepd|pilot|launchd/, // job runners and sandboxes
  ]),
  ')$',
]);

export type Adoption =
  /** the process that started it has exited: this is the evidence */
  | { kind: 'adopted'; evidence: string }
  /** its parent is alive and an ordinary process (a shell, a launcher): its job has not ended */
  | { kind: 'parented'; why: string }
  /** nothing shows either way */
  | { kind: 'unknown'; why: string };

type Facts = Pick<
  HolderProcess,
  'pid' | 'ppid' | 'parentName' | 'startTicks' | 'parentStartTicks' | 'sid' | 'parentSid' | 'serviceUnit' | 'ancestors'
>;

export function adoptionOf(p: Facts): Adoption {
  const parent = `${p.parentName ?? '?'} (PID ${p.ppid ?? '?'})`;
  if (p.ppid === null) return { kind: 'unknown', why: t('adopt.parentUnreadable') };
  if (p.pid === 1) return { kind: 'unknown', why: t('adopt.pid1') };
  if (p.ppid === 0) return { kind: 'unknown', why: t('adopt.outside') };
  if (p.serviceUnit) return { kind: 'unknown', why: t('adopt.service', { unit: p.serviceUnit }) };
  if (p.parentName === null || p.parentName === undefined)
    return { kind: 'unknown', why: t('adopt.parentPidUnreadable', { ppid: p.ppid }) };

  const startTicks = p.startTicks ?? null;
  const parentStart = p.parentStartTicks ?? null;
  if (startTicks !== null && parentStart !== null && parentStart > startTicks) {
    return { kind: 'adopted', evidence: t('adopt.startedAfter', { parent, name: p.parentName }) };
  }
  const sid = p.sid ?? null;
  const parentSid = p.parentSid ?? null;
  // sid 0: the session lies outside this PID namespace, so it cannot be compared.
  const leaderAbove = (p.ancestors ?? []).some((a) => a.pid === sid);
  // An ordinary parent only: init and subreapers lead sessions of their own and adopt orphans.
  const ordinaryParent = p.ppid !== 1 && !SUPERVISOR_NAMES.test(p.parentName);
  const parentSetsidAfter =
    ordinaryParent &&
    parentSid !== null &&
    parentSid === p.ppid &&
    parentStart !== null &&
    startTicks !== null &&
    parentStart <= startTicks;
  if (
    sid !== null &&
    parentSid !== null &&
    sid > 0 &&
    sid !== p.pid &&
    sid !== parentSid &&
    !leaderAbove &&
    !parentSetsidAfter
  ) {
    return {
      kind: 'adopted',
      evidence:
        parentSid === 0
          ? t('adopt.sessionNone', { sid, parent, name: p.parentName })
          : t('adopt.session', { sid, parent, parentSid, name: p.parentName }),
    };
  }
  if (p.ppid === 1 || SUPERVISOR_NAMES.test(p.parentName)) {
    return {
      kind: 'unknown',
      why: t('adopt.supervisor', { parent }),
    };
  }
  return { kind: 'parented', why: t('adopt.alive', { parent }) };
}
