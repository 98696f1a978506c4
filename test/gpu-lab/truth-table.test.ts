// The truth table's judge (gpu-lab/truth/judge.mjs) on recorded scenario folders: it must call agreement and
// disagreement from the facts, never by hand. And the staging script in dry mode (fake python3 and
// nvidia-smi): a live holder stays a child of the script (parent alive) and every process it started is ended.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fake-bin.js';

import * as judge from '../../gpu-lab/truth/judge.mjs';
const REPO = path.resolve(__dirname, '../..');
const CAPTURES = path.join(REPO, 'test/fixtures/h200-truth/framework');

function scenario(files: Record<string, string | object>): string {
  const d = tempDir('ged-truthjudge-');
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(d, name), typeof content === 'string' ? content : JSON.stringify(content));
  return d;
}
const meta = (id: string, framework: string, causes: string) => `id=${id}\ntitle=${id}\nframework=${framework}\ncauses=${causes}\n`;
const finding = (o: object) => ({ severity: 'error', status: 'fail', rootCause: 'other', message: '', evidence: [], ...o });

describe('judge: PYTORCH_CUDA_ALLOC_CONF', () => {
  const garbage = fs.readFileSync(path.join(CAPTURES, 'torch-allocconf-garbage.txt'), 'utf8');
  it('torch aborted at import (the H200 capture, exit 134) and check said so: agree', () => {
    const d = scenario({ 'meta.env': meta('allocconf-0', 'torch', '-'), 'job-alloc.out': garbage, 'job-alloc.exit': '134', 'check.json': { findings: [finding({ check: 'env.allocators', message: 'PyTorch aborts at import: PYTORCH_CUDA_ALLOC_CONF — "garbage" breaks its key:value,key:value structure' })] } });
    const r = judge.judgeScenario(d);
    expect(r.agree.check).toBe(true);
    expect(r.did).toMatch(/exit 134: what\(\): i < config_\.size\(\) INTERNAL ASSERT FAILED .* \(fails at: import\)/);
  });
  it('the same failure told as "at the first CUDA call" (what check used to say): disagree', () => {
    const d = scenario({ 'meta.env': meta('allocconf-0', 'torch', '-'), 'job-alloc.out': garbage, 'job-alloc.exit': '134', 'check.json': { findings: [finding({ check: 'env.allocators', severity: 'warn', status: 'warn', message: 'PyTorch fails at the first CUDA call: PYTORCH_CUDA_ALLOC_CONF' })] } });
    expect(judge.judgeScenario(d).agree.check).toBe(false);
  });
});

describe('judge: the system cuDNN first, torch', () => {
  const version = fs.readFileSync(path.join(CAPTURES, 'torch-system-first.txt'), 'utf8');
  const mix = (consequences: object[]) => ({ findings: [finding({ check: 'libs.cudnn-sublibrary-mismatch', affects: { framework: 'torch' }, message: 'PyTorch loads libcudnn 9.19.0 …', consequences })] });
  const base = { 'meta.env': meta('system-cudnn-torch', 'torch', 'cudnn_version_mismatch,library_conflict'), 'job-conv.out': 'JOB-OK torch conv\n', 'job-conv.exit': '0', 'job-version.out': version, 'job-version.exit': '1' };
  it('conv ran, cudnn.version() raised; check says runs + fails: agree', () => {
    const d = scenario({ ...base, 'check.json': mix([{ framework: 'torch', outcome: 'runs', certainty: 'verified' }, { framework: 'torch', outcome: 'fails', certainty: 'verified' }]) });
    expect(judge.judgeScenario(d).agree.check).toBe(true);
  });
  it('check saying only that torch fails (the conv ran): disagree', () => {
    const d = scenario({ ...base, 'check.json': mix([{ framework: 'torch', outcome: 'fails', certainty: 'verified' }]) });
    expect(judge.judgeScenario(d).agree.check).toBe(false);
  });
  it('check --deep: the version() failure must reach its findings', () => {
    const deepOk = { findings: [{ check: 'python.deep-conv', severity: 'info', status: 'ok', message: 'PyTorch: a convolution on the GPU ran', affects: { framework: 'torch' } }] };
    const deepBad = { findings: [{ check: 'python.deep-conv', severity: 'error', status: 'fail', message: 'PyTorch: the convolution ran in venv x, but torch.backends.cudnn.version() raised RuntimeError: cuDNN version incompatibility', affects: { framework: 'torch' } }] };
    expect(judge.judgeScenario(scenario({ ...base, 'deep.json': deepOk })).agree.deep).toBe(false);
    expect(judge.judgeScenario(scenario({ ...base, 'deep.json': deepBad })).agree.deep).toBe(true);
  });
});

