// The facts of this machine's glibc that the loader emulation needs: the default folders, $LIB, $PLATFORM,
// the glibc-hwcaps subfolders the CPU supports, and the ld cache (read directly; `ldconfig -p` as fallback).
import type { FileSystem } from '../../ports/fs.js';
import type { ProcessRunner } from '../../ports/runner.js';
import { compareVersions } from '../../base/versions.js';
import { glibcVersion, parseLdCache, parseLdconfigP, type LdCache } from './ldcache.js';
import type { LoaderConfig, PreloadEntry } from './loader.js';

export interface LdCacheRead {
  cache: LdCache | null;
  /** where it came from, or why there is none */
  source: string;
  error?: string;
}

const MAX_CACHE_BYTES = 64 * 1024 * 1024;

export async function readLdCache(
  fs: FileSystem,
  runner: ProcessRunner | null,
  timeoutMs = 5000,
): Promise<LdCacheRead> {
  let error: string | undefined;
  try {
    const buf = fs.readBytes('/etc/ld.so.cache', 0, MAX_CACHE_BYTES);
    return { cache: parseLdCache(buf), source: '/etc/ld.so.cache' };
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  if (!runner) return { cache: null, source: 'none', error };
  // ldconfig reads the cache itself; -C points it at the one under --root.
  const args = fs.root === '/' ? ['-p'] : ['-p', '-C', `${fs.root}/etc/ld.so.cache`];
  for (const cmd of ['ldconfig', '/sbin/ldconfig', '/usr/sbin/ldconfig']) {
    const r = await runner.run(cmd, args, { timeoutMs });
    if (r.kind === 'ok') return { cache: parseLdconfigP(r.stdout), source: `${cmd} ${args.join(' ')}`, error };
    if (r.kind !== 'not-found') break;
  }
  return { cache: null, source: 'none', error };
}

const TRIPLETS: Record<string, string> = {
  x64: 'x86_64-linux-gnu',
  arm64: 'aarch64-linux-gnu',
  ppc64: 'powerpc64le-linux-gnu',
  s390x: 's390x-linux-gnu',
  ia32: 'i386-linux-gnu',
};

/** x86-64 micro-architecture levels (glibc sysdeps/x86/get-isa-level.h), from /proc/cpuinfo flags. */
const X86_LEVELS: [string, string[]][] = [
  ['x86-64-v4', ['avx512f', 'avx512bw', 'avx512cd', 'avx512dq', 'avx512vl']],
  ['x86-64-v3', ['avx', 'avx2', 'bmi1', 'bmi2', 'f16c', 'fma', 'abm', 'movbe', 'xsave']],
  ['x86-64-v2', ['cx16', 'lahf_lm', 'popcnt', 'sse4_1', 'sse4_2', 'ssse3']],
];

const FLAGS_LINE = /^flags\s*:\s*(.*)$/m;

export function x86HwcapsFromCpuinfo(cpuinfo: string): string[] {
  const line = FLAGS_LINE.exec(cpuinfo)?.[1];
  if (!line) return [];
  const flags = new Set(line.split(/\s+/));
  const out: string[] = [];
  // A level needs every lower level as well.
  for (let i = X86_LEVELS.length - 1; i >= 0; i--) {
    const [name, need] = X86_LEVELS[i]!;
    if (!need.every((f) => flags.has(f))) break;
    out.unshift(name);
  }
  return out;
}

export function loaderConfig(
  fs: FileSystem,
  env: Record<string, string | undefined>,
  cache: LdCache | null,
  arch: string = process.arch,
): LoaderConfig {
  const triplet = TRIPLETS[arch] ?? 'x86_64-linux-gnu';
  const isDir = (p: string) => {
    try {
      return fs.lstat(p).type === 'dir';
    } catch {
      return false;
    }
  };
  // Debian/Ubuntu build glibc with multiarch folders; Fedora/RHEL/SUSE with lib64.
  let defaultDirs: string[];
  let lib: string;
  if (isDir(`/lib/${triplet}`) || isDir(`/usr/lib/${triplet}`)) {
    defaultDirs = [`/lib/${triplet}`, `/usr/lib/${triplet}`, '/lib', '/usr/lib'];
    lib = `lib/${triplet}`;
  } else if (isDir('/lib64') || isDir('/usr/lib64')) {
    defaultDirs = ['/lib64', '/usr/lib64'];
    lib = 'lib64';
  } else {
    defaultDirs = ['/lib', '/usr/lib'];
    lib = 'lib';
  }
  const glibc = glibcVersion(cache);
  let hwcaps: string[] = [];
  let platform = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : arch;
  if (arch === 'x64') {
    // The first CPU's flags line is all the levels need: its first 16 KiB, not every CPU's block (the kernel
    // writes each one as it is read; hundreds on a large host). The whole when the line is not whole in it, or
    // when "avx2" is looked for anywhere in the file (glibc before 2.37).
    let cpuinfo = '';
    try {
      const head = glibc !== null && compareVersions(glibc, '2.37') < 0 ? '' : fs.readText('/proc/cpuinfo', 16 * 1024);
      const line = FLAGS_LINE.exec(head);
      cpuinfo = line && line.index + line[0].length < head.length ? head : fs.readText('/proc/cpuinfo', 256 * 1024);
    } catch {
      /* no /proc: no hwcaps subfolders */
    }
    // glibc-hwcaps subfolders exist since 2.33; an unknown version is taken as recent.
    if (glibc === null || compareVersions(glibc, '2.33') >= 0) hwcaps = x86HwcapsFromCpuinfo(cpuinfo);
    // Before 2.37, glibc reported AVX2-capable CPUs as the "haswell" platform.
    if (glibc !== null && compareVersions(glibc, '2.37') < 0 && /\bavx2\b/.test(cpuinfo)) platform = 'haswell';
  }
  const llp = (env.LD_LIBRARY_PATH ?? '').split(/[:;]/).filter((d) => d !== '');
  return { fs, ldLibraryPath: llp, cache, defaultDirs, hwcaps, lib, platform, preload: preloadList(fs, env) };
}

/**
 * What ld.so preloads, in its order: LD_PRELOAD (entries split at spaces and colons), then the file
 * /etc/ld.so.preload (split at any white space and colons). An unreadable file preloads nothing.
 */
export function preloadList(fs: FileSystem, env: Record<string, string | undefined>): PreloadEntry[] {
  const out: PreloadEntry[] = [];
  for (const n of (env.LD_PRELOAD ?? '').split(/[ :]/)) if (n !== '') out.push({ name: n, from: 'LD_PRELOAD' });
  let text = '';
  try {
    text = fs.readText('/etc/ld.so.preload', 64 * 1024);
  } catch {
    /* absent (the common case) or unreadable: nothing preloaded from it */
  }
  for (const n of text.split(/[\s:]+/)) if (n !== '') out.push({ name: n, from: '/etc/ld.so.preload' });
  return out;
}
