// The Python environments whose site-packages the inventory scans. src/python/discover.ts (another module)
// is the full discovery; until it is wired in, this finds what is visible from the environment variables,
// --python interpreters and the first python3 on PATH — enough to find pip's nvidia-* libraries.
import * as nodePath from 'node:path';
import type { FileSystem } from '../ports/fs.js';
import type { PythonEnvironment } from '../python/environments.js';

export function visibleEnvironments(fs: FileSystem, env: Record<string, string | undefined>, pythons: readonly string[] = []): PythonEnvironment[] {
  const out: PythonEnvironment[] = [];
  const add = (prefix: string, active: boolean, interpreter: string | null) => {
    const norm = nodePath.posix.normalize(prefix);
    if (out.some((e) => e.prefix === norm)) return;
    const sitePackages = sitePackagesOf(fs, norm);
    if (sitePackages.length === 0) return;
    const kind = fs.exists(`${norm}/conda-meta`) ? 'conda' : fs.exists(`${norm}/pyvenv.cfg`) ? 'venv' : 'system';
    const version = /python(\d+\.\d+)/.exec(sitePackages[0] ?? '')?.[1] ?? null;
    out.push({ prefix: norm, kind, interpreter, pythonVersion: version, sitePackages, active });
  };
  for (const p of pythons) add(nodePath.posix.dirname(nodePath.posix.dirname(p)), false, p);
  if (env.VIRTUAL_ENV) add(env.VIRTUAL_ENV, true, null);
  if (env.CONDA_PREFIX) add(env.CONDA_PREFIX, true, null);
  // The first python3 on PATH: a venv's bin/ is usually first even when VIRTUAL_ENV is not set.
  for (const dir of (env.PATH ?? '').split(':').filter(Boolean)) {
    const py = `${dir}/python3`;
    if (!fs.exists(py)) continue;
    add(nodePath.posix.dirname(dir), out.length === 0, py);
    break;
  }
  add('/usr/local', false, null);
  add('/usr', false, null);
  return out;
}

/** lib/pythonX.Y/site-packages (and dist-packages, lib64), plus Debian's /usr/lib/python3/dist-packages. */
export function sitePackagesOf(fs: FileSystem, prefix: string): string[] {
  const out: string[] = [];
  for (const lib of ['lib', 'lib64']) {
    let entries;
    try {
      entries = fs.readdir(`${prefix}/${lib}`);
    } catch {
      continue;
    }
    for (const e of entries.filter((x) => /^python\d/.test(x.name)).sort((a, b) => a.name.localeCompare(b.name))) {
      for (const sp of ['site-packages', 'dist-packages']) {
        const p = `${prefix}/${lib}/${e.name}/${sp}`;
        if (isDir(fs, p) && !out.some((o) => sameDir(fs, o, p))) out.push(p);
      }
    }
  }
  return out;
}

function isDir(fs: FileSystem, p: string): boolean {
  try {
    return fs.stat(p).type === 'dir';
  } catch {
    return false;
  }
}

function sameDir(fs: FileSystem, a: string, b: string): boolean {
  try {
    const x = fs.stat(a);
    const y = fs.stat(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}
