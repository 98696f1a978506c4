// `run -- CMD` end to end: the built CLI wrapping real child processes, and a fake nvidia-smi on PATH that
// replays the real H200 captures in a loop (as `nvidia-smi ... -lms 500` prints).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';
import { fakeBin, FIXTURES, tempDir } from '../helpers/fake-bin.js';

const H200 = path.join(FIXTURES, 'h200');
const UUID = 'GPU-86cd2dae-7950-6451-53ef-58bd5f0e3df7';
let dir: string;
let bin: string;
let pidFile: string;

beforeAll(() => {
  dir = tempDir('ged-run-');
  bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  pidFile = path.join(dir, 'job.pid');
  // The job writes its PID to job.pid; the fake then lists it as a GPU process next to the hog (PID 694).
  fakeBin(
    bin,
    'nvidia-smi',
    `case "$1" in
  -q) cat '${H200}/hog/nvidia-smi-q-hog.xml' ;;
  --query-gpu=index,uuid,memory.used,memory.total)
    while :; do echo "0, ${UUID}, 142857, 143771"; sleep 0.1; done ;;
  --query-gpu=*) cat '${H200}/idle/query-gpu.csv' ;;
  --query-compute-apps=*)
    while :; do
      cat '${H200}/hog/compute-apps-hog.csv'
      [ -s '${pidFile}' ] && echo "$(cat '${pidFile}'), 896, ${UUID}"
      sleep 0.1
    done ;;
  *) echo "unexpected: $*" >&2; exit 2 ;;
esac`,
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const withFake = () => ({ PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` });
const noGpu = () => ({ PATH: emptyPath() });
function emptyPath(): string {
  // PATH without nvidia-smi: sh, cat, sleep and node's own folder only
  const p = path.join(dir, 'nogpu-bin');
  if (!fs.existsSync(p)) {
    fs.mkdirSync(p);
    for (const t of ['sh', 'cat', 'sleep', 'echo', 'kill', 'true', 'false', 'seq', 'yes', 'head']) {
      const found = ['/bin', '/usr/bin'].map((d) => path.join(d, t)).find((f) => fs.existsSync(f));
      if (found) fs.symlinkSync(found, path.join(p, t));
    }
  }
  return p;
}

/** run's report goes to a file (--report FILE.json): stdout and stderr belong to the job. */
let jsonOut = '';
const reportFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ged-run-report-')), 'run.json');

describe('run: pass-through', () => {
  it('passes the exit code through, and says on stderr when it succeeded', () => {
    const ok = runCli(['run', '--', 'sh', '-c', 'echo out; exit 0'], { env: noGpu() });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('out\n');
    expect(ok.stderr).toMatch(/✓ gpu-env-doctor: exit code 0 .*nvidia-smi was not found/);
    const bad = runCli(['run', '--', 'sh', '-c', 'echo to-stderr >&2; exit 3'], { env: noGpu() });
    expect(bad.code).toBe(3);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.startsWith('to-stderr\n')).toBe(true);
    expect(bad.stderr).toContain('the command failed (exit code 3)');
  });

  it('passes stdin through to the command, and its stdout through byte for byte', () => {
    const input = 'line one\nline two with ✓ and \t tab\n';
    const r = runCli(['run', '--', 'cat'], { env: noGpu(), input });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(input);
  });

  it('exits with 128+N when a signal ended the command', () => {
    const r = runCli(['run', '--', 'sh', '-c', 'kill -KILL $$'], { env: noGpu() });
    expect(r.code).toBe(137);
    expect(r.stderr).toContain('killed by SIGKILL');
  });

  it('exits 127 when the command does not exist, 2 without a command', () => {
    const nf = runCli(['run', '--', 'no-such-command-xyz'], { env: noGpu() });
    expect(nf.code).toBe(127);
    expect(nf.stderr).toContain('no-such-command-xyz: command not found');
    const none = runCli(['run'], { env: noGpu() });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no command to run');
    const noDash = runCli(['run', 'python3'], { env: noGpu() });
    expect(noDash.code).toBe(2);
    expect(noDash.stderr).toContain('put the command after --');
  });

  it('forwards SIGTERM sent to it to the command, and passes on the code the command exits with', async () => {
    const r = await spawnAndSignal(
      ['run', '--', 'sh', '-c', 'trap "echo got-term; exit 42" TERM; echo ready; while :; do sleep 0.05; done'],
      'SIGTERM',
    );
    expect(r.stdout).toContain('got-term');
    expect(r.code).toBe(42);
  });

  it('forwards SIGINT when no terminal is attached (a terminal delivers Ctrl-C to the command itself)', async () => {
    const r = await spawnAndSignal(
      ['run', '--', 'sh', '-c', 'trap "echo got-int; exit 7" INT; echo ready; while :; do sleep 0.05; done'],
      'SIGINT',
    );
    expect(r.stdout).toContain('got-int');
    expect(r.code).toBe(7);
  });

  it('keeps only the last --tail-lines lines of a long output (and still passes all of it through)', () => {
    const r = runCli(
      [
        'run',
        '--report',
        (jsonOut = reportFile()),
        '--tail-lines',
        '50',
        '--',
        'sh',
        '-c',
        'seq 1 20000; echo boom >&2; exit 1',
      ],
      { env: noGpu() },
    );
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(20000);
    const json = JSON.parse(fs.readFileSync(jsonOut, 'utf8'));
    expect(json.tail).toHaveLength(50);
    expect(json.tail.at(-1)).toMatchObject({ n: 20001, stream: 'stderr', text: 'boom' });
    expect(json.run.totalLines).toBe(20001);
    expect(json.run.droppedLines).toBe(19951);
  });
});

describe('run: GPU memory while it runs (fake nvidia-smi replaying the H200 captures)', () => {
  it('samples memory per process, tells the job from the hog, and takes the snapshot when the job prints out-of-memory', () => {
    fs.rmSync(pidFile, { force: true });
    const script = `echo $$ > '${pidFile}'; sleep 0.8; echo "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 784.00 MiB." >&2; sleep 0.3; exit 1`;
    const html = path.join(dir, 'report.html');
    const r = runCli(
      ['run', '--report', (jsonOut = reportFile()), '--interval', '100', '--html', html, '--', 'sh', '-c', script],
      { env: withFake() },
    );
    expect(r.code).toBe(1);
    const json = JSON.parse(fs.readFileSync(jsonOut, 'utf8'));
    const jobPid = Number(fs.readFileSync(pidFile, 'utf8'));
    const tl = json.run.timeline;
    expect(tl.available).toBe(true);
    expect(tl.gpus[0]).toMatchObject({ index: 0, uuid: UUID, totalMiB: 143771, peakUsedMiB: 142857, peakJobMiB: 896 });
    expect(tl.gpus[0].points.length).toBeGreaterThan(3);
    expect(tl.failureAt).toBeGreaterThan(0);
    const byPid = Object.fromEntries(tl.processes.map((p: { pid: number }) => [p.pid, p]));
    expect(byPid[694]).toMatchObject({ peakMiB: 142848, isJob: false });
    expect(byPid[jobPid]).toMatchObject({ peakMiB: 896, isJob: true });
    expect(json.run.jobPids).toContain(jobPid);
    // the snapshot was taken on the out-of-memory line, not after the exit
    expect(json.run.snapshotTrigger).toMatch(/^line 1: torch.OutOfMemoryError/);
    expect(json.snapshot.nvidia.gpus[0].processes[0]).toMatchObject({ pid: 694, usedMiB: 142848 });
    // and the HTML report names the hog in the bar of GPU 0
    const page = fs.readFileSync(html, 'utf8');
    expect(page).toMatch(/data-kind="other" data-mib="142848" data-pid="694"/);
    expect(page).toContain('class="failure"');
  });

  it('prints the memory at the failure and the timeline in the terminal', () => {
    fs.rmSync(pidFile, { force: true });
    const r = runCli(
      ['run', '--interval', '100', '--', 'sh', '-c', 'sleep 0.5; echo "CUDA out of memory" >&2; exit 1'],
      { env: withFake() },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the command failed (exit code 1)');
    expect(r.stderr).toMatch(/GPU 0 NVIDIA H200: .*python3 \(PID 694[^)]*\) 139\.5 GiB/);
    expect(r.stderr).toMatch(/GPU 0 [▁▂▃▄▅▆▇█]+ peak 139\.5 GiB of 140\.4 GiB/);
    expect(r.stderr).toContain('PID 694 (other) peak 139.5 GiB');
  });

  it('on success prints one line with the peak and the headroom per GPU', () => {
    const r = runCli(['run', '--interval', '100', '--', 'sleep', '0.4'], { env: withFake() });
    expect(r.code).toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /✓ gpu-env-doctor: exit code 0 after .* · GPU 0 peak 139\.5 GiB of 140\.4 GiB.*headroom 914 MiB/,
    );
  });
});

describe('run: the diagnosis (explain engine on the tail, with the snapshot taken at the failure)', () => {
  it('names the process that held the memory, with evidence numbered in the whole output', () => {
    fs.rmSync(pidFile, { force: true });
    const log = path.join(H200, 'logs/conv-keep1200-bs64.txt');
    const oomAt =
      fs
        .readFileSync(log, 'utf8')
        .split('\n')
        .findIndex((l) => l.startsWith('torch.OutOfMemoryError')) + 1;
    const script = `seq 1 100; sleep 0.3; cat '${log}' >&2; exit 1`;
    const r = runCli(
      [
        'run',
        '--report',
        (jsonOut = reportFile()),
        '--tail-lines',
        '40',
        '--interval',
        '100',
        '--',
        'sh',
        '-c',
        script,
      ],
      { env: withFake() },
    );
    expect(r.code).toBe(1);
    const json = JSON.parse(fs.readFileSync(jsonOut, 'utf8'));
    const top = json.diagnosis.causes[0];
    expect(top.id).toBe('memory_held_by_other_process');
    // the log names PID 637 (where it was captured); the snapshot at the failure names 694, the hog here
    // (unless PID 694 here is some other process, with no GPU open: then no kill is offered for it)
    const here = json.snapshot.processes.list.find((p: { pid: number }) => p.pid === 694);
    if (here?.gpuNotOpenHere) expect(top.fix.manual.join('\n')).not.toContain('kill 694');
    else expect(top.fix.manual.join('\n')).toContain('kill 694');
    const logEvidence = top.evidence.filter((e: { source?: string }) => e.source !== 'machine');
    expect(logEvidence[0]).toMatchObject({ line: 100 + oomAt });
    expect(json.tail.find((l: { n: number }) => l.n === 100 + oomAt).text).toMatch(/^torch.OutOfMemoryError/);
    expect(
      top.evidence.some((e: { source?: string; text: string }) => e.source === 'machine' && e.text.includes('PID 694')),
    ).toBe(true);
  });
});

describe('run: options and the report file (issue 16.14)', () => {
  it.each([
    [
      ['--json'],
      /--json is not an option of run: run's stdout and stderr belong to the job; write the report to a file with --report FILE\.json/,
    ],
    [['--markdown'], /--markdown is not an option of run: .*--report FILE\.md/],
    [['--report', 'out.txt'], /--report out\.txt: name the file \.json, \.md or \.html/],
  ])('%j is refused before the job starts, exit 2', (opts, msg) => {
    const r = runCli(['run', ...(opts as string[]), '--', 'sh', '-c', 'echo ran']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(msg);
  });
  it('run python -u train.py without "--" gets the helpful message, not the parser\'s', () => {
    const r = runCli(['run', 'python3', '-u', 'train.py']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('gpu-env-doctor: put the command after --: gpu-env-doctor run -- python3 -u train.py\n');
  });
  it('--report FILE.md and FILE.html: the format follows the extension', () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-run-md-'));
    const r = runCli(
      [
        'run',
        '--report',
        path.join(d, 'r.md'),
        '--report',
        path.join(d, 'r.html'),
        '--',
        'sh',
        '-c',
        'echo "RuntimeError: No CUDA GPUs are available" >&2; exit 1',
      ],
      { env: noGpu() },
    );
    expect(r.code).toBe(1);
    // the last --report wins (one file per run); the Markdown one needs its own run
    expect(fs.readFileSync(path.join(d, 'r.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/);
    runCli(
      [
        'run',
        '--report',
        path.join(d, 'r.md'),
        '--',
        'sh',
        '-c',
        'echo "RuntimeError: No CUDA GPUs are available" >&2; exit 1',
      ],
      { env: noGpu() },
    );
    const md = fs.readFileSync(path.join(d, 'r.md'), 'utf8');
    expect(md).toMatch(/^### gpu-env-doctor run on .*: the job failed/);
    // the job failed for want of a GPU: the report never says "no problems found" (issue 16.1)
    expect(md).not.toMatch(/no problems found/i);
  });
});

describe('run --redact', () => {
  it('hides the GPU UUID and the host name in the JSON, the same way everywhere', () => {
    const r = runCli(
      [
        'run',
        '--report',
        (jsonOut = reportFile()),
        '--redact',
        '--interval',
        '100',
        '--',
        'sh',
        '-c',
        `sleep 0.3; echo "GPU ${UUID} at 10.1.2.3 failed" >&2; exit 1`,
      ],
      { env: withFake() },
    );
    const json = fs.readFileSync(jsonOut, 'utf8');
    expect(json).not.toContain('86cd2dae');
    // the job's own stderr passes through untouched; our report after it is redacted too
    expect(r.stderr.slice(r.stderr.indexOf('gpu-env-doctor:'))).not.toContain('86cd2dae');
    expect(json).not.toContain('10.1.2.3');
    const parsed = JSON.parse(json);
    expect(parsed.snapshot.nvidia.gpus[0].uuid).toBe('GPU-UUID-1');
    expect(parsed.run.timeline.gpus[0].uuid).toBe('GPU-UUID-1');
    expect(parsed.tail.at(-1).text).toBe('GPU GPU-UUID-1 at ip-1 failed');
    expect(parsed.snapshot.nvidia.driverVersion).toBe('580.159.04');
  });
});

function spawnAndSignal(
  args: string[],
  signal: NodeJS.Signals,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...noGpu(), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let sent = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no exit; stdout=${stdout} stderr=${stderr}`));
    }, 15000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!sent && stdout.includes('ready')) {
        sent = true;
        child.kill(signal);
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
