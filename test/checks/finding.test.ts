// The constructors every check builds its findings with: each sets the status, allows only the severities that
// go with it (an impossible pair does not compile: the @ts-expect-error lines fail `tsc` when it would), and keeps
// the keys in the order --json has always printed them.
import { describe, expect, it } from 'vitest';
import { fail, finding, ok, problem, skip, unknown, warn } from '../../src/judge/finding.js';

const fix = { text: 'do this', commands: ['nvidia-smi', 'nvidia-smi'] };

describe('finding constructors', () => {
  it('fail: status fail at severity error or warn; never info', () => {
    const f = fail({ check: 'a.b', severity: 'warn', rootCause: 'library_missing', message: 'gone', fix });
    expect([f.severity, f.status, f.rootCause]).toEqual(['warn', 'fail', 'library_missing']);
    expect(f.fix?.commands).toEqual(['nvidia-smi']);
    expect(fail({ check: 'a.b', severity: 'error', rootCause: null, message: 'x' }).severity).toBe('error');
    // @ts-expect-error a failure is never only information
    fail({ check: 'a.b', severity: 'info', rootCause: null, message: 'x' });
  });

  it('warn: status warn, severity warn unless it is a note (info); never error', () => {
    expect(warn({ check: 'a.b', rootCause: null, message: 'x' })).toMatchObject({ severity: 'warn', status: 'warn' });
    expect(warn({ check: 'a.b', severity: 'info', rootCause: null, message: 'x' }).severity).toBe('info');
    // @ts-expect-error an error fails
    warn({ check: 'a.b', severity: 'error', rootCause: null, message: 'x' });
  });

  it('problem: the status follows the severity, error fails and warn warns', () => {
    const said = { check: 'a.b', rootCause: 'other' as const, message: 'x' };
    expect(problem({ ...said, severity: 'error' })).toMatchObject({ severity: 'error', status: 'fail' });
    expect(problem({ ...said, severity: 'warn' })).toMatchObject({ severity: 'warn', status: 'warn' });
    // @ts-expect-error information is no problem
    problem({ ...said, severity: 'info' });
  });

  it('ok: severity info, root cause null unless named, never a fix', () => {
    const f = ok({ check: 'a.b', message: 'fine' });
    expect([f.severity, f.status, f.rootCause, f.fix, f.evidence]).toEqual(['info', 'ok', null, undefined, []]);
    expect(ok({ check: 'a.b', rootCause: 'library_conflict', message: 'passed after all' }).rootCause).toBe(
      'library_conflict',
    );
    // @ts-expect-error a check that passed has nothing to fix
    ok({ check: 'a.b', message: 'fine', fix });
    // @ts-expect-error its severity is information, always
    ok({ check: 'a.b', message: 'fine', severity: 'warn' });
  });

  it('skip: severity info, a fix may say how to judge it elsewhere', () => {
    const f = skip({ check: 'a.b', message: 'no GPU here', fix: { text: 'run it there', commands: [] } });
    expect([f.severity, f.status, f.rootCause, f.fix?.text]).toEqual(['info', 'skip', null, 'run it there']);
    // @ts-expect-error a skipped check found nothing to warn about
    skip({ check: 'a.b', message: 'x', severity: 'warn' });
  });

  it('unknown: status unknown at the severity of what it could be', () => {
    for (const severity of ['info', 'warn', 'error'] as const)
      expect(unknown({ check: 'a.b', severity, rootCause: null, message: 'x' })).toMatchObject({
        severity,
        status: 'unknown',
      });
    // @ts-expect-error the severity says how bad it could be: it must be given
    unknown({ check: 'a.b', rootCause: null, message: 'x' });
  });

  it('keeps the keys in the order given, severity, status and rootCause just before the message', () => {
    const base = { check: 'a.b', evidence: [{ text: 'e' }] };
    const f = fail({ ...base, severity: 'error', rootCause: 'other', message: 'm', details: 'd', fix });
    expect(Object.keys(f)).toEqual([
      'check',
      'evidence',
      'severity',
      'status',
      'rootCause',
      'message',
      'details',
      'fix',
    ]);
    const literal = finding({
      ...base,
      severity: 'error',
      status: 'fail',
      rootCause: 'other',
      message: 'm',
      details: 'd',
      fix,
    });
    expect(JSON.stringify(f)).toBe(JSON.stringify(literal));
    expect(Object.keys(ok({ check: 'a.b', message: 'm', affects: { gpu: 0 } }))).toEqual([
      'check',
      'severity',
      'status',
      'rootCause',
      'message',
      'affects',
      'evidence',
    ]);
  });

  it('takes the severity and status it sets over any carried in from a finding spread into it', () => {
    const was = fail({ check: 'a.b', severity: 'error', rootCause: 'library_conflict', message: 'broke' });
    const { fix: _fix, ...rest } = was;
    const f = ok({ ...rest, message: 'passed after all' });
    expect([f.severity, f.status, f.rootCause, f.message]).toEqual([
      'info',
      'ok',
      'library_conflict',
      'passed after all',
    ]);
    expect(Object.keys(f).slice(0, 5)).toEqual(['check', 'severity', 'status', 'rootCause', 'message']);
  });

  it('builds, from every arrangement of the keys it is given, the object the spread spelling built', () => {
    // The constructors and finding() build a finding in one pass (fleet runs some checks on every node); this is
    // the spelling they replaced, key for key: a copy with severity, status and rootCause before the message, then
    // finding() as it was, a spread.
    const spreadFinding = (f: Record<string, unknown>): unknown => {
      const fx = f.fix as { commands: string[]; manual?: string[] } | undefined;
      const once = (xs: string[]) => [...new Set(xs)];
      const fix = fx
        ? { ...fx, commands: once(fx.commands), ...(fx.manual ? { manual: once(fx.manual) } : {}) }
        : undefined;
      return { ...f, evidence: f.evidence ?? [], ...(fix ? { fix } : {}) };
    };
    const spelt = (severity: string, status: string, f: Record<string, unknown>): unknown => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(f)) {
        if ((k === 'rootCause' || k === 'message') && !('status' in out)) {
          out.severity = severity;
          out.status = status;
          out.rootCause = f.rootCause;
        }
        if (k !== 'rootCause' && k !== 'severity' && k !== 'status') out[k] = v;
      }
      return spreadFinding(out);
    };
    const fixes = [
      undefined,
      { text: 't', commands: ['a', 'a', 'b'] },
      { text: 't', commands: [], manual: ['k', 'k'] },
    ];
    const orders = [
      ['check', 'rootCause', 'message', 'details', 'affects', 'status'],
      ['check', 'message', 'rootCause', 'affects'],
      ['status', 'message', 'check'],
      ['check', 'details', 'message'],
    ];
    const value: Record<string, unknown> = {
      check: 'a.b',
      rootCause: 'other',
      message: 'm',
      details: 'd',
      affects: { gpu: 1 },
      status: 'ok',
    };
    let seen = 0;
    for (const order of orders)
      for (const evidence of ['absent', 'undefined', 'null', 'given'] as const)
        for (const fix of [...fixes, 'absent'] as const)
          for (let at = 0; at <= order.length; at++) {
            const f: Record<string, unknown> = {};
            order.forEach((k, j) => {
              if (j === at && evidence !== 'absent')
                f.evidence = evidence === 'given' ? [{ text: 'e' }] : evidence === 'null' ? null : undefined;
              if (j === at && fix !== 'absent') f.fix = fix;
              f[k] = value[k];
            });
            const same = (got: unknown, want: unknown) => {
              expect(JSON.stringify(got)).toBe(JSON.stringify(want));
              expect(Object.keys(got as object)).toEqual(Object.keys(want as object));
              seen++;
            };
            const rc = f.rootCause ?? null;
            same(fail({ ...f, severity: 'error' } as never), spelt('error', 'fail', { ...f, severity: 'error' }));
            same(warn(f as never), spelt('warn', 'warn', f));
            same(warn({ ...f, severity: 'info' } as never), spelt('info', 'warn', { ...f, severity: 'info' }));
            same(problem({ ...f, severity: 'warn' } as never), spelt('warn', 'warn', { ...f, severity: 'warn' }));
            same(unknown({ ...f, severity: 'info' } as never), spelt('info', 'unknown', { ...f, severity: 'info' }));
            same(ok(f as never), spelt('info', 'ok', { ...f, rootCause: rc }));
            same(skip(f as never), spelt('info', 'skip', { ...f, rootCause: rc }));
            same(finding({ ...f, severity: 'warn' } as never), spreadFinding({ ...f, severity: 'warn' }));
          }
    expect(seen).toBeGreaterThan(1000);
  });
});
