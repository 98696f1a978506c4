// explain's tree runs with a code cache made after the run (src/cli/explain-load.ts), on the built dist/cli.js:
// written by a first explain and accepted by V8 in the next; never trusted when it is not this user's private,
// regular, intact file; never a change to what explain prints or its exit code. What happened to the cache is read
// from the loader's debug line (GPU_ENV_DOCTOR_DEBUG_CODE_CACHE=1, on stderr): V8's own answer
// (script.cachedDataRejected) is not visible from outside the process otherwise.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODE_CACHE_FILE, codeCacheSum, runShape } from '../../src/cli/explain-load.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';

const LOG = path.resolve(__dirname, '../fixtures/h200/logs/conv-keep1200-bs64.txt');
const SHORT = ['explain', LOG, '--no-machine'];
const DEBUG = /^code-cache: read=(true|false) rejected=(true|false) wrote=(true|false)\n/m;

function explain(cacheHome: string, args = SHORT, env: Record<string, string> = {}) {
  const r = runCli(args, { env: { XDG_CACHE_HOME: cacheHome, GPU_ENV_DOCTOR_DEBUG_CODE_CACHE: '1', ...env } });
  const m = DEBUG.exec(r.stderr);
  return {
    code: r.code,
    stdout: r.stdout,
    // the rest of stderr: what a user sees
    stderr: r.stderr.replace(DEBUG, ''),
    cache: m ? { read: m[1] === 'true', rejected: m[2] === 'true', wrote: m[3] === 'true' } : null,
  };
}
const cacheFile = (home: string) => path.join(home, 'gpu-env-doctor', CODE_CACHE_FILE);
/** what explain prints with no cache at all */
const plain = () => runCli(SHORT, { env: { GPU_ENV_DOCTOR_NO_CACHE: '1' } });

