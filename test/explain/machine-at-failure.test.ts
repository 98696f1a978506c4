// explain with the machine at the failure (src/judge/explain/machine.ts): the reproduced benchmark's logs
// (test/fixtures/repro) with snapshots built from the H200's real captures (test/fixtures/h200-truth/holders:
// nvidia-smi's XML with a JAX process preallocating 75% and a PyTorch process, their real /proc/PID/maps; the idle
// H200 snapshot). The log alone cannot tell these apart; what the machine shows decides:
// - a JAX job whose own pool stepped down beside a JAX process's preallocated pool: two preallocating pools compete
//   (framework_preallocation, JAX's setting as the fix); a PyTorch or CuPy job beside the same pool, or a JAX job
//   beside a PyTorch holder, stays memory held by another process;
// - the job's own process maps two frameworks and holds the GPU while the failing one had nothing: the other
//   framework's pool in the same process;
// - a request larger than every GPU on the machine: the job itself.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainText } from '../../src/judge/explain/engine.js';
import type { Diagnosis } from '../../src/judge/explain/types.js';
import { FIXTURES } from '../helpers/fake-bin.js';
import { holdersSnapshot, JAX_PID, TORCH_PID } from '../helpers/holders.js';
import { planted } from '../helpers/snapshots.js';
import { atFailure, CUPY_MAPS, maps } from './machine-scenes.js';

const repro = (label: string, id: string) => fs.readFileSync(path.join(FIXTURES, 'repro', label, `${id}.log`), 'utf8');
const first = (d: Diagnosis) => d.causes[0]?.id;
const machineWhy = (d: Diagnosis, id: string) =>
  (d.causes.find((c) => c.id === id)?.evidence ?? []).filter((e) => e.source === 'machine').map((e) => e.text);
const fixText = (d: Diagnosis) => {
  const f = d.causes[0]!.fix;
  return [f.text, ...(f.commands ?? []), ...(f.manual ?? [])].join('\n');
};

describe('a preallocating pool beside the job', () => {
  const pool = holdersSnapshot();

  it("a second JAX process's OOM beside a JAX process's 75% pool: preallocation, with JAX's setting", () => {
    const log = repro('framework_preallocation', 'prealloc.default-jax-alloc');
    expect(first(explainText(log))).toBe('memory_held_by_other_process');
    const d = explainText(log, { snapshot: pool });
    expect(first(d)).toBe('framework_preallocation');
    expect(machineWhy(d, 'framework_preallocation').join(' ')).toContain(`PID ${JAX_PID} (JAX)`);
    expect(fixText(d)).toContain('XLA_PYTHON_CLIENT_PREALLOCATE=false');
  });

  it('the same with the pool at XLA_PYTHON_CLIENT_MEM_FRACTION=0.95 in the holder', () => {
    const log = repro('framework_preallocation', 'prealloc.0.95-jax-alloc');
    const d = explainText(log, {
      snapshot: holdersSnapshot({ jax: 'XLA_PYTHON_CLIENT_MEM_FRACTION=0.95\0PATH=/usr/bin\0', torch: '' }),
    });
    expect(first(d)).toBe('framework_preallocation');
  });

  it('a PyTorch or CuPy job beside the same pool: memory held by that process, whose remedy is JAX’s setting', () => {
    for (const id of ['prealloc.default-torch-alloc', 'prealloc.default-cupy-alloc', 'prealloc.default-torch-matmul']) {
      const d = explainText(repro('memory_held_by_other_process', id), { snapshot: pool });
      expect(first(d), id).toBe('memory_held_by_other_process');
      expect(fixText(d), id).toContain('XLA_PYTHON_CLIENT_PREALLOCATE=false');
    }
  });

  it('a JAX job whose pool stepped down beside a PyTorch holder: memory held (PyTorch reserves no pool)', () => {
    const torchHolds = atFailure({ used: { [TORCH_PID]: 142000 } });
    for (const id of ['held.keep1200-jax-alloc', 'held.keep6000-jax-alloc']) {
      const d = explainText(repro('memory_held_by_other_process', id), { snapshot: torchHolds });
      expect(first(d), id).toBe('memory_held_by_other_process');
      expect(machineWhy(d, 'framework_preallocation'), id).toEqual([]);
    }
  });
});

