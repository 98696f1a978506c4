// The rule of which environments --deep may execute or load (src/gather/python/run-trust.ts), case by case.
import { describe, expect, it } from 'vitest';
import { mayRun, type StatOf } from '../../src/gather/python/run-trust.js';

const ME = 1000;
const tree =
  (m: Record<string, [uid: number, mode: number]>): StatOf =>
  (p) =>
    m[p] ? { uid: m[p][0], mode: m[p][1] } : null;
const env = (foundVia: string[]) => ({
  prefix: '/opt/conda/envs/x',
  interpreter: '/opt/conda/envs/x/bin/python3',
  foundVia,
});
const ok = tree({
  '/opt/conda/envs/x': [ME, 0o755],
  '/opt/conda/envs/x/bin': [ME, 0o755],
  '/opt/conda/envs/x/bin/python3': [0, 0o755],
  '/opt/conda/envs': [0, 0o1777],
});

describe('mayRun', () => {
  it('what the caller named or runs is run, whoever owns it', () => {
    const bobs = tree({ '/opt/conda/envs/x': [1002, 0o777] });
    for (const via of ['--python', 'VIRTUAL_ENV', 'CONDA_PREFIX', 'PATH'])
      expect(mayRun(env([via]), false, ME, bobs)).toEqual({ run: true, why: via });
  });
  it('a scanned environment is not run without --all-envs, even the caller’s own', () => {
    expect(mayRun(env(['conda envs']), false, ME, ok)).toEqual({
      run: false,
      why: 'not named: found through conda envs (name it with --python, or give --all-envs)',
    });
  });
  it('--all-envs: the caller’s own (or root’s) in a sticky shared folder is run', () => {
    expect(mayRun(env(['conda envs']), true, ME, ok)).toEqual({ run: true, why: '--all-envs' });
  });
  it('--all-envs: another user’s environment, bin folder or interpreter is refused, with the name', () => {
    const names = (uid: number) => (uid === 1002 ? 'bob' : null);
    expect(mayRun(env(['conda envs']), true, ME, tree({ ...{ '/opt/conda/envs/x': [1002, 0o755] } }), names).why).toBe(
      'the environment /opt/conda/envs/x belongs to another user (uid 1002, bob); name it with --python to run it anyway',
    );
    const badInterp = tree({
      '/opt/conda/envs/x': [ME, 0o755],
      '/opt/conda/envs/x/bin': [ME, 0o755],
      '/opt/conda/envs/x/bin/python3': [1002, 0o755],
      '/opt/conda/envs': [0, 0o755],
    });
    expect(mayRun(env(['conda envs']), true, ME, badInterp).why).toMatch(
      /^its interpreter \/opt\/conda\/envs\/x\/bin\/python3 belongs to another user \(uid 1002\)/,
    );
  });
  it('--all-envs: anything others can write, or a shared folder without the sticky bit, is refused', () => {
    const gw = tree({ '/opt/conda/envs/x': [ME, 0o775], '/opt/conda/envs': [0, 0o755] });
    expect(mayRun(env(['conda envs']), true, ME, gw).why).toMatch(/^other users can write the environment/);
    const shared = tree({
      '/opt/conda/envs/x': [ME, 0o755],
      '/opt/conda/envs/x/bin': [ME, 0o755],
      '/opt/conda/envs/x/bin/python3': [ME, 0o755],
      '/opt/conda/envs': [0, 0o777],
    });
    expect(mayRun(env(['conda envs']), true, ME, shared).why).toBe(
      'it is in a folder other users can write (/opt/conda/envs); name it with --python to run it anyway',
    );
    const unreadable = tree({});
    expect(mayRun(env(['conda envs']), true, ME, unreadable).run).toBe(false);
  });
  it('root as the caller trusts only root’s files; no /proc (uid unknown): only root’s', () => {
    const alice = tree({ '/opt/conda/envs/x': [1001, 0o755] });
    expect(mayRun(env(['pyenv']), true, 0, alice).run).toBe(false);
    expect(mayRun(env(['pyenv']), true, null, alice).run).toBe(false);
  });
});
