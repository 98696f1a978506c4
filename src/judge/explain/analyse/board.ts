// The score board of the differential diagnosis: every rule adds weight to a root cause (or takes some away)
// and says why, with the lines that support it.
import type { RootCauseId } from '../../../knowledge/root-causes.js';
import type { LogEvidence } from '../types.js';

export interface Entry {
  score: number;
  evidence: LogEvidence[];
  why: string[];
  /** weight each reason contributed: the heaviest one is the cause's summary */
  whyWeight: Map<string, number>;
  /** data for the fix: PIDs to end, versions to install, library names */
  hints: Record<string, string[]>;
}

const MAX_EVIDENCE = 8;

export class Board {
  readonly entries = new Map<RootCauseId, Entry>();
  /** causes the input states itself: a message that names its cause, or the figures/versions a message carries */
  readonly grounded = new Set<RootCauseId>();

  private entry(id: RootCauseId): Entry {
    let e = this.entries.get(id);
    if (!e) {
      e = { score: 0, evidence: [], why: [], whyWeight: new Map(), hints: {} };
      this.entries.set(id, e);
    }
    return e;
  }

  add(id: RootCauseId, weight: number, why?: string, evidence: LogEvidence[] = []): void {
    if (weight === 0) return;
    const e = this.entry(id);
    e.score += weight;
    if (why && weight > 0) {
      if (!e.why.includes(why)) e.why.push(why);
      e.whyWeight.set(why, (e.whyWeight.get(why) ?? 0) + weight);
    }
    for (const ev of evidence) {
      if (e.evidence.length >= MAX_EVIDENCE) break;
      // Facts of the machine all have line 0: they are told apart by their text.
      if (
        !e.evidence.some(
          (x) => x.line === ev.line && x.source === ev.source && (ev.source !== 'machine' || x.text === ev.text),
        )
      )
        e.evidence.push(ev);
    }
  }

  /** a rule that argues against a cause only matters where something argued for it */
  against(id: RootCauseId, weight: number, why: string): void {
    const e = this.entries.get(id);
    if (!e || e.score <= 0) return;
    e.score = Math.max(0, e.score - weight);
    e.why.push(`against: ${why}`);
  }

  /** weight for a cause the message's own text states (its numbers, its version pair, the file or arch it names) */
  stated(id: RootCauseId, weight: number, why?: string, evidence: LogEvidence[] = []): void {
    if (weight <= 0) return;
    this.add(id, weight, why, evidence);
    this.grounded.add(id);
  }

  hint(id: RootCauseId, key: string, value: string): void {
    const e = this.entry(id);
    const list = (e.hints[key] ??= []);
    if (!list.includes(value) && list.length < 10) list.push(value);
  }

  /** reasons, heaviest first, then the arguments against */
  reasons(id: RootCauseId): string[] {
    const e = this.entries.get(id);
    if (!e) return [];
    const pro = e.why
      .filter((w) => !w.startsWith('against:'))
      .sort((a, b) => (e.whyWeight.get(b) ?? 0) - (e.whyWeight.get(a) ?? 0));
    return [...pro, ...e.why.filter((w) => w.startsWith('against:'))];
  }

  score(id: RootCauseId): number {
    return this.entries.get(id)?.score ?? 0;
  }
}
