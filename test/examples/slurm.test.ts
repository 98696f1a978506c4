// The Slurm prolog/epilog examples, run with bash as slurmd would: the job's variables in the environment,
// gpu-env-doctor on PATH being the real CLI (dist/cli.js) replaying the H200's real snapshots (--from), and
// fake scontrol/logger that record what they were asked.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { fakeBin, tempDir } from '../helpers/fake-bin.js';

const SLURM = path.resolve(__dirname, '../../examples/slurm');
const SNAPSHOTS = path.resolve(__dirname, '../fixtures/snapshots');
const HELD = path.join(SNAPSHOTS, 'h200-memory-held.json'); // PID 589, root, orphaned, 138.6 GiB on GPU 0
const IDLE = path.join(SNAPSHOTS, 'h200-idle.json');

let dir: string;
let bin: string;
let state: string;

beforeEach(() => {
  dir = tempDir('ged-slurm-');
  bin = path.join(dir, 'bin');
  state = path.join(dir, 'state');
  fs.mkdirSync(bin);
  fakeBin(bin, 'scontrol', `printf '%s\\n' "$*" >> '${dir}/scontrol.log'`);
  fakeBin(bin, 'logger', `printf '%s\\n' "$*" >> '${dir}/logger.log'`);
});

/** gpu-env-doctor on PATH: the real CLI over a saved snapshot, or a stand-in that fails. */
function doctor(snapshot: string | { fail: number }): void {
  const body =
    typeof snapshot === 'string'
      ? `printf '%s\\n' "$*" >> '${dir}/doctor.log'\nexec '${process.execPath}' '${CLI}' "$@" --from '${snapshot}'`
      : `printf '%s\\n' "$*" >> '${dir}/doctor.log'\necho 'gpu-env-doctor: internal error' >&2\nexit ${snapshot.fail}`;
  fakeBin(bin, 'gpu-env-doctor', body);
}

