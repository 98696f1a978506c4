// How the tests make a real leftover: the way one arises on a workstation. A job is started from a shell that
// has its own session (a terminal, an ssh login, tmux), and that shell exits. The job is then adopted by PID 1
// (or a subreaper) and keeps the session of the shell that is gone — the evidence procs/adoption.ts reads.
//
// Why `setsid`: without it the shell would share the session of whatever ran the tests. Where that is PID 1's
// own session (a CI runner that starts jobs without one, so /proc shows sid 0), the leftover would carry no
// evidence and rightly be "unknown"; the tests would then depend on how the test runner was started.

/** The argv that starts `argv` (stdin from `stdin`, output discarded) and prints its PID as the shell exits. */
export function orphanArgv(argv: readonly string[], stdin = '/dev/null'): string[] {
  const quoted = argv.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  return ['setsid', '/bin/sh', '-c', `${quoted} <${stdin} >/dev/null 2>&1 & echo $!`];
}
