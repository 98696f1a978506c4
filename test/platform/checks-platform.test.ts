// The checks' fixes on the platform of the snapshot: on Linux exactly what the checks wrote (the real H200
// snapshots), under WSL2 the driver steps move to the Windows host, on Windows taskkill/tasklist and PATH.
import { describe, expect, test } from 'vitest';
import { ALL_CHECKS } from '../../src/judge/checks/index.js';
import { runChecks } from '../../src/judge/checks/run-checks.js';
import type { Finding } from '../../src/judge/finding.js';
import { planted, realSnapshot } from '../helpers/snapshots.js';
import { realH200Env, setDriver, withEnv } from '../compat/helpers.js';
import { machineVerdict } from '../../src/judge/compat/machine.js';
import { requirementsFor } from '../../src/judge/compat/requirements.js';

const fixes = (fs: Finding[]) => fs.filter((f) => f.fix).map((f) => ({ check: f.check, ...f.fix! }));
const all = (s: Parameters<typeof runChecks>[1]) => runChecks(ALL_CHECKS, s).flatMap((r) => r.findings);

describe('Linux: the fixes as the checks wrote them', () => {
  test('the real H200 with memory held: gpu-env-doctor fix and kill stay, no Windows syntax anywhere', () => {
    const f = fixes(all(realSnapshot('h200-memory-held')));
    // the GPU is short of memory: memory.headroom names its holder and carries the fix (one cause, one finding)
    // (its holder's parent is process_api, PID 1, with no evidence either way: unknown, so no gpu-env-doctor fix)
    const holders = f.find((x) => x.check === 'memory.headroom')!;
    expect(holders.commands).toEqual(['ps -o pid,ppid,user,etime,stat,cmd -p 589']);
    expect(holders.manual).toEqual(['kill 589']);
    expect(JSON.stringify(f)).not.toMatch(/taskkill|tasklist|\$env:|where\.exe|\bset [A-Z_]+=/);
  });
});

describe('WSL2', () => {
  test('an old driver: install the driver on Windows, not inside WSL; the process steps stay bash', () => {
    const s = withEnv(realH200Env(), (x) => {
      setDriver(x, '470.82.01');
      x.system.wsl = true;
    });
    const driver = fixes(all(s)).find((x) => x.check === 'versions.driver-cuda')!;
    expect(driver.manual![0]).toBe(
      'On Windows (not inside WSL): install or update the NVIDIA driver from nvidia.com, then restart WSL from a Windows prompt: wsl --shutdown',
    );
    expect(driver.manual!.join('\n')).not.toMatch(/apt install nvidia-driver|sudo reboot/);
    expect(driver.text).toMatch(/WSL2 uses the Windows host's NVIDIA driver/);
    const m = machineVerdict(requirementsFor('torch==2.11.0+cu130'), s);
    expect(m.fix!.manual![0]).toMatch(/^On Windows \(not inside WSL\)/);
    const held = fixes(all(planted('h200-memory-held', (x) => (x.system.wsl = true)))).find(
      (x) => x.check === 'memory.headroom',
    )!;
    expect(held.commands).toEqual(['ps -o pid,ppid,user,etime,stat,cmd -p 589']);
    expect(held.manual).toEqual(['kill 589']);
  });
});

describe('Windows', () => {
  test('a process to end: taskkill /F by hand, tasklist to look first (gpu-env-doctor fix acts on Linux only)', () => {
    const held = fixes(all(planted('h200-memory-held', (x) => (x.system.os = 'Microsoft Windows 11 Pro')))).find(
      (x) => x.check === 'memory.headroom',
    )!;
    expect(held.commands).toEqual(['tasklist /V /FI "PID eq 589"']);
    expect(held.manual).toEqual(['taskkill /PID 589 /F']);
  });
  test('an old driver: the Windows driver number, the installer, a restart', () => {
    const s = withEnv(realH200Env(), (x) => {
      setDriver(x, '470.82.01');
      x.system.os = 'Microsoft Windows 11 Pro';
    });
    const driver = fixes(all(s)).find((x) => x.check === 'versions.driver-cuda')!;
    // compat's driver step is already written for Windows there (its Windows driver number, 580.88 for CUDA 13.0)
    expect(driver.manual).toEqual(['install NVIDIA driver 580.88 or newer from nvidia.com, then reboot']);
    expect(driver.manual!.join('\n')).not.toMatch(/sudo|apt /);
  });
});
