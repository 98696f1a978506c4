// The verdict on a process whose parent has exited, over facts as the probe reads them: a leftover only when
// nothing shows work, service or a deliberate detach (issue 23: nohup servers and GPU loops were ended).
import { describe, expect, it } from 'vitest';
import { assess } from '../../src/judge/procs/verdict.js';
import { adoptionOf } from '../../src/judge/procs/adoption.js';
import { detachedHow, jobPartOf, judgeAdopted, outputAgeSeconds } from '../../src/judge/procs/leftover.js';
import type { HolderProcess } from '../../src/gather/snapshot/schema.js';
import { holder } from '../fix/helpers.js';

const self = { pid: 4242, uid: 0, user: 'root', pidNamespace: null };

/** The default holder: adopted by init (its session 417 is not init's; the shell that leads 417 lives on, as when
 *  a launcher script died), nothing else known. */
const adopted = (over: Partial<HolderProcess> = {}) =>
  holder({
    pid: 694,
    pgid: 417,
    sid: 417,
    sigHupIgnored: false,
    cwdIsRoot: false,
    stdio: ['null', 'null', 'null'],
    outputWrittenAt: null,
    listening: [],
    connections: 0,
    ancestors: [],
    sessionLeaderAlive: true,
    ...over,
  });

describe('an adopted process: leftover, working, or detached on purpose', () => {
  it('nothing shows work or intent: orphaned, said in plain words, the fork evidence apart', () => {
    const a = assess(adopted(), self);
    expect(a.verdict).toBe('orphaned');
    expect(a.reason).toBe('its parent process has exited: a leftover of a finished job');
    expect(a.reason).not.toMatch(/session|fork/);
    expect(a.evidence).toMatch(/its session \(417\) is not the one of its parent init \(PID 1\)/);
  });

  it('started with nohup (SIGHUP ignored): unknown, never a leftover', () => {
    const a = assess(adopted({ sigHupIgnored: true }), self);
    expect(a.verdict).toBe('unknown');
    expect(a.reason).toMatch(/^it was started to run on its own \(nohup: it ignores the hang-up signal\)/);
  });

  it('its own session leader (setsid) or process group leader: unknown', () => {
    expect(assess(adopted({ sid: 694, pgid: 694 }), self).verdict).toBe('unknown');
    expect(detachedHow(adopted({ sid: 694, pgid: 694 }))).toMatch(/^setsid/);
    expect(detachedHow(adopted({ pgid: 694 }))).toMatch(/process group of its own/);
    // sid 694 = pid: no session evidence, so not even adopted (its parent is init: unknown)
    expect(adoptionOf(adopted({ sid: 694 })).kind).toBe('unknown');
  });

  it('a daemon (working folder /, nothing to read, no terminal, its session leader gone): unknown', () => {
    const daemon = { cwdIsRoot: true, sessionLeaderAlive: false };
    expect(assess(adopted(daemon), self).verdict).toBe('unknown');
    expect(assess(adopted(daemon), self).reason).toMatch(/a daemon: no terminal, working folder \//);
    // the same with its session leader alive: no daemon
    expect(detachedHow(adopted({ cwdIsRoot: true }))).toBeNull();
  });

  it('left running after its shell exited (session ended, no terminal): unknown, whatever its folder and input', () => {
    // `job &` then logout, `setsid sh -c 'job &'`, a double fork that keeps its folder and output (audit M1(b))
    const left = adopted({ sessionLeaderAlive: false, stdio: ['pipe', 'file', 'file'] });
    const a = assess(left, self);
    expect(a.verdict).toBe('unknown');
    expect(a.reason).toMatch(
      /^it was started to run on its own \(left running: its session has ended and it has no terminal\)/,
    );
    // still on a terminal, or the session's leader alive: judged on the other facts (a leftover here)
    expect(assess(adopted({ sessionLeaderAlive: false, ttyNr: 34816 }), self).verdict).toBe('orphaned');
    expect(assess(adopted({ stdio: ['pipe', 'file', 'file'] }), self).verdict).toBe('orphaned');
    // unreadable session leader (null): no evidence either way, so no detach is claimed
    expect(detachedHow(adopted({ sessionLeaderAlive: null }))).toBeNull();
  });

  it('a live tmux or screen server above it: unknown', () => {
    expect(
      detachedHow(
        adopted({
          ancestors: [
            { pid: 300, name: 'bash' },
            { pid: 200, name: 'tmux: server' },
          ],
        }),
      ),
    ).toBe('under the terminal multiplexer tmux: server, PID 200');
    expect(detachedHow(adopted({ ancestors: [{ pid: 200, name: 'screen' }] }))).toMatch(/screen/);
  });

  it("the CUDA driver's own UVM socket, which every CUDA process has, is no sign of service", () => {
    const idle = adopted({ listening: ['unix @cuda-uvmfd-4026531836-460@'] });
    expect(assess(idle, self).verdict).toBe('orphaned');
    const server = adopted({ listening: ['unix @cuda-uvmfd-4026531836-460@', 'tcp 127.0.0.1:18923'] });
    expect(assess(server, self).verdict).toBe('active');
    expect(assess(server, self).reason).toContain('tcp 127.0.0.1:18923');
    expect(assess(server, self).reason).not.toContain('cuda-uvmfd');
  });

  it('listening, connected or writing its log lately: active, with what it does', () => {
    const l = assess(adopted({ sigHupIgnored: true, listening: ['tcp 127.0.0.1:8000'] }), self);
    expect([l.verdict, l.reason]).toEqual([
      'active',
      'its parent process has exited, but it is still working: it listens on tcp 127.0.0.1:8000',
    ]);
    expect(assess(adopted({ connections: 2 }), self).reason).toMatch(/it has 2 open network connections/);
    // written 20 s before the snapshot: working; 10 minutes before: not a sign
    const at = 1764669000000 + 300_000;
    expect(outputAgeSeconds(adopted({ outputWrittenAt: at - 20_000 }))).toBe(20);
    expect(assess(adopted({ outputWrittenAt: at - 20_000 }), self).reason).toMatch(
      /it wrote to its output file 20 s ago/,
    );
    expect(assess(adopted({ outputWrittenAt: at - 600_000 }), self).verdict).toBe('orphaned');
  });

  it('a multiprocessing or DataLoader worker whose parent died stays a leftover, nohup or its sharer socket notwithstanding', () => {
    const cmdline = [
      '/usr/bin/python3',
      '-c',
      'from multiprocessing.spawn import spawn_main; spawn_main(tracker_fd=5, pipe_handle=7)',
      '--multiprocessing-fork',
    ];
    expect(jobPartOf({ cmdline })).toBe('multiprocessing');
    const w = adopted({ cmdline, sigHupIgnored: true, listening: ['unix /tmp/pymp-abc123/listener-xyz'] });
    expect(judgeAdopted(w)).toEqual({ kind: 'leftover', part: 'multiprocessing' });
    expect(assess(w, self).reason).toMatch(
      /^a worker \(multiprocessing, a DataLoader\) whose Python parent has exited/,
    );
    // the same socket on an ordinary process is no sign either: only multiprocessing listens there
    expect(assess(adopted({ listening: ['unix /tmp/pymp-abc123/listener-xyz'] }), self).verdict).toBe('orphaned');
    // a worker with a live TCP connection is serving someone
    expect(assess(adopted({ cmdline, connections: 1 }), self).verdict).toBe('active');
  });

  it('a Jupyter kernel whose server is gone: its own ports serve nobody, so it is a leftover', () => {
    // Jupyter starts kernels with a session of their own: the server's PID (JPY_PARENT_PID) is the evidence
    const cmdline = [
      '/opt/conda/bin/python',
      '-m',
      'ipykernel_launcher',
      '-f',
      '/root/.local/share/jupyter/runtime/kernel-1.json',
    ];
    const k = adopted({
      cmdline,
      sid: 694,
      pgid: 694,
      listening: ['tcp 127.0.0.1:51234', 'tcp 127.0.0.1:51235'],
      jupyterServerAlive: false,
    });
    expect(assess(k, self)).toMatchObject({
      verdict: 'orphaned',
      reason: 'a Jupyter kernel whose server has exited: nothing can reach it any more',
    });
    // its server alive, or a client connected: not a leftover
    expect(assess({ ...k, jupyterServerAlive: true }, self).verdict).not.toBe('orphaned');
    expect(assess({ ...k, connections: 1 }, self).verdict).not.toBe('orphaned');
  });
});

describe('adoption evidence (audit M1)', () => {
  it('a session mismatch is no evidence when the session leader is an ancestor through the current parent', () => {
    // python3 (3421) forked the job, then called setsid(); the job keeps the session of the shell 9422 above it
    const p = holder({
      pid: 3463,
      ppid: 3421,
      parentName: 'python3',
      sid: 9422,
      parentSid: 3421,
      startTicks: 2000,
      parentStartTicks: 1000,
      ancestors: [
        { pid: 3421, name: 'python3' },
        { pid: 3387, name: 'bash' },
        { pid: 9422, name: 'bash' },
      ],
    });
    expect(adoptionOf(p).kind).toBe('parented');
    expect(assess(p, self).verdict).toBe('active');
  });

  it('nor when its ordinary parent leads a session and started before it (it forked, then called setsid())', () => {
    const p = holder({
      pid: 3463,
      ppid: 3421,
      parentName: 'python3',
      sid: 9422,
      parentSid: 3421,
      startTicks: 2000,
      parentStartTicks: 1000,
      ancestors: [{ pid: 3421, name: 'python3' }],
    });
    expect(adoptionOf(p).kind).toBe('parented');
    // init leads its own session and adopts orphans: there the mismatch stays evidence
    expect(adoptionOf(holder({ parentSid: 1 })).kind).toBe('adopted');
  });

  it('a PID gone between two reads is "exited", not another container', () => {
    const gone = holder({
      visible: false,
      exited: true,
      name: null,
      cmdline: null,
      state: null,
      ppid: null,
      orphaned: null,
      parentName: null,
    });
    expect(assess(gone, self)).toEqual({
      verdict: 'invisible',
      reason: 'it exited while gpu-env-doctor read it (its memory is being freed)',
    });
    expect(assess({ ...gone, exited: undefined }, self).reason).toMatch(/another container/);
  });
});
