// Which framework a GPU-memory holder runs, read from its real /proc/PID/maps (a JAX and a PyTorch holder on the
// H200), its memory policy, and where that shows: check, procs, procs --json, explain with the machine.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../src/judge/checks/index.js';
import { runChecks } from '../../src/judge/checks/run-checks.js';
import { explainText } from '../../src/judge/explain/engine.js';
import { parseMaps } from '../../src/gather/libraries/maps.js';
import { frameworkFromMaps, holderPolicy, policyEnv } from '../../src/gather/procfs/framework.js';
import { procRows, procsJson, renderProcs } from '../../src/report/views/procs.js';
import { buildReportModel } from '../../src/report/model.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';
import { HOLDERS, holdersSnapshot, JAX_PID, TORCH_PID } from '../helpers/holders.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

const maps = (pid: number) => parseMaps(fs.readFileSync(path.join(HOLDERS, `maps-${pid}.txt`), 'utf8'));

describe('the framework from /proc/PID/maps', () => {
  it('the JAX holder: its CUDA plugin and jaxlib are mapped', () => {
    const fw = frameworkFromMaps(maps(JAX_PID))!;
    expect(fw.name).toBe('jax');
    expect(fw.evidence).toContain('jax_plugins/xla_cuda13/xla_cuda_plugin.so');
    expect(fw.also).toBeUndefined();
    expect(fw.env).toBeNull();
  });
  it('the PyTorch holder: libtorch_cuda.so and libc10_cuda.so', () => {
    const fw = frameworkFromMaps(maps(TORCH_PID))!;
    expect(fw.name).toBe('torch');
    expect([...fw.evidence].sort()).toEqual(['torch/lib/libc10_cuda.so', 'torch/lib/libtorch_cuda.so']);
  });
  it('a process with no framework mapped (a CUDA sample, nvidia-smi itself) has none', () => {
    expect(
      frameworkFromMaps(['/usr/lib/x86_64-linux-gnu/libc.so.6', '/usr/local/nvidia/lib64/libcuda.so.580.159.04']),
    ).toBeNull();
  });
  it('TensorFlow and CuPy by their libraries; JAX named first when both JAX and torch are mapped', () => {
    expect(frameworkFromMaps(['/v/lib/python3.11/site-packages/tensorflow/libtensorflow_framework.so.2'])!.name).toBe(
      'tensorflow',
    );
    expect(
      frameworkFromMaps(['/v/site-packages/cupy_backends/cuda/api/runtime.cpython-311-x86_64-linux-gnu.so'])!.name,
    ).toBe('cupy');
    expect(frameworkFromMaps([...maps(TORCH_PID), ...maps(JAX_PID)])).toMatchObject({ name: 'jax', also: ['torch'] });
  });
  it('keeps only the memory-policy variables of the environment', () => {
    expect(policyEnv('PATH=/usr/bin\0AWS_SECRET_ACCESS_KEY=x\0XLA_PYTHON_CLIENT_MEM_FRACTION=.3\0')).toEqual({
      XLA_PYTHON_CLIENT_MEM_FRACTION: '.3',
    });
  });
});

