// The scan's fingerprint (src/gather/libraries/scan-record.ts): the real library scan run through the recording
// view over a temp tree with real ELF libraries, then each kind of change the scan depends on made on disk: the
// fingerprint must say "changed" for each, and "unchanged" for what the scan never looked at.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileSystem } from '../../src/ports/fs.js';
import { realRunner, type ProcessRunner } from '../../src/ports/runner.js';
import { scanLibraries } from '../../src/gather/libraries/probe.js';
import { discoverDetailed } from '../../src/gather/python/discover.js';
import { DEFAULT_PROBE_OPTIONS, type ProbeEnv } from '../../src/gather/probe-env.js';
import { ABSENT_EACH, record, unchanged, type ScanFingerprint } from '../../src/gather/libraries/scan-record.js';
import { buildFakeCuda } from '../helpers/fake-cuda.js';

let dir: string;
let libs: string;
let other: string;
// The files are made just now (their change time cannot be set back): the scans here are taken to have begun a
// few seconds later than they did, past the window in which a file changed is refused.
const LATER = 5000;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-scanrec-'));
  libs = path.join(dir, 'libs');
  other = path.join(dir, 'other');
  buildFakeCuda({ cudart: libs, cudnn: libs, cublas: libs });
  fs.mkdirSync(other);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function penvWith(env: Record<string, string | undefined>, runner: ProcessRunner = realRunner): ProbeEnv {
  return {
    fs: createFileSystem('/').session!(),
    runner,
    env,
    now: () => Date.now(),
    pid: process.pid,
    options: { ...DEFAULT_PROBE_OPTIONS, elfFiles: [path.join(libs, 'libcudnn.so.9')] },
  };
}

async function scanned(env: Record<string, string | undefined>): Promise<ScanFingerprint> {
  const penv = penvWith(env);
  const rec = record(penv.fs, penv.env, penv.runner);
  await scanLibraries({ ...penv, fs: rec.fs, env: rec.env, runner: rec.runner }, []);
  const fp = rec.fingerprint(Date.now() + LATER);
  if ('refused' in fp) throw new Error(`refused: ${fp.refused}`);
  return fp;
}

const plain = createFileSystem('/');

