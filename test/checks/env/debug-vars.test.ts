// env.debug: variables left over from debugging, on the idle H200 snapshot with the variable planted; each one a
// warning (severity and status together) whose evidence is the variable as set and whose fix unsets it.
import { beforeAll, describe, expect, it } from 'vitest';
import { setLang } from '../../../src/base/i18n/index.js';
import { debugVarsCheck } from '../../../src/judge/checks/env/debug-vars.js';
import { planted, realSnapshot } from '../../helpers/snapshots.js';

beforeAll(() => setLang('en'));

const withEnv = (env: Record<string, string>) =>
  planted('h200-idle', (s) => {
    s.env = { ...s.env, ...env };
  });

describe('env.debug', () => {
  it('finds nothing in the environment the snapshot was taken in', () => {
    expect(debugVarsCheck.evaluate(realSnapshot('h200-idle'))).toEqual([]);
  });

  it('CUDA_LAUNCH_BLOCKING=1: a warning, the variable as evidence, unset as the fix', () => {
    const [f, ...rest] = debugVarsCheck.evaluate(withEnv({ CUDA_LAUNCH_BLOCKING: '1' }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      check: 'env.debug',
      severity: 'warn',
      status: 'warn',
      rootCause: 'other',
      evidence: [{ text: 'CUDA_LAUNCH_BLOCKING=1', source: 'environment' }],
      affects: { env: 'CUDA_LAUNCH_BLOCKING' },
      fix: { commands: ['unset CUDA_LAUNCH_BLOCKING'] },
    });
    expect(f!.message).toMatch(/CUDA_LAUNCH_BLOCKING/);
  });

  it('reads CUDA_MODULE_LOADING in any case, and only the values that slow every job', () => {
    const names = (env: Record<string, string>) => debugVarsCheck.evaluate(withEnv(env)).map((f) => f.affects?.env);
    expect(names({ CUDA_MODULE_LOADING: 'eager', CUDA_CACHE_DISABLE: '1', CUDA_FORCE_PTX_JIT: '1' })).toEqual([
      'CUDA_FORCE_PTX_JIT',
      'CUDA_CACHE_DISABLE',
      'CUDA_MODULE_LOADING',
    ]);
    expect(names({ CUDA_MODULE_LOADING: 'LAZY', CUDA_LAUNCH_BLOCKING: '0', CUDA_CACHE_DISABLE: '' })).toEqual([]);
  });
});
