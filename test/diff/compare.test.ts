import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { diffSnapshots, type DiffResult } from '../../src/judge/diff/compare.js';
import { extractFacts } from '../../src/judge/diff/facts.js';
import { renderDiffMarkdown, renderDiffTerminal } from '../../src/report/views/diff.js';
import { parseSnapshotText } from '../../src/gather/snapshot/load.js';
import type { Snapshot } from '../../src/gather/snapshot/schema.js';
import { tempDir } from '../helpers/fake-bin.js';
import { clone, h200Snapshot } from '../fleet/h200-snapshot.js';
import { shadowCudnn } from '../../bench/fleet-generate.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

const EXAMPLES = path.resolve(__dirname, '../fixtures/snapshots');
const real = (f: string) => parseSnapshotText(fs.readFileSync(path.join(EXAMPLES, f), 'utf8'), f);
const labels = { a: 'a.json', b: 'b.json' };
const facts = (r: DiffResult) => r.differences.map((d) => d.fact);

let base: Snapshot;
beforeAll(async () => {
  base = await h200Snapshot(tempDir('ged-diff-'));
});

describe('diff: the real H200 snapshots', () => {
  it('idle vs memory held: the new process holding 138.6 GiB is the difference that matters (issue 16.5)', () => {
    const idle = real('h200-idle.json');
    const held = real('h200-memory-held.json');
    const r = diffSnapshots(idle, held, labels);
    // Same machine, same software: what differs is a process that now holds most of the GPU.
    expect(r.differences.map((d) => [d.fact, d.impact])).toEqual([['gpu.free-memory[0]', 'high']]);
    expect(r.differences[0]!.b).toMatch(/^PID 589 python3 holds 138\.6 GiB; 1\.2 GiB free of 140\.4 GiB$/);
    expect(r.differences[0]!.a).toMatch(/free of 140\.4 GiB$/);
    expect(r.hiddenNoise).toBeGreaterThanOrEqual(3);
    const all = diffSnapshots(idle, held, labels, { all: true });
    expect(facts(all)).toEqual(expect.arrayContaining(['gpu.memory-used[0]', 'gpu.processes', 'collected-at']));
    expect(all.differences.find((d) => d.fact === 'gpu.memory-used[0]')!.b).toBe('138.6 GiB');
    expect(all.hiddenNoise).toBe(0);
    // and the other way round: the holder is gone
    expect(diffSnapshots(held, idle, labels).differences.map((d) => d.fact)).toEqual(['gpu.free-memory[0]']);
  });

  it('the probe-built snapshot reads the same driver, GPU and kernel module as the real one', () => {
    const idle = real('h200-idle.json');
    const f = extractFacts(base).values;
    const g = extractFacts(idle).values;
    for (const id of [
      'driver',
      'kernel-module',
      'gpu.model[0]',
      'gpu.memory[0]',
      'gpu.cc[0]',
      'cuda.driver-max',
      'gpu.health[0]',
    ]) {
      expect(f.get(id), id).toBe(g.get(id));
    }
    expect(f.get('driver')).toBe('580.159.04');
    expect(f.get('framework[torch]')).toBe('2.11.0+cu130 (CUDA 13.0)');
    expect(f.get('loads[torch libcudnn.so.9]')).toMatch(/^9\.19\.0 \(rpath: .*nvidia\/cudnn\/lib\/libcudnn\.so\.9\)$/);
    expect(f.get('wheel[nvidia-cudnn-cu13]')).toBe('9.19.0.56');
  });
});

