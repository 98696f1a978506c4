// The library scan's cache as the built CLI uses it (src/gather/libraries/scan-cache.ts): a second `check` on an
// unchanged machine takes the kept answer and gives the same facts; a changed search path, a rewritten library or
// another build scan again; GPU_ENV_DOCTOR_NO_CACHE=1 writes nothing.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { buildFakeCuda } from '../helpers/fake-cuda.js';

let dir: string;
let cacheHome: string;
let libs: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-scancli-'));
  // apart from the libraries' tree: making the cache folder there would change a folder the scan looked at
  cacheHome = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-scancli-cache-'));
  libs = path.join(dir, 'libs');
  buildFakeCuda({ cudart: libs, cudnn: libs, cublas: libs });
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(cacheHome, { recursive: true, force: true });
});

interface Probe {
  id: string;
  message?: string;
}
function check(env: Record<string, string>) {
  const r = runCli(['check', '--json'], { env, timeoutMs: 60_000 });
  expect(r.stderr).toBe('');
  const out = JSON.parse(r.stdout) as {
    snapshot: { probes: Probe[]; libraries: Record<string, unknown> };
    findings: { id: string }[];
  };
  const { durationMs: _, ...libraries } = out.snapshot.libraries;
  return {
    libraries,
    findings: out.findings.map((f) => f.id),
    message: out.snapshot.probes.find((p) => p.id === 'libraries')?.message ?? '',
  };
}
const fromCache = (m: string) => m.startsWith("the last scan's answer");

describe('check with the library scan kept between runs', () => {
  it('reuses the answer while nothing changed, and scans again when something the scan read did', async () => {
    // the libraries are made just now: a scan refuses files changed in the last two seconds
    await new Promise((r) => setTimeout(r, 2100));
    const env = { XDG_CACHE_HOME: cacheHome, LD_LIBRARY_PATH: libs };
    const first = check(env);
    expect(fromCache(first.message)).toBe(false);
    expect(JSON.stringify(first.libraries)).toContain(path.join(libs, 'libcudnn.so.9'));
    expect(fs.readdirSync(path.join(cacheHome, 'gpu-env-doctor'))).toEqual(['library-scan.json']);

    const second = check(env);
    expect(second.message).toMatch(
      /^the last scan's answer: the \d+ files, folders and variables it read are unchanged$/,
    );
    expect(second.libraries).toEqual(first.libraries);
    expect(second.findings).toEqual(first.findings);

    // another search path: another question, scanned (and kept beside the first)
    const without = check({ XDG_CACHE_HOME: cacheHome });
    expect(fromCache(without.message)).toBe(false);
    expect(JSON.stringify(without.libraries)).not.toContain(libs);
    expect(fromCache(check(env).message)).toBe(true);

    // a library on the path rewritten: scanned again
    fs.appendFileSync(path.join(libs, 'libcudnn.so.9'), Buffer.from([0]));
    expect(fromCache(check(env).message)).toBe(false);
  }, 120_000);

  it('keeps nothing when turned off', () => {
    const home = path.join(cacheHome, 'off');
    const r = check({ XDG_CACHE_HOME: home, GPU_ENV_DOCTOR_NO_CACHE: '1' });
    expect(fromCache(r.message)).toBe(false);
    expect(fs.existsSync(home)).toBe(false);
  }, 60_000);
});
