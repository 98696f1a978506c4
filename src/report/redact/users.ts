// Detector: users and their home folders. /home/X, /Users/X, /users/X, /u/X, NFS homes (/nfs/home/X),
// /scratch/X and /scratch/gpfs/X name a person; the home folders of /etc/passwd's accounts wherever they are
// (/data/dave, /nfs/h/u7731) become ~user-N. Accounts that name nobody (root, ubuntu, jovyan …) are kept.
import { learning, plain, rule, type Step } from './rule.js';
import type { Marks } from './types.js';
import type { Known } from './types.js';
import { regexOf } from '../../base/regex.js';

/** Accounts that name nobody (system, default cloud and container users): never replaced. */
export const PUBLIC_USERS = new Set([
  'root',
  'nobody',
  'daemon',
  'bin',
  'sys',
  'sync',
  'games',
  'man',
  'lp',
  'mail',
  'news',
  'uucp',
  'proxy',
  'www-data',
  'backup',
  'list',
  'irc',
  'gnats',
  'sshd',
  '_apt',
  'messagebus',
  'systemd-resolve',
  'systemd-network',
  'systemd-timesync',
  'nvidia-persistenced',
  'git',
  'user',
  'admin',
  'guest',
  'test',
  'ubuntu',
  'debian',
  'centos',
  'ec2-user',
  'jovyan',
  'ray',
  'node',
  'nixbld',
  'dev',
  '?',
  '',
]);
/** Folder names that follow /scratch/ or a home base but are not people: a path through them learns no user. */
export const NOT_PEOPLE = new Set([
  'shared',
  'share',
  'public',
  'common',
  'data',
  'datasets',
  'models',
  'projects',
  'project',
  'software',
  'apps',
  'opt',
  'tmp',
  'temp',
  'local',
  'scratch',
  'work',
  'group',
  'groups',
  'lab',
  'team',
  'home',
  'users',
  'gpfs',
  'lustre',
  'global',
  'cache',
  'linuxbrew',
]);

export function homeRules(m: Marks): Step[] {
  return [
    // the known homes not named after their account: the account's name is the folder's
    plain((s) => {
      if (m.homes.length === 0 || !s.includes('/')) return s;
      let out = s;
      for (const h of m.homes)
        out = replaceAll(
          out,
          h.path,
          (at) => isPathEnd(out, at + h.path.length),
          () => `~${m.mark(m.placeholder('user', h.owner))}`,
        );
      return out;
    }),
    learning(
      rule(/\/(?:home\d*|homes|Users|users|u)\//, HOME_RE, (x, base: string, name: string) =>
        NOT_PEOPLE.has(name) ? x : `${base}${m.userMark(name)}`,
      ),
    ),
    learning(
      rule(/\/scratch/, SCRATCH_RE, (x, base: string, mid: string | undefined, name: string) =>
        NOT_PEOPLE.has(name) ? x : `${base}${mid ?? ''}${m.userMark(name)}`,
      ),
    ),
  ];
}

/**
 * a folder named home/homes/Users/users/u anywhere in a path (/home, /nfs/home, /export/home2, /u): the next is a
 * person
 */
const HOME_RE = /((?:^|[\s"'=:(,])(?:\/[\w.+-]+)*?\/(?:home\d*|homes|Users|users|u)\/)([A-Za-z0-9_][\w.-]*)/g;
/** /scratch/NAME, /scratch/gpfs/NAME */
const SCRATCH_RE = regexOf(
  [
    // the path up to a scratch folder
    String.raw`((?:^|[\s"'=:(,])(?:\/[\w.+-]+)*?\/scratch\d*\/)`,
    // a file system folder under it (gpfs, lustre)
    String.raw`((?:gpfs|lustre|local|shared|global|fs\d*|[a-z]+fs)\/)?`,
    // the person
    String.raw`([A-Za-z0-9_][\w.-]*)`,
  ],
  'g',
);

/** the root, /root, or a system folder at the top of the tree */
const SYSTEM_FOLDER = regexOf([
  String.raw`^\/(?:root|var|usr|bin|sbin|etc|dev|proc|sys|run|tmp|opt|srv|nonexistent|lib\w*|snap|boot|mnt|media)?`,
  String.raw`(?:\/|$)`,
]);

/** Home folders that name someone: not /root, not system folders. */
export function isPrivateHome(path: string): boolean {
  return path.length > 1 && !SYSTEM_FOLDER.test(path);
}

function isPathEnd(s: string, at: number): boolean {
  return at >= s.length || /[/\s"':;,)\]}]/.test(s[at]!);
}

/** replace every occurrence of `needle` at which `ok(index)` holds */
function replaceAll(s: string, needle: string, ok: (at: number) => boolean, by: () => string): string {
  let out = '';
  let from = 0;
  for (let at = s.indexOf(needle); at !== -1; at = s.indexOf(needle, at + needle.length)) {
    if (!ok(at) || (at > 0 && /[\w.-]/.test(s[at - 1]!))) continue;
    out += s.slice(from, at) + by();
    from = at + needle.length;
  }
  return from === 0 ? s : out + s.slice(from);
}

/** The people among /etc/passwd's accounts (uid 1000–59999, or a home under a home folder) and their homes. */
export function knownFromPasswd(text: string): Known[] {
  const out: Known[] = [];
  for (const line of text.split('\n')) {
    const [name, , uidText, , , home] = line.split(':');
    if (!name || !uidText || !/^\d+$/.test(uidText) || PUBLIC_USERS.has(name)) continue;
    const uid = Number(uidText);
    const homeish = home !== undefined && /\/(?:home\d*|homes|Users|users|u|scratch\d*)\//.test(home);
    if (!((uid >= 1000 && uid < 60000) || homeish)) continue;
    out.push({ kind: 'user', value: name });
    if (home) out.push({ kind: 'home', value: home, owner: name });
  }
  return out;
}
