// The checks of the foundation, over real H200 snapshots with planted problems.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../src/judge/checks/index.js';
import { runChecks } from '../../src/judge/checks/run-checks.js';
import type { Check } from '../../src/judge/checks/check.js';
import { driverCheck } from '../../src/judge/checks/gpu/driver.js';
import { healthCheck } from '../../src/judge/checks/gpu/health.js';
import { presenceCheck } from '../../src/judge/checks/gpu/presence.js';
import { headroomCheck } from '../../src/judge/checks/memory/headroom.js';
import { holdersCheck } from '../../src/judge/checks/memory/holders.js';
import { unattributedCheck } from '../../src/judge/checks/memory/unattributed.js';
import { allocatorsCheck, parseTorchAllocConf } from '../../src/judge/checks/env/allocators.js';
import { debugVarsCheck } from '../../src/judge/checks/env/debug-vars.js';
import { libraryPathCheck } from '../../src/judge/checks/env/library-path.js';
import { interpretVisibleDevices, visibleDevicesCheck } from '../../src/judge/checks/env/visible-devices.js';
import { platformCheck } from '../../src/judge/checks/system/platform.js';
import type { Snapshot } from '../../src/gather/snapshot/schema.js';
import { exitCodeFor } from '../../src/judge/result.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { buildReportModel } from '../../src/report/model.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderHtml } from '../../src/report/html/render.js';
import { gpus, planted, realSnapshot } from '../helpers/snapshots.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

const problems = (c: Check, s: Snapshot) => c.evaluate(s).filter((f) => f.status !== 'ok');

describe('every check on the real idle H200', () => {
  it('finds no problem', () => {
    const all = runChecks(ALL_CHECKS, realSnapshot('h200-idle')).flatMap((r) => r.findings);
    expect(all.filter((f) => f.severity !== 'info').map((f) => f.message)).toEqual([]);
    expect(all.some((f) => f.status === 'crash')).toBe(false);
  });
  it('check ids are unique and dotted', () => {
    const ids = ALL_CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+\.[a-z0-9-]+$/);
  });
});

describe('a check that throws', () => {
  it('becomes a crash finding, not a crashed run', () => {
    const bad: Check = {
      id: 'test.boom',
      category: 'system',
      title: 'Boom',
      evaluate: () => {
        throw new Error('kaput');
      },
    };
    const [r] = runChecks([bad], realSnapshot('h200-idle'));
    expect(r!.findings[0]).toMatchObject({ check: 'test.boom', status: 'crash', severity: 'warn' });
    expect(r!.findings[0]!.message).toMatch(/kaput/);
  });
});

describe('no GPU visible at all: never a false green (issue 16.1)', () => {
  const categoryOf = (id: string) => ALL_CHECKS.find((c) => c.id === id)?.category ?? 'system';
  const noGpu = (edit: (x: Snapshot) => void) =>
    planted('h200-idle', (x) => {
      x.nvidia = { ok: false, failure: { reason: 'not-installed', message: 'nvidia-smi was not found on PATH' } };
      x.system.kernelModule = null;
      x.system.nvidiaDevices = [];
      x.processes.list = [];
      edit(x);
    });
  const noFrameworks = (x: Snapshot) => {
    for (const e of x.python?.environments ?? []) e.frameworks = [];
  };
  const all = (s: Snapshot) => runChecks(ALL_CHECKS, s).flatMap((r) => r.findings);
  it('in a container, without CUDA frameworks: a warning that says how to start it with the GPUs', () => {
    const s = noGpu((x) => {
      x.system.container = { kind: 'docker', evidence: ['/.dockerenv exists'] };
      noFrameworks(x);
    });
    const [f] = problems(driverCheck, s);
    expect(f).toMatchObject({ severity: 'warn', status: 'warn', rootCause: 'no_device_visible' });
    expect(f!.fix!.text).toMatch(/--gpus all.*NVIDIA Container Toolkit|--gpus all.*--runtime=nvidia/);
  });
  it('in a container with a CUDA build of torch installed: an error, exit 1', () => {
    // the Python section of the full example snapshot: torch 2.11.0+cu130 and jax with CUDA 13
    const python = (
      JSON.parse(
        fs.readFileSync(path.resolve(__dirname, '../../examples/snapshots/h200-idle.json'), 'utf8'),
      ) as Snapshot
    ).python;
    const s = noGpu((x) => {
      x.system.container = { kind: 'docker', evidence: ['/.dockerenv exists'] };
      x.python = python;
    });
    const [f] = problems(driverCheck, s);
    expect(f).toMatchObject({ severity: 'error', status: 'fail' });
    expect(f!.message).toMatch(/torch 2\.11\.0\+cu130.*CUDA builds/);
    expect(exitCodeFor(all(s), 'error')).toBe(1);
  });
  it('a laptop with neither: skipped, and no output draws it as a pass', () => {
    const s = noGpu((x) => {
      x.system.container = { kind: 'none', evidence: [] };
      noFrameworks(x);
    });
    const findings = all(s);
    expect(findings.find((f) => f.check === 'gpu.driver')!.status).toBe('skip');
    const text = renderTerminal(wordsFor(getLang()), s, findings, {
      color: false,
      verbose: false,
      threshold: 'error',
      categoryOf,
      width: 200,
    });
    const summary = text.trimEnd().split('\n').pop()!;
    expect(summary).toMatch(/^- 0 errors, 0 warnings · no GPU visible/);
    expect(text).not.toMatch(/^✓ /m);
    expect(text).toMatch(/^\[-\] GPU & driver/m);
    const model = buildReportModel(wordsFor(getLang()), {
      kind: 'check',
      generatedAt: 'now',
      tool: { name: 'gpu-env-doctor', version: '0' },
      snapshot: s,
      findings,
      categoryOf,
    });
    expect(model.verdict.mark).toBe('skip');
    const md = renderMarkdown(wordsFor(getLang()), model);
    expect(md).not.toContain('No problems found');
    expect(md).toMatch(/\*\*- No GPU visible/);
    const html = renderHtml(wordsFor(getLang()), model);
    expect(html).not.toMatch(/class="mark ok"[^<]*<\/span> No NVIDIA GPU/);
    expect(html).toMatch(/class="mark skip"[^>]*>-<\/span> No NVIDIA GPU/);
  });
});

