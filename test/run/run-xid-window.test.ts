// `run` and the kernel log: the Xid lines written while the job ran are told from older ones, end to end through
// the built CLI. The fake dmesg on PATH prints Xid lines as NVIDIA's DCGM tests carry them
// (test/fixtures/node/dcgm-dmesg-xid.txt): an old Xid 43 at 2011.5 s after boot, and an Xid 79 stamped with the
// time since boot that the job itself read from /proc/uptime while it ran. A dmesg that is refused says which
// permission it needs.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fakeBin, FIXTURES, tempDir } from '../helpers/fake-bin.js';

const H200 = path.join(FIXTURES, 'h200');
const UUID = 'GPU-86cd2dae-7950-6451-53ef-58bd5f0e3df7';
let dir: string;
let stamp: string;

function binWith(name: string, dmesg: string): string {
  const bin = path.join(dir, name);
  fs.mkdirSync(bin);
  fakeBin(
    bin,
    'nvidia-smi',
    `case "$1" in
  -q) cat '${H200}/idle/nvidia-smi-q.xml' ;;
  --query-gpu=index,uuid,memory.used,memory.total)
    while :; do echo "0, ${UUID}, 0, 143771"; sleep 0.1; done ;;
  --query-gpu=*) cat '${H200}/idle/query-gpu.csv' ;;
  --query-compute-apps=*) while :; do sleep 0.1; done ;;
  *) echo "unexpected: $*" >&2; exit 2 ;;
esac`,
  );
  fakeBin(bin, 'dmesg', dmesg);
  return bin;
}

let readable: string;
let refused: string;
beforeAll(() => {
  dir = tempDir('ged-xid-');
  stamp = path.join(dir, 'xid-at');
  readable = binWith(
    'readable',
    `echo '[ 2011.512977] NVRM: Xid (PCI:0000:01:00): 43, pid=1814139, name=cuda_assert_64b, Ch 00000018'
[ -s '${stamp}' ] && echo "[$(cat '${stamp}')] NVRM: Xid (PCI:0000:2a:00): 79, pid=0, GPU has fallen off the bus."
exit 0`,
  );
  refused = binWith('refused', `echo 'dmesg: read kernel buffer failed: Operation not permitted' >&2; exit 1`);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const report = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ged-xid-report-')), 'run.json');
// the job: reads the time since boot (as the kernel stamps its log), then fails as a job on a lost GPU does
const job = () =>
  `read up rest < /proc/uptime; echo "$up" > '${stamp}'; sleep 0.2; echo "RuntimeError: CUDA error: unknown error" >&2; exit 1`;

describe('run: Xid lines inside the job window', () => {
  it('names the Xid 79 written while the job ran as the likely reason, and the older Xid 43 apart', () => {
    fs.rmSync(stamp, { force: true });
    const out = report();
    const r = runCli(['run', '--report', out, '--', 'sh', '-c', job()], {
      env: { PATH: `${readable}:${process.env.PATH ?? '/usr/bin:/bin'}`, LANG: 'C' },
    });
    expect(r.code).toBe(1);
    const json = JSON.parse(fs.readFileSync(out, 'utf8'));
    const xid = json.findings.filter((f: { check: string }) => f.check === 'node.kernel-log');
    expect(xid.map((f: { message: string }) => f.message)).toEqual([
      expect.stringMatching(
        /^The job ran while the kernel log recorded Xid 79 \(.*\) on 0000:2a:00: the GPU fault is the likely reason it failed$/,
      ),
      expect.stringMatching(/^The kernel log has Xid 43 .* on 0000:01:00/),
    ]);
    expect(xid[0]).toMatchObject({ severity: 'error', rootCause: 'hardware_or_driver_fault' });
    expect(json.snapshot.kernelLog.jobWindow.toSeconds).toBeGreaterThan(json.snapshot.kernelLog.jobWindow.fromSeconds);
  });

  it('a kernel log that cannot be read: "unknown", with the permission it needs, never "no Xid"', () => {
    const out = report();
    const r = runCli(['run', '--report', out, '--', 'sh', '-c', 'exit 1'], {
      env: { PATH: `${refused}:${process.env.PATH ?? '/usr/bin:/bin'}`, LANG: 'C' },
    });
    expect(r.code).toBe(1);
    const json = JSON.parse(fs.readFileSync(out, 'utf8'));
    const f = json.findings.find((x: { check: string }) => x.check === 'node.kernel-log');
    expect(f).toMatchObject({
      status: 'unknown',
      message: expect.stringMatching(
        /^Xid errors during the job: unknown: reading the kernel log needs root or CAP_SYSLOG/,
      ),
    });
  });
});
