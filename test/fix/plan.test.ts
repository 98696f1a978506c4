import { describe, expect, it } from 'vitest';
import { finding, type Finding } from '../../src/judge/finding.js';
import { buildPlan, candidatePids, type LiveSample, type PlanInput } from '../../src/judge/fix/plan.js';
import type { LiveIdentity } from '../../src/gather/procfs/identity.js';
import type { HolderProcess, Snapshot } from '../../src/gather/snapshot/schema.js';
import { holder, snapshotWith } from './helpers.js';

const live = (p: HolderProcess, over: Partial<LiveIdentity> = {}, cpuShare: number | null = 0): LiveSample => ({
  identity: {
    pid: p.pid,
    startedAt: p.startedAt,
    state: p.state ?? 'sleeping',
    ppid: p.ppid ?? 1,
    uid: p.uid,
    comm: p.name ?? '?',
    cpuSeconds: p.cpuSeconds ?? 0,
    ...over,
  },
  cpuShare,
});

function plan(s: Snapshot, o: Partial<PlanInput> = {}) {
  const lives = new Map<number, LiveSample>(s.processes.list.map((p) => [p.pid, live(p)]));
  return buildPlan({
    snapshot: s,
    findings: [],
    live: lives,
    signalling: true,
    force: false,
    envFile: 'gpu-env-doctor.env',
    ...o,
  });
}

