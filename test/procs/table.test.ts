import { describe, expect, it } from 'vitest';
import { procRows, procsJson, renderProcs, staleCount } from '../../src/report/views/procs.js';
import { holder, snapshotWith } from '../fix/helpers.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

const s = snapshotWith([
  holder({ pid: 800, orphaned: false, ppid: 700, parentName: 'bash', usedMiB: 90000, cpuSeconds: 250 }),
  holder({ pid: 694, usedMiB: 4096 }),
  holder({ pid: 4242, isSelfOrAncestor: true, orphaned: false, usedMiB: 500 }),
  holder({
    pid: 901,
    uid: 1001,
    user: 'alice',
    orphaned: false,
    ppid: 900,
    parentName: 'bash',
    usedMiB: 30000,
    cpuSeconds: 250,
  }),
  holder({
    pid: 77,
    visible: false,
    name: null,
    cmdline: null,
    uid: null,
    user: null,
    state: null,
    ppid: null,
    orphaned: null,
    parentName: null,
    startedAt: null,
    ageSeconds: null,
    cpuSeconds: null,
    otherPidNamespace: null,
    usedMiB: 1000,
  }),
  holder({ pid: 55, state: 'stopped', orphaned: false, ppid: 700, parentName: 'bash', usedMiB: 8000 }),
  holder({
    pid: 66,
    listedByNvidiaSmi: false,
    gpus: [],
    usedMiB: null,
    orphaned: false,
    ppid: 700,
    parentName: 'bash',
    cpuSeconds: 250,
  }),
]);

describe('the procs table', () => {
  it('puts culprits first: stale (biggest first), other users, invisible, active, this job', () => {
    expect(procRows(s).map((r) => [r.p.pid, r.verdict])).toEqual([
      [55, 'stopped'],
      [694, 'orphaned'],
      [901, 'other user'],
      [77, 'invisible'],
      [800, 'active'],
      [66, 'active'],
      [4242, 'this job'],
    ]);
    expect(staleCount(procRows(s))).toBe(2);
  });

  it('shows GPU, PID, user, memory, age, state, parent, container, verdict and command line per row', () => {
    const text = renderProcs(wordsFor(getLang()), s, procRows(s), { color: false, verbose: false, width: 200 });
    const lines = text.split('\n');
    expect(lines[0]).toBe('GPU 0 NVIDIA H200: 529 MiB used of 140.4 GiB, 139.3 GiB free');
    const head = lines.findIndex((l) => l.startsWith('GPU  PID'));
    expect(lines[head]).toMatch(/^GPU +PID +USER +MEMORY +AGE +STATE +PARENT +CONTAINER +VERDICT +FRAMEWORK +COMMAND$/);
    expect(lines[head + 2]).toMatch(
      /^0 +694 +root +4\.0 GiB +5m 0s +sleeping +gone→init +same +orphaned +\? +python3 hog\.py 1200 120$/,
    );
    expect(lines[head + 4]).toMatch(/^0 +77 +\? +1000 MiB +\? +\? +\? +other\? +invisible +\? +\?$/);
    expect(lines[head + 6]).toMatch(/^- +66 +root +dev file /);
    expect(text).toContain('PID 901: other user: belongs to another user (alice)');
    expect(text).toContain(
      '2 stale processes holding GPU memory. To end them: gpu-env-doctor fix (it shows the plan and asks first).',
    );
    // at 80 columns the command line gets what the other columns leave (20 at least); prose lines wrap
    const narrow = renderProcs(wordsFor(getLang()), s, procRows(s), { color: false, verbose: false, width: 80 });
    const row = narrow.split('\n').find((l) => / 694 /.test(l))!;
    expect(row.length).toBeLessThan(lines[head + 2]!.length);
    for (const l of narrow.split('\n').filter((x) => x.startsWith('PID '))) expect(l.length).toBeLessThanOrEqual(80);
  });

  it('keeps the script and its arguments when the command line is cut to the terminal edge', () => {
    const venv = snapshotWith([
      holder({
        pid: 694,
        usedMiB: 4096,
        cmdline: ['/opt/torch/.venv/bin/python3', '/home/alice/jobs/hog.py', '1200', '120'],
      }),
    ]);
    const rowAt = (width: number) =>
      renderProcs(wordsFor(getLang()), venv, procRows(venv), { color: false, verbose: false, width })
        .split('\n')
        .find((l) => / 694 /.test(l))!;
    expect(rowAt(110)).toMatch(/  python3 …\/hog\.py 1200 120$/);
    expect(rowAt(110).length).toBeLessThanOrEqual(110);
    // 20 columns left at 100: the interpreter goes first, the script and its arguments stay
    expect(rowAt(100)).toMatch(/  hog\.py 1200 120$/);
    expect(rowAt(100).length).toBeLessThanOrEqual(100);
    // wide enough: the whole line; -v: the whole line whatever the width
    const wide = renderProcs(wordsFor(getLang()), venv, procRows(venv), { color: false, verbose: false, width: 200 });
    expect(wide).toContain(' /opt/torch/.venv/bin/python3 /home/alice/jobs/hog.py 1200 120\n');
    const verbose = renderProcs(wordsFor(getLang()), venv, procRows(venv), { color: false, verbose: true, width: 80 });
    expect(verbose).toContain(' /opt/torch/.venv/bin/python3 /home/alice/jobs/hog.py 1200 120\n');
  });

  it('says so when nothing holds GPU memory', () => {
    const empty = snapshotWith([]);
    expect(renderProcs(wordsFor(getLang()), empty, procRows(empty), { color: false, verbose: false })).toContain(
      'No process holds GPU memory.',
    );
  });

  it('JSON: every process fact plus verdict, reason and stale, in table order', () => {
    const doc = procsJson(s, procRows(s)) as {
      processes: { pid: number; verdict: string; stale: boolean; startedAt: number | null }[];
      stale: number;
      gpus: unknown[];
    };
    expect(doc.processes.map((p) => p.pid)).toEqual([55, 694, 901, 77, 800, 66, 4242]);
    expect(doc.processes[1]).toMatchObject({ pid: 694, verdict: 'orphaned', stale: true, startedAt: 1764669000000 });
    expect(doc.stale).toBe(2);
    expect(doc.gpus).toHaveLength(1);
  });
});
