// The machine at each failure of the reproduced benchmark: run.sh (dry mode, fake python3/nvidia-smi answering with
// the idle H200's captures) takes `dist/cli.js snapshot` beside each failed job's log, at the failure while the
// job still lives; import.mjs keeps it beside the corpus log; mark-job.mjs marks the job's processes as the job;
// bench/explain-repro.mjs --machine reads each log with its snapshot. Needs dist/cli.js (npm run build).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../helpers/fake-bin.js';
import { reproDryRun } from '../helpers/repro-dry.js';
import { parseSnapshotText } from '../../src/gather/snapshot/load.js';

const REPO = path.resolve(__dirname, '../..');
const CLI = path.join(REPO, 'dist/cli.js');

function dryRun(extra: Record<string, string>) {
  return reproDryRun('^twofw$', extra);
}

const TWOFW = ['twofw.cupy-torch', 'twofw.jax-cupy', 'twofw.jax-torch', 'twofw.jax-torch-conv', 'twofw.torch-jax'];

describe('run.sh: the machine at each failure', () => {
  it('a snapshot beside each failed job, taken while it still lived, with its staged settings', () => {
    const { logs, out, summary } = dryRun({});
    for (const id of TWOFW) {
      const side = JSON.parse(fs.readFileSync(path.join(logs, `${id}.json`), 'utf8'));
      expect(side.exit, id).toBe(1);
      expect(side.snapshot, id).toBe('at-failure');
      const snap = parseSnapshotText(fs.readFileSync(path.join(logs, `${id}.snapshot.json`), 'utf8'), id);
      expect(snap.nvidia.ok && snap.nvidia.gpus[0]!.memory.totalMiB).toBe(143771);
      // the hook that held the job is not part of what the snapshot says of the job's environment
      expect(snap.env.PYTHONPATH).toBeUndefined();
    }
    // the job's staged variables are the snapshot's (JAX_PLATFORMS=cuda for the one that needs the GPU by name)
    const torchJax = parseSnapshotText(
      fs.readFileSync(path.join(logs, 'twofw.torch-jax.snapshot.json'), 'utf8'),
      'torch-jax',
    );
    expect(torchJax.env.JAX_PLATFORMS).toBe('cuda');
    // the log is what the job printed, nothing of the hook's
    expect(fs.readFileSync(path.join(logs, 'twofw.jax-cupy.log'), 'utf8')).not.toMatch(/REPRO_|sitecustomize/);
    expect(summary).toMatch(/snapshots: on\n\s+5 at-failure/);

    // import: the snapshot beside the corpus log, less what explain never reads; explain --from takes it
    const corpus = tempDir('ged-reprosnap-corpus-');
    const imp = spawnSync(
      process.execPath,
      [path.join(REPO, 'gpu-lab/repro/import.mjs'), path.join(out, 'repro-logs.tar.gz'), '--out', corpus],
      { encoding: 'utf8' },
    );
    expect(imp.status, imp.stderr).toBe(0);
    expect(imp.stdout).toMatch(/with the machine at the failure \(ID\.snapshot\.json\): 5/);
    const dir = path.join(corpus, 'framework_preallocation');
    const kept = JSON.parse(fs.readFileSync(path.join(dir, 'twofw.jax-cupy.snapshot.json'), 'utf8'));
    expect(kept.python).toBeUndefined();
    expect(kept.libraries).toBeUndefined();
    expect(kept.nvidia.ok).toBe(true);
    const ex = spawnSync(
      process.execPath,
      [
        CLI,
        'explain',
        path.join(dir, 'twofw.jax-cupy.log'),
        '--from',
        path.join(dir, 'twofw.jax-cupy.snapshot.json'),
        '--json',
      ],
      { encoding: 'utf8' },
    );
    expect(ex.stderr).toBe('');
    expect(JSON.parse(ex.stdout).machine.used).toBe(true);
  }, 150_000);

  it('without the CLI: no snapshot, and the summary says why', () => {
    const { logs, summary } = dryRun({ REPRO_CLI: '/nonexistent/cli.js' });
    expect(fs.readdirSync(logs).filter((f) => f.endsWith('.snapshot.json'))).toEqual([]);
    expect(JSON.parse(fs.readFileSync(path.join(logs, 'twofw.jax-cupy.json'), 'utf8')).snapshot).toBe('none');
    expect(summary).toContain('snapshots: off: no /nonexistent/cli.js');
  }, 150_000);
});