describe('gpu.driver', () => {
  it('kernel module and user-space driver differ: driver changed without a reboot', () => {
    const s = planted('h200-idle', (x) => {
      x.system.kernelModule = {
        version: '570.86.15',
        line: 'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  Release Build',
      };
    });
    const [f] = problems(driverCheck, s);
    expect(f).toMatchObject({ severity: 'error', rootCause: 'hardware_or_driver_fault' });
    expect(f!.message).toMatch(/570\.86\.15.*580\.159\.04.*without a reboot/);
  });
  it('no nvidia-smi but /dev/nvidia0 in a container: the runtime is missing', () => {
    const s = planted('h200-idle', (x) => {
      x.nvidia = { ok: false, failure: { reason: 'not-installed', message: 'nvidia-smi was not found on PATH' } };
      x.system.kernelModule = null;
      x.system.nvidiaDevices = ['/dev/nvidia0'];
    });
    const [f] = problems(driverCheck, s);
    expect(f).toMatchObject({ severity: 'error', rootCause: 'no_device_visible' });
    expect(f!.fix!.text).toMatch(/--gpus all/);
  });
});

describe('gpu.presence', () => {
  it('no GPU listed', () => {
    const s = planted('h200-idle', (x) => {
      if (x.nvidia.ok) x.nvidia.gpus = [];
    });
    expect(problems(presenceCheck, s)[0]).toMatchObject({ rootCause: 'no_device_visible', severity: 'error' });
  });
  it('MIG mode and Prohibited compute mode', () => {
    const s = planted('h200-idle', (x) => {
      gpus(x)[0]!.migMode = 'Enabled';
      gpus(x)[0]!.computeMode = 'Prohibited';
    });
    expect(problems(presenceCheck, s).map((f) => f.message)).toEqual([
      expect.stringMatching(/MIG mode/),
      expect.stringMatching(/Prohibited/),
    ]);
  });
});

describe('gpu.health', () => {
  it('uncorrectable ECC errors and a failed row remapping', () => {
    const s = planted('h200-idle', (x) => {
      gpus(x)[0]!.ecc.volatileUncorrected = 3;
      gpus(x)[0]!.remappedRows.failure = 'Yes';
    });
    const [f] = problems(healthCheck, s);
    expect(f).toMatchObject({ severity: 'error', rootCause: 'hardware_or_driver_fault' });
    expect(f!.message).toMatch(/3 uncorrectable ECC errors.*run out of spare rows/);
    expect(f!.fix!.manual).toEqual(['sudo nvidia-smi -r -i 0']);
  });
  it('lifetime errors alone are information', () => {
    const s = planted('h200-idle', (x) => {
      gpus(x)[0]!.ecc.aggregateUncorrected = 2;
    });
    expect(problems(healthCheck, s)).toEqual([]);
  });
});

