// Which command lines the live page shows. The page answers every local user (loopback) or every token holder,
// so it must not become a way round the machine's own rules:
// - secrets in command lines (--token=…, --password x, API_KEY=…, signed URLs) are always replaced: the page is
//   there to show who runs what, not their credentials;
// - where /proc is mounted hidepid (other users' processes hidden from each user), the command lines of
//   processes of other users than the one running serve are shown as the process name only, as a user of the
//   machine would see them; --show-all shows them anyway (the administrator's choice, stated on the page).
import type { Redactor } from '../../report/redact.js';
import type { LiveState, PageModel, ProcView } from '../../report/serve/model.js';

export interface CommandPolicy {
  /** replaces the secrets in a command line */
  secrets: Redactor;
  /** /proc hides other users' processes and --show-all was not given */
  hideOthers: boolean;
}

/**
 * Does the /proc mount hide other users' processes? From /proc/self/mountinfo: the last mount at /proc (the
 * one on top) of type proc, with hidepid=1, 2, invisible or noaccess among its options.
 */
export function procHidesOthers(mountinfo: string): boolean {
  let hides = false;
  for (const line of mountinfo.split('\n')) {
    const f = line.split(' ');
    const dash = f.indexOf('-');
    if (dash < 5 || f[4] !== '/proc' || f[dash + 1] !== 'proc') continue;
    const opts = `${f[5] ?? ''},${f[dash + 3] ?? ''}`.split(',');
    const hidepid = opts.find((o) => o.startsWith('hidepid='))?.slice('hidepid='.length);
    hides = hidepid !== undefined && hidepid !== '0' && hidepid !== 'off';
  }
  return hides;
}

/** The page model with the command lines the policy allows; secrets replaced in those shown. */
export function applyCommandPolicy(m: PageModel, st: LiveState, p: CommandPolicy): PageModel {
  const owners = new Map<number, number | null>();
  for (const s of [st.good?.snapshot, st.latest?.snapshot])
    for (const x of s?.processes.list ?? []) owners.set(x.pid, x.uid);
  const self = st.good?.snapshot.self.uid ?? st.latest?.snapshot.self.uid ?? null;
  let hidden = 0;
  const fix = (v: ProcView): ProcView => {
    const uid = owners.get(v.pid);
    if (p.hideOthers && (self === null || uid !== self)) {
      if (v.command !== v.name) hidden++;
      return { ...v, command: v.name, commandFull: v.name };
    }
    return { ...v, command: p.secrets.text(v.command), commandFull: p.secrets.text(v.commandFull) };
  };
  return {
    ...m,
    gpus: m.gpus.map((g) => ({ ...g, procs: g.procs.map(fix) })),
    deviceHolders: m.deviceHolders.map(fix),
    ...(p.hideOthers ? { othersHidden: hidden } : {}),
  };
}

/** The fleet page: the stale holders' command lines (from other machines' snapshots) without their secrets. */
export function scrubFleetCommands<T extends { machines: { stale: { command: string }[] }[] }>(
  m: T,
  secrets: Redactor,
): T {
  return {
    ...m,
    machines: m.machines.map((x) => ({
      ...x,
      stale: x.stale.map((s) => ({ ...s, command: secrets.text(s.command) })),
    })),
  };
}