describe('the fingerprint of a library scan', () => {
  it('holds while nothing the scan read changed, and notes the variables it asked for', async () => {
    const env = { LD_LIBRARY_PATH: `${other}:${libs}`, UNRELATED: 'x' };
    fs.mkdirSync(path.join(dir, 'unrelated'));
    const fp = await scanned(env);
    expect(fp.paths.map(([p]) => p)).toContain(path.join(libs, 'libcudnn.so.9'));
    expect(fp.env.map(([k]) => k)).toContain('LD_LIBRARY_PATH');
    expect(fp.env.map(([k]) => k)).not.toContain('UNRELATED');
    expect(unchanged(fp, plain, env)).toBe(true);
    expect(unchanged(fp, plain, { ...env, UNRELATED: 'y' })).toBe(true);
    // a file the scan never read, in a folder it never listed nor searched
    fs.writeFileSync(path.join(dir, 'unrelated', 'notes.txt'), 'x');
    expect(unchanged(fp, plain, env)).toBe(true);
    // nor in a folder where it looked for a few names only (a home folder: its times change all day)
    expect(fp.paths.some(([p]) => p === dir)).toBe(false);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'x');
    expect(unchanged(fp, plain, env)).toBe(true);
  });

  it('keeps a few absent paths one by one, many by their folder', () => {
    const penv = penvWith({});
    const few = record(penv.fs, penv.env, penv.runner);
    for (let i = 0; i < ABSENT_EACH; i++) few.fs.tryStat(path.join(other, `lib${i}.so`));
    const byName = few.fingerprint(Date.now() + LATER) as ScanFingerprint;
    expect(byName.paths.filter(([p]) => p.startsWith(`${other}/`)).map(([, , id]) => id)).toEqual(
      Array(ABSENT_EACH).fill('-'),
    );
    // something else created there: the absent names still are
    fs.writeFileSync(path.join(other, 'notes.txt'), 'x');
    expect(unchanged(byName, plain, {})).toBe(true);
    fs.writeFileSync(path.join(other, 'lib3.so'), 'x');
    expect(unchanged(byName, plain, {})).toBe(false);

    const many = record(penv.fs, penv.env, penv.runner);
    for (let i = 0; i <= ABSENT_EACH; i++) many.fs.tryStat(path.join(libs, `missing${i}.so`));
    const byFolder = many.fingerprint(Date.now() + LATER) as ScanFingerprint;
    expect(byFolder.paths).toEqual([[libs, 'f', plain.identity!(libs, true).id]]);
  });

  it("holds when a file is written in the home folder the discovery looked in (a shell's history)", async () => {
    const home = path.join(dir, 'home');
    fs.mkdirSync(home);
    const env = { HOME: home, PATH: '/usr/bin:/bin' };
    const penv = penvWith(env);
    const rec = record(penv.fs, penv.env, penv.runner);
    // the worker's job: the environments discovered, then the scan, all through the recording view
    const scanPenv = { ...penv, fs: rec.fs, env: rec.env, runner: rec.runner };
    await scanLibraries(scanPenv, discoverDetailed(scanPenv));
    const fp = rec.fingerprint(Date.now() + LATER) as ScanFingerprint;
    // what it asked of the home folder: conventional names (conda roots, .pyenv), each absent
    const asked = fp.paths.filter(([p]) => p.startsWith(`${home}/`));
    expect(asked.length).toBeGreaterThan(5);
    expect(fp.paths.some(([p]) => p === home)).toBe(false);
    fs.writeFileSync(path.join(home, '.bash_history'), 'ls\n');
    expect(unchanged(fp, plain, env)).toBe(true);
    // an empty folder of a conda root's name is still no conda root; its conda-meta makes one
    fs.mkdirSync(path.join(home, 'miniconda3'));
    expect(unchanged(fp, plain, env)).toBe(true);
    fs.mkdirSync(path.join(home, 'miniconda3', 'conda-meta'));
    expect(unchanged(fp, plain, env)).toBe(false);
  });

  it('breaks when a variable it asked for changes', async () => {
    const env = { LD_LIBRARY_PATH: libs };
    const fp = await scanned(env);
    expect(unchanged(fp, plain, { LD_LIBRARY_PATH: `${other}:${libs}` })).toBe(false);
    expect(unchanged(fp, plain, { ...env, LD_PRELOAD: '/x.so' })).toBe(false);
  });

  it('breaks when a library it read is rewritten in place, even to the same size and time', async () => {
    const env = { LD_LIBRARY_PATH: libs };
    const fp = await scanned(env);
    const f = path.join(libs, 'libcudnn.so.9');
    const st = fs.statSync(f);
    const bytes = fs.readFileSync(f);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    fs.writeFileSync(f, bytes);
    fs.utimesSync(f, st.atime, st.mtime); // the modification time put back: the change time still moved
    expect(unchanged(fp, plain, env)).toBe(false);
  });

  it('breaks when a copy appears where the search looked and found nothing', async () => {
    const env = { LD_LIBRARY_PATH: `${other}:${libs}` };
    const fp = await scanned(env);
    fs.copyFileSync(path.join(libs, 'libcudart.so.13'), path.join(other, 'libcudart.so.13'));
    expect(unchanged(fp, plain, env)).toBe(false);
  });

  it('breaks when a folder on the search path that was missing is created', async () => {
    const missing = path.join(dir, 'later');
    const env = { LD_LIBRARY_PATH: `${missing}:${libs}` };
    const fp = await scanned(env);
    expect(unchanged(fp, plain, env)).toBe(true);
    fs.mkdirSync(missing);
    expect(unchanged(fp, plain, env)).toBe(false);
  });

  it('breaks when a link it resolved points elsewhere', async () => {
    const link = path.join(dir, 'current');
    fs.symlinkSync(libs, link);
    const env = { LD_LIBRARY_PATH: link };
    const fp = await scanned(env);
    expect(unchanged(fp, plain, env)).toBe(true);
    fs.unlinkSync(link);
    fs.symlinkSync(other, link);
    expect(unchanged(fp, plain, env)).toBe(false);
  });

  it('is refused for a file changed while (or just before) the scan read it', async () => {
    const env = { LD_LIBRARY_PATH: libs };
    const begun = Date.now() + LATER;
    const soon = new Date(begun - 1000);
    fs.utimesSync(path.join(libs, 'libcudart.so.13'), soon, soon);
    const penv = penvWith(env);
    const rec = record(penv.fs, penv.env, penv.runner);
    await scanLibraries({ ...penv, fs: rec.fs, env: rec.env, runner: rec.runner }, []);
    expect(rec.fingerprint(begun)).toEqual({ refused: 'a file it read changed in the last seconds' });
    // the same scan begun later than the change and its window: kept
    expect(rec.fingerprint(begun + 2000)).toHaveProperty('paths');
  });

  it('is refused for a path the scan saw that is gone when the fingerprint is taken', () => {
    const penv = penvWith({});
    const rec = record(penv.fs, penv.env, penv.runner);
    const f = path.join(other, 'soon-gone.so');
    fs.writeFileSync(f, 'x');
    expect(rec.fs.tryStat(f)).not.toBeNull();
    expect(rec.fs.tryStat(path.join(other, 'never.so'))).toBeNull();
    fs.rmSync(f);
    expect(rec.fingerprint(Date.now() + LATER)).toEqual({ refused: `${f} was removed while the scan ran` });
  });

  it('is refused when the scan ran a program or read what cannot be compared', async () => {
    const penv = penvWith({});
    const ran = record(penv.fs, penv.env, penv.runner);
    await ran.runner.run('true', []);
    expect(ran.fingerprint(Date.now())).toEqual({ refused: 'ran true' });
    const proc = record(penv.fs, penv.env, penv.runner);
    proc.fs.readBytes('/proc/self/status', 0, 100);
    expect(proc.fingerprint(Date.now())).toEqual({ refused: 'read /proc/self/status' });
    const listed = record(penv.fs, { A: '1' }, penv.runner);
    expect(Object.keys(listed.env)).toEqual(['A']);
    expect(listed.fingerprint(Date.now())).toEqual({ refused: 'listed every environment variable' });
  });

  it('compares a /proc text by what it says', async () => {
    const penv = penvWith({});
    const rec = record(penv.fs, penv.env, penv.runner);
    const text = rec.fs.readText('/proc/self/comm', 100);
    const fp = rec.fingerprint(Date.now()) as ScanFingerprint;
    expect(fp.texts).toEqual([['/proc/self/comm', 100, text]]);
    expect(unchanged(fp, plain, {})).toBe(true);
    expect(unchanged({ ...fp, texts: [['/proc/self/comm', 100, 'another\n']] }, plain, {})).toBe(false);
  });
});