describe('diff: planted differences, ranked by impact', () => {
  function planted(): Snapshot {
    const b = clone(base) as Snapshot & { python: any; libraries: any };
    if (b.nvidia.ok) {
      b.nvidia.driverVersion = '535.183.01';
      b.nvidia.cudaVersion = '12.2';
      b.nvidia.gpus[0]!.memory.usedMiB = 9000; // noise
    }
    // The B machine's torch loads the system cuDNN 9.14 (LD_LIBRARY_PATH shadowing), and pip has another wheel.
    shadowCudnn(b.libraries);
    b.python.environments[0].packages.find((p: any) => p.name === 'nvidia-cudnn-cu13').version = '9.1.0.70';
    b.env.LD_LIBRARY_PATH = '/usr/lib/x86_64-linux-gnu:/usr/local/nvidia/lib64';
    b.env.TF_CPP_MIN_LOG_LEVEL = '3';
    b.env.SLURM_JOB_ID = '123456'; // noise
    b.collectedAt = '2026-12-03T10:00:00.000Z';
    b.host.name = 'gpu-h200-02';
    return b;
  }

  it('lists each planted difference once, most impact first, and hides the noise', () => {
    const r = diffSnapshots(base, planted(), labels);
    expect(facts(r)).toEqual([
      'driver',
      'env[LD_LIBRARY_PATH]',
      'loads[torch libcudnn.so.9]',
      'wheel[nvidia-cudnn-cu13]',
      'cuda.driver-max',
      'env[TF_CPP_MIN_LOG_LEVEL]',
    ]);
    const ranks = r.differences.map((d) => d.impact);
    expect(ranks).toEqual(['critical', 'critical', 'critical', 'critical', 'high', 'low']);
    expect(r.differences[0]).toMatchObject({ a: '580.159.04', b: '535.183.01' });
    expect(r.differences.find((d) => d.fact === 'env[TF_CPP_MIN_LOG_LEVEL]')).toMatchObject({ a: null, b: '3' });
    expect(r.differences.find((d) => d.fact === 'loads[torch libcudnn.so.9]')!.b).toBe(
      '9.14.0 (ld_library_path: /usr/lib/x86_64-linux-gnu/libcudnn.so.9)',
    );
    // memory in use, SLURM_JOB_ID, collectedAt: counted, not shown
    expect(r.hiddenNoise).toBe(3);
    expect(r.b.host).toBe('gpu-h200-02');
  });

  it('a different GPU model and count is critical; a GPU present on one side only reads as absent', () => {
    const b = clone(base);
    if (!b.nvidia.ok) throw new Error('fixture');
    const second = clone(b.nvidia.gpus[0]!);
    second.index = 1;
    second.name = 'NVIDIA H100 80GB HBM3';
    second.memory.totalMiB = 81559;
    b.nvidia.gpus.push(second);
    const r = diffSnapshots(base, b, labels);
    expect(facts(r).slice(0, 2)).toEqual(['gpu.count', 'gpu.model[1]']);
    expect(r.differences.find((d) => d.fact === 'gpu.model[1]')).toMatchObject({
      a: null,
      b: 'NVIDIA H100 80GB HBM3',
      impact: 'critical',
    });
    expect(r.differences.find((d) => d.fact === 'gpu.memory[1]')).toMatchObject({
      a: null,
      b: '79.6 GiB',
      impact: 'high',
    });
  });

  it('a section one side did not collect is one line, not a removal of every package', () => {
    const b = clone(base) as Snapshot & { python?: unknown };
    delete b.python;
    const r = diffSnapshots(base, b, labels);
    const py = r.differences.filter((d) => d.notCollected);
    expect(py.map((d) => d.fact)).toEqual([
      'framework',
      'wheel',
      'conda',
      'python.version',
      'python.duplicates',
      'python.env',
    ]);
    expect(py.every((d) => d.impact === 'low' && d.notCollected === 'b')).toBe(true);
    expect(r.differences.find((d) => d.fact === 'wheel')!.a).toMatch(/^\d+ values$/);
    expect(facts(r).some((f) => f.startsWith('wheel['))).toBe(false);
  });

  it('nvidia-smi failing on one side is a driver difference', () => {
    const b = clone(base);
    (b as { nvidia: unknown }).nvidia = {
      ok: false,
      failure: { reason: 'nvml-mismatch', message: 'Failed to initialize NVML: Driver/library version mismatch' },
    };
    const r = diffSnapshots(base, b, labels);
    expect(r.differences[0]).toMatchObject({
      fact: 'driver',
      b: 'nvidia-smi failed (nvml-mismatch)',
      impact: 'critical',
    });
    // per-GPU facts were not collected on B: one line each, low
    expect(r.differences.find((d) => d.fact === 'gpu.model')).toMatchObject({ notCollected: 'b', impact: 'low' });
  });

  it('renders terminal and Markdown with the values, the reason and the counts', () => {
    const r = diffSnapshots(base, planted(), labels);
    const t = renderDiffTerminal(wordsFor(getLang()), r, { color: false, verbose: false, width: 200 });
    expect(t).toContain('critical');
    expect(t).toMatch(/NVIDIA driver: 580\.159\.04 → 535\.183\.01/);
    expect(t).toContain('the driver sets the highest CUDA version');
    expect(t).toContain('environment variable TF_CPP_MIN_LOG_LEVEL: (not set) → 3');
    expect(renderDiffTerminal(wordsFor(getLang()), r, { color: false, verbose: true })).toContain(
      'env[TF_CPP_MIN_LOG_LEVEL]: (not set) → 3',
    );
    expect(t).toMatch(
      /6 differences \(4 critical, 1 high, 1 low\) · \d+ facts the same · 3 differences of the moment hidden \(--all shows them\)/,
    );
    const md = renderDiffMarkdown(wordsFor(getLang()), r);
    expect(md).toContain('| critical | `driver` | `580.159.04` | `535.183.01` |');
    expect(md.split('\n').filter((l) => l.startsWith('| ')).length).toBe(2 + 6); // header, rule, rows
  });

  it('says each reason once, above the differences it explains (issue 16.7)', () => {
    const b = clone(base);
    for (const k of ['TF_FORCE_GPU_ALLOW_GROWTH', 'XLA_FLAGS', 'JAX_PLATFORMS', 'CUDA_MODULE_LOADING']) b.env[k] = 'x';
    const t = renderDiffTerminal(wordsFor(getLang()), diffSnapshots(base, b, labels), { color: false, verbose: false });
    const why = 'these variables change which libraries load';
    expect(t.split(why).length - 1).toBe(1);
  });

  it('escapes pipes and newlines in Markdown cells', () => {
    const b = clone(base);
    b.env.XLA_FLAGS = '--a|b\n--c';
    const md = renderDiffMarkdown(wordsFor(getLang()), diffSnapshots(base, b, labels));
    const row = md.split('\n').find((l) => l.includes('env[XLA_FLAGS]'))!;
    expect(row).toContain('`--a\\|b\\n--c`'); // the newline shown as \n, never a broken row
    expect(row.split(/(?<!\\)\|/).length).toBe(7); // 5 cells between 6 unescaped pipes
  });
});
