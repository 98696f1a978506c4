// How dist/cli.js loads explain's tree (dist/explain-tree/start.js, CommonJS): compiled with V8's code cache of the
// file made AFTER a run, so that it holds every function the run compiled. Node's compile cache is made when a file
// is compiled, before it runs, and holds only what was compiled then: every function not compiled eagerly (class
// methods, closures) was compiled again at its first call in every process.
// The cache is a file of the user's cache folder (the rules of src/ports/user-cache.ts: this user's own folder and
// file, written by no one else, never through a link, size capped; written atomically, 0600), keyed by the tool's
// version, the tree file's size and time, V8's version and the CPU. V8 release builds do not verify a code cache's
// checksum, so the file carries one of its own, checked before V8 sees the data. A run writes the cache after the
// command has ended (its output written) when there was none, when V8 rejected it, or when the run's shape (its
// options) is one the cache was not made by; anything failing there is silent. GPU_ENV_DOCTOR_NO_CACHE=1 and
// NODE_DISABLE_COMPILE_CACHE=1 turn it off: Node's require loads the tree then (with Node's compile cache unless
// that is off too). Built-ins come through the caller's require (the build makes this file
// dist/explain-load.cjs, which requires nothing itself).
import type * as Fs from 'node:fs';
import type * as NodeModule from 'node:module';
import type * as NodePath from 'node:path';
import type * as Vm from 'node:vm';

type Env = Record<string, string | undefined>;
type Start = (argv: string[], ended?: () => void) => void;

/** the cache file in the cache folder */
export const CODE_CACHE_FILE = 'explain-code.bin';
/** a cache bigger than this is not read (the whole tree's cache is ~1 MB) */
const MAX_CACHE_BYTES = 32 * 1024 * 1024;
/** the distinct shapes one cache is written for at most: past that it is not written again until it is rejected */
const MAX_SHAPES = 16;
const MAGIC = 'gpu-env-doctor code cache 1';

/**
 * The checksum: 64-bit FNV-1a over the data's 8-byte little-endian words (the last one padded with zeros), as a
 * WebAssembly function h(from, to) over its imported memory. Node's zlib.crc32 costs more to load (node:zlib loads
 * the stream classes: ~30 M instructions) than the cache saves; this costs ~2 M over 600 kB. A change inside one
 * word always changes the sum (each step is a bijection of the running value).
 */
const SUM_WASM = [
  0, 97, 115, 109, 1, 0, 0, 0, 1, 7, 1, 96, 2, 127, 127, 1, 126, 2, 8, 1, 1, 106, 1, 109, 2, 0, 0, 3, 2, 1, 0, 7, 5, 1,
  1, 104, 0, 0, 10, 60, 1, 58, 1, 1, 126, 66, 165, 198, 136, 161, 200, 156, 167, 249, 75, 33, 2, 2, 64, 3, 64, 32, 0,
  32, 1, 79, 13, 1, 32, 2, 32, 0, 41, 3, 0, 133, 66, 179, 131, 128, 128, 128, 32, 126, 33, 2, 32, 0, 65, 8, 106, 33, 0,
  12, 0, 11, 11, 32, 2, 11,
];

