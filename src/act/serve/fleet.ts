// `serve --fleet DIR`: the live page for many machines, from the folder of snapshots the nodes write (the
// Kubernetes DaemonSet and Slurm epilog in examples/ write one file per node). One row per machine: how old
// its snapshot is, its free GPUs, its stale holders, and how it differs from the rest of the fleet (the
// outliers of `fleet`, from the same merger).
//
// Bounded and never blocking: each file is summarised to a few fields and dropped (no snapshot is kept), only
// changed files are read again (by size and modification time), the outliers are merged again at most every
// `mergeEveryMs`, and the work yields to the event loop between files so pages keep being answered.
import { t } from '../../base/i18n/index.js';
import * as nodePath from 'node:path';
import { ALL_CHECKS } from '../../judge/checks/index.js';
import { fmtCmdline } from '../../base/format.js';
import { expandInputs, readInput, type Walked } from '../../gather/fleet-inputs.js';
import { FleetMerger } from '../../judge/fleet/merge.js';
import type { FileSystem } from '../../ports/fs.js';
import { procRows } from '../../report/views/procs.js';
import { isStale } from '../../judge/procs/verdict.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';
import { freeGpus, visibleDevicesLine } from '../../judge/free-gpus.js';
import type { FleetPageModel, MachineRow, StaleHolder } from '../../report/serve/fleet-model.js';

export type { FleetPageModel, MachineRow, StaleHolder } from '../../report/serve/fleet-model.js';

export interface FleetWatcherOptions {
  fs: FileSystem;
  cwd: string;
  dir: string;
  now(): number;
  intervalMs: number;
  mergeEveryMs: number;
  oldAfterMs: number;
  onChange(): void;
  /** at most this many files are followed */
  maxFiles?: number;
}

interface Entry {
  size: number;
  mtimeMs: number;
  row: MachineRow;
}

const yieldNow = () => new Promise<void>((r) => setImmediate(r));

export class FleetWatcher {
  private readonly entries = new Map<string, Entry>();
  /** how each file of the last walk is opened */
  private walked = new Map<string, Walked>();
  private skipped: { file: string; reason: string }[] = [];
  private outliers = new Map<string, MachineRow['outliers']>();
  private readAt: number | null = null;
  private mergedAt: number | null = null;
  private dirty = true;
  private busy = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  version = 0;

  constructor(private readonly o: FleetWatcherOptions) {}

