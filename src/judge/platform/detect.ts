// Where a failed job ran, for fixes in the right syntax: native Windows, WSL2, or Linux. From a log: what the
// reporter wrote (OS lines, in English or Chinese), Windows paths (C:\Users\…), DLL names, WSL's marks; from a
// snapshot: its OS line and WSL detection. The log wins over the machine: it is where the failure happened.
import type { Snapshot } from '../../gather/snapshot/schema.js';
import type { Platform } from './shell-syntax.js';
import { nativeWhenAsked } from '../../base/native-regex.js';
import { eitherOf, regexOf } from '../../base/regex.js';

const WSL =
  /\bWSL2?\b|Windows Subsystem for Linux|microsoft-standard|\/usr\/lib\/wsl\/|\/mnt\/[a-z]\/(?:Users|ProgramData)\b/i;
const WINDOWS_OS = /\bwin(?:dows)?\s*(?:\d+|xp|vista|server|nt)?\b|视窗/i;
const WINDOWS_LINE = regexOf(
  [
    eitherOf([
      /\b[A-Z]:\\(?:Users|ProgramData|Program Files|Anaconda|Miniconda|Python|tools|Windows)\b/, // a drive path
      /\b[\w.-]+\.dll\b/, // a DLL
      /\berror code is 126\b|DLL load failed/, // Windows' loader failing
    ]),
  ],
  'i',
);
/** the two compiled to machine code at their first use, not at load (src/base/native-regex.ts) */
const wsl = nativeWhenAsked(WSL);
const windowsLine = nativeWhenAsked(WINDOWS_LINE);

/** From the facts a log states (its OS line) and its lines (evidence texts); null when the log does not say. */
export function platformOfLog(os: string | undefined, lines: readonly string[]): Platform | null {
  if (os && wsl().test(os)) return 'wsl';
  if (lines.some((l) => wsl().test(l))) return 'wsl';
  if (os && WINDOWS_OS.test(os) && !/linux|ubuntu|debian|centos/i.test(os)) return 'windows';
  if (lines.some((l) => windowsLine().test(l))) return 'windows';
  return null;
}

/** From a snapshot's system section. */
export function platformOfSnapshot(s: Pick<Snapshot, 'system'>): Platform {
  if (/windows/i.test(s.system.os ?? '')) return 'windows';
  return s.system.wsl ? 'wsl' : 'linux';
}