describe('fix plan: processes', () => {
  it('ends an orphaned GPU holder and leaves active ones and this job alone', () => {
    const s = snapshotWith([
      holder(),
      holder({ pid: 800, orphaned: false, ppid: 700, parentName: 'bash', cpuSeconds: 250, ageSeconds: 300 }),
      holder({ pid: 4242, isSelfOrAncestor: true }),
    ]);
    const p = plan(s);
    expect(p.processes.map((st) => [st.pid, st.verdict, st.blocked])).toEqual([[694, 'orphaned', undefined]]);
    expect(p.processes[0]!.startedAt).toBe(1764669000000);
  });

  it('plans stopped holders, and long-idle ones only when their owner is logged out; never device-file-only holders', () => {
    const s = snapshotWith([
      holder({ pid: 10, state: 'stopped', orphaned: false, ppid: 9, parentName: 'bash' }),
      holder({ pid: 11, orphaned: false, ppid: 9, parentName: 'bash', ageSeconds: 7200, cpuSeconds: 3 }),
      holder({ pid: 12, listedByNvidiaSmi: false, usedMiB: null, gpus: [] }),
      holder({
        pid: 13,
        orphaned: false,
        ppid: 9,
        parentName: 'bash',
        ageSeconds: 7200,
        cpuSeconds: 3,
        uid: 1001,
        user: 'alice',
        ownerHasTerminal: false,
      }),
      holder({
        pid: 14,
        orphaned: false,
        ppid: 9,
        parentName: 'bash',
        ageSeconds: 7200,
        cpuSeconds: 3,
        uid: 1002,
        user: 'bob',
        ownerHasTerminal: true,
      }),
    ]);
    const p = plan(s, { force: true });
    expect(p.processes.map((st) => [st.pid, st.verdict, st.blocked])).toEqual([
      [10, 'stopped', undefined],
      [13, 'idle', undefined],
    ]);
    expect(p.processes[1]!.why).toMatch(
      /idle: alive 2\.0 h with almost no CPU use \(3 s of CPU\) and its owner alice is logged out/,
    );
    // our own idle process: we are logged in, so it may be waiting for work; bob has a terminal open
    expect(p.leftAlone.map((l) => [l.pid, l.verdict])).toEqual([
      [11, 'unknown'],
      [14, 'other user'],
    ]);
    expect(p.leftAlone[0]!.why).toMatch(/but its owner is logged in \(you\)/);
    expect(candidatePids(s).sort()).toEqual([10, 13]);
  });

  it("refuses another user's process when not root, and as root without --force", () => {
    const other = holder({ uid: 1001, user: 'alice' });
    const asUser = plan(snapshotWith([other], { uid: 1000, user: 'bob' }));
    expect(asUser.processes[0]!.blocked).toMatch(/another user \(alice\); only root/);
    const asRoot = plan(snapshotWith([other]));
    expect(asRoot.processes[0]!.blocked).toMatch(/add --force/);
    const forced = plan(snapshotWith([other]), { force: true });
    expect(forced.processes[0]!.blocked).toBeUndefined();
  });

  it('--force does not let a non-root user end other users’ processes', () => {
    const p = plan(snapshotWith([holder({ uid: 1001, user: 'alice' })], { uid: 1000 }), { force: true });
    expect(p.processes[0]!.blocked).toMatch(/only root/);
  });

  it('does not end an orphan that is working (CPU use since the snapshot), nor one whose CPU use is unknown', () => {
    const h = holder();
    const s = snapshotWith([h]);
    const busy = plan(s, { live: new Map([[h.pid, live(h, {}, 0.97)]]) });
    expect(busy.processes[0]!.blocked).toMatch(/working: 97% of a CPU/);
    const unknown = plan(s, { live: new Map([[h.pid, live(h, {}, null)]]) });
    expect(unknown.processes[0]!.blocked).toMatch(/CPU use could not be measured/);
    const idle = plan(s, { live: new Map([[h.pid, live(h, {}, 0.01)]]) });
    expect(idle.processes[0]!.blocked).toBeUndefined();
  });

  it('a PID that now has another start time has exited: nothing to do, and it is said so', () => {
    const h = holder();
    const p = plan(snapshotWith([h]), { live: new Map([[h.pid, live(h, { startedAt: h.startedAt! + 10 })]]) });
    expect(p.processes).toEqual([]);
    expect(p.alreadyGone[0]!.why).toMatch(/PID 694 .* has exited/);
  });

  it('an unknown start time blocks the step (a reused PID could not be told apart)', () => {
    const h = holder({ startedAt: null });
    expect(plan(snapshotWith([h])).processes[0]!.blocked).toMatch(/start time is unknown/);
  });

  it('a saved snapshot or --root blocks every signal, with the reason', () => {
    const p = plan(snapshotWith([holder()]), { signalling: 'the facts come from a saved snapshot', live: new Map() });
    expect(p.processes[0]!.blocked).toBe('the facts come from a saved snapshot');
  });

  it("ends a zombie's parent, checked like any other target, but never a shell or init", () => {
    const z = holder({ pid: 31, state: 'zombie', orphaned: false, ppid: 30, parentName: 'python3', usedMiB: 2048 });
    const s = snapshotWith([z]);
    const parent: LiveSample = {
      identity: {
        pid: 30,
        startedAt: 1764668000000,
        state: 'sleeping',
        ppid: 5,
        uid: 0,
        comm: 'python3',
        cpuSeconds: 1,
      },
      cpuShare: 0,
    };
    expect(candidatePids(s)).toEqual([30]);
    const p = plan(s, { live: new Map([[30, parent]]) });
    expect(p.processes).toHaveLength(1);
    expect(p.processes[0]).toMatchObject({ pid: 30, parentOf: 31, startedAt: 1764668000000, verdict: 'zombie' });
    expect(p.processes[0]!.blocked).toBeUndefined();

    const shell = snapshotWith([{ ...z, parentName: 'bash' }]);
    const bashLive: LiveSample = { identity: { ...parent.identity!, comm: 'bash' }, cpuShare: 0 };
    expect(plan(shell, { live: new Map([[30, bashLive]]) }).processes[0]!.blocked).toMatch(/bash .* never ends/);
    const byInit = snapshotWith([{ ...z, ppid: 1, orphaned: true, parentName: 'init' }]);
    expect(plan(byInit, { live: new Map() }).processes[0]!.blocked).toMatch(/init/);
  });
});