describe("explain's code cache", () => {
  it('is written by a first explain, accepted by V8 in the second, and changes nothing printed', () => {
    const home = tempDir('ged-code-cache-');
    const expected = plain();
    expect(expected.code).toBe(1);
    expect(expected.stdout.length).toBeGreaterThan(500);
    const first = explain(home);
    expect(first.cache).toEqual({ read: false, rejected: false, wrote: true });
    const st = fs.statSync(cacheFile(home));
    expect(st.mode & 0o777).toBe(0o600);
    expect(st.size).toBeGreaterThan(100_000);
    const second = explain(home);
    expect(second.cache).toEqual({ read: true, rejected: false, wrote: false });
    for (const r of [first, second]) expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual(expected);
    // unchanged by a run of a shape it was made by
    expect(fs.statSync(cacheFile(home)).mtimeMs).toBe(st.mtimeMs);
  });

  it('is written again for a shape of run it was not made by, then used by both', () => {
    const home = tempDir('ged-code-cache-');
    const json = [...SHORT, '--json'];
    expect(explain(home).cache?.wrote).toBe(true);
    const first = explain(home, json);
    expect(first.cache).toEqual({ read: true, rejected: false, wrote: true });
    expect(JSON.parse(first.stdout).causes.length).toBeGreaterThan(0);
    expect(explain(home, json).cache).toEqual({ read: true, rejected: false, wrote: false });
    expect(explain(home).cache).toEqual({ read: true, rejected: false, wrote: false });
    expect(fs.readFileSync(cacheFile(home), 'latin1').split('\n')[2]).toBe('--no-machine --json,--no-machine');
  });

  /** a cache made by a first run, then `spoil`ed: the next run must not use it, and must replace it */
  function spoiled(spoil: (file: string) => void) {
    const home = tempDir('ged-code-cache-');
    explain(home);
    spoil(cacheFile(home));
    const r = explain(home);
    expect(r.cache).toEqual({ read: false, rejected: false, wrote: true });
    const expected = plain();
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual(expected);
    const st = fs.lstatSync(cacheFile(home));
    expect(st.isFile()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
    expect(explain(home).cache).toEqual({ read: true, rejected: false, wrote: false });
    return home;
  }

  it('is ignored and replaced when a byte of its data changed (its own checksum: V8 does not check one)', () => {
    spoiled((f) => {
      const b = fs.readFileSync(f);
      b[b.length - 1000]! ^= 0x01;
      fs.writeFileSync(f, b);
    });
  });

  it('is ignored and replaced when truncated, or made for another build', () => {
    spoiled((f) => fs.truncateSync(f, fs.statSync(f).size - 4096));
    spoiled((f) => {
      const text = fs.readFileSync(f, 'latin1').split('\n');
      text[1] = text[1]!.replace(/^\S+/, '0.0.0');
      fs.writeFileSync(f, text.join('\n'), 'latin1');
    });
  });

  it('is ignored and replaced when others may write it, or it is a link', () => {
    spoiled((f) => fs.chmodSync(f, 0o620));
    const elsewhere = path.join(tempDir('ged-code-cache-target-'), 'planted');
    spoiled((f) => {
      fs.renameSync(f, elsewhere);
      fs.symlinkSync(elsewhere, f);
    });
    // the link's target is left as it was
    expect(fs.lstatSync(elsewhere).isFile()).toBe(true);
  });

  it.skipIf(process.geteuid?.() !== 0)('is ignored and replaced when another user owns it', () => {
    spoiled((f) => fs.chownSync(f, 12345, 12345));
  });

  it('is not written where the folder cannot be, nor when turned off, and explain prints the same', () => {
    const expected = plain();
    const dir = tempDir('ged-code-cache-');
    // the cache home is a file: no folder can be made in it
    const notDir = path.join(dir, 'file');
    fs.writeFileSync(notDir, 'x');
    const r = explain(notDir);
    expect(r.cache).toEqual({ read: false, rejected: false, wrote: false });
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual(expected);
    // a cache folder others may write is not used
    const open = path.join(dir, 'open');
    fs.mkdirSync(path.join(open, 'gpu-env-doctor'), { recursive: true });
    fs.chmodSync(path.join(open, 'gpu-env-doctor'), 0o777);
    expect(explain(open).cache?.wrote).toBe(false);
    expect(fs.readdirSync(path.join(open, 'gpu-env-doctor'))).toEqual([]);
    const offs: Record<string, string>[] = [{ GPU_ENV_DOCTOR_NO_CACHE: '1' }, { NODE_DISABLE_COMPILE_CACHE: '1' }];
    for (const env of offs) {
      const home = path.join(dir, Object.keys(env)[0]!);
      const off = explain(home, SHORT, env);
      expect(off.cache).toEqual({ read: false, rejected: false, wrote: false });
      expect(off.stdout).toBe(expected.stdout);
      expect(fs.existsSync(home)).toBe(false);
    }
  });

  it("has the chunks explain loads later share start.js's instance (Node's loader never loads it again)", () => {
    const dir = tempDir('ged-code-cache-');
    // a preload that writes down each file Node's CommonJS loader compiles
    const preload = path.join(dir, 'compiled.cjs');
    fs.writeFileSync(
      preload,
      `const M = require('node:module');
const compile = M.prototype._compile;
const seen = [];
M.prototype._compile = function (content, filename) { seen.push(filename); return compile.call(this, content, filename); };
process.on('exit', () => require('node:fs').writeSync(2, 'compiled: ' + JSON.stringify(seen) + '\\n'));
`,
    );
    const args = [...SHORT, '--format', 'markdown'];
    const expected = runCli(args, { env: { GPU_ENV_DOCTOR_NO_CACHE: '1' } });
    expect(expected.stdout).toContain('# ');
    const r = explain(path.join(dir, 'cache'), args, { NODE_OPTIONS: `--require=${preload}` });
    expect(r.stdout).toBe(expected.stdout);
    const compiled = JSON.parse(/^compiled: (.*)$/m.exec(r.stderr)![1]!) as string[];
    const tree = compiled.filter((f) => f.includes(`${path.sep}explain-tree${path.sep}`));
    // the markdown view's chunk was loaded by require("./markdown-….js") and it required "./start.js"
    expect(tree.some((f) => /markdown-\w+\.js$/.test(f))).toBe(true);
    expect(tree.filter((f) => f.endsWith(`${path.sep}start.js`))).toEqual([]);
    // without a cache of its own the tree is Node's require's (its compile cache then covers it), loaded once
    const off = explain(path.join(dir, 'off'), args, {
      NODE_OPTIONS: `--require=${preload}`,
      GPU_ENV_DOCTOR_NO_CACHE: '1',
    });
    expect(off.stdout).toBe(expected.stdout);
    expect(off.cache).toEqual({ read: false, rejected: false, wrote: false });
    const byNode = (JSON.parse(/^compiled: (.*)$/m.exec(off.stderr)![1]!) as string[]).filter((f) =>
      f.includes(`${path.sep}explain-tree${path.sep}`),
    );
    expect(byNode.filter((f) => f.endsWith(`${path.sep}start.js`))).toHaveLength(1);
    expect(byNode.some((f) => /markdown-\w+\.js$/.test(f))).toBe(true);
  });
});

describe("the code cache's checksum and shapes", () => {
  /** 64-bit FNV-1a over little-endian 8-byte words, the last padded with zeros: what the loader's sum computes */
  function fnv(data: Uint8Array): string {
    const padded = new Uint8Array(Math.ceil(data.length / 8) * 8);
    padded.set(data);
    const view = new DataView(padded.buffer);
    let h = 0xcbf29ce484222325n;
    for (let i = 0; i < padded.length; i += 8)
      h = BigInt.asUintN(64, (h ^ view.getBigUint64(i, true)) * 0x100000001b3n);
    return h.toString(16);
  }

  it('is 64-bit FNV-1a over the words, and any changed byte changes it', () => {
    for (const n of [0, 1, 7, 8, 9, 1000, 65_536 - 3, 200_001]) {
      const data = new Uint8Array(n).map((_, i) => (i * 2654435761) >>> 24);
      expect(codeCacheSum(data)).toBe(fnv(data));
      if (n === 0) continue;
      const at = Math.floor(n / 2);
      data[at]! ^= 0x80;
      expect(codeCacheSum(data)).toBe(fnv(data));
    }
    const a = new Uint8Array(4096).fill(7);
    const b = a.slice();
    b[4095] = 8;
    expect(codeCacheSum(a)).not.toBe(codeCacheSum(b));
  });

  it("names a run's shape by its options, not their order or values", () => {
    expect(runShape(['explain', 'x.log', '--no-machine'])).toBe('--no-machine');
    expect(runShape(['explain', '--json', 'x.log', '--no-machine', '--json'])).toBe('--json,--no-machine');
    expect(runShape(['--lang=zh', 'explain', '-'])).toBe('--lang');
    expect(runShape(['explain', 'x.log'])).toBe('-');
  });
});
