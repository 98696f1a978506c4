// gpu.driver when nvidia-smi does not answer, on the idle H200 snapshot with the probe's failure planted: every
// reason gets the status its severity allows; an answer nvidia-smi gave but the tool could not read is unknown,
// never a failure of the driver.
import { beforeAll, describe, expect, it } from 'vitest';
import { setLang } from '../../../src/base/i18n/index.js';
import { driverCheck } from '../../../src/judge/checks/gpu/driver.js';
import type { ProbeFailure } from '../../../src/gather/snapshot/schema.js';
import { planted, realSnapshot } from '../../helpers/snapshots.js';

beforeAll(() => setLang('en'));

const failing = (failure: ProbeFailure) =>
  planted('h200-idle', (s) => {
    s.nvidia = { ok: false, failure };
  });
const verdict = (failure: ProbeFailure) => {
  const found = driverCheck.evaluate(failing(failure));
  expect(found).toHaveLength(1);
  const f = found[0]!;
  return [f.severity, f.status, f.rootCause];
};

describe('gpu.driver', () => {
  it('the driver that answered: ok, with its versions as evidence', () => {
    const [f, ...rest] = driverCheck.evaluate(realSnapshot('h200-idle'));
    expect(rest).toEqual([]);
    expect([f!.severity, f!.status, f!.rootCause, f!.fix]).toEqual(['info', 'ok', null, undefined]);
    expect(f!.evidence[0]!.text).toMatch(/^driver_version \d+\.\d+/);
  });

  it('an answer it could not read: unknown, at error severity (it may be the driver)', () => {
    expect(verdict({ reason: 'unparseable', message: 'garbled XML' })).toEqual([
      'error',
      'unknown',
      'hardware_or_driver_fault',
    ]);
  });

  it('nvidia-smi failing: a failure, of no visible device when it says it found none', () => {
    expect(verdict({ reason: 'failed', message: 'No devices were found' })).toEqual([
      'error',
      'fail',
      'no_device_visible',
    ]);
    expect(verdict({ reason: 'failed', message: 'Unable to determine the device handle' })).toEqual([
      'error',
      'fail',
      'hardware_or_driver_fault',
    ]);
  });

  it('a timeout: unknown; a driver/library mismatch: a failure', () => {
    expect(verdict({ reason: 'timeout', message: 'timed out after 10 s' })).toEqual([
      'error',
      'unknown',
      'hardware_or_driver_fault',
    ]);
    expect(verdict({ reason: 'nvml-mismatch', message: 'Driver/library version mismatch' })).toEqual([
      'error',
      'fail',
      'hardware_or_driver_fault',
    ]);
  });
});