describe('fix plan: what is never signalled (audit H1, M1, M2, L4, L8)', () => {
  it('a supervisor’s child, a service, a process entered from outside and a PID-1 job are left alone, each with why', () => {
    const s = snapshotWith([
      holder({ pid: 20, ppid: 19, parentName: 'supervisord', parentSid: 417, orphaned: null }),
      holder({
        pid: 21,
        ppid: 1,
        parentName: 'systemd',
        sid: 21,
        parentSid: 1,
        serviceUnit: 'ollama.service',
        orphaned: null,
      }),
      holder({ pid: 22, ppid: 0, parentName: null, orphaned: null }),
      holder({ pid: 1, ppid: 0, parentName: null, orphaned: null }),
      holder({ pid: 23, ppid: 1, parentName: 'process_api', sid: 0, parentSid: 0, orphaned: null }),
    ]);
    const p = plan(s);
    expect(p.processes).toEqual([]);
    const why = new Map(p.leftAlone.map((l) => [l.pid, `${l.verdict}: ${l.why}`]));
    expect(why.get(20)).toMatch(/^unknown: its parent is supervisord \(PID 19\), which may have started it/);
    expect(why.get(21)).toMatch(/^unknown: it runs in the systemd service ollama\.service/);
    expect(why.get(22)).toMatch(/^unknown: its parent is outside this PID namespace/);
    expect(why.get(1)).toMatch(/^unknown: it is PID 1, the init of this PID namespace/);
    expect(why.get(23)).toMatch(/^unknown: its parent is process_api \(PID 1\), which may have started it/);
  });

  it('adoption evidence: a parent that started after the child', () => {
    const h = holder({
      pid: 30,
      ppid: 5,
      parentName: 'my-reaper',
      sid: 29,
      parentSid: 5,
      startTicks: 1000,
      parentStartTicks: 2000,
    });
    const p = plan(snapshotWith([h]));
    expect(p.processes.map((st) => [st.pid, st.verdict])).toEqual([[30, 'orphaned']]);
    // plain words first; the fork evidence beside them
    expect(p.processes[0]!.why).toMatch(/^its parent process has exited: a leftover of a finished job/);
    expect(p.processes[0]!.evidence).toMatch(/its parent my-reaper \(PID 5\) started after it/);
  });

  it("never its own ancestors, even as a zombie's parent (M1)", () => {
    const z = holder({ pid: 31, state: 'zombie', orphaned: false, ppid: 30, parentName: 'python3' });
    const parent: LiveSample = {
      identity: {
        pid: 30,
        startedAt: 1764668000000,
        state: 'sleeping',
        ppid: 5,
        uid: 0,
        comm: 'python3',
        cpuSeconds: 1,
      },
      cpuShare: 0,
    };
    const p = plan(snapshotWith([z]), { live: new Map([[30, parent]]), ancestors: new Set([4242, 30, 5]) });
    expect(p.processes[0]).toMatchObject({ pid: 30, parentOf: 31 });
    expect(p.processes[0]!.blocked).toMatch(/gpu-env-doctor itself or one of its ancestors/);
    // and a GPU holder that is an ancestor (the probe marks it; the live set catches it too)
    const h = holder({ pid: 40 });
    const q = plan(snapshotWith([h]), { ancestors: new Set([40]) });
    expect(q.processes[0]!.blocked).toMatch(/its own caller/);
  });

  it('never a kernel thread or PID 1, nor a listed PID that has no GPU open here (M2, L4)', () => {
    const s = snapshotWith([
      holder({ pid: 2, ppid: 0, name: 'kthreadd', cmdline: [], kernelThread: true, parentName: null }),
      holder({ pid: 50, gpuNotOpenHere: true, holdsDeviceFiles: false, name: 'sleep' }),
    ]);
    const p = plan(s);
    expect(p.processes).toEqual([]);
    expect(p.leftAlone.map((l) => [l.pid, l.why])).toEqual([
      [2, 'it is a kernel thread'],
      [50, expect.stringMatching(/nvidia-smi lists PID 50, but here that PID is sleep with no \/dev\/nvidia\* open/)],
    ]);
    // A zombie's parent is not trusted either when nvidia-smi's PIDs are not this namespace's
    const z = holder({ pid: 31, state: 'zombie', orphaned: false, ppid: 30, parentName: 'python3' });
    const parent: LiveSample = {
      identity: {
        pid: 30,
        startedAt: 1764668000000,
        state: 'sleeping',
        ppid: 5,
        uid: 0,
        comm: 'python3',
        cpuSeconds: 1,
      },
      cpuShare: 0,
    };
    const zp = plan(snapshotWith([z, holder({ pid: 50, gpuNotOpenHere: true })]), { live: new Map([[30, parent]]) });
    expect(zp.processes[0]!.blocked).toMatch(/nvidia-smi's PIDs are not all this PID namespace's/);
    // a kernel thread as a zombie's parent, read live
    const kparent: LiveSample = { identity: { ...parent.identity!, kernelThread: true }, cpuShare: 0 };
    expect(plan(snapshotWith([z]), { live: new Map([[30, kparent]]) }).processes[0]!.blocked).toBe(
      'it is a kernel thread',
    );
  });

  it('planning is linear in processes (L8): 20,000 stale holders with a finding each', () => {
    const list = Array.from({ length: 20000 }, (_, i) => holder({ pid: 1000 + i, usedMiB: 5 }));
    const s = snapshotWith(list.slice(0, 1));
    s.processes.list = list;
    const findings = list.map((h) =>
      finding({
        check: 'memory.holders',
        severity: 'warn',
        status: 'warn',
        rootCause: 'memory_held_by_other_process',
        message: `PID ${h.pid}`,
        affects: { pid: h.pid, gpu: 0 },
      }),
    );
    const lives = new Map<number, LiveSample>(list.map((h) => [h.pid, live(h)]));
    // Quadratic planning took 110 s on this (past the test's time limit); the figures: bench/fix-plan-scale.mjs.
    const p = buildPlan({
      snapshot: s,
      findings,
      live: lives,
      signalling: true,
      force: false,
      envFile: 'gpu-env-doctor.env',
    });
    expect(p.processes).toHaveLength(20000);
    expect(p.coverage.filter((c) => c.by === 'process')).toHaveLength(20000);
  });
});

