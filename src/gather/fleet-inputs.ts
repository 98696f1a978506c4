// The files `fleet` reads: the paths named, folders searched for *.json (recursively), each file read, parsed
// and handed over one at a time. A file that cannot be read or is not a snapshot is skipped with its reason:
// one broken node must not hide the other 9,999.
import { t } from '../base/i18n/index.js';
import * as nodePath from 'node:path';
import { UsageError } from '../base/errors.js';
import type { FileSystem } from '../ports/fs.js';
import { type FileId, isInside, listRealDir, readRegularText, realPathOf, statReal } from '../ports/safe-read.js';
import { parseSnapshotTextFast } from './snapshot/load.js';
import type { Snapshot } from './snapshot/schema.js';

export const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;
/** Folders nested deeper than this are not searched (a symlink loop, or the wrong folder given). */
const MAX_DEPTH = 8;

export type FleetInput = { file: string; snapshot: Snapshot } | { file: string; problem: string };

/**
 * How a file found by the folder walk is opened: the path to open (a link inside the folder resolved) and the folder it
 * must stay in.
 */
export interface Walked {
  open: string;
  inside: string;
  /** the file the walk found there: the same file opened later is known to be inside */
  found: FileId;
}

interface Problem {
  file: string;
  reason: string;
}

/**
 * Expands the arguments to files (folders: their *.json files, sorted), and the arguments that were skipped.
 * Each real file and folder is visited once, whatever links lead to it again: a link loop (`ln -s . again`)
 * or two paths to one file do not count a machine twice. A link inside a folder is followed only while it
 * stays inside the folder named: anyone who can write the folder could otherwise show any file we can read.
 */
export function expandInputs(
  fsys: FileSystem,
  cwd: string,
  args: readonly string[],
): { files: string[]; problems: Problem[]; walked: Map<string, Walked> } {
  const files: string[] = [];
  /** the files the folder walk found, and how to open each */
  const walked = new Map<string, Walked>();
  const problems: Problem[] = [];
  const seen: Seen = new Map();
  for (const arg of args) {
    const abs = nodePath.resolve(cwd, arg);
    let st;
    try {
      st = fsys.stat(abs);
    } catch (err) {
      problems.push({ file: arg, reason: describe(err) });
      continue;
    }
    if (!firstVisit(seen, st)) continue;
    if (st.type === 'dir') {
      const top = realPathOf(hostPath(fsys, abs));
      if (top === null) problems.push({ file: arg, reason: t('fleet.problem.noSuchFile') });
      else walk(fsys, { top, files, problems, seen, walked }, hostPath(fsys, abs), arg, 0);
    } else files.push(arg);
  }
  return { files, problems, walked };
}

/** The path on this machine for a path of the port (the port may be rooted elsewhere). */
function hostPath(fsys: FileSystem, abs: string): string {
  return fsys.root === '/' ? abs : nodePath.join(fsys.root, abs);
}

/** The inodes met so far, by device. */
type Seen = Map<number, Set<number>>;

/** true the first time this (device, inode) is met (numbers as keys: a "dev:ino" string per file cost more) */
function firstVisit(seen: Seen, st: { dev: number; ino: number }): boolean {
  let inodes = seen.get(st.dev);
  if (inodes === undefined) seen.set(st.dev, (inodes = new Set()));
  if (inodes.has(st.ino)) return false;
  inodes.add(st.ino);
  return true;
}

interface WalkState {
  /** the real path of the folder named: nothing outside it is opened */
  top: string;
  files: string[];
  problems: Problem[];
  seen: Seen;
  walked: Map<string, Walked>;
}

