// How the tests make a real leftover: the way one arises on a workstation. A launcher (a script, a Python
// driver) started the job and died, while the shell that leads the session lives on (a terminal, an ssh login,
// tmux). The job is then adopted by PID 1 (or a subreaper) and keeps the session of a leader that is still there,
// which is not its ancestor — the evidence judge/procs/adoption.ts reads. (A job whose session leader is gone too
// ran on after its shell exited, on purpose as often as not: judge/procs/leftover.ts keeps it.)
//
// Why `setsid -f`: without it the shell would share the session of whatever ran the tests. Where that is PID 1's
// own session (a CI runner that starts jobs without one, so /proc shows sid 0), the leftover would carry no
// evidence and rightly be "unknown"; the tests would then depend on how the test runner was started. The session's
// leader waits for the job with `tail --pid` and so ends with it (a killed job left a zombie: it ends when reaped).

/** The argv that starts `argv` (stdin from `stdin`, output discarded) and prints its PID as its launcher exits. */
export function orphanArgv(argv: readonly string[], stdin = '/dev/null'): string[] {
  const quoted = argv.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  return [
    'setsid',
    '-f',
    '/bin/sh',
    '-c',
    `p=$( (${quoted} <${stdin} >/dev/null 2>&1 & echo $!) ); echo "$p"; ` +
      `exec tail --pid="$p" -s 0.2 -f /dev/null </dev/null >/dev/null 2>&1`,
  ];
}