const allocFinding = (cmd: string, over: Partial<Finding> = {}): Finding =>
  finding({
    check: 'env.allocators',
    severity: 'warn',
    status: 'warn',
    rootCause: 'other',
    message: 'TF_FORCE_GPU_ALLOW_GROWTH="yes" is ignored',
    fix: { text: 'TensorFlow then grabs nearly all GPU memory at start.', commands: [cmd] },
    ...over,
  });

describe('fix plan: settings and printed steps', () => {
  it("writes an allowed export from a finding's fix commands into the env file", () => {
    const p = plan(snapshotWith([]), { findings: [allocFinding('export TF_FORCE_GPU_ALLOW_GROWTH=true')] });
    expect(p.env).toEqual([
      expect.objectContaining({ name: 'TF_FORCE_GPU_ALLOW_GROWTH', value: 'true', check: 'env.allocators' }),
    ]);
    expect(p.manual).toEqual([]);
    expect(p.coverage[0]!.by).toBe('env');
  });

  it('prints, never writes, settings that change what runs (LD_LIBRARY_PATH) or values outside the allowed ones', () => {
    const ld = allocFinding('export LD_LIBRARY_PATH=/opt/cuda/lib64', {
      check: 'env.library-path',
      message: 'LD_LIBRARY_PATH shadows the wheel cuDNN',
    });
    const odd = allocFinding('export TF_FORCE_GPU_ALLOW_GROWTH=$(rm -rf ~)');
    const p = plan(snapshotWith([]), { findings: [ld, odd] });
    expect(p.env).toEqual([]);
    expect(p.manual.map((m) => m.commands)).toEqual([
      ['export LD_LIBRARY_PATH=/opt/cuda/lib64'],
      ['export TF_FORCE_GPU_ALLOW_GROWTH=$(rm -rf ~)'],
    ]);
  });

  it("uses the root cause's remedy when the finding names none: preallocation per framework, fragmentation", () => {
    const pre = (framework?: string): Finding =>
      finding({
        check: 'x.prealloc',
        severity: 'error',
        status: 'fail',
        rootCause: 'framework_preallocation',
        message: 'preallocates',
        ...(framework ? { affects: { framework } } : {}),
        fix: { text: 't', commands: [] },
      });
    expect(plan(snapshotWith([]), { findings: [pre('tensorflow')] }).env.map((e) => `${e.name}=${e.value}`)).toEqual([
      'TF_FORCE_GPU_ALLOW_GROWTH=true',
    ]);
    expect(plan(snapshotWith([]), { findings: [pre('jax')] }).env.map((e) => `${e.name}=${e.value}`)).toEqual([
      'XLA_PYTHON_CLIENT_PREALLOCATE=false',
    ]);
    expect(plan(snapshotWith([]), { findings: [pre()] }).env.map((e) => e.name)).toEqual([
      'TF_FORCE_GPU_ALLOW_GROWTH',
      'XLA_PYTHON_CLIENT_PREALLOCATE',
    ]);
    const frag = finding({
      check: 'x.frag',
      severity: 'warn',
      status: 'warn',
      rootCause: 'allocator_fragmentation',
      message: 'fragmented',
    });
    expect(plan(snapshotWith([]), { findings: [frag] }).env.map((e) => `${e.name}=${e.value}`)).toEqual([
      'PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True',
    ]);
  });

  it('keeps the first value when two findings want different ones, and reports the conflict', () => {
    const a = allocFinding('export XLA_PYTHON_CLIENT_MEM_FRACTION=.50');
    const b = allocFinding('export XLA_PYTHON_CLIENT_MEM_FRACTION=.30', { check: 'other.check' });
    const p = plan(snapshotWith([]), { findings: [a, b] });
    expect(p.env.map((e) => e.value)).toEqual(['.50']);
    expect(p.envConflicts.map((e) => e.check)).toEqual(['other.check']);
  });

  it('shows installs and driver steps for the user, and ignores ok/info findings', () => {
    const drv = finding({
      check: 'gpu.driver',
      severity: 'error',
      status: 'fail',
      rootCause: 'hardware_or_driver_fault',
      message: 'reboot needed',
      fix: { text: 'Reboot.', commands: [], manual: ['sudo reboot'] },
    });
    const ok = finding({ check: 'gpu.presence', severity: 'info', status: 'ok', rootCause: null, message: 'fine' });
    const p = plan(snapshotWith([]), { findings: [drv, ok] });
    expect(p.manual).toEqual([
      {
        check: 'gpu.driver',
        severity: 'error',
        message: 'reboot needed',
        text: 'Reboot.',
        commands: [],
        manual: ['sudo reboot'],
      },
    ]);
    expect(p.coverage.map((c) => c.finding.check)).toEqual(['gpu.driver']);
  });

  it('a memory finding about a stale PID is answered by ending it; one about an active PID stays for the user', () => {
    const stale = holder();
    const active = holder({ pid: 800, orphaned: false, ppid: 700, parentName: 'bash' });
    const f = (pid: number): Finding =>
      finding({
        check: 'memory.holders',
        severity: 'warn',
        status: 'warn',
        rootCause: 'memory_held_by_other_process',
        message: `PID ${pid} holds`,
        affects: { pid, gpu: 0 },
        fix: { text: 'end it', commands: ['ps'], manual: [`kill ${pid}`] },
      });
    const p = plan(snapshotWith([stale, active]), { findings: [f(694), f(800)] });
    expect(p.coverage.map((c) => [c.finding.message, c.by])).toEqual([
      ['PID 694 holds', 'process'],
      ['PID 800 holds', 'manual'],
    ]);
    // memory.headroom names the biggest holder; ending it does not free the GPU while the active one stays
    const head = finding({
      check: 'memory.headroom',
      severity: 'error',
      status: 'fail',
      rootCause: 'memory_held_by_other_process',
      message: 'only 300 MiB free',
      affects: { gpu: 0, pid: 694 },
    });
    expect(plan(snapshotWith([stale, active]), { findings: [head] }).coverage[0]!.by).toBe('manual');
    expect(plan(snapshotWith([stale]), { findings: [head] }).coverage[0]!.by).toBe('process');
  });
});

