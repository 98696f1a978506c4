// `check` end to end: the built CLI, a fake nvidia-smi on PATH replaying real H200 captures, and a temp
// --root holding the /proc of the processes involved.
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Snapshot } from '../../src/gather/snapshot/schema.js';
import { runCli } from '../helpers/cli.js';
import { fakeBin, fakeNvidiaSmi, FIXTURES, tempDir } from '../helpers/fake-bin.js';
import { makeRoot } from '../helpers/fixture-root.js';

const H = (p: string) => path.join(FIXTURES, 'h200', p);
const EXAMPLES = path.resolve(__dirname, '../fixtures/snapshots');

function withSmi(files: Parameters<typeof fakeNvidiaSmi>[1]): string {
  const bin = tempDir('ged-bin-');
  fakeNvidiaSmi(bin, files);
  return bin;
}
const env = (bin: string) => ({ PATH: `${bin}:/usr/bin:/bin` });

describe('gpu-env-doctor check', () => {
  it('idle H200: every area ok, exit 0', () => {
    const bin = withSmi({ xml: H('idle/nvidia-smi-q.xml'), csv: H('idle/query-gpu.csv') });
    const r = runCli(['check', '--root', makeRoot()], { env: env(bin) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /\[✓\] GPU & driver: .*1 × NVIDIA H200 \(compute capability 9\.0\), driver 580\.159\.04|\[✓\] GPU & driver: Driver 580\.159\.04/,
    );
    expect(r.stdout).toMatch(/\[✓\] GPU memory & processes: GPU 0 NVIDIA H200: 139\.8 GiB free of 140\.4 GiB/);
    expect(r.stdout).toMatch(/0 errors, 0 warnings/);
  });

  it('memory held by an orphaned process: names PID, owner, age, memory; exit 1', () => {
    const bin = withSmi({ xml: H('hog/nvidia-smi-q-hog.xml'), csv: H('idle/query-gpu.csv') });
    const root = makeRoot({
      bootTime: Math.floor(Date.now() / 1000) - 3 * 3600,
      procs: [
        { pid: 694, ppid: 1, uid: 1001, gpuFd: true, cmdline: ['python3', 'hog.py', '1200', '600'], starttime: 100 },
      ],
    });
    const r = runCli(['check', '--root', root], { env: env(bin) });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\[✗\] GPU memory & processes/);
    // (init's stat line in the temp root says it started after the hog: evidence that init adopted it)
    expect(r.stdout).toMatch(
      /PID 694 python3 \(bob\) holds 139\.5 GiB: orphaned, its parent process has exited: a leftover of a finished job/,
    );
    expect(r.stdout).toMatch(/running for (2h 59m|3h 0m)/);
    // one cause, one finding: the holder is named once, with the command that acts first
    expect(r.stdout.match(/PID 694/g)).toHaveLength(1);
    expect(r.stdout).toMatch(
      /\$ gpu-env-doctor fix   # shows the plan and asks first\n\s+By hand, after checking: kill 694/,
    );
    expect(r.stdout).toMatch(/python3\s+(│\s+)?hog\.py 1200 600/); // wrapped under the evidence gutter at 80 columns
    expect(r.stdout).toMatch(/kill 694/);
  });

  it('--json prints only the result, in the contract shape', () => {
    const bin = withSmi({ xml: H('hog/nvidia-smi-q-hog.xml'), csv: H('idle/query-gpu.csv') });
    const r = runCli(['check', '--json', '--root', makeRoot({ procs: [{ pid: 694, ppid: 1, gpuFd: true }] })], {
      env: env(bin),
    });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.schemaVersion).toBe(1);
    expect(Snapshot.safeParse(doc.snapshot).success).toBe(true);
    expect(doc.snapshot.host.name).toBeTypeOf('string');
    const holder = doc.findings.find(
      (f: { check: string; status: string }) => f.check === 'memory.headroom' && f.status === 'fail',
    );
    expect(holder).toMatchObject({
      severity: 'error',
      status: 'fail',
      rootCause: 'memory_held_by_other_process',
      affects: { gpu: 0, pid: 694 },
    });
    expect(holder.fix.commands.length).toBeGreaterThan(0);
    for (const f of doc.findings) {
      expect(Object.keys(f)).toEqual(
        expect.arrayContaining(['check', 'severity', 'status', 'rootCause', 'message', 'evidence']),
      );
    }
  });

  it('a hanging nvidia-smi is bounded by --timeout and reported as unknown', () => {
    const bin = tempDir('ged-bin-');
    fakeBin(bin, 'nvidia-smi', 'sleep 30');
    const t0 = Date.now();
    const r = runCli(['check', '--timeout', '1', '--root', makeRoot()], { env: env(bin) });
    expect(Date.now() - t0).toBeLessThan(15000);
    expect(r.stdout).toMatch(/\[\?\] GPU & driver: nvidia-smi did not answer in time/);
    expect(r.code).toBe(1);
  });

  it.each([
    [
      'the driver is not loaded',
      'echo "NVIDIA-SMI has failed because it couldn\'t communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."; exit 9',
      /couldn't communicate with the NVIDIA driver/,
      /modprobe nvidia/,
    ],
    [
      'driver/library mismatch',
      'echo "Failed to initialize NVML: Driver/library version mismatch" >&2; echo "NVML library version: 580.159" >&2; exit 18',
      /Driver\/library version mismatch.*not rebooted/,
      /reboot/,
    ],
    [
      'garbage output',
      'printf "\\x00\\x01binary junk\\n"; exit 0',
      /nvidia-smi failed: nvidia-smi -q -x printed something that is not its XML/,
      /Run nvidia-smi by hand/,
    ],
  ])('nvidia-smi fails (%s): one finding with a fix, exit 1, no stack trace', (_name, body, message, fix) => {
    const bin = tempDir('ged-bin-');
    fakeBin(bin, 'nvidia-smi', body);
    const r = runCli(['check', '--root', makeRoot()], { env: env(bin) });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(message);
    expect(r.stdout).toMatch(fix);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it('no NVIDIA driver at all (a laptop, CI): completes, says so plainly, exit 0', () => {
    const r = runCli(['check', '--root', makeRoot({ driverVersionFile: null })], { env: { PATH: '/usr/bin:/bin' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/No NVIDIA GPU or driver on this machine/);
  });

  it('--from a real H200 snapshot with memory held shows the full report on a machine without a GPU', () => {
    const r = runCli(['check', '--from', path.join(EXAMPLES, 'h200-memory-held.json')]);
    // 1.2 GiB free: a warning (small jobs still start there), so exit 0 unless --fail-on warn
    expect(r.code).toBe(0);
    expect(runCli(['check', '--from', path.join(EXAMPLES, 'h200-memory-held.json'), '--fail-on', 'warn']).code).toBe(1);
    // the capture has no session facts: whether process_api started the hog cannot be told
    expect(r.stdout).toMatch(
      /PID 589 python3 \(root\) holds 138\.6 GiB: unknown, its parent is process_api \(PID 1\), which may have started it/,
    );
    expect(r.stdout).toMatch(/GPU 0 has 1\.2 GiB free of 140\.4 GiB/);
    // a report from a snapshot says which file, which host, when it was taken and how long ago (issue 16.3)
    expect(r.stdout.split('\n')[0]).toMatch(/^gpu-env-doctor check of the snapshot .*h200-memory-held\.json/);
    expect(r.stdout).toMatch(
      /host vm, taken 2026-12-02 \d\d:\d\d UTC \(\d+[dhm][^)]* ago\); ages are as of that moment/,
    );
    expect(r.stdout).not.toMatch(/ ago,| ago:|started \S+ ago/);
  });

  it('--fail-on warn makes warnings fail; the default does not', () => {
    const bin = withSmi({ xml: H('idle/nvidia-smi-q.xml'), csv: H('idle/query-gpu.csv') });
    const root = makeRoot();
    const e = { ...env(bin), CUDA_LAUNCH_BLOCKING: '1' };
    expect(runCli(['check', '--root', root], { env: e }).code).toBe(0);
    expect(runCli(['check', '--root', root, '--fail-on', 'warn'], { env: e }).code).toBe(1);
  });

  it('snapshot output round-trips through --from', () => {
    const bin = withSmi({ xml: H('hog/nvidia-smi-q-hog.xml'), csv: H('idle/query-gpu.csv') });
    const root = makeRoot({ procs: [{ pid: 694, ppid: 1, gpuFd: true }] });
    const snap = runCli(['snapshot', '--root', root], { env: env(bin) });
    expect(snap.code).toBe(0);
    const file = path.join(tempDir(), 's.json');
    require('node:fs').writeFileSync(file, snap.stdout);
    const r = runCli(['check', '--from', file, '--json']);
    expect(JSON.parse(r.stdout).snapshot).toEqual(JSON.parse(snap.stdout));
  });

  it.each([
    [['check', '--from', '/nonexistent.json'], /cannot read \/nonexistent\.json: no such file/],
    [['check', '--from', __filename], /is not JSON/],
    [['check', '--bogus'], /^gpu-env-doctor: unknown option --bogus \(see gpu-env-doctor check --help\)$/m],
    [['check', '--frm', 'x.json'], /unknown option --frm \(did you mean --from\? see gpu-env-doctor check --help\)/],
    [['check', '--json', '--markdown'], /choose one output format: --json and --markdown cannot be combined/],
    [['check', '--no-machine'], /--no-machine is not an option of check: check judges a machine/],
    [['check', '--root', '/nonexistent'], /--root \/nonexistent: no such folder/],
    [['check', '--python', '/nonexistent/python'], /--python \/nonexistent\/python: no such file or folder/],
    [['check', '--fail-on'], /--fail-on needs a value \(error, warn\)/],
    [['check', '--timeout', '0'], /--timeout must be a number of seconds greater than 0, not "0"/],
    [
      ['check', '--ignore', 'memory.headrom'],
      /--ignore unknown check "memory\.headrom" \(did you mean memory\.headroom\?\)/,
    ],
    [['chek'], /unknown command "chek" \(did you mean check\? see gpu-env-doctor --help\)/],
    [['check', '--fail-on', 'sometimes'], /--fail-on must be "error" or "warn"/],
    [['frobnicate'], /unknown command "frobnicate"/],
  ])('bad input %j: one line on stderr, exit 2', (args, message) => {
    const r = runCli(args as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a JSON file that is not a snapshot is refused with the field that is wrong', () => {
    const file = path.join(tempDir(), 'x.json');
    require('node:fs').writeFileSync(file, JSON.stringify({ schemaVersion: 1, host: {} }));
    const r = runCli(['check', '--from', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not a gpu-env-doctor snapshot/);
  });
});