/** The part of WebAssembly used here (the type library of this project has none). */
interface Wasm {
  Memory: new (d: { initial: number }) => { buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (m: object, imports: object) => { exports: Record<string, unknown> };
}
interface Summer {
  mem: { buffer: ArrayBuffer };
  sum: (from: number, to: number) => string;
}

/** A memory of at least `bytes` (+ 8 for the last word) and the checksum over it, or null without WebAssembly. */
function summer(bytes: number): Summer | null {
  const wasm = (globalThis as { WebAssembly?: Wasm }).WebAssembly;
  if (wasm === undefined) return null; // --jitless
  const mem = new wasm.Memory({ initial: Math.ceil((bytes + 8) / 65536) });
  const inst = new wasm.Instance(new wasm.Module(new Uint8Array(SUM_WASM)), { j: { m: mem } });
  const h = inst.exports.h as (from: number, to: number) => bigint;
  return {
    mem,
    sum: (from, to) => {
      new Uint8Array(mem.buffer, to, 8).fill(0);
      return BigInt.asUintN(64, h(from, to)).toString(16);
    },
  };
}

/** The checksum of `data` (tests compare it with a plain implementation). */
export function codeCacheSum(data: Uint8Array): string | null {
  const s = summer(data.length);
  if (s === null) return null;
  new Uint8Array(s.mem.buffer).set(data);
  return s.sum(0, data.length);
}

const euid = () => (typeof process.geteuid === 'function' ? process.geteuid() : -1);
/** Only this user may have written it: owned by us, not writable by group or others. */
const ownedAndPrivate = (st: Fs.Stats) => st.uid === euid() && (st.mode & 0o022) === 0;

/** The cache folder (src/ports/user-cache.ts' rules), or null where there is none to use. */
function cacheDir(fs: typeof Fs, env: Env): string | null {
  const off = env.GPU_ENV_DOCTOR_NO_CACHE;
  if ((off !== undefined && off !== '' && off !== '0') || env.NODE_DISABLE_COMPILE_CACHE) return null;
  const xdg = env.XDG_CACHE_HOME;
  const home = env.HOME;
  const [base, dir, mustExist] =
    xdg?.startsWith('/') === true
      ? [xdg, `${xdg}/gpu-env-doctor`, false]
      : home?.startsWith('/') === true
        ? [home, `${home}/.cache/gpu-env-doctor`, true]
        : [null, null, true];
  if (base === null) return null;
  // the base must be this user's own (sudo keeping the caller's HOME must not leave root's files there); a cache
  // home not made yet: the folder it would be made in
  for (let at = base; ; at = at.slice(0, Math.max(at.lastIndexOf('/'), 1))) {
    try {
      return fs.statSync(at).uid === euid() ? dir : null;
    } catch {
      if (mustExist || at === '/') return null;
    }
  }
}

/** What a run's output depends on beyond the log: its options, by name. */
export function runShape(argv: string[]): string {
  const flags = new Set(argv.filter((a) => a.startsWith('-') && a !== '-').map((a) => a.split('=')[0]));
  return [...flags].sort().join(',') || '-';
}

interface Cached {
  data: Buffer;
  shapes: string[];
}

/** The cache made for `key`, or null (missing, not trusted, too big, another key, a wrong checksum). */
function readCache(fs: typeof Fs, file: string, key: string): Cached | null {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || !ownedAndPrivate(st) || st.size > MAX_CACHE_BYTES) return null;
    const s = summer(st.size);
    if (s === null) return null;
    const bytes = Buffer.from(s.mem.buffer, 0, st.size);
    let n = 0;
    while (n < st.size) {
      const got = fs.readSync(fd, bytes, n, st.size - n, n);
      if (got === 0) return null;
      n += got;
    }
    // four lines: the format, the key, the shapes, the checksum; then the data
    const lines: string[] = [];
    let at = 0;
    while (lines.length < 4) {
      const end = bytes.indexOf(10, at);
      if (end < 0 || end > 4096) return null;
      lines.push(bytes.toString('latin1', at, end));
      at = end + 1;
    }
    if (lines[0] !== MAGIC || lines[1] !== key || s.sum(at, st.size) !== lines[3]) return null;
    return { data: bytes.subarray(at), shapes: lines[2]!.split(' ') };
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes the cache: the folder made private when new, a private temp file renamed over the old one. */
function writeCache(fs: typeof Fs, dir: string, key: string, shapes: string[], data: Buffer): boolean {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!ownedAndPrivate(fs.statSync(dir))) return false;
  const s = summer(data.length);
  if (s === null) return false;
  new Uint8Array(s.mem.buffer).set(data);
  const head = Buffer.from(`${MAGIC}\n${key}\n${shapes.join(' ')}\n${s.sum(0, data.length)}\n`, 'latin1');
  const tmp = `${dir}/.${CODE_CACHE_FILE}.${process.pid}.tmp`;
  try {
    const fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
    try {
      fs.writeSync(fd, head);
      fs.writeSync(fd, data);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, `${dir}/${CODE_CACHE_FILE}`);
    return true;
  } catch {
    try {
      fs.unlinkSync(tmp);
    } catch {
      /* not made */
    }
    return false;
  }
}

