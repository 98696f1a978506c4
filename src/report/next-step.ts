// The first step a machine's state calls for, taken from check's finding about it: every command that shows
// that state (explain and run with the machine's facts, procs, serve, fix) names the same first command as
// check, because they all read it here.
import { findingLines, type FindingLines } from './finding-lines.js';
import { headroomCheck } from '../judge/checks/memory/headroom.js';
import { holdersCheck } from '../judge/checks/memory/holders.js';
import type { Finding } from '../judge/finding.js';
import type { Snapshot } from '../gather/snapshot/schema.js';
import type { Words } from '../base/i18n/words.js';

/** Root causes that check judges on the machine itself, by the checks that judge them, in check's order. */
const JUDGED_BY: Record<string, ReadonlyArray<{ evaluate(s: Snapshot): Finding[] }>> = {
  memory_held_by_other_process: [headroomCheck, holdersCheck],
};

/** check's failing finding about memory on this machine, with its fix (the short GPU first, then holders). */
export function memoryFinding(s: Snapshot, causeId?: string): Finding | null {
  for (const check of [headroomCheck, holdersCheck]) {
    const f = check
      .evaluate(s)
      .find((x) => x.status === 'fail' && x.fix && (causeId === undefined || x.rootCause === causeId));
    if (f) return f;
  }
  return null;
}

/** check's fix for this root cause on this machine, as every output lays it out; null when check has none. */
export function machineFix(words: Words, causeId: string, s: Snapshot): FindingLines['fix'] | null {
  if (!JUDGED_BY[causeId]) return null;
  const f = memoryFinding(s, causeId);
  return f ? (findingLines(words, f, { snapshot: s }).fix ?? null) : null;
}

/** The first command of a fix: the acting one, else the first safe one. */
export function firstCommand(fix: FindingLines['fix'] | null | undefined): string | null {
  return fix ? (fix.act ?? fix.commands[0] ?? null) : null;
}
