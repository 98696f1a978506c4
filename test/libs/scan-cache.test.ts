// The kept answers (src/gather/libraries/scan-cache.ts): only this build's, only for the same question with every
// read unchanged, a bounded number, and a damaged file read as an empty cache; torch's architectures by identity.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileSystem } from '../../src/ports/fs.js';
import { ScanCache } from '../../src/gather/libraries/scan-cache.js';
import type { ScanFingerprint } from '../../src/gather/libraries/scan-record.js';
import type { LibrariesSection } from '../../src/gather/snapshot/schema-libraries.js';

let dir: string;
let env: Record<string, string>;
const plain = createFileSystem('/');
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-scancache-'));
  env = { XDG_CACHE_HOME: path.join(dir, 'cache') };
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A fingerprint of one file, as the scan would have kept it. */
function fingerprintOf(file: string, vars: [string, string | null][] = []): ScanFingerprint {
  return { paths: [[file, 'f', plain.identity!(file, true).id]], resolved: [], texts: [], kinds: [], env: vars };
}
const section = (tag: string) => ({ ok: true, copies: [], tag }) as unknown as LibrariesSection;

describe('the kept library scans', () => {
  it('answers the same question while its reads are unchanged, in this build only', () => {
    const file = path.join(dir, 'lib.so');
    fs.writeFileSync(file, 'x');
    const c = ScanCache.open(env, 'build-1');
    c.rememberScan({ key: 'q', fingerprint: fingerprintOf(file), environments: '[]', section: section('a') });
    expect(c.save()).toBe(true);

    const kept = path.join(env.XDG_CACHE_HOME!, 'gpu-env-doctor', 'library-scan.json');
    const written = fs.statSync(kept, { bigint: true }).mtimeNs;
    const again = ScanCache.open(env, 'build-1');
    expect(again.scan('q', plain, {})?.hit.section).toEqual(section('a'));
    // a hit writes nothing (its time of use is renewed at most hourly)
    expect(again.save()).toBe(true);
    expect(fs.statSync(kept, { bigint: true }).mtimeNs).toBe(written);
    expect(again.scan('q', plain, {})?.checked).toBe(1);
    expect(again.scan('other question', plain, {})).toBeNull();
    expect(ScanCache.open(env, 'build-2').scan('q', plain, {})).toBeNull();
    fs.writeFileSync(file, 'changed');
    expect(ScanCache.open(env, 'build-1').scan('q', plain, {})).toBeNull();
  });

  it('keeps one answer per set of variables, the four most recently used', () => {
    const file = path.join(dir, 'lib.so');
    fs.writeFileSync(file, 'x');
    let now = 0;
    const c = ScanCache.open(env, 'b', () => ++now);
    for (const v of ['1', '2', '3', '4', '5', '5'])
      c.rememberScan({
        key: 'q',
        fingerprint: fingerprintOf(file, [['LD_LIBRARY_PATH', v]]),
        environments: '[]',
        section: section(v),
      });
    c.save();
    const again = ScanCache.open(env, 'b');
    const answer = (v: string) => again.scan('q', plain, { LD_LIBRARY_PATH: v })?.hit.section;
    expect(answer('1')).toBeUndefined();
    expect(['2', '3', '4', '5'].map(answer)).toEqual(['2', '3', '4', '5'].map(section));
  });

  it('reads a damaged or foreign file as an empty cache, and writes it anew', () => {
    fs.mkdirSync(path.join(env.XDG_CACHE_HOME!, 'gpu-env-doctor'), { recursive: true, mode: 0o700 });
    const f = path.join(env.XDG_CACHE_HOME!, 'gpu-env-doctor', 'library-scan.json');
    for (const text of ['{not json', '{"version":1,"build":"b","scans":[{"key":"q","fingerprint":{"paths":7}}]}']) {
      fs.writeFileSync(f, text, { mode: 0o600 });
      expect(ScanCache.open(env, 'b').scan('q', plain, {})).toBeNull();
    }
    const c = ScanCache.open(env, 'b');
    c.rememberScan({ key: 'q', fingerprint: fingerprintOf(f), environments: '[]', section: section('x') });
    expect(c.save()).toBe(true);
    expect(JSON.parse(fs.readFileSync(f, 'utf8')).scans).toHaveLength(1);
  });

  it("keeps torch's architectures by the library's identity, not from a library changed just before", () => {
    const lib = path.join(dir, 'libtorch_cuda.so');
    fs.writeFileSync(lib, 'x');
    const targets = { sass: ['sm_90'], ptx: ['compute_90'], entries: 2 };
    const c = ScanCache.open(env, 'b');
    c.rememberFatbin(lib, plain, targets, Date.now()); // changed within the window: not kept
    expect(c.fatbin(lib, plain)).toBeUndefined();
    c.rememberFatbin(lib, plain, targets, Date.now() + 5000);
    c.save();
    expect(ScanCache.open(env, 'b').fatbin(lib, plain)).toEqual(targets);
    fs.appendFileSync(lib, 'y');
    expect(ScanCache.open(env, 'b').fatbin(lib, plain)).toBeUndefined();
  });
});