/**
 * Loads explain's tree from `file` (its real path: the chunks' require("./start.js") finds this module there) and
 * returns its start, with the `ended` to give it. `version`: the tool's; `argv`: the command line (its shape).
 */
export function loadExplainTree(
  nodeRequire: NodeJS.Require,
  file: string,
  version: string,
  argv: string[],
  env: Env = process.env,
): { start: Start; ended: () => void } {
  const fs = nodeRequire('node:fs') as typeof Fs;
  const vm = nodeRequire('node:vm') as typeof Vm;
  const { Module } = nodeRequire('node:module') as typeof NodeModule & { Module: ModuleClass };
  const dir = cacheDir(fs, env);
  if (dir === null) {
    // no cache of our own: Node's require, whose compile cache (unless turned off too) still covers the file
    const tree = nodeRequire(file) as { start: Start };
    return { start: tree.start, ended: () => debugLine(fs, env, false, false, false) };
  }
  // the path Node's require resolves "./start.js" to
  file = fs.realpathSync.native(file);
  const fd = fs.openSync(file, fs.constants.O_RDONLY);
  let src: string;
  let key: string;
  try {
    const st = fs.fstatSync(fd);
    const buf = Buffer.allocUnsafe(st.size);
    let n = 0;
    while (n < st.size) {
      const got = fs.readSync(fd, buf, n, st.size - n, n);
      if (got === 0) break;
      n += got;
    }
    // ASCII (the build makes it so): latin1 is the fast decoding, to a one-byte string
    src = buf.toString('latin1', 0, n);
    key = [version, n, st.mtimeMs, process.versions.v8, process.arch].join(' ');
  } finally {
    fs.closeSync(fd);
  }
  let cached: Cached | null = null;
  try {
    cached = readCache(fs, `${dir}/${CODE_CACHE_FILE}`, key);
  } catch {
    cached = null;
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${src}\n})`, {
    filename: file,
    cachedData: cached?.data,
  });
  // the tool runs on Windows too: the folder by the platform's separator
  const folder = (nodeRequire('node:path') as typeof NodePath).dirname(file);
  const mod = new Module(file, null);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths?.(folder) ?? [];
  // registered before it runs: the chunks it loads later require("./start.js") and get this very module
  Module._cache[file] = mod;
  const modRequire = Object.assign((id: string) => mod.require(id), { cache: Module._cache });
  script.runInThisContext()(mod.exports, modRequire, mod, file, folder);
  mod.loaded = true;
  const shape = runShape(argv);
  const ended = () => {
    const rejected = cached !== null && script.cachedDataRejected === true;
    const fresh = cached === null || rejected;
    let wrote = false;
    if (fresh || (!cached!.shapes.includes(shape) && cached!.shapes.length < MAX_SHAPES)) {
      try {
        wrote = writeCache(fs, dir, key, fresh ? [shape] : [...cached!.shapes, shape], script.createCachedData());
      } catch {
        wrote = false;
      }
    }
    debugLine(fs, env, cached !== null, rejected, wrote);
  };
  return { start: (mod.exports as { start: Start }).start, ended };
}

/** For the tests: what happened to the cache, on stderr, only when asked. */
function debugLine(fs: typeof Fs, env: Env, read: boolean, rejected: boolean, wrote: boolean): void {
  if (env.GPU_ENV_DOCTOR_DEBUG_CODE_CACHE === '1')
    fs.writeSync(2, `code-cache: read=${read} rejected=${rejected} wrote=${wrote}\n`);
}

/** The parts of Node's Module class used here (node:module exports it as `Module`). */
interface ModuleClass {
  new (
    id: string,
    parent: null,
  ): {
    exports: unknown;
    filename: string;
    paths: string[];
    loaded: boolean;
    require(id: string): unknown;
  };
  _cache: Record<string, unknown>;
  _nodeModulePaths?: (dir: string) => string[];
}
