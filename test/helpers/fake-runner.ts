// A process runner scripted by argv, for unit tests of probes (flutter's FakeProcessManager idea):
// each expected call names its command and args and what it returns; an unexpected call fails the test.
import type { ProcessRunner, RunOptions, RunResult } from '../../src/ports/runner.js';

export interface Scripted {
  command: string;
  args?: readonly string[];
  result: RunResult | ((opts: RunOptions | undefined) => RunResult);
}

export function fakeRunner(
  script: Scripted[],
): ProcessRunner & { calls: { command: string; args: readonly string[] }[] } {
  const calls: { command: string; args: readonly string[] }[] = [];
  return {
    calls,
    async run(command, args, opts) {
      calls.push({ command, args });
      const hit = script.find((s) => s.command === command && (s.args === undefined || sameArgs(s.args, args)));
      if (!hit) return { kind: 'not-found', command, durationMs: 0 };
      return typeof hit.result === 'function' ? hit.result(opts) : hit.result;
    },
  };
}

function sameArgs(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export const ok = (stdout: string, stderr = ''): RunResult => ({ kind: 'ok', stdout, stderr, durationMs: 1 });