function run(script: string, env: Record<string, string>) {
  const r = spawnSync('bash', [path.join(SLURM, script)], {
    env: {
      PATH: `${bin}:${path.dirname(process.execPath)}:/usr/bin:/bin`,
      GED_STATE_DIR: state,
      GED_EPILOG_LOG: path.join(dir, 'epilog.log'),
      GED_EPILOG_GRACE: '0',
      SLURMD_NODENAME: 'gpu-node-07',
      SLURM_JOB_ID: '4242',
      ...env,
    },
    encoding: 'utf8',
    timeout: 30000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const read = (f: string) => (fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), 'utf8') : '');

describe('Slurm prolog', () => {
  it('refuses a GPU held by a leftover: exit 1, drain reason and syslog name the process, a note for the job', () => {
    doctor(HELD);
    const r = run('prolog.sh', { SLURM_JOB_GPUS: '0' });
    expect(r.code).toBe(1);
    expect(read('doctor.log')).toMatch(/^check --json --timeout 20$/m);
    const scontrol = read('scontrol.log');
    expect(scontrol).toContain(
      'update NodeName=gpu-node-07 State=DRAIN Reason=gpu-env-doctor: GPU 0: PID 589 root orphaned: its parent is gone, 141948 MiB: python3 test/fixtures/h200/hog.py 1200 120',
    );
    expect(read('logger.log')).toContain('job 4242: GPU 0: PID 589 root orphaned');
    expect(r.stderr).toContain('gpu-env-doctor[4242]: GPU 0: PID 589');
    const note = fs.readFileSync(path.join(state, 'job-4242.txt'), 'utf8');
    expect(note).toContain('GPU 0 given to job 4242 on gpu-node-07 is held by a leftover process');
    expect(note).toContain('PID 589 root');
  });

  it('lets the job start when its GPUs are free, or when the holder is on a GPU it did not get', () => {
    doctor(IDLE);
    expect(run('prolog.sh', { SLURM_JOB_GPUS: '0' }).code).toBe(0);
    doctor(HELD);
    expect(run('prolog.sh', { SLURM_JOB_GPUS: '1,2' }).code).toBe(0);
    expect(read('scontrol.log')).toBe('');
    expect(fs.existsSync(path.join(state, 'job-4242.txt'))).toBe(false);
  });

  it('does not run at all for a job without GPUs', () => {
    doctor(HELD);
    expect(run('prolog.sh', {}).code).toBe(0);
    expect(read('doctor.log')).toBe('');
  });

  it('falls back to CUDA_VISIBLE_DEVICES when SLURM_JOB_GPUS is absent', () => {
    doctor(HELD);
    expect(run('prolog.sh', { CUDA_VISIBLE_DEVICES: '0' }).code).toBe(1);
  });

  it('fails open: when gpu-env-doctor itself fails, the job is not refused and the failure is logged', () => {
    doctor({ fail: 2 });
    const r = run('prolog.sh', { SLURM_JOB_GPUS: '0' });
    expect(r.code).toBe(0);
    expect(read('scontrol.log')).toBe('');
    expect(r.stderr).toContain('gpu-env-doctor check failed (exit 2); not judging the GPUs');
  });

  it('warn mode: the job runs, and the TaskProlog prints the holder into the job output with "print" lines', () => {
    doctor(HELD);
    const r = run('prolog.sh', { SLURM_JOB_GPUS: '0', GED_PROLOG_MODE: 'warn' });
    expect(r.code).toBe(0);
    expect(read('scontrol.log')).toBe('');
    const task = run('task-prolog.sh', { SLURM_PROCID: '0' });
    expect(task.code).toBe(0);
    const lines = task.stdout.trim().split('\n');
    expect(lines.every((l) => l.startsWith('print '))).toBe(true);
    expect(lines[0]).toBe(
      'print gpu-env-doctor: GPU 0 given to job 4242 on gpu-node-07 is held by a leftover process:',
    );
    expect(lines[1]).toMatch(/^print gpu-env-doctor: {3}GPU 0: PID 589 root orphaned/);
    // other tasks of the job stay quiet
    expect(run('task-prolog.sh', { SLURM_PROCID: '3' }).stdout).toBe('');
  });
});

describe('Slurm epilog', () => {
  it('reports the processes the job left on its GPUs, without killing or draining by default', () => {
    doctor(HELD);
    fs.mkdirSync(state);
    fs.writeFileSync(path.join(state, 'job-4242.txt'), 'old note');
    const r = run('epilog.sh', { SLURM_JOB_GPUS: '0', SLURM_JOB_UID: '0', SLURM_JOB_USER: 'root' });
    expect(r.code).toBe(0);
    expect(read('epilog.log')).toMatch(
      /^\S+Z job=4242 node=gpu-node-07 user=root GPU 0: PID 589 root orphaned: its parent is gone, 141948 MiB: python3 /m,
    );
    expect(read('logger.log')).toContain('left behind: GPU 0: PID 589');
    expect(read('scontrol.log')).toBe('');
    expect(fs.existsSync(path.join(state, 'job-4242.txt'))).toBe(false); // the job's note is cleaned up
  });

  it("another user's process on the GPU is not this job's leftover", () => {
    doctor(HELD);
    expect(run('epilog.sh', { SLURM_JOB_GPUS: '0', SLURM_JOB_UID: '1000' }).code).toBe(0);
    expect(read('epilog.log')).toBe('');
  });

  it('GED_EPILOG_DRAIN=1 drains the node with the leftover as the reason', () => {
    doctor(HELD);
    run('epilog.sh', { SLURM_JOB_GPUS: '0', SLURM_JOB_UID: '0', GED_EPILOG_DRAIN: '1' });
    expect(read('scontrol.log')).toContain(
      'update NodeName=gpu-node-07 State=DRAIN Reason=gpu-env-doctor: job 4242 left GPU 0: PID 589',
    );
  });
});

describe('gpu-holders.mjs', () => {
  it('says exit 2 for input that is not check --json', () => {
    const r = spawnSync(process.execPath, [path.join(SLURM, 'gpu-holders.mjs'), '--gpus', '0'], {
      input: '{"hello":1}',
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('not gpu-env-doctor check --json output');
  });
});

describe('Slurm epilog: snapshots for serve --fleet', () => {
  it('with GED_SNAPSHOT_DIR, every epilog leaves NODE.json (written then renamed), also when the job had no GPU', () => {
    const snaps = path.join(dir, 'snapshots');
    fs.mkdirSync(snaps);
    doctor(HELD);
    expect(run('epilog.sh', { SLURM_JOB_GPUS: '0', GED_SNAPSHOT_DIR: snaps }).code).toBe(0);
    expect(fs.readdirSync(snaps)).toEqual(['gpu-node-07.json']);
    expect(JSON.parse(fs.readFileSync(path.join(snaps, 'gpu-node-07.json'), 'utf8')).nvidia.ok).toBe(true);
    expect(read('doctor.log')).toMatch(/^snapshot --timeout 20$/m);
    fs.rmSync(path.join(snaps, 'gpu-node-07.json'));
    expect(run('epilog.sh', { GED_SNAPSHOT_DIR: snaps }).code).toBe(0);
    expect(fs.readdirSync(snaps)).toEqual(['gpu-node-07.json']);
  }, 60000);

  // M5 of security-audit-2026-12-03: the epilog (root) wrote `> DIR/.NODE.json.$$`; a user who can write DIR planted
  // links for the coming PIDs and root's snapshot overwrote the file they pointed to.
  it('links planted for the coming temporary names (and for NODE.json) are never written through', () => {
    const snaps = path.join(dir, 'snapshots');
    fs.mkdirSync(snaps);
    fs.chmodSync(snaps, 0o1777);
    const precious = path.join(dir, 'precious.txt');
    fs.writeFileSync(precious, 'precious root file\n', { mode: 0o600 });
    const next = Number(fs.readFileSync('/proc/sys/kernel/ns_last_pid', 'utf8'));
    for (let p = next; p < next + 3000; p++) fs.symlinkSync(precious, path.join(snaps, `.gpu-node-07.json.${p}`));
    fs.symlinkSync(precious, path.join(snaps, 'gpu-node-07.json'));
    doctor(HELD);
    expect(run('epilog.sh', { SLURM_JOB_GPUS: '0', GED_SNAPSHOT_DIR: snaps }).code).toBe(0);
    expect(fs.readFileSync(precious, 'utf8')).toBe('precious root file\n');
    const written = path.join(snaps, 'gpu-node-07.json');
    expect(fs.lstatSync(written).isSymbolicLink()).toBe(false);
    expect(fs.statSync(written).mode & 0o777).toBe(0o644);
    expect(JSON.parse(fs.readFileSync(written, 'utf8')).nvidia.ok).toBe(true);
    // no temporary file left, the planted links untouched
    expect(fs.readdirSync(snaps).filter((f) => !fs.lstatSync(path.join(snaps, f)).isSymbolicLink())).toEqual([
      'gpu-node-07.json',
    ]);
  }, 60000);

  it('a snapshot folder others can write without the sticky bit is refused, and said in the log', () => {
    const snaps = path.join(dir, 'snapshots');
    fs.mkdirSync(snaps);
    fs.chmodSync(snaps, 0o777);
    doctor(HELD);
    const r = run('epilog.sh', { SLURM_JOB_GPUS: '0', GED_SNAPSHOT_DIR: snaps });
    expect(r.code).toBe(0);
    expect(fs.readdirSync(snaps)).toEqual([]);
    expect(read('logger.log')).toContain(
      `not writing the snapshot: other users can write ${snaps} and it is not sticky`,
    );
  }, 60000);

  it('off without GED_SNAPSHOT_DIR; a failing snapshot leaves no file behind', () => {
    doctor(HELD);
    run('epilog.sh', { SLURM_JOB_GPUS: '0' });
    expect(read('doctor.log')).not.toMatch(/^snapshot/m);
    const snaps = path.join(dir, 'snapshots');
    fs.mkdirSync(snaps);
    doctor({ fail: 2 });
    expect(run('epilog.sh', { GED_SNAPSHOT_DIR: snaps }).code).toBe(0);
    expect(fs.readdirSync(snaps)).toEqual([]);
  }, 60000);
});
