// The live collector of `serve`: one sample every interval (nvidia-smi and the GPU processes), the checks once
// a minute (a full snapshot), both in the background. Pages are rendered from what the collector holds, so a
// request never waits for nvidia-smi: a hung nvidia-smi makes the page say so, it does not make it hang.
//
// Never two samples at once: while nvidia-smi has not answered, no other is started (a hung driver would
// otherwise collect one stuck nvidia-smi per interval). After failures the next try waits longer (up to
// `maxBackoffMs`), so a missing or broken nvidia-smi costs little.
import type { Finding } from '../../judge/finding.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';
import { MemoryHistory } from '../../report/serve/history.js';
import type { LiveState } from '../../report/serve/model.js';
import type { BaseFacts, PreviousSample } from './sample.js';

export interface CollectorDeps {
  sample(prev: PreviousSample | null, base: BaseFacts): Promise<PreviousSample>;
  /** a full snapshot and the checks' findings; absent: no checks on the page */
  check?(): Promise<{ snapshot: Snapshot; findings: Finding[] }>;
  base: BaseFacts;
  now(): number;
  intervalMs: number;
  checkEveryMs: number;
  hangAfterMs: number;
  maxBackoffMs: number;
  history?: MemoryHistory;
  /** something the page shows changed */
  onChange(): void;
}

export class LiveCollector {
  private good: { snapshot: Snapshot; at: number } | null = null;
  private latest: { snapshot: Snapshot; at: number } | null = null;
  private prev: PreviousSample | null = null;
  private inFlightSince: number | null = null;
  private hangAnnounced = false;
  private failingSince: number | null = null;
  private failures = 0;
  private nextSampleAt = 0;
  private checks: LiveState['checks'];
  private base: BaseFacts;
  private timer: ReturnType<typeof setInterval> | undefined;
  private checkTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  readonly history: MemoryHistory;
  /** bumped whenever what the page shows changes: renderers cache on it */
  version = 0;

  constructor(private readonly d: CollectorDeps) {
    this.base = d.base;
    this.history = d.history ?? new MemoryHistory();
    this.checks = { at: null, findings: null, everyMs: d.checkEveryMs, runningSince: null };
  }

  start(): void {
    this.tick();
    this.timer = setInterval(() => this.tick(), this.d.intervalMs);
    // The first checks start a moment after the first sample, which the page needs more.
    if (this.d.check && this.d.checkEveryMs > 0)
      this.checkTimer = setTimeout(() => this.runChecks(), Math.min(1500, this.d.intervalMs));
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.checkTimer) clearTimeout(this.checkTimer);
  }

  state(redacted = false): LiveState {
    return {
      host: this.base.host.name,
      now: this.d.now(),
      intervalMs: this.d.intervalMs,
      good: this.good,
      latest: this.latest,
      inFlightSince: this.inFlightSince,
      hangAfterMs: this.d.hangAfterMs,
      failingSince: this.failingSince,
      history: this.history.snapshot(this.d.now()),
      checks: this.checks,
      redacted,
    };
  }

  private changed(): void {
    this.version++;
    this.d.onChange();
  }

  private tick(): void {
    if (this.stopped) return;
    const now = this.d.now();
    if (this.inFlightSince !== null) {
      if (!this.hangAnnounced && now - this.inFlightSince >= this.d.hangAfterMs) {
        this.hangAnnounced = true;
        this.changed();
      }
      return;
    }
    if (now < this.nextSampleAt) return;
    this.inFlightSince = now;
    this.hangAnnounced = false;
    this.d.sample(this.prev, this.base).then(
      (s) => this.onSample(s),
      // takeSample's probes do not throw; this is for a bug, which must not stop the page
      (err: unknown) => this.onSampleError(err),
    );
  }

  private onSample(s: PreviousSample): void {
    const at = this.d.now();
    this.inFlightSince = null;
    if (this.stopped) return;
    this.prev = s;
    this.latest = { snapshot: s.snapshot, at };
    if (s.snapshot.nvidia.ok) {
      this.good = this.latest;
      this.failingSince = null;
      this.failures = 0;
      this.nextSampleAt = 0;
      for (const g of s.snapshot.nvidia.gpus)
        this.history.add(at, { uuid: g.uuid, index: g.index, usedMiB: g.memory.usedMiB, totalMiB: g.memory.totalMiB });
    } else {
      this.failingSince ??= at;
      this.failures++;
      this.nextSampleAt = at + this.backoff();
    }
    this.changed();
  }

  private onSampleError(err: unknown): void {
    this.inFlightSince = null;
    this.failingSince ??= this.d.now();
    this.failures++;
    this.nextSampleAt = this.d.now() + this.backoff();
    process.emitWarning(`gpu-env-doctor serve: a sample failed: ${err instanceof Error ? err.message : String(err)}`);
    this.changed();
  }

  /** The interval, doubled per failure in a row, at most maxBackoffMs. */
  private backoff(): number {
    return Math.min(this.d.maxBackoffMs, this.d.intervalMs * 2 ** Math.min(10, this.failures - 1));
  }

  private runChecks(): void {
    if (this.stopped || !this.d.check) return;
    this.checks = { ...this.checks, runningSince: this.d.now() };
    this.d.check().then(
      ({ snapshot, findings }) => {
        this.base = { host: snapshot.host, self: snapshot.self, system: snapshot.system, env: snapshot.env };
        this.checks = { at: this.d.now(), findings, everyMs: this.d.checkEveryMs, runningSince: null };
        this.afterChecks();
      },
      (err: unknown) => {
        this.checks = {
          ...this.checks,
          runningSince: null,
          error: `The checks failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
        };
        this.afterChecks();
      },
    );
  }

  private afterChecks(): void {
    if (this.stopped) return;
    this.changed();
    this.checkTimer = setTimeout(() => this.runChecks(), this.d.checkEveryMs);
    this.checkTimer.unref?.();
  }
}
