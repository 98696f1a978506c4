import { describe, expect, it } from 'vitest';
import { finding, type Finding } from '../../src/core/finding.js';
import { buildPlan, candidatePids, type LiveSample, type PlanInput } from '../../src/fix/plan.js';
import type { LiveIdentity } from '../../src/fix/identity.js';
import type { HolderProcess, Snapshot } from '../../src/snapshot/schema.js';
import { holder, snapshotWith } from './helpers.js';

const live = (p: HolderProcess, over: Partial<LiveIdentity> = {}, cpuShare: number | null = 0): LiveSample => ({
  identity: { pid: p.pid, startedAt: p.startedAt, state: p.state ?? 'sleeping', ppid: p.ppid ?? 1, uid: p.uid, comm: p.name ?? '?', cpuSeconds: p.cpuSeconds ?? 0, ...over },
  cpuShare,
});

function plan(s: Snapshot, o: Partial<PlanInput> = {}) {
  const lives = new Map<number, LiveSample>(s.processes.list.map((p) => [p.pid, live(p)]));
  return buildPlan({ snapshot: s, findings: [], live: lives, signalling: true, force: false, envFile: 'gpu-env-doctor.env', ...o });
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

  it('plans stopped and long-idle holders, but not processes that only hold a device file', () => {
    const s = snapshotWith([
      holder({ pid: 10, state: 'stopped', orphaned: false, ppid: 9, parentName: 'bash' }),
      holder({ pid: 11, orphaned: false, ppid: 9, parentName: 'bash', ageSeconds: 7200, cpuSeconds: 3 }),
      holder({ pid: 12, listedByNvidiaSmi: false, usedMiB: null, gpus: [] }),
    ]);
    const p = plan(s);
    expect(p.processes.map((st) => [st.pid, st.verdict])).toEqual([
      [10, 'stopped'],
      [11, 'idle'],
    ]);
    expect(candidatePids(s).sort()).toEqual([10, 11]);
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
    const parent: LiveSample = { identity: { pid: 30, startedAt: 1764668000000, state: 'sleeping', ppid: 5, uid: 0, comm: 'python3', cpuSeconds: 1 }, cpuShare: 0 };
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
    expect(p.env).toEqual([expect.objectContaining({ name: 'TF_FORCE_GPU_ALLOW_GROWTH', value: 'true', check: 'env.allocators' })]);
    expect(p.manual).toEqual([]);
    expect(p.coverage[0]!.by).toBe('env');
  });

  it('prints, never writes, settings that change what runs (LD_LIBRARY_PATH) or values outside the allowed ones', () => {
    const ld = allocFinding('export LD_LIBRARY_PATH=/opt/cuda/lib64', { check: 'env.library-path', message: 'LD_LIBRARY_PATH shadows the wheel cuDNN' });
    const odd = allocFinding('export TF_FORCE_GPU_ALLOW_GROWTH=$(rm -rf ~)');
    const p = plan(snapshotWith([]), { findings: [ld, odd] });
    expect(p.env).toEqual([]);
    expect(p.manual.map((m) => m.commands)).toEqual([['export LD_LIBRARY_PATH=/opt/cuda/lib64'], ['export TF_FORCE_GPU_ALLOW_GROWTH=$(rm -rf ~)']]);
  });

  it("uses the root cause's remedy when the finding names none: preallocation per framework, fragmentation", () => {
    const pre = (framework?: string): Finding =>
      finding({ check: 'x.prealloc', severity: 'error', status: 'fail', rootCause: 'framework_preallocation', message: 'preallocates', ...(framework ? { affects: { framework } } : {}), fix: { text: 't', commands: [] } });
    expect(plan(snapshotWith([]), { findings: [pre('tensorflow')] }).env.map((e) => `${e.name}=${e.value}`)).toEqual(['TF_FORCE_GPU_ALLOW_GROWTH=true']);
    expect(plan(snapshotWith([]), { findings: [pre('jax')] }).env.map((e) => `${e.name}=${e.value}`)).toEqual(['XLA_PYTHON_CLIENT_PREALLOCATE=false']);
    expect(plan(snapshotWith([]), { findings: [pre()] }).env.map((e) => e.name)).toEqual(['TF_FORCE_GPU_ALLOW_GROWTH', 'XLA_PYTHON_CLIENT_PREALLOCATE']);
    const frag = finding({ check: 'x.frag', severity: 'warn', status: 'warn', rootCause: 'allocator_fragmentation', message: 'fragmented' });
    expect(plan(snapshotWith([]), { findings: [frag] }).env.map((e) => `${e.name}=${e.value}`)).toEqual(['PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True']);
  });

  it('keeps the first value when two findings want different ones, and reports the conflict', () => {
    const a = allocFinding('export XLA_PYTHON_CLIENT_MEM_FRACTION=.50');
    const b = allocFinding('export XLA_PYTHON_CLIENT_MEM_FRACTION=.30', { check: 'other.check' });
    const p = plan(snapshotWith([]), { findings: [a, b] });
    expect(p.env.map((e) => e.value)).toEqual(['.50']);
    expect(p.envConflicts.map((e) => e.check)).toEqual(['other.check']);
  });

  it('shows installs and driver steps for the user, and ignores ok/info findings', () => {
    const drv = finding({ check: 'gpu.driver', severity: 'error', status: 'fail', rootCause: 'hardware_or_driver_fault', message: 'reboot needed', fix: { text: 'Reboot.', commands: [], manual: ['sudo reboot'] } });
    const ok = finding({ check: 'gpu.presence', severity: 'info', status: 'ok', rootCause: null, message: 'fine' });
    const p = plan(snapshotWith([]), { findings: [drv, ok] });
    expect(p.manual).toEqual([{ check: 'gpu.driver', severity: 'error', message: 'reboot needed', text: 'Reboot.', commands: [], manual: ['sudo reboot'] }]);
    expect(p.coverage.map((c) => c.finding.check)).toEqual(['gpu.driver']);
  });

  it('a memory finding about a stale PID is answered by ending it; one about an active PID stays for the user', () => {
    const stale = holder();
    const active = holder({ pid: 800, orphaned: false, ppid: 700, parentName: 'bash' });
    const f = (pid: number): Finding =>
      finding({ check: 'memory.holders', severity: 'warn', status: 'warn', rootCause: 'memory_held_by_other_process', message: `PID ${pid} holds`, affects: { pid, gpu: 0 }, fix: { text: 'end it', commands: ['ps'], manual: [`kill ${pid}`] } });
    const p = plan(snapshotWith([stale, active]), { findings: [f(694), f(800)] });
    expect(p.coverage.map((c) => [c.finding.message, c.by])).toEqual([
      ['PID 694 holds', 'process'],
      ['PID 800 holds', 'manual'],
    ]);
    // memory.headroom names the biggest holder; ending it does not free the GPU while the active one stays
    const head = finding({ check: 'memory.headroom', severity: 'error', status: 'fail', rootCause: 'memory_held_by_other_process', message: 'only 300 MiB free', affects: { gpu: 0, pid: 694 } });
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
      evidence: [{ text: 'nvidia-cudnn-cu12 9.1.0 installed by pip', source: '/opt/conda/envs/train/lib/python3.11/site-packages/nvidia_cudnn_cu12-9.1.0.dist-info' }],
      affects: { library: libs, framework: 'torch' },
      fix: { text: 'Keep one package manager', commands: ['gpu-env-doctor libs'], manual: ['pip uninstall -y nvidia-cudnn-cu12'] },
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
