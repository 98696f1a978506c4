// gpu-lab/repro/run.sh in dry mode (fake python3/nvcc/nvidia-smi from gpu-lab/repro/fake): the phases `only`
// matches, `extra` added to its environment; the run must succeed.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect } from 'vitest';
import { tempDir } from './fake-bin.js';

const REPO = path.resolve(__dirname, '../..');

export function reproDryRun(only: string, extra: Record<string, string> = {}) {
  const work = tempDir('ged-reprodry-');
  const out = tempDir('ged-reprodry-out-');
  const r = spawnSync('bash', [path.join(REPO, 'gpu-lab/repro/run.sh')], {
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/root',
      REPRO_DRY: '1',
      REPRO_ONLY: only,
      OUT: out,
      REPRO_WORK: work,
      ...extra,
    },
  });
  expect(r.status, r.stderr).toBe(0);
  return { work, out, logs: path.join(work, 'logs'), summary: fs.readFileSync(path.join(out, 'summary.txt'), 'utf8') };
}
