// Which environments `--deep` may execute (their interpreter) or load (their CUDA libraries). Reading an
// environment's files for the static facts is always allowed; running its code is not: an interpreter or a
// library constructor runs as the caller (often root). Only what the caller named or is running is trusted:
// the active environment (VIRTUAL_ENV, CONDA_PREFIX), the interpreters on the caller's PATH, --python; with
// --all-envs also the others, unless another user owns them or others can write where they live.
import type { FileStat, FileSystem } from '../../ports/fs.js';
import { readTextOr } from '../../ports/fs.js';
import { parsePasswd, parseProcStatus } from '../procfs/parse.js';

/** The ways of being found that mean "the caller runs this" (src/gather/python/discover.ts names them). */
const CALLER_CHOSE = ['--python', 'VIRTUAL_ENV', 'CONDA_PREFIX', 'PATH'];

export interface RunnableInput {
  prefix: string;
  interpreter: string | null;
  foundVia: readonly string[];
}

export type RunVerdict = { run: true; why: string } | { run: false; why: string };

/** What the ownership rule needs to know about one path: its owner and mode, or null when it cannot be read. */
export type StatOf = (path: string) => Pick<FileStat, 'uid' | 'mode'> | null;

const GROUP_OR_WORLD_WRITABLE = 0o022;
const STICKY = 0o1000;

/**
 * Pure: may `--deep` start this environment's interpreter and load its libraries? `callerUid` null (no /proc):
 * only root's files count as the caller's own. `userName` turns a uid into a name for the reason.
 */
export function mayRun(
  e: RunnableInput,
  allEnvs: boolean,
  callerUid: number | null,
  statOf: StatOf,
  userName: (uid: number) => string | null = () => null,
): RunVerdict {
  const chosen = e.foundVia.find((v) => CALLER_CHOSE.includes(v));
  if (chosen) return { run: true, why: chosen };
  if (!allEnvs)
    return {
      run: false,
      why: `not named: found through ${e.foundVia.join(', ') || 'a scan'} (name it with --python, or give --all-envs)`,
    };
  const trusted = (uid: number) => uid === 0 || uid === callerUid;
  const who = (uid: number) => {
    const n = userName(uid);
    return n ? `uid ${uid}, ${n}` : `uid ${uid}`;
  };
  const paths: [string, string][] = [[e.prefix, 'the environment']];
  if (e.interpreter) paths.push([parentOf(e.interpreter), 'its bin folder'], [e.interpreter, 'its interpreter']);
  for (const [p, what] of paths) {
    const st = statOf(p);
    if (!st) return { run: false, why: `${what} ${p} cannot be examined` };
    if (!trusted(st.uid))
      return {
        run: false,
        why: `${what} ${p} belongs to another user (${who(st.uid)}); name it with --python to run it anyway`,
      };
    if ((st.mode & GROUP_OR_WORLD_WRITABLE) !== 0)
      return { run: false, why: `other users can write ${what} ${p}; name it with --python to run it anyway` };
  }
  // The folder holding the environment: whoever can write it (without the sticky bit) can swap the environment.
  const holder = parentOf(e.prefix);
  const h = statOf(holder);
  if (!h) return { run: false, why: `its folder ${holder} cannot be examined` };
  if (!trusted(h.uid) && (h.mode & STICKY) === 0)
    return {
      run: false,
      why: `its folder ${holder} belongs to another user (${who(h.uid)}); name it with --python to run it anyway`,
    };
  if ((h.mode & GROUP_OR_WORLD_WRITABLE) !== 0 && (h.mode & STICKY) === 0)
    return {
      run: false,
      why: `it is in a folder other users can write (${holder}); name it with --python to run it anyway`,
    };
  return { run: true, why: '--all-envs' };
}

/** The verdicts for every environment, keyed by prefix, from the machine (the one I/O step: stat). */
export function runVerdicts(fs: FileSystem, envs: readonly RunnableInput[], allEnvs: boolean): Map<string, RunVerdict> {
  const callerUid = callerUidOf(fs);
  const users = parsePasswd(readTextOr(fs, '/etc/passwd') ?? '');
  const statOf: StatOf = (p) => {
    try {
      // the file a link names is what runs; a link's own owner changes nothing
      return fs.stat(p);
    } catch {
      return null;
    }
  };
  return new Map(envs.map((e) => [e.prefix, mayRun(e, allEnvs, callerUid, statOf, (uid) => users.get(uid) ?? null)]));
}

/** The caller's real uid, from /proc/self/status (null where there is no /proc). */
export function callerUidOf(fs: FileSystem): number | null {
  const uidText = parseProcStatus(readTextOr(fs, '/proc/self/status') ?? '')
    .get('Uid')
    ?.split(/\s+/)[0];
  return uidText && /^\d+$/.test(uidText) ? Number(uidText) : null;
}

function parentOf(p: string): string {
  const i = p.replace(/\/+$/, '').lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}