/** `real`: a real path on this machine (links resolved), inside `w.top`. */
function walk(fsys: FileSystem, w: WalkState, real: string, shown: string, depth: number): void {
  let entries;
  try {
    entries = listRealDir(real);
  } catch (err) {
    w.problems.push({ file: shown, reason: describe(err) });
    return;
  }
  // V8 keeps one default collator for localeCompare: an Intl.Collator made here measured no faster
  entries.sort((a, b) => a.name.localeCompare(b.name));
  // A listed name is one component (no '/', never '.' or '..'): joined to a folder, it only appends to what the
  // folder's path joined to any such name gives. One join per folder, not two per entry.
  const shownPrefix = nodePath.join(shown, '_').slice(0, -1);
  const realPrefix = nodePath.join(real, '_').slice(0, -1);
  for (const e of entries) {
    const json = e.name.endsWith('.json');
    const link = e.type === 'symlink';
    if (e.type !== 'dir' && !link && !(e.type === 'file' && json)) continue;
    const childShown = shownPrefix + e.name;
    let target = realPrefix + e.name;
    if (link) {
      const resolved = realPathOf(target);
      if (resolved === null) continue; // a dangling link is not a snapshot
      if (!isInside(resolved, w.top)) {
        if (json) w.problems.push({ file: childShown, reason: t('fleet.problem.linkOutside') });
        continue;
      }
      target = resolved;
    }
    const st = statReal(target);
    if (st === null) continue;
    if (st.type === 'dir') {
      if (depth + 1 < MAX_DEPTH && firstVisit(w.seen, st)) walk(fsys, w, target, childShown, depth + 1);
    } else if (st.type === 'file' && json && firstVisit(w.seen, st)) {
      w.files.push(childShown);
      w.walked.set(childShown, {
        open: target,
        inside: w.top,
        found: { dev: st.dev, ino: st.ino, birthtimeMs: st.birthtimeMs },
      });
    }
  }
}

/**
 * Reads and parses one file; never throws. Opened once, without blocking (a FIFO swapped in is not waited on),
 * checked on the descriptor, read only when it is a regular file. A file the folder walk found is not opened
 * through a last-component link and must still lie inside the folder; a path the user named is followed.
 * No reason quotes the file's content: a link to a secret must not show its first characters.
 */
export function readInput(
  fsys: FileSystem,
  cwd: string,
  file: string,
  walked?: Walked,
): FleetInput & { size?: number; mtimeMs?: number } {
  const r = walked
    ? readRegularText(walked.open, {
        maxBytes: MAX_SNAPSHOT_BYTES,
        noFollow: true,
        inside: walked.inside,
        found: walked.found,
      })
    : readRegularText(hostPath(fsys, nodePath.resolve(cwd, file)), { maxBytes: MAX_SNAPSHOT_BYTES, noFollow: false });
  switch (r.kind) {
    case 'notFile':
      return { file, problem: t('fleet.problem.notFile') };
    case 'link':
    case 'outside':
      return { file, problem: t('fleet.problem.linkOutside') };
    case 'tooLarge':
      return { file, problem: t('fleet.problem.tooLarge', { max: MAX_SNAPSHOT_BYTES }) };
    case 'error':
      return { file, problem: describe({ code: r.code }) };
    case 'file':
      break;
  }
  if (r.bytes === 0) return { file, problem: t('fleet.problem.empty'), size: r.size, mtimeMs: r.mtimeMs };
  try {
    return { file, snapshot: parseSnapshotTextFast(r.text, file), size: r.size, mtimeMs: r.mtimeMs };
  } catch (err) {
    return { file, problem: quietReason(err, file), size: r.size, mtimeMs: r.mtimeMs };
  }
}

/**
 * Why a file is not a snapshot, without its content: JSON.parse's message quotes the text around the error,
 * and a schema message may quote a value or a key read from the file.
 */
function quietReason(err: unknown, file: string): string {
  const msg = err instanceof UsageError ? err.message.replace(`${file} `, '') : '';
  if (msg.startsWith('is not JSON')) return t('fleet.problem.notJson');
  if (msg.startsWith('is not a gpu-env-doctor snapshot')) {
    const at = / at ([A-Za-z0-9_.]{1,80})$/.exec(msg);
    return at ? t('fleet.problem.notSnapshotAt', { path: at[1]! }) : t('fleet.problem.notSnapshot');
  }
  return t('fleet.problem.notSnapshot');
}

function describe(err: unknown): string {
  const code = (err as { code?: string }).code;
  if (code === 'ENOENT') return t('fleet.problem.noSuchFile');
  if (code === 'EACCES' || code === 'EPERM') return t('fleet.problem.denied');
  if (err instanceof Error && !(err as { code?: string }).code) return err.message.split('\n')[0]!;
  return t('fleet.problem.unreadable', { code: code ?? '?' });
}

/**
 * Under --redact: the name of a file that could not be read is usually the node's host name (dgx-alice-03.json),
 * which no snapshot taught the redactor. Its folder is kept (redacted as any path), its name replaced by its place.
 */
export function hideSkippedNames<T extends { file: string }>(skipped: readonly T[]): T[] {
  return skipped.map((s, i) => ({ ...s, file: nodePath.join(nodePath.dirname(s.file), `unreadable-${i + 1}.json`) }));
}