  start(): void {
    void this.scan();
    this.timer = setInterval(() => void this.scan(), this.o.intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One pass over the folder; a pass still running (a slow disk, a huge fleet) is not doubled. */
  async scan(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const { files, problems, walked } = expandInputs(this.o.fs, this.o.cwd, [this.o.dir]);
      this.walked = walked;
      const max = this.o.maxFiles ?? 20_000;
      const kept = files.slice(0, max);
      const skipped = [...problems];
      if (files.length > max)
        skipped.push({ file: this.o.dir, reason: `${files.length - max} more files than the ${max} followed` });
      const present = new Set(kept);
      for (const f of [...this.entries.keys()]) if (!present.has(f)) this.entries.delete(f), (this.dirty = true);
      let n = 0;
      for (const file of kept) {
        if (++n % 50 === 0) await yieldNow();
        const st = this.o.fs.tryStat(nodePath.resolve(this.o.cwd, file));
        const old = this.entries.get(file);
        if (st && old && st.size === old.size && st.mtimeMs === old.mtimeMs) continue;
        const input = readInput(this.o.fs, this.o.cwd, file, walked.get(file));
        if ('snapshot' in input) {
          this.entries.set(file, {
            size: input.size ?? st?.size ?? 0,
            mtimeMs: input.mtimeMs ?? st?.mtimeMs ?? 0,
            row: summarise(input.snapshot, file),
          });
          this.dirty = true;
        } else if (old) {
          // Half-written or replaced by something unreadable: keep what it said, say why it is old.
          old.row = { ...old.row, problem: input.problem };
          old.size = st?.size ?? -1;
          old.mtimeMs = st?.mtimeMs ?? -1;
        } else {
          skipped.push({ file, reason: input.problem });
        }
      }
      this.skipped = skipped;
      this.readAt = this.o.now();
      if (this.dirty && (this.mergedAt === null || this.o.now() - this.mergedAt >= this.o.mergeEveryMs))
        await this.merge(kept);
      this.version++;
      this.o.onChange();
    } finally {
      this.busy = false;
    }
  }

  /** The outliers of the whole fleet, by `fleet`'s merger (streaming: each snapshot is read, added and dropped). */
  private async merge(files: string[]): Promise<void> {
    const merger = new FleetMerger({ checks: ALL_CHECKS });
    let n = 0;
    for (const file of files) {
      if (!this.entries.has(file)) continue;
      const input = readInput(this.o.fs, this.o.cwd, file, this.walked.get(file));
      if ('snapshot' in input) merger.add(input.snapshot, file);
      if (++n % 20 === 0) await yieldNow();
    }
    const result = merger.result();
    this.outliers = new Map(
      result.outliers.map((x) => [
        x.file,
        x.differs.map((d) => ({ fact: d.label || d.fact, value: d.value, usual: d.usual, impact: d.impact })),
      ]),
    );
    this.mergedAt = this.o.now();
    this.dirty = false;
  }

  model(redacted = false): FleetPageModel {
    const machines = [...this.entries.values()].map((e) => ({
      ...e.row,
      outliers: this.outliers.get(e.row.file) ?? [],
    }));
    const now = this.o.now();
    machines.sort(
      (a, b) => score(b, now, this.o.oldAfterMs) - score(a, now, this.o.oldAfterMs) || a.host.localeCompare(b.host),
    );
    const old = machines.filter((m) => m.collectedMs === null || now - m.collectedMs > this.o.oldAfterMs).length;
    return {
      title: t('serve.fleet.title', { n: machines.length }),
      dir: this.o.dir,
      readAt: this.readAt,
      mergedAt: this.mergedAt,
      intervalMs: this.o.intervalMs,
      oldAfterMs: this.o.oldAfterMs,
      machines,
      skipped: this.skipped.slice(0, 50),
      totals: {
        machines: machines.length,
        gpus: machines.reduce((a, m) => a + m.gpus, 0),
        free: machines.reduce((a, m) => a + (m.free?.length ?? 0), 0),
        stale: machines.reduce((a, m) => a + m.stale.length, 0),
        outliers: machines.filter((m) => m.outliers.length > 0).length,
        old,
      },
      redacted,
    };
  }
}

/** Machines that need a look come first: stale holders, then outliers, unreadable or old snapshots. */
function score(m: MachineRow, now: number, oldAfterMs: number): number {
  return (
    (m.stale.length > 0 ? 8 : 0) +
    (m.outliers.length > 0 ? 4 : 0) +
    (m.problem || m.nvidiaFailure ? 2 : 0) +
    (m.collectedMs === null || now - m.collectedMs > oldAfterMs ? 1 : 0)
  );
}

/** The few fields of a snapshot the fleet page shows. */
export function summarise(s: Snapshot, file: string): MachineRow {
  const ms = Date.parse(s.collectedAt);
  const rows = procRows(s);
  const stale = rows
    .filter((r) => r.p.listedByNvidiaSmi && isStale(r.verdict))
    .slice(0, 20)
    .map((r) => ({
      pid: r.p.pid,
      user: r.p.user ?? (r.p.uid !== null ? String(r.p.uid) : '?'),
      gpus: r.p.gpus,
      miB: r.p.usedMiB,
      verdict: r.verdict,
      reason: r.reason,
      name: r.p.name ?? '?',
      command: r.p.visible && r.p.cmdline && r.p.cmdline.length > 0 ? fmtCmdline(r.p.cmdline, 100) : (r.p.name ?? '?'),
    }));
  const freeList = s.nvidia.ok ? freeGpus(s) : null;
  const free = freeList ? freeList.map((g) => g.index) : null;
  const users = [
    ...new Set([s.self.user, ...s.processes.list.map((p) => p.user)].filter((u): u is string => typeof u === 'string')),
  ];
  return {
    file,
    host: s.host.name,
    collectedAt: s.collectedAt,
    collectedMs: Number.isFinite(ms) ? ms : null,
    gpus: s.nvidia.ok ? s.nvidia.gpus.length : 0,
    gpuName: s.nvidia.ok ? (s.nvidia.gpus[0]?.name ?? null) : null,
    free,
    // spelled as check and the machine's own page spell it: by UUID
    freeLine: freeList ? visibleDevicesLine(freeList) : null,
    ...(s.nvidia.ok ? {} : { nvidiaFailure: s.nvidia.failure.message }),
    stale,
    outliers: [],
    users,
  };
}
