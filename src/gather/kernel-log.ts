// The kernel log's NVIDIA lines: Xid events (NVRM: Xid (PCI:BUS): CODE, …) with their time since boot, read
// with dmesg. Where the log is not readable (kernel.dmesg_restrict = 1 without root or CAP_SYSLOG, a container
// without that capability) that is the fact recorded, with the permission it needs: never "no Xid".
import { readTextOr } from '../ports/fs.js';
import type { KernelLog } from './snapshot/schema.js';
import type { ProbeEnv } from './probe-env.js';

/** Xid events kept (the most recent): a GPU falling off the bus repeats its line many times. */
const MAX_XID = 50;

export async function probeKernelLog(penv: ProbeEnv): Promise<KernelLog | null> {
  // Under --root the tree is another machine's: its kernel log is not ours to read.
  if (penv.fs.root !== '/' || !penv.runner) return null;
  const restrict = readTextOr(penv.fs, '/proc/sys/kernel/dmesg_restrict')?.trim() ?? null;
  const r = await penv.runner.run('dmesg', [], {
    timeoutMs: Math.min(penv.options.timeoutMs, 3000),
    maxBytes: 16 * 1024 * 1024,
  });
  if (r.kind === 'ok') return { ...parseKernelLog(r.stdout), dmesgRestrict: restrict };
  // no dmesg here: nothing is known either way, and nothing is claimed
  if (r.kind === 'not-found') return null;
  const err = 'stderr' in r ? (r.stderr.trim().split('\n')[0] ?? '') : '';
  if (r.kind === 'permission' || /not permitted|permission denied/i.test(err))
    return {
      readable: false,
      reason: 'permission',
      detail: err || 'permission denied',
      dmesgRestrict: restrict,
      nvrmLines: 0,
      xid: [],
    };
  return { readable: false, reason: 'failed', detail: err || r.kind, dmesgRestrict: restrict, nvrmLines: 0, xid: [] };
}

const XID = /NVRM: Xid \(?PCI:([0-9a-fA-F:.]+)\)?: (\d+),\s*(.*)$/;

/** dmesg lines ("[  437.812449] NVRM: …") or /dev/kmsg records ("4,1227,437812449932,c;NVRM: …"). Pure. */
export function parseKernelLog(text: string): Omit<KernelLog, 'dmesgRestrict'> {
  const xid: KernelLog['xid'] = [];
  let nvrmLines = 0;
  // Only the lines that name NVRM are cut out of the text: the log of a machine up for months is megabytes of
  // other drivers' lines, and check reads it while it waits for nvidia-smi.
  for (let at = text.indexOf('NVRM'); at >= 0; ) {
    const start = text.lastIndexOf('\n', at) + 1;
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    const raw = text.slice(start, end);
    at = nl < 0 ? -1 : text.indexOf('NVRM', end + 1);
    nvrmLines++;
    const m = XID.exec(raw);
    if (!m) continue;
    const dm = /^\[\s*(\d+(?:\.\d+)?)\]/.exec(raw);
    const km = /^\d+,\d+,(\d+),[^;]*;/.exec(raw);
    const seconds = dm ? Number(dm[1]) : km ? Number(km[1]) / 1e6 : null;
    xid.push({ bus: m[1]!, code: Number(m[2]), text: m[3]!.trim().slice(0, 300), seconds });
  }
  return { readable: true, nvrmLines, xid: xid.slice(-MAX_XID) };
}