describe('memory checks on the real snapshot with hog.py holding 138.6 GiB', () => {
  const s = realSnapshot('h200-memory-held');
  it('headroom: one warning naming the holder with its verdict; an unknown holder gets the kill by hand, not fix', () => {
    const [f] = problems(headroomCheck, s);
    // 1.2 GiB free: small jobs still start (a tiny conv ran with less on the H200), so a warning, not an error
    expect(f).toMatchObject({
      severity: 'warn',
      rootCause: 'memory_held_by_other_process',
      affects: { gpu: 0, pid: 589 },
    });
    expect(f!.message).toMatch(/a job that needs more fails with out of memory/);
    // The snapshot predates the session facts: whether process_api (PID 1) started the hog or adopted it cannot
    // be told, so the holder is "unknown": named, with the kill to judge by hand, and no gpu-env-doctor fix.
    expect(f!.evidence.map((e) => e.text)).toContainEqual(
      expect.stringMatching(
        /^PID 589 python3 \(root\) holds 138\.6 GiB: unknown, its parent is process_api \(PID 1\), which may have started it.*running for .*hog\.py/,
      ),
    );
    expect(f!.fix!.commands).toEqual(['ps -o pid,ppid,user,etime,stat,cmd -p 589']);
    expect(f!.fix!.text).toMatch(/Nothing shows that PID 589 is a leftover, so gpu-env-doctor fix leaves it alone/);
    expect(f!.fix!.manual).toEqual(['kill 589']);
  });
  it('one cause, one finding: memory.holders leaves the holders of a GPU that is short to memory.headroom', () => {
    expect(problems(holdersCheck, s)).toEqual([]);
  });
  // The holders check speaks of holders on a GPU that still has room (a stale 4 GiB holder on a 140 GiB GPU).
  const roomy = (edit: (x: Snapshot) => void = () => undefined) =>
    planted('h200-memory-held', (x) => {
      gpus(x)[0]!.memory.freeMiB = 100000;
      edit(x);
    });
  it('holders: a process under PID 1 without evidence of adoption is "unknown", with the kill to judge by hand', () => {
    const [f] = problems(holdersCheck, roomy());
    expect(f!.message).toMatch(
      /PID 589 \(root\) holds 138\.6 GiB on GPU 0: its parent is process_api \(PID 1\), which may have started it/,
    );
    expect(f!.message).not.toMatch(/its parent is gone/);
    expect(f!.fix!.text).toMatch(/fix leaves it alone/);
    expect(f!.fix!.manual).toEqual(['kill 589']);
    expect(f!.fix!.commands).toEqual(['ps -o pid,ppid,user,etime,stat,cmd -p 589']);
  });
  it('holders: an orphan (its session is not its parent’s) with its age, command and the kill to copy by hand', () => {
    const orphan = roomy(
      (x) =>
        void Object.assign(x.processes.list[0]!, { sid: 417, parentSid: 0, startTicks: 7986, parentStartTicks: 3 }),
    );
    const [f] = problems(holdersCheck, orphan);
    expect(f!.message).toMatch(
      /PID 589 \(root\) holds 138\.6 GiB on GPU 0: its parent process has exited: a leftover of a finished job/,
    );
    expect(f!.fix!.manual).toEqual(['kill 589']);
  });
  it('holders: a stopped job, another user, a busy own job', () => {
    const stopped = roomy((x) => {
      x.processes.list[0]!.orphaned = false;
      x.processes.list[0]!.state = 'stopped';
    });
    expect(problems(holdersCheck, stopped)[0]!.fix!.manual).toEqual(['kill -CONT 589; kill 589']);
    const other = roomy((x) => {
      Object.assign(x.processes.list[0]!, { orphaned: false, ppid: 500, parentName: 'bash', uid: 1001, user: 'bob' });
    });
    expect(problems(holdersCheck, other)[0]!.message).toMatch(/belongs to another user \(bob\)/);
    expect(problems(holdersCheck, other)[0]!.fix!.manual).toBeUndefined();
    const busy = roomy((x) => {
      Object.assign(x.processes.list[0]!, { orphaned: false, ppid: 500, parentName: 'bash' });
    });
    expect(problems(holdersCheck, busy)).toEqual([]);
  });
  // an orphan (its session is not its parent's, and the parent started after it): what fix may end
  const adopted = { sid: 417, parentSid: 0, startTicks: 7986, parentStartTicks: 3 };
  it('headroom below the floor of a CUDA context (~512 MiB) is an error: no GPU job can start', () => {
    const full = planted('h200-memory-held', (x) => {
      gpus(x)[0]!.memory.freeMiB = 300;
    });
    const [f] = problems(headroomCheck, full);
    expect(f).toMatchObject({ severity: 'error' });
    expect(f!.message).toMatch(/300 MiB free .*no GPU job can start on it/);
  });
  it('headroom with an orphaned holder leads with gpu-env-doctor fix and the kill by hand', () => {
    const orphan = planted('h200-memory-held', (x) => void Object.assign(x.processes.list[0]!, adopted));
    const [f] = problems(headroomCheck, orphan);
    expect(f!.fix!.commands).toEqual(['gpu-env-doctor fix']);
    expect(f!.fix!.text).toMatch(/The holder is a leftover \(orphaned\)/);
    expect(f!.fix!.manual).toEqual(['kill 589']);
  });
  it('headroom below the floor is only a warning when another GPU has room, and names it by UUID', () => {
    const two = planted('h200-memory-held', (x) => {
      Object.assign(x.processes.list[0]!, adopted);
      gpus(x)[0]!.memory.freeMiB = 300;
      const g = structuredClone(gpus(x)[0]!);
      Object.assign(g, {
        index: 1,
        uuid: 'GPU-11111111-2222-3333-4444-555555555555',
        processes: [],
        memory: { ...g.memory, usedMiB: 0, freeMiB: 143156 },
      });
      gpus(x).push(g);
    });
    const [f] = problems(headroomCheck, two);
    expect(f!.severity).toBe('warn');
    expect(f!.fix!.commands.slice(0, 2)).toEqual([
      'gpu-env-doctor fix',
      'export CUDA_VISIBLE_DEVICES=GPU-11111111-2222-3333-4444-555555555555',
    ]);
  });
  it('headroom with a holder that is working: no gpu-env-doctor fix (it would end nothing), ps to look at it', () => {
    const busy = planted('h200-memory-held', (x) => {
      Object.assign(x.processes.list[0]!, { orphaned: false, ppid: 500, parentName: 'bash', recentCpuPercent: 95 });
    });
    const [f] = problems(headroomCheck, busy);
    expect(f!.fix!.commands).toEqual(['ps -o pid,ppid,user,etime,stat,cmd -p 589']);
    expect(f!.fix!.manual).toBeUndefined();
  });
  it('unattributed: memory in use with no process listed (another container)', () => {
    const s2 = planted('h200-memory-held', (x) => {
      gpus(x)[0]!.processes = [];
      x.processes.list = [];
    });
    const [f] = problems(unattributedCheck, s2);
    expect(f!.message).toMatch(/138\.6 GiB in use that no listed process accounts for/);
    const inv = planted('h200-memory-held', (x) => {
      x.processes.list[0]!.visible = false;
    });
    expect(problems(unattributedCheck, inv)[0]!.message).toMatch(/PID 589 .* not in this \/proc/);
  });
});

