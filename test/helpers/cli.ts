// Runs the built CLI as users do: a child process with a scrubbed environment (PATH and NO_COLOR only,
// plus what the test adds), so nothing of the developer's machine leaks in.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

// GED_TEST_CLI runs the tests against another build (e.g. an older commit's, to see a test fail there).
export const CLI = process.env.GED_TEST_CLI ?? path.resolve(__dirname, '../../dist/cli.js');
// GED_TEST_EXE runs runCli's tests against the single executable instead (scripts/sea/build.mjs), no Node involved.
const EXE = process.env.GED_TEST_EXE;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  opts: { env?: Record<string, string>; input?: string; cwd?: string; timeoutMs?: number } = {},
): CliResult {
  const r = spawnSync(EXE ?? process.execPath, EXE ? args : [CLI, ...args], {
    // COLUMNS: wide, so tests match whole sentences; the tests of wrapping set their own width.
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NO_COLOR: '1', COLUMNS: '200', ...opts.env },
    input: opts.input ?? '',
    cwd: opts.cwd,
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 30000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
