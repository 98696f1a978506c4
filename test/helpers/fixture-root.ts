// Builds a temp directory that stands for "/" (--root): /proc entries for processes, /etc/passwd, the
// driver version file. Stat lines are real captures from the H200 (test/fixtures/h200/hog) with the
// PID, state and parent changed where a test needs another process.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from './fake-bin.js';

/** Real /proc/637/stat of hog.py on the H200 (test/fixtures/h200/hog/hog-1200-proc.txt). */
export const REAL_HOG_STAT =
  '637 (python3) S 418 417 417 0 -1 4194560 87482 0 0 0 499 52 0 0 20 0 18 0 7986 166059065344 155301 18446744073709551615 4325376 7352253 140736692274288 0 0 0 0 16781318 0 0 0 0 17 15 0 0 0 0 0 10653128 12216448 644227072 140736692280124 140736692280147 140736692280147 140736692285403 0';

export interface FakeProc {
  pid: number;
  ppid: number;
  comm?: string;
  state?: string;
  uid?: number;
  cmdline?: string[];
  /** clock ticks after boot */
  starttime?: number;
  utime?: number;
  /** open /dev/nvidia0 */
  gpuFd?: boolean;
  pidNs?: string;
  /** process group, session, controlling terminal, PF_* flags (stat fields 5, 6, 7, 9); default: the hog's */
  pgid?: number;
  sid?: number;
  ttyNr?: number;
  flags?: number;
  /** /proc/PID/cgroup */
  cgroup?: string;
  /** its open files cannot be read (another user's process, as a non-root caller) */
  fdUnreadable?: boolean;
}

export function statLine(p: FakeProc): string {
  const fields = REAL_HOG_STAT.slice(REAL_HOG_STAT.lastIndexOf(')') + 2).split(' ');
  fields[0] = p.state ?? 'S';
  fields[1] = String(p.ppid);
  if (p.pgid !== undefined) fields[2] = String(p.pgid);
  if (p.sid !== undefined) fields[3] = String(p.sid);
  if (p.ttyNr !== undefined) fields[4] = String(p.ttyNr);
  if (p.flags !== undefined) fields[6] = String(p.flags);
  if (p.utime !== undefined) fields[11] = String(p.utime);
  if (p.starttime !== undefined) fields[19] = String(p.starttime);
  return `${p.pid} (${p.comm ?? 'python3'}) ${fields.join(' ')}`;
}

export interface RootSpec {
  procs?: FakeProc[];
  selfPid?: number;
  bootTime?: number;
  passwd?: string;
  driverVersionFile?: string | null;
  files?: Record<string, string>;
  /** the login shell that leads session 417 is alive (default), as when a launcher died; false: the session ended */
  sessionLeader?: boolean;
}

export function makeRoot(spec: RootSpec = {}): string {
  const root = tempDir('ged-root-');
  const w = (p: string, data: string) => {
    const abs = path.join(root, p);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, data);
  };
  w('/proc/stat', `cpu  1 2 3 4\nbtime ${spec.bootTime ?? 1796200000}\n`);
  w(
    '/etc/passwd',
    spec.passwd ??
      'root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000::/home/alice:/bin/bash\nbob:x:1001:1001::/home/bob:/bin/bash\n',
  );
  if (spec.driverVersionFile !== null) {
    w(
      '/proc/driver/nvidia/version',
      spec.driverVersionFile ??
        'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (nixbld@)  \nGCC version:  gcc version 15.3.0 (GCC) \n',
    );
  }
  const selfPid = spec.selfPid ?? 4242;
  // init in its own session (as systemd is); the hog's stat line puts the others in session 417, whose leader (a
  // login shell) lives on unless the test says the session ended
  const leader =
    spec.sessionLeader !== false && !(spec.procs ?? []).some((p) => p.pid === 417)
      ? [{ pid: 417, ppid: 1, comm: 'bash', pgid: 417, sid: 417, cmdline: ['-bash'] }]
      : [];
  const procs: FakeProc[] = [
    { pid: 1, ppid: 0, comm: 'init', pgid: 1, sid: 1 },
    ...leader,
    { pid: selfPid, ppid: 1, comm: 'node', uid: 1000 },
    ...(spec.procs ?? []),
  ];
  for (const p of procs) {
    w(`/proc/${p.pid}/stat`, `${statLine(p)}\n`);
    w(
      `/proc/${p.pid}/status`,
      `Name:\t${p.comm ?? 'python3'}\nState:\t${p.state ?? 'S'}\nPPid:\t${p.ppid}\nUid:\t${p.uid ?? 1000}\t${p.uid ?? 1000}\t${p.uid ?? 1000}\t${p.uid ?? 1000}\n`,
    );
    w(`/proc/${p.pid}/cmdline`, (p.cmdline ?? [p.comm ?? 'python3']).join('\0') + '\0');
    if (!p.fdUnreadable) fs.mkdirSync(path.join(root, `proc/${p.pid}/fd`), { recursive: true });
    // (root reads any folder, so "cannot be read" is a link loop: an error other than "gone")
    else fs.symlinkSync('fd', path.join(root, `proc/${p.pid}/fd`));
    if (p.cgroup !== undefined) w(`/proc/${p.pid}/cgroup`, p.cgroup);
    fs.mkdirSync(path.join(root, `proc/${p.pid}/ns`), { recursive: true });
    fs.symlinkSync(p.pidNs ?? 'pid:[4026531836]', path.join(root, `proc/${p.pid}/ns/pid`));
    if (p.gpuFd && !p.fdUnreadable) {
      fs.symlinkSync('/dev/nvidia0', path.join(root, `proc/${p.pid}/fd/11`));
      fs.symlinkSync('/dev/nvidiactl', path.join(root, `proc/${p.pid}/fd/12`));
    }
  }
  // /proc/self as the kernel shows it: a link to our PID's folder
  fs.symlinkSync(String(selfPid), path.join(root, 'proc/self'));
  fs.mkdirSync(path.join(root, 'dev'), { recursive: true });
  for (const [p, data] of Object.entries(spec.files ?? {})) w(p, data);
  return root;
}