describe('judge: holders and JAX settings', () => {
  const oom = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB.\n';
  const base = { 'meta.env': meta('holder-live', 'torch', 'memory_held_by_other_process'), 'job-gib.out': oom, 'job-gib.exit': '1', 'holders.txt': '4242 torch live\n' };
  it('a live holder shown as active PyTorch: agree; shown as orphaned: disagree', () => {
    const row = (verdict: string) => ({ processes: [{ pid: 4242, verdict, usedMiB: 142571, framework: { name: 'torch', evidence: [] } }] });
    expect(judge.judgeScenario(scenario({ ...base, 'procs.json': row('active') })).agree.procs).toBe(true);
    expect(judge.judgeScenario(scenario({ ...base, 'procs.json': row('orphaned') })).agree.procs).toBe(false);
  });
  it('JAX fell back to the CPU (exit 0): only "runs on the CPU" agrees', () => {
    const out = fs.readFileSync(path.join(CAPTURES, 'jax-memfrac-abc.txt'), 'utf8').replace('jax conv ok (8, 32, 64, 64)', 'JOB-OK jax conv (8, 32, 64, 64) platform cpu memory {}');
    const files = { 'meta.env': meta('jax-setting-0', 'jax', 'other'), 'job-conv.out': out, 'job-conv.exit': '0' };
    expect(judge.judgeScenario(scenario({ ...files, 'check.json': { findings: [finding({ check: 'env.allocators', message: 'JAX runs on the CPU, not the GPU: XLA_PYTHON_CLIENT_MEM_FRACTION="abc" is not a number' })] } })).agree.check).toBe(true);
    expect(judge.judgeScenario(scenario({ ...files, 'check.json': { findings: [finding({ check: 'env.allocators', severity: 'warn', status: 'warn', message: 'XLA_PYTHON_CLIENT_MEM_FRACTION="abc" must be a fraction between 0 and 1' })] } })).agree.check).toBe(false);
  });
  it('the table marks a row NO when one command disagrees, and counts', () => {
    const rows: judge.ScenarioResult[] = [
      { m: { id: 'a', title: 'a', causes: [] }, did: 'x', cells: { check: 'ok' }, agree: { check: true } },
      { m: { id: 'b', title: 'b | c', causes: [] }, did: 'y', cells: { check: 'no', run: 'exit 1' }, agree: { check: false, run: true } },
    ];
    const t = judge.renderTable(rows, []);
    expect(t).toContain('| b \\| c | y |');
    expect(t).toMatch(/\| NO \|/);
    expect(t).toContain('1 agree, 1 disagree, 0 not applicable or not staged.');
  });
});

describe('truth-table.sh in dry mode (fake python3 and nvidia-smi)', () => {
  it('stages a live holder (its parent, the script, alive), writes the table and the archive, and ends every process it started', () => {
    const work = tempDir('ged-truthdry-');
    const out = tempDir('ged-truthout-');
    const r = spawnSync('bash', [path.join(REPO, 'gpu-lab/truth-table.sh')], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', TRUTH_DRY: '1', TRUTH_ONLY: 's_holder_state live', TRUTH_PAR: '2', OUT: out, TRUTH_WORK: work },
      encoding: 'utf8',
      timeout: 170000,
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const table = fs.readFileSync(path.join(out, 'truth-table.md'), 'utf8');
    expect(table).toMatch(/\| a hog\.py holder that is live; a torch job of 4 GiB \| gib: exit 1: torch\.OutOfMemoryError/);
    expect(table).toMatch(/\*\*procs\*\*: PID \d+: active/);
    expect(fs.statSync(path.join(out, 'truth-table.tgz')).size).toBeGreaterThan(1000);
    const pid = Number(fs.readFileSync(path.join(work, 's/holder-live/holders.txt'), 'utf8').split(' ')[0]);
    expect(fs.existsSync(`/proc/${pid}`) && !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))).toBe(false);
  }, 180000);
});
