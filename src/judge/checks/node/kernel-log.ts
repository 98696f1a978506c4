// node.kernel-log: Xid events in the kernel log, the driver's own record of GPU faults: a GPU that fell off the
// bus, an ECC error, GSP firmware that stopped answering (hardware or driver: an error), or a program's own
// fault (an illegal address: a warning about that program). A log that cannot be read is said as unknown, with
// the permission it needs, never as "no Xid".
import { ok, problem, unknown, type Finding } from '../../finding.js';
import xidData from '../../../knowledge/xid.json' with { type: 'json' };
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { t } from '../../../base/i18n/index.js';

type Kind = 'hardware' | 'application' | 'driver';
const CODES = xidData.codes as Record<string, { kind: Kind; meaning: string }>;

export const kernelLogCheck: Check = {
  id: 'node.kernel-log',
  category: 'gpu',
  get title() {
    return t('title.node.kernel-log');
  },
  applies: (s) => (s.kernelLog ? true : t('node.kernelLog.notRead')),
  evaluate(s: Snapshot): Finding[] {
    const k = s.kernelLog!;
    if (!k.readable) {
      const needs =
        k.reason === 'permission'
          ? t('node.kernelLog.needsPermission', { restrict: k.dmesgRestrict ?? '?' })
          : (k.detail ?? k.reason ?? '?');
      return [
        unknown({
          check: this.id,
          severity: 'info',
          rootCause: null,
          message: t(k.jobWindow ? 'node.kernelLog.unreadableJob' : 'node.kernelLog.unreadable', { needs }),
          evidence: [
            { text: k.detail ?? k.reason ?? 'unreadable', source: 'dmesg' },
            ...(k.dmesgRestrict !== undefined && k.dmesgRestrict !== null
              ? [{ text: `kernel.dmesg_restrict = ${k.dmesgRestrict}`, source: '/proc/sys/kernel/dmesg_restrict' }]
              : []),
          ],
          fix: { text: t('node.kernelLog.unreadableFix'), commands: [], manual: ["sudo dmesg | grep -E 'NVRM|Xid'"] },
        }),
      ];
    }
    const w = k.jobWindow;
    if (!w) return k.xid.length === 0 ? [] : [xidFinding(this.id, k.xid, s, null)];
    // `run`: the Xid lines inside the job's window (a second of slack each side: the log's clock and ours differ)
    const inJob = k.xid.filter(
      (x) => x.seconds !== null && x.seconds >= w.fromSeconds - 1 && x.seconds <= w.toSeconds + 1,
    );
    const before = k.xid.filter((x) => !inJob.includes(x));
    const out: Finding[] = [];
    if (inJob.length > 0) out.push(xidFinding(this.id, inJob, s, w));
    else
      out.push(
        ok({
          check: this.id,
          message: t('node.kernelLog.notInJob', { from: Math.floor(w.fromSeconds), to: Math.ceil(w.toSeconds) }),
          evidence: [{ text: `${k.nvrmLines} NVRM lines, ${k.xid.length} Xid`, source: 'dmesg' }],
        }),
      );
    if (before.length > 0) out.push(xidFinding(this.id, before, s, null));
    return out;
  },
};

type Xid = NonNullable<Snapshot['kernelLog']>['xid'][number];

/** One finding for these Xid events: an error for hardware/driver codes, a warning for a program's own fault. */
function xidFinding(check: string, xs: Xid[], s: Snapshot, w: { fromSeconds: number; toSeconds: number } | null) {
  const byCode = new Map<number, Xid[]>();
  for (const x of xs) byCode.set(x.code, [...(byCode.get(x.code) ?? []), x]);
  const kinds = [...byCode.keys()].map((c) => CODES[String(c)]?.kind ?? 'driver');
  const serious = kinds.some((x) => x !== 'application');
  const uptime = s.system.uptimeSeconds;
  const last = xs[xs.length - 1]!;
  const ago = uptime !== null && last.seconds !== null ? Math.max(0, Math.round((uptime - last.seconds) / 60)) : null;
  const params = {
    codes: [...byCode.entries()]
      .map(([c, list]) => {
        const times = list.length > 1 ? ` ×${list.length}` : '';
        return `Xid ${c}${times} (${CODES[String(c)]?.meaning ?? t('node.kernelLog.unknownCode')})`;
      })
      .join('; '),
    bus: [...new Set(xs.map((x) => x.bus))].join(', '),
    ago: ago ?? 0,
  };
  return problem({
    check,
    severity: serious ? 'error' : 'warn',
    rootCause: serious ? 'hardware_or_driver_fault' : 'other',
    message: t(w ? 'node.kernelLog.inJob' : ago === null ? 'node.kernelLog.xid' : 'node.kernelLog.xidAgo', params),
    evidence: [
      ...(w
        ? [
            {
              text: `the job ran from ${w.fromSeconds.toFixed(1)} to ${w.toSeconds.toFixed(1)} s after boot`,
              source: 'run (/proc/uptime at its start)',
            },
          ]
        : []),
      ...xs.slice(-6).map((x) => {
        const at = x.seconds !== null ? `[${x.seconds.toFixed(1)} s after boot] ` : '';
        return { text: `${at}NVRM: Xid (PCI:${x.bus}): ${x.code}, ${x.text}`, source: 'dmesg' };
      }),
    ],
    fix: serious
      ? {
          text: t('node.kernelLog.fixHardware'),
          commands: ['nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER'],
          manual: ['sudo nvidia-smi -r -i <GPU>'],
        }
      : { text: t('node.kernelLog.fixApp'), commands: [], manual: ['CUDA_LAUNCH_BLOCKING=1 <the job>'] },
  });
}
