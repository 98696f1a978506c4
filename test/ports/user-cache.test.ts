// The user's cache folder (src/ports/user-cache.ts): where it is, that only this user's private files are trusted,
// and that writes are whole and private.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUserCache, userCacheDir, writeUserCache } from '../../src/ports/user-cache.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-ucache-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the user cache folder', () => {
  it('is $XDG_CACHE_HOME/gpu-env-doctor, else ~/.cache/gpu-env-doctor, and can be turned off', () => {
    expect(userCacheDir({ XDG_CACHE_HOME: '/x/cache', HOME: '/home/u' })).toBe('/x/cache/gpu-env-doctor');
    expect(userCacheDir({ XDG_CACHE_HOME: 'relative', HOME: '/home/u' })).toBe('/home/u/.cache/gpu-env-doctor');
    expect(userCacheDir({ HOME: '/home/u', GPU_ENV_DOCTOR_NO_CACHE: '1' })).toBeNull();
    expect(userCacheDir({ HOME: '/home/u', GPU_ENV_DOCTOR_NO_CACHE: '0' })).toBe('/home/u/.cache/gpu-env-doctor');
    expect(userCacheDir({})).toBeNull();
  });

  it('writes a private folder and file, and reads back what it wrote', () => {
    const env = { XDG_CACHE_HOME: dir };
    expect(writeUserCache(env, 'a.json', '{"x":1}')).toBe(true);
    const folder = path.join(dir, 'gpu-env-doctor');
    expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(folder, 'a.json')).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(folder)).toEqual(['a.json']); // no temp file left
    expect(readUserCache(env, 'a.json', 1024)).toBe('{"x":1}');
    expect(readUserCache(env, 'a.json', 3)).toBeNull(); // bigger than asked for
    expect(readUserCache(env, 'missing.json', 1024)).toBeNull();
  });

  it('does not trust a file or folder others may write, nor a link in place of the file', () => {
    const env = { XDG_CACHE_HOME: dir };
    writeUserCache(env, 'a.json', 'ours');
    const folder = path.join(dir, 'gpu-env-doctor');
    fs.chmodSync(path.join(folder, 'a.json'), 0o620);
    expect(readUserCache(env, 'a.json', 1024)).toBeNull();
    fs.chmodSync(path.join(folder, 'a.json'), 0o600);
    fs.chmodSync(folder, 0o777);
    expect(readUserCache(env, 'a.json', 1024)).toBeNull();
    expect(writeUserCache(env, 'b.json', 'x')).toBe(false);
    fs.chmodSync(folder, 0o700);
    fs.writeFileSync(path.join(dir, 'elsewhere.json'), 'planted', { mode: 0o600 });
    fs.symlinkSync(path.join(dir, 'elsewhere.json'), path.join(folder, 'c.json'));
    expect(readUserCache(env, 'c.json', 1024)).toBeNull();
  });

  it.runIf(process.getuid?.() === 0)("does not trust another user's file, nor write in another user's home", () => {
    const env = { XDG_CACHE_HOME: dir };
    writeUserCache(env, 'a.json', 'ours');
    fs.chownSync(path.join(dir, 'gpu-env-doctor', 'a.json'), 12345, 12345);
    expect(readUserCache(env, 'a.json', 1024)).toBeNull();
    // sudo keeping the caller's HOME: no root-owned folder left in it
    const home = path.join(dir, 'home');
    fs.mkdirSync(home);
    fs.chownSync(home, 12345, 12345);
    expect(writeUserCache({ HOME: home }, 'a.json', 'x')).toBe(false);
    expect(fs.readdirSync(home)).toEqual([]);
  });

  it('makes a cache home that is not there yet, never a home folder', () => {
    expect(writeUserCache({ XDG_CACHE_HOME: path.join(dir, 'x', 'cache') }, 'a.json', 'x')).toBe(true);
    expect(fs.existsSync(path.join(dir, 'x', 'cache', 'gpu-env-doctor', 'a.json'))).toBe(true);
    expect(writeUserCache({ HOME: path.join(dir, 'nohome') }, 'a.json', 'x')).toBe(false);
    expect(fs.existsSync(path.join(dir, 'nohome'))).toBe(false);
  });

  it('writes nothing when turned off or where the folder cannot be made', () => {
    expect(writeUserCache({ XDG_CACHE_HOME: dir, GPU_ENV_DOCTOR_NO_CACHE: '1' }, 'a.json', 'x')).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
    fs.writeFileSync(path.join(dir, 'file'), '');
    expect(writeUserCache({ XDG_CACHE_HOME: path.join(dir, 'file') }, 'a.json', 'x')).toBe(false);
  });
});