describe('fix plan: the clean rebuild', () => {
  const mix = (libs: string): Finding =>
    finding({
      check: 'python.conda-pip-mix',
      severity: 'error',
      status: 'fail',
      rootCause: 'cudnn_version_mismatch',
      message: `conda env "train" has ${libs} from both conda and pip`,
      evidence: [
        {
          text: 'nvidia-cudnn-cu12 9.1.0 installed by pip',
          source: '/opt/conda/envs/train/lib/python3.11/site-packages/nvidia_cudnn_cu12-9.1.0.dist-info',
        },
      ],
      affects: { library: libs, framework: 'torch' },
      fix: {
        text: 'Keep one package manager',
        commands: ['gpu-env-doctor libs'],
        manual: ['pip uninstall -y nvidia-cudnn-cu12'],
      },
    });

  it('two libraries from both conda and pip: the plan is the rebuild, with the torch build this driver (CUDA 13.0) runs', () => {
    const s = { ...snapshotWith([]), env: { CONDA_PREFIX: '/opt/conda/envs/train' } };
    const p = plan(s, { findings: [mix('cuDNN, cuBLAS')] });
    expect(p.rebuild).not.toBeNull();
    expect(p.manual).toEqual([]);
    expect(p.rebuild!.commands).toEqual([
      'conda env export > env-backup.yml',
      'pip freeze > requirements-backup.txt',
      'conda deactivate',
      'python3 -m venv ~/.venvs/gpu-clean',
      '. ~/.venvs/gpu-clean/bin/activate',
      'python -m pip install --upgrade pip',
      'pip install torch --index-url https://download.pytorch.org/whl/cu130',
      'gpu-env-doctor check --deep',
    ]);
  });

  it('one conflicting library is a simple repair: its own fix is shown, no rebuild', () => {
    const p = plan(snapshotWith([]), { findings: [mix('cuDNN')] });
    expect(p.rebuild).toBeNull();
    expect(p.manual[0]!.manual).toEqual(['pip uninstall -y nvidia-cudnn-cu12']);
  });
});
