// Where the facts of a report come from: this machine now, or a saved snapshot (which file, which host, when
// it was taken and how long ago). Every output made from a snapshot says so, so an admin judging someone
// else's snapshot never reads it as a report about the machine in front of them.
import { fmtAge } from '../base/format.js';
import type { Snapshot } from '../gather/snapshot/schema.js';
import { titlesOf } from './labels.js';
import type { Words } from '../base/i18n/words.js';

export interface ReportSource {
  /** the snapshot file ("-" read from standard input); null: this machine, probed now */
  file: string | null;
  host: string;
  /** ISO time the facts were collected */
  takenAt: string;
  /** seconds between then and now (null when the time is unreadable) */
  agoSeconds: number | null;
}

export function reportSource(words: Words, s: Snapshot, file: string | null, nowMs: number): ReportSource {
  const t = Date.parse(s.collectedAt);
  return {
    file: file === '-' ? words.t('title.standardInput') : file,
    host: s.host.name,
    takenAt: s.collectedAt,
    agoSeconds: Number.isFinite(t) ? Math.max(0, (nowMs - t) / 1000) : null,
  };
}

/** "2026-12-02 13:04 UTC" */
export function fmtTaken(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return iso;
  return `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The header lines of a terminal report: the title, and for a snapshot, the host and when it was taken. */
export function headerLines(words: Words, command: string, src: ReportSource): { title: string; sub: string | null } {
  if (src.file === null) return { title: titlesOf(words).live(command, src.host), sub: null };
  return {
    title: titlesOf(words).fromSnapshot(command, src.file),
    sub: titlesOf(words).snapshotLine(
      src.host,
      fmtTaken(src.takenAt),
      src.agoSeconds === null ? '?' : fmtAge(src.agoSeconds),
    ),
  };
}