describe('CUDA_VISIBLE_DEVICES as CUDA reads it', () => {
  const two = planted('h200-idle', (x) => {
    const g = structuredClone(gpus(x)[0]!);
    Object.assign(g, { index: 1, uuid: 'GPU-aaaa', name: 'NVIDIA A100-SXM4-80GB', computeCapability: '8.0' });
    gpus(x).push(g);
  });
  const g2 = gpus(two);
  it.each([
    [undefined, undefined, [0, 1], null],
    ['', undefined, [], /hides every GPU/],
    ['-1', undefined, [], /hides every GPU/],
    ['1', undefined, [1], null],
    ['1,0', 'PCI_BUS_ID', [1, 0], null],
    ['0,7,1', 'PCI_BUS_ID', [0], /"7" .* ignores it and everything after it/],
    ['5', undefined, [], /no GPU is visible/],
    ['GPU-aaaa', undefined, [1], null],
    ['GPU-', undefined, [], /names no GPU/], // an ambiguous prefix
  ])('%j (order %s) → physical %j', (value, order, physical, problem) => {
    const v = interpretVisibleDevices(value, g2, order);
    expect(v.physical).toEqual(physical);
    if (problem) expect(v.problem).toMatch(problem);
    else expect(v.problem).toBeNull();
  });
  it("the job's GPU 0 is the physical GPU 1, and the report says so", () => {
    const s = planted('h200-idle', (x) => {
      x.nvidia = two.nvidia;
      x.env.CUDA_VISIBLE_DEVICES = '1';
      x.env.CUDA_DEVICE_ORDER = 'PCI_BUS_ID';
    });
    const fs = visibleDevicesCheck.evaluate(s);
    expect(fs.map((f) => f.message)).toContainEqual(expect.stringMatching(/its GPU 0 = physical GPU 1 \(NVIDIA A100/));
  });
  it('mixed GPUs with indexes and the default order: warns that CUDA counts fastest first', () => {
    const s = planted('h200-idle', (x) => {
      x.nvidia = two.nvidia;
      x.env.CUDA_VISIBLE_DEVICES = '0';
    });
    expect(problems(visibleDevicesCheck, s).map((f) => f.fix?.commands[0])).toContain(
      'export CUDA_DEVICE_ORDER=PCI_BUS_ID',
    );
  });
  it('an empty CUDA_VISIBLE_DEVICES is an error with the fix', () => {
    const s = planted('h200-idle', (x) => {
      x.env.CUDA_VISIBLE_DEVICES = '';
    });
    expect(problems(visibleDevicesCheck, s)[0]).toMatchObject({ severity: 'error', rootCause: 'no_device_visible' });
  });
});

describe('allocator variables', () => {
  it.each([
    [{ TF_FORCE_GPU_ALLOW_GROWTH: 'True' }, /reads only "true" or "false"/],
    [{ XLA_PYTHON_CLIENT_MEM_FRACTION: '75' }, /more than the whole GPU: the preallocation fails and steps down/],
    [{ XLA_PYTHON_CLIENT_PREALLOCATE: 'no' }, /keeps preallocation on/],
    [
      { PYTORCH_CUDA_ALLOC_CONF: 'expandable_segment:True' },
      /PyTorch fails at the first CUDA call: PYTORCH_CUDA_ALLOC_CONF — "expandable_segment" is not an option PyTorch knows/,
    ],
    [
      { PYTORCH_CUDA_ALLOC_CONF: 'max_split_size_mb:128', PYTORCH_ALLOC_CONF: 'expandable_segments:True' },
      /Both PYTORCH_ALLOC_CONF and PYTORCH_CUDA_ALLOC_CONF/,
    ],
  ])('%j is flagged', (vars, message) => {
    const s = planted('h200-idle', (x) => Object.assign(x.env, vars));
    expect(
      problems(allocatorsCheck, s)
        .map((f) => f.message)
        .join('\n'),
    ).toMatch(message);
  });
  it('valid settings are summarised, not flagged', () => {
    const s = planted('h200-idle', (x) =>
      Object.assign(x.env, {
        TF_FORCE_GPU_ALLOW_GROWTH: 'true',
        XLA_PYTHON_CLIENT_PREALLOCATE: 'false',
        PYTORCH_CUDA_ALLOC_CONF: 'expandable_segments:True,roundup_power2_divisions:[256:1,512:2,>:8]',
      }),
    );
    const fs = allocatorsCheck.evaluate(s);
    expect(fs).toHaveLength(1);
    expect(fs[0]!.message).toMatch(
      /TensorFlow grows memory on demand; JAX does not preallocate; PyTorch allocator: expandable_segments:True/,
    );
  });
  it('parses PyTorch options with bracketed lists', () => {
    expect([
      ...parseTorchAllocConf('roundup_power2_divisions:[256:1,512:2],max_split_size_mb:64').options.keys(),
    ]).toEqual(['roundup_power2_divisions', 'max_split_size_mb']);
  });
});

describe('library path and debug variables', () => {
  it('a forward-compat libcuda on LD_LIBRARY_PATH, with the value that removes it', () => {
    const s = planted('h200-idle', (x) => {
      x.env.LD_LIBRARY_PATH = '/usr/local/cuda-13.0/compat:/usr/local/nvidia/lib64';
    });
    const [f] = problems(libraryPathCheck, s);
    expect(f!.message).toMatch(/forward-compatibility libcuda/);
    expect(f!.fix!.commands).toEqual(['export LD_LIBRARY_PATH=/usr/local/nvidia/lib64']);
  });
  it('LD_PRELOAD of a cuDNN', () => {
    const s = planted('h200-idle', (x) => {
      x.env.LD_PRELOAD = '/tmp/libcudnn.so.9';
    });
    expect(problems(libraryPathCheck, s)[0]).toMatchObject({ rootCause: 'library_conflict' });
  });
  it('CUDA_LAUNCH_BLOCKING=1', () => {
    const s = planted('h200-idle', (x) => {
      x.env.CUDA_LAUNCH_BLOCKING = '1';
    });
    expect(problems(debugVarsCheck, s)[0]!.fix!.commands).toEqual(['unset CUDA_LAUNCH_BLOCKING']);
  });
});

describe('system.platform', () => {
  it('describes the real machine', () => {
    expect(platformCheck.evaluate(realSnapshot('h200-idle'))[0]!.message).toMatch(
      /Ubuntu 24\.04.*in a docker container, NVIDIA kernel module 580\.159\.04/,
    );
  });
});