describe('mark-job.mjs', () => {
  it("marks the failed job's process as the job, and nothing else", () => {
    const dir = tempDir('ged-markjob-');
    const f = path.join(dir, 's.json');
    fs.copyFileSync(path.join(FIXTURES, 'snapshots/h200-full-held.json'), f);
    const before = JSON.parse(fs.readFileSync(f, 'utf8'));
    expect(before.processes.list.map((p: { pid: number; isSelfOrAncestor: boolean }) => p.isSelfOrAncestor)).toEqual([
      false,
    ]);
    const r = spawnSync(process.execPath, [path.join(REPO, 'gpu-lab/repro/mark-job.mjs'), f, '666']);
    expect(r.status).toBe(0);
    const after = JSON.parse(fs.readFileSync(f, 'utf8'));
    expect(after.processes.list[0].isSelfOrAncestor).toBe(true);
    expect(parseSnapshotText(fs.readFileSync(f, 'utf8'), 's').processes.list[0]!.isSelfOrAncestor).toBe(true);
    fs.copyFileSync(path.join(FIXTURES, 'snapshots/h200-full-held.json'), f);
    spawnSync(process.execPath, [path.join(REPO, 'gpu-lab/repro/mark-job.mjs'), f, '667']);
    expect(JSON.parse(fs.readFileSync(f, 'utf8')).processes.list[0].isSelfOrAncestor).toBe(false);
  });

  it('bad input: one line, exit 2', () => {
    const r = spawnSync(process.execPath, [path.join(REPO, 'gpu-lab/repro/mark-job.mjs'), '/nonexistent.json', '1'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('bench/explain-repro.mjs --machine', () => {
  it('reads a log with its snapshot where it has one, and counts the logs without one apart', () => {
    const corpus = tempDir('ged-reprobench-');
    const src = path.join(FIXTURES, 'repro/gpu_memory_exhausted');
    const dir = path.join(corpus, 'gpu_memory_exhausted');
    fs.mkdirSync(dir);
    for (const id of ['toobig.cupy-alloc', 'toobig.cupy-zeros'])
      for (const ext of ['log', 'json'])
        fs.copyFileSync(path.join(src, `${id}.${ext}`), path.join(dir, `${id}.${ext}`));
    // the H200 at rest: a 200 GiB request is larger than its whole memory
    fs.copyFileSync(
      path.join(FIXTURES, 'snapshots/h200-full-idle.json'),
      path.join(dir, 'toobig.cupy-alloc.snapshot.json'),
    );
    const r = spawnSync(
      process.execPath,
      [path.join(REPO, 'bench/explain-repro.mjs'), '--dir', corpus, '--machine', '--json'],
      {
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    // the log alone: CuPy's "allocated so far: 0 bytes" reads as memory held elsewhere
    expect(out.misses.map((m: { id: string }) => m.id).sort()).toEqual(['toobig.cupy-alloc', 'toobig.cupy-zeros']);
    expect(out.machine).toMatchObject({ snapshots: 1, withoutSnapshot: 1, unreadable: [] });
    // with the machine the first is right; the second, without a snapshot, is read as before
    expect(out.machine.misses.map((m: { id: string }) => m.id)).toEqual(['toobig.cupy-zeros']);
    expect(out.machine.subset.withMachine.accuracy).toBe(1);
    expect(out.machine.subset.logAlone.accuracy).toBe(0);
  }, 150_000);
});
