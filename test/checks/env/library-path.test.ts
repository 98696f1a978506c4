// env.library-path on the idle H200 snapshot (a container whose LD_LIBRARY_PATH lists the driver's folders and
// whose CUDA_HOME is set), with variables planted: a compat folder and a preloaded CUDA library are warnings with a
// fix; what the path lists and an empty entry are information (ok, never a fix).
import { beforeAll, describe, expect, it } from 'vitest';
import { setLang } from '../../../src/base/i18n/index.js';
import { libraryPathCheck } from '../../../src/judge/checks/env/library-path.js';
import { planted, realSnapshot } from '../../helpers/snapshots.js';

beforeAll(() => setLang('en'));

const withEnv = (env: Record<string, string>) =>
  planted('h200-idle', (s) => {
    s.env = { ...s.env, ...env };
  });
const pairs = (env: Record<string, string>) =>
  libraryPathCheck.evaluate(withEnv(env)).map((f) => [f.affects?.env ?? null, f.severity, f.status, f.rootCause]);

describe('env.library-path', () => {
  it('the snapshot as taken: the driver folders it lists and CUDA_HOME, both information without a fix', () => {
    const found = libraryPathCheck.evaluate(realSnapshot('h200-idle'));
    expect(found.map((f) => [f.severity, f.status, f.rootCause, f.fix])).toEqual([
      ['info', 'ok', null, undefined],
      ['info', 'ok', null, undefined],
    ]);
    expect(found[0]!.evidence).toEqual([
      { text: 'LD_LIBRARY_PATH=/usr/local/nvidia/lib64:/usr/local/nvidia/lib', source: 'environment' },
    ]);
  });

  it('a compat folder on the path: a warning (driver too old), the fix drops that folder alone', () => {
    const found = libraryPathCheck.evaluate(withEnv({ LD_LIBRARY_PATH: '/usr/local/cuda/compat:/opt/lib' }));
    const compat = found.find((f) => f.rootCause === 'driver_too_old')!;
    expect([compat.severity, compat.status]).toEqual(['warn', 'warn']);
    expect(compat.fix!.commands).toEqual(['export LD_LIBRARY_PATH=/opt/lib']);
  });

  it('an empty entry (the current directory) is said, without a fix', () => {
    expect(pairs({ LD_LIBRARY_PATH: '/opt/lib::/usr/lib' })).toContainEqual(['LD_LIBRARY_PATH', 'info', 'ok', null]);
  });

  it('a CUDA library in LD_PRELOAD: a warning of a library conflict, unset as the fix', () => {
    const found = libraryPathCheck.evaluate(withEnv({ LD_PRELOAD: '/usr/lib/x86_64-linux-gnu/libcudnn.so.8' }));
    const pre = found.find((f) => f.affects?.env === 'LD_PRELOAD')!;
    expect([pre.severity, pre.status, pre.rootCause]).toEqual(['warn', 'warn', 'library_conflict']);
    expect(pre.fix!.commands).toEqual(['unset LD_PRELOAD']);
    expect(pairs({ LD_PRELOAD: '/usr/lib/libjemalloc.so.2' }).some(([env]) => env === 'LD_PRELOAD')).toBe(false);
  });
});