describe("another framework in the job's own process", () => {
  it('CuPy fails with nothing allocated in a process whose JAX pool holds 105 GiB: JAX’s preallocation', () => {
    const log = repro('framework_preallocation', 'twofw.jax-cupy');
    const job = atFailure({
      used: { [JAX_PID]: 107918 },
      mapsOf: { [JAX_PID]: `${maps(JAX_PID)}\n${CUPY_MAPS}\n` },
      job: JAX_PID,
    });
    const d = explainText(log, { snapshot: job });
    expect(first(d)).toBe('framework_preallocation');
    expect(machineWhy(d, 'framework_preallocation').join(' ')).toMatch(/PID 1968 maps (JAX \+ CuPy|CuPy \+ JAX)/);
    expect(fixText(d)).toContain('XLA_PYTHON_CLIENT_PREALLOCATE=false');
    // the same log read after the job ended (nothing held, nothing mapped): the machine cannot say it
    const after = explainText(log, { snapshot: planted('h200-idle', (s) => void (s.processes.list = [])) });
    expect(first(after)).not.toBe('framework_preallocation');
  });

  it("JAX's pool steps down in a process whose PyTorch cache holds the GPU: the other framework, PyTorch, named", () => {
    const log = repro('framework_preallocation', 'twofw.torch-jax');
    expect(first(explainText(log))).toBe('memory_held_by_other_process');
    const job = atFailure({
      used: { [JAX_PID]: 103000 },
      mapsOf: { [JAX_PID]: `${maps(JAX_PID)}\n${maps(TORCH_PID)}` },
      job: JAX_PID,
    });
    const d = explainText(log, { snapshot: job });
    expect(first(d)).toBe('framework_preallocation');
    expect(machineWhy(d, 'framework_preallocation').join(' ')).toContain("PyTorch's pool holds it");
  });

  it('not when the failing framework itself held the memory (CuPy had allocated 100 GiB)', () => {
    const log = repro('framework_preallocation', 'twofw.jax-cupy').replace(
      'allocated so far: 0 bytes',
      'allocated so far: 107,374,182,400 bytes',
    );
    const job = atFailure({
      used: { [JAX_PID]: 107918 },
      mapsOf: { [JAX_PID]: `${maps(JAX_PID)}\n${CUPY_MAPS}\n` },
      job: JAX_PID,
    });
    const d = explainText(log, { snapshot: job });
    expect(machineWhy(d, 'framework_preallocation')).toEqual([]);
  });

  it('a job holding the GPU alone: no other process is to blame', () => {
    const log = repro('framework_preallocation', 'twofw.jax-cupy');
    const alone = atFailure({ used: { [JAX_PID]: 107918 }, job: JAX_PID });
    const d = explainText(log, { snapshot: alone });
    const held = d.causes.find((c) => c.id === 'memory_held_by_other_process');
    expect(held?.confidence ?? 0).toBeLessThan(0.2);
  });
});

describe('a request larger than every GPU here', () => {
  it("CuPy's 200 GiB request on the 140 GiB H200, other jobs' contexts beside it: the job itself", () => {
    const ctx = atFailure({ used: { [JAX_PID]: 518, [TORCH_PID]: 518, 4243: 600 }, mapsOf: { 4243: '' } });
    for (const id of ['toobig.cupy-alloc', 'toobig.cupy-zeros', 'toobig.cupy-fft']) {
      const log = repro('gpu_memory_exhausted', id);
      expect(first(explainText(log)), id).toBe('memory_held_by_other_process');
      const d = explainText(log, { snapshot: ctx });
      expect(first(d), id).toBe('gpu_memory_exhausted');
      expect(machineWhy(d, 'gpu_memory_exhausted').join(' '), id).toMatch(/larger than the whole memory of every GPU/);
    }
  });

  it('not on a machine whose GPU could hold it (the same 200 GiB request where a GPU has 280 GiB)', () => {
    const big = planted('h200-idle', (s) => {
      s.processes.list = [];
      if (s.nvidia.ok) s.nvidia.gpus[0]!.memory.totalMiB = 280 * 1024;
    });
    const d = explainText(repro('gpu_memory_exhausted', 'toobig.cupy-alloc'), { snapshot: big });
    expect(machineWhy(d, 'gpu_memory_exhausted')).toEqual([]);
  });

  it('a 16 GiB request beside a holder stays memory held', () => {
    const torchHolds = atFailure({ used: { [TORCH_PID]: 142000 } });
    const d = explainText(repro('memory_held_by_other_process', 'held.keep1200-cupy-alloc'), { snapshot: torchHolds });
    expect(first(d)).toBe('memory_held_by_other_process');
  });
});
