// node.kernel-log: Xid lines as NVIDIA's own DCGM tests carry them (test/fixtures/node/dcgm-*), read through a
// scripted dmesg; a log that cannot be read is "unknown" with the permission it needs, never "no Xid".
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kernelLogCheck } from '../../../src/judge/checks/node/kernel-log.js';
import { createFileSystem } from '../../../src/ports/fs.js';
import { DEFAULT_PROBE_OPTIONS, type ProbeEnv } from '../../../src/gather/probe-env.js';
import { parseKernelLog, probeKernelLog } from '../../../src/gather/kernel-log.js';
import { fakeRunner, ok } from '../../helpers/fake-runner.js';
import { planted } from '../../helpers/snapshots.js';

const F = path.resolve(__dirname, '../../fixtures/node');
const read = (f: string) => fs.readFileSync(path.join(F, f), 'utf8');
const penv = (runner: ProbeEnv['runner']): ProbeEnv => ({
  fs: createFileSystem('/'),
  runner,
  env: {},
  now: () => Date.now(),
  pid: process.pid,
  options: DEFAULT_PROBE_OPTIONS,
});

describe('reading the kernel log', () => {
  it('dmesg lines and /dev/kmsg records: the bus, the code, the text, seconds since boot', () => {
    expect(parseKernelLog(read('dcgm-kmsg-xid.txt'))).toEqual({
      readable: true,
      nvrmLines: 2,
      xid: [
        { bus: '0000:01:00', code: 43, text: 'pid=1814139, name=cuda_assert_64b, Ch 00000018', seconds: 437812.449932 },
      ],
    });
    const d = parseKernelLog(read('dcgm-dmesg-xid.txt'));
    expect(d.nvrmLines).toBe(6);
    expect(d.xid.map((x) => [x.code, x.bus, x.seconds])).toEqual([
      [119, '0000:00:16', 1350.00441],
      [43, '0000:01:00', 2011.512977],
      [79, '0000:2a:00', 2950.700003],
      [79, '0000:2a:00', 2950.70012],
    ]);
  });
  it('the probe runs dmesg; "Operation not permitted" is recorded as a permission, with dmesg_restrict', async () => {
    const good = await probeKernelLog(
      penv(fakeRunner([{ command: 'dmesg', args: [], result: ok(read('dcgm-dmesg-xid.txt')) }])),
    );
    expect(good).toMatchObject({ readable: true, nvrmLines: 6 });
    const denied = await probeKernelLog(
      penv(
        fakeRunner([
          {
            command: 'dmesg',
            args: [],
            result: {
              kind: 'non-zero',
              code: 1,
              stdout: '',
              stderr: 'dmesg: read kernel buffer failed: Operation not permitted\n',
              durationMs: 1,
            },
          },
        ]),
      ),
    );
    expect(denied).toMatchObject({
      readable: false,
      reason: 'permission',
      detail: 'dmesg: read kernel buffer failed: Operation not permitted',
      xid: [],
    });
    // not the machine's own log under --root
    expect(await probeKernelLog({ ...penv(fakeRunner([])), fs: createFileSystem(F) })).toBeNull();
  });
});

describe('the check', () => {
  const withLog = (text: string, uptime: number | null = 3010) =>
    planted('h200-idle', (s) => {
      s.kernelLog = { ...parseKernelLog(text), dmesgRestrict: '1' };
      s.system.uptimeSeconds = uptime;
    });
  it('a GSP timeout and a GPU fallen off the bus: an error, hardware or driver, with the codes named and when', () => {
    const [f] = kernelLogCheck.evaluate(withLog(read('dcgm-dmesg-xid.txt')));
    expect(f).toMatchObject({ severity: 'error', rootCause: 'hardware_or_driver_fault' });
    expect(f!.message).toBe(
      "The kernel log has Xid 119 (GSP firmware did not answer in time (RPC timeout)); Xid 43 (the GPU stopped processing the program's work (a fault or an assertion in its kernel)); Xid 79 ×2 (the GPU has fallen off the bus) on 0000:00:16, 0000:01:00, 0000:2a:00, the last 1 minute ago",
    );
    expect(f!.evidence.at(-1)!.text).toMatch(/^\[2950\.7 s after boot\] NVRM: Xid \(PCI:0000:2a:00\): 79, /);
  });
  it("only a program's own fault (Xid 43): a warning about that program, the GPU is fine", () => {
    const [f] = kernelLogCheck.evaluate(withLog(read('dcgm-kmsg-xid.txt'), null));
    expect(f).toMatchObject({ severity: 'warn', rootCause: 'other' });
    expect(f!.fix!.text).toMatch(/CUDA_LAUNCH_BLOCKING=1/);
  });
  it('no Xid: nothing to say; not readable: unknown, naming the permission', () => {
    expect(
      kernelLogCheck.evaluate(withLog('[ 1.0] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  580.159.04\n')),
    ).toEqual([]);
    const s = planted('h200-idle', (x) => {
      x.kernelLog = {
        readable: false,
        reason: 'permission',
        detail: 'dmesg: read kernel buffer failed: Operation not permitted',
        dmesgRestrict: '1',
        nvrmLines: 0,
        xid: [],
      };
    });
    expect(kernelLogCheck.evaluate(s)).toEqual([
      expect.objectContaining({
        status: 'unknown',
        message: 'Xid errors: unknown: reading the kernel log needs root or CAP_SYSLOG (kernel.dmesg_restrict = 1)',
      }),
    ]);
  });
});
