// The GPU process table of `procs`: one row per process that holds GPU memory or a GPU device file,
// culprits first, with the verdict from ./verdict.ts. Pure: rows from a Snapshot, text and JSON from rows.
import pc from 'picocolors';
import { fmtAge, fmtCmdline, fmtMiB, plural } from '../core/format.js';
import type { HolderProcess, Snapshot } from '../snapshot/schema.js';
import { culpritOrder, isStale, verdictOf, verdictReason, type Verdict } from './verdict.js';
import { frameworkLabel, holderPolicy, type HolderPolicy } from './framework.js';

export interface ProcRow {
  p: HolderProcess;
  verdict: Verdict;
  reason: string;
  /** what its framework does with GPU memory (from /proc/PID/maps), when one is recognised */
  policy: HolderPolicy | null;
}

export function procRows(s: Snapshot): ProcRow[] {
  const totalOf = (p: HolderProcess) => (s.nvidia.ok ? (s.nvidia.gpus.find((g) => g.index === p.gpus[0])?.memory.totalMiB ?? null) : null);
  return s.processes.list
    .filter((p) => p.listedByNvidiaSmi || p.holdsDeviceFiles)
    .map((p) => {
      const verdict = verdictOf(p, s.self);
      return { p, verdict, reason: verdictReason(p, verdict), policy: holderPolicy(p, totalOf(p)) };
    })
    .sort((a, b) => culpritOrder({ verdict: a.verdict, usedMiB: a.p.usedMiB }, { verdict: b.verdict, usedMiB: b.p.usedMiB }) || a.p.pid - b.p.pid);
}

/** Stale holders of GPU memory: what makes `procs` exit with 1. */
export function staleCount(rows: readonly ProcRow[]): number {
  return rows.filter((r) => r.p.listedByNvidiaSmi && isStale(r.verdict)).length;
}

const HEAD = ['GPU', 'PID', 'USER', 'MEMORY', 'AGE', 'STATE', 'PARENT', 'CONTAINER', 'VERDICT', 'FRAMEWORK', 'COMMAND'] as const;

function cells(r: ProcRow, cmdMax: number): string[] {
  const p = r.p;
  return [
    p.gpus.length > 0 ? p.gpus.join(',') : '-',
    String(p.pid),
    p.user ?? (p.uid !== null ? String(p.uid) : '?'),
    p.listedByNvidiaSmi ? fmtMiB(p.usedMiB) : 'dev file',
    p.visible ? fmtAge(p.ageSeconds) : '?',
    p.state ?? '?',
    // parent alive? "gone" when it was orphaned (adopted by init or a subreaper)
    p.orphaned === null ? '?' : p.orphaned ? `gone→${p.parentName ?? p.ppid ?? '?'}` : `${p.parentName ?? p.ppid ?? '?'}`,
    !p.visible ? 'other?' : p.otherPidNamespace === null ? '?' : p.otherPidNamespace ? 'other' : 'same',
    r.verdict,
    // "-" when none is recognised, "?" when its files could not be read (another user's process, not root)
    p.framework ? frameworkLabel(p.framework.name) : p.framework === null ? '-' : '?',
    p.visible ? fmtCmdline(p.cmdline, cmdMax) : (p.name ?? '?'),
  ];
}

export interface TableOptions {
  color: boolean;
  verbose: boolean;
}

export function renderProcs(s: Snapshot, rows: readonly ProcRow[], o: TableOptions): string {
  const c = o.color ? pc : pc.createColors(false);
  const out: string[] = [];
  if (s.nvidia.ok) {
    for (const g of s.nvidia.gpus) {
      out.push(`GPU ${g.index} ${g.name}: ${fmtMiB(g.memory.usedMiB)} used of ${fmtMiB(g.memory.totalMiB)}, ${fmtMiB(g.memory.freeMiB)} free`);
    }
  } else {
    out.push(c.yellow(`nvidia-smi could not answer (${s.nvidia.failure.message}): only processes holding /dev/nvidia* open are shown`));
  }
  if (s.processes.message) out.push(c.dim(s.processes.message));
  if (!s.processes.ok) out.push(c.yellow(`processes could not be read: ${s.processes.message ?? 'no /proc'}`));
  if (rows.length === 0) {
    out.push('', 'No process holds GPU memory.');
    return `${out.join('\n')}\n`;
  }
  const table = rows.map((r) => cells(r, o.verbose ? 10_000 : 60));
  const widths = HEAD.map((h, i) => Math.max(h.length, ...table.map((t) => (t[i] ?? '').length)));
  const line = (t: readonly string[], paint?: (v: string) => string) =>
    t
      .map((v, i) => {
        const padded = i === t.length - 1 ? v : v.padEnd(widths[i]!);
        return i === 8 && paint ? paint(padded) : padded;
      })
      .join('  ')
      .trimEnd();
  out.push('', c.bold(line(HEAD)));
  rows.forEach((r, i) => out.push(line(table[i]!, paintFor(r.verdict, c))));

  const explained = rows.filter((r) => r.verdict !== 'active' && r.verdict !== 'this job');
  if (explained.length > 0) {
    out.push('');
    for (const r of explained) out.push(`PID ${r.p.pid}: ${r.verdict}: ${r.reason}`);
  }
  // What each holder's framework does with its memory, and so what would give it back.
  const policies = rows.filter((r) => r.policy && r.p.listedByNvidiaSmi && r.verdict !== 'this job');
  if (policies.length > 0) {
    out.push('');
    for (const r of policies) out.push(`PID ${r.p.pid} (${fmtMiB(r.p.usedMiB)}): ${r.policy!.summary}. ${c.dim(`To give it back: ${r.policy!.remedy}.`)}`);
  }
  const stale = staleCount(rows);
  out.push(
    '',
    stale > 0
      ? `${plural(stale, 'stale process', 'stale processes')} holding GPU memory: gpu-env-doctor fix ends them safely (it shows the plan and asks first).`
      : 'No stale process holds GPU memory.',
  );
  return `${out.join('\n')}\n`;
}

type Colors = ReturnType<typeof pc.createColors>;
function paintFor(v: Verdict, c: Colors): (s: string) => string {
  if (isStale(v)) return c.red;
  if (v === 'other user' || v === 'invisible') return c.yellow;
  if (v === 'this job') return c.dim;
  return c.green;
}

export function procsJson(s: Snapshot, rows: readonly ProcRow[]): unknown {
  return {
    schemaVersion: 1,
    host: s.host,
    collectedAt: s.collectedAt,
    gpus: s.nvidia.ok ? s.nvidia.gpus.map((g) => ({ index: g.index, name: g.name, uuid: g.uuid, memory: g.memory })) : [],
    ...(s.nvidia.ok ? {} : { nvidiaFailure: s.nvidia.failure }),
    ...(s.processes.message ? { message: s.processes.message } : {}),
    processes: rows.map((r) => ({ ...r.p, verdict: r.verdict, reason: r.reason, stale: isStale(r.verdict), ...(r.policy ? { policy: r.policy } : {}) })),
    stale: staleCount(rows),
  };
}