describe('the holders in the snapshot and their policy', () => {
  const s = holdersSnapshot();
  const jax = s.processes.list.find((p) => p.pid === JAX_PID)!;
  const torch = s.processes.list.find((p) => p.pid === TORCH_PID)!;

  it('the process probe reads the framework (and the policy variables) of each holder', () => {
    expect(jax.framework).toMatchObject({ name: 'jax', env: {} });
    expect(torch.framework).toMatchObject({ name: 'torch' });
    expect(jax.usedMiB).toBe(107918);
  });

  it('JAX: 107918 MiB is its 75% preallocation; PyTorch: cached-but-free vs live tensors', () => {
    const p = holderPolicy(jax, 143771)!;
    expect(p.reserve).toBe(true);
    expect(p.summary).toBe(
      'JAX, preallocating 75% of the GPU at its first operation (XLA_PYTHON_CLIENT_PREALLOCATE not set in it): 105.4 GiB ≈ 75% of 140.4 GiB',
    );
    expect(p.remedy).toMatch(/XLA_PYTHON_CLIENT_PREALLOCATE=false .*XLA_PYTHON_CLIENT_MEM_FRACTION/);
    const t = holderPolicy(torch, 143771)!;
    expect(t.reserve).toBe(false);
    expect(t.remedy).toMatch(/torch\.cuda\.empty_cache\(\)/);
  });

  it('a JAX holder started without preallocation is not a reserve', () => {
    const s2 = holdersSnapshot({ jax: 'XLA_PYTHON_CLIENT_PREALLOCATE=false\0', torch: '' });
    expect(holderPolicy(s2.processes.list.find((p) => p.pid === JAX_PID)!, 143771)!.reserve).toBe(false);
  });

  it('check: the holders are named with their framework, the JAX reserve is stated', () => {
    const fs_ = runChecks(ALL_CHECKS, s).flatMap((r) => r.findings);
    const head = fs_.find((f) => f.check === 'memory.headroom')!;
    expect(head.message).toBe(
      'GPU 0 NVIDIA H200: 17.9 GiB free of 140.4 GiB (PID 1968, JAX, reserves 105.4 GiB up front)',
    );
    expect(head.evidence.map((e) => e.text)).toContain(
      'PID 1968: JAX, preallocating 75% of the GPU at its first operation (XLA_PYTHON_CLIENT_PREALLOCATE not set in it): 105.4 GiB ≈ 75% of 140.4 GiB',
    );
  });

  it('procs: a FRAMEWORK column and what would give each holder’s memory back; --json has framework and policy', () => {
    const text = renderProcs(wordsFor(getLang()), s, procRows(s), { color: false, verbose: false });
    expect(text).toMatch(/VERDICT\s+FRAMEWORK\s+COMMAND/);
    expect(text).toMatch(/1968 .* active\s+JAX\s+jaxhold\.py 60/); // the script and its arguments, shortened to the width (80 by default)
    expect(text).toMatch(/1969 .* active\s+PyTorch\s+torchhold\.py 60/);
    expect(text).toContain('PID 1968 (105.4 GiB): JAX, preallocating 75%');
    expect(text).toMatch(/PID 1969 \(16\.5 GiB\): PyTorch: its caching allocator keeps freed blocks/);
    const doc = procsJson(s, procRows(s)) as {
      processes: { pid: number; framework: { name: string; evidence: string[] }; policy?: { reserve: boolean } }[];
    };
    expect(doc.processes.find((p) => p.pid === JAX_PID)).toMatchObject({
      framework: { name: 'jax' },
      policy: { reserve: true },
    });
  });

  it('explain with this machine: the holder named with its framework, the arithmetic, and the policy fix', () => {
    const log =
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.10 GiB. GPU 0 has a total capacity of 139.80 GiB of which 1.10 GiB is free. Process 1968 has 105.39 GiB memory in use. Including non-PyTorch memory, this process has 33.50 GiB memory in use. Of the allocated memory 32.00 GiB is allocated by PyTorch, and 1.00 GiB is reserved by PyTorch but unallocated.';
    const held = holdersSnapshot();
    held.processes.list = held.processes.list.filter((p) => p.pid === JAX_PID);
    const d = explainText(log, { sourceName: 'log', snapshot: held }) as {
      causes: { id: string; summary: string; evidence: { text: string }[]; fix?: { manual?: string[] } }[];
    };
    const c = d.causes.find((x) => x.id === 'memory_held_by_other_process')! as (typeof d.causes)[number] & {
      why: string[];
    };
    expect(c.why).toContain(
      "without PID 1968 (JAX, 105.4 GiB) this job, 33.5 GiB + 6.1 GiB, fits in the GPU's 139.8 GiB (the total the log states)",
    );
    const texts = c.evidence.map((e) => e.text);
    expect(texts).toContain(
      "without PID 1968 (JAX, 105.4 GiB) this job, 33.5 GiB + 6.1 GiB, fits in the GPU's 139.8 GiB (the total the log states)",
    );
    expect(
      texts.some((t) =>
        t.startsWith(
          'now: PID 1968 (JAX, python3, user root) holds 105.4 GiB on GPU 0: running; JAX, preallocating 75%',
        ),
      ),
      texts.join('\n'),
    ).toBe(true);
    expect(
      c.fix!.manual!.some((m) => /PID 1968 \(JAX\): start that job with XLA_PYTHON_CLIENT_PREALLOCATE=false/.test(m)),
    ).toBe(true);
  });

  it('the report bars name the holder by framework', () => {
    const m = buildReportModel(wordsFor(getLang()), {
      kind: 'check',
      generatedAt: 'x',
      tool: { name: 'gpu-env-doctor', version: '0' },
      snapshot: s,
      findings: [],
    });
    expect(m.bars[0]!.segments.map((x) => x.label)).toEqual([
      'JAX python3 (PID 1968, root)',
      'PyTorch python3 (PID 1969, root)',
      'not attributed to a listed process',
      'reserved by the driver',
      'free',
    ]);
  });

  it('check --from, procs --from and --json carry it (the snapshot field loads; old snapshots without it too)', () => {
    const file = path.join(tempDir('ged-holders-'), 'snap.json');
    fs.writeFileSync(file, JSON.stringify(s));
    const check = runCli(['check', '--from', file, '-v']);
    expect(check.stdout).toMatch(
      /\[✓\] GPU memory & processes: GPU 0 NVIDIA H200: 17\.9 GiB free of 140\.4 GiB \(PID 1968, JAX, reserves 105\.4 GiB up front\)/,
    );
    expect(check.stdout).toMatch(/PID 1968 root sleeping GPU 0 105\.4 GiB .* JAX \(\S+\.so\): python3/);
    const json = JSON.parse(runCli(['check', '--from', file, '--json']).stdout);
    expect(json.snapshot.processes.list.find((p: { pid: number }) => p.pid === JAX_PID).framework.name).toBe('jax');
    const procs = runCli(['procs', '--from', file]);
    expect(procs.stdout).toMatch(/JAX\s+python3 \/tmp\/gather\/jaxhold\.py/);
    expect(
      runCli([
        'check',
        '--from',
        path.join(__dirname, '../fixtures/snapshots/h200-memory-held.json'),
        '--fail-on',
        'warn',
      ]).code,
    ).toBe(1);
  });
});
