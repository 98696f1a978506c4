// Finds the Python environments of this machine by reading files only (no interpreter is run, no
// `conda info --envs`, which takes seconds): the active venv / conda env, python3 and python on PATH,
// conda and mamba environment lists and folders, pyenv versions, and interpreters named with --python.
// The library inventory calls discoverEnvironments() too, to get each environment's site-packages.
import type { FileSystem } from '../../ports/fs.js';
import { isDir, isFile, readTextOr } from '../../ports/fs.js';
import type { ProbeEnv } from '../probe-env.js';
import type { PythonEnvironment, PythonEnvKind } from './environments.js';

export interface DiscoveredEnvironment extends PythonEnvironment {
  /** why it was found: "--python", "VIRTUAL_ENV", "CONDA_PREFIX", "PATH", "pyvenv.cfg home", "conda envs", "pyenv" */
  foundVia: string[];
  /** named with --python: always looked into */
  explicit: boolean;
  /** what did not add up (an interpreter named with --python that does not exist) */
  problems: string[];
}

/** Every environment found, the active one first; sync and file-only, so it is cheap to call twice. */
export function discoverEnvironments(penv: ProbeEnv): PythonEnvironment[] {
  return discoverDetailed(penv).map(({ foundVia: _f, explicit: _e, problems: _p, ...env }) => env);
}

const CONDA_ROOT_NAMES = [
  'miniconda3',
  'anaconda3',
  'miniforge3',
  'mambaforge',
  'micromamba',
  'miniconda',
  'anaconda',
  '.conda',
  '.local/share/mamba',
];
const SYSTEM_CONDA_ROOTS = [
  '/opt/conda',
  '/opt/miniconda3',
  '/opt/anaconda3',
  '/opt/miniforge3',
  '/usr/local/miniconda3',
  '/usr/local/anaconda3',
  '/usr/local/conda',
];

export function discoverDetailed(penv: ProbeEnv): DiscoveredEnvironment[] {
  const { fs, env } = penv;
  const home = env.HOME && env.HOME.startsWith('/') ? trimSlash(env.HOME) : null;
  const pyenvRoot = env.PYENV_ROOT ? trimSlash(env.PYENV_ROOT) : home ? `${home}/.pyenv` : null;
  const found = new Map<string, DiscoveredEnvironment>();

  const add = (e: DiscoveredEnvironment | null): DiscoveredEnvironment | null => {
    if (!e) return null;
    const key = canonical(fs, e.prefix);
    const prev = found.get(key);
    if (!prev) {
      found.set(key, e);
      return e;
    }
    for (const v of e.foundVia) if (!prev.foundVia.includes(v)) prev.foundVia.push(v);
    prev.explicit ||= e.explicit;
    prev.interpreter ??= e.interpreter;
    if (e.name && !prev.name) prev.name = e.name;
    prev.problems.push(...e.problems);
    return prev;
  };

  // 1. Named on the command line: an interpreter, or an environment folder.
  for (const p of penv.options.pythons) {
    const e = fromInterpreterOrPrefix(fs, p, pyenvRoot, env);
    if (e) add({ ...e, foundVia: ['--python'], explicit: true, problems: [] });
    else
      add({
        prefix: p,
        kind: 'explicit',
        interpreter: null,
        pythonVersion: null,
        sitePackages: [],
        active: false,
        foundVia: ['--python'],
        explicit: true,
        problems: [`--python ${p}: no Python interpreter or environment there`],
      });
  }

  // 2. The active environment, as the shell set it up.
  let active: DiscoveredEnvironment | null = null;
  if (env.VIRTUAL_ENV) active = add(withVia(fromPrefix(fs, trimSlash(env.VIRTUAL_ENV), pyenvRoot), 'VIRTUAL_ENV'));
  if (env.CONDA_PREFIX) {
    const c = add(withVia(fromPrefix(fs, trimSlash(env.CONDA_PREFIX), pyenvRoot, 'conda'), 'CONDA_PREFIX'));
    if (c && env.CONDA_DEFAULT_ENV && !c.name) c.name = env.CONDA_DEFAULT_ENV;
    active ??= c;
  }

  // 3. python3 / python on PATH, in PATH order; the first is what `python3 train.py` runs.
  for (const dir of (env.PATH ?? '').split(':')) {
    if (!dir.startsWith('/')) continue;
    for (const exe of ['python3', 'python']) {
      const p = `${trimSlash(dir)}/${exe}`;
      if (!isFile(fs, p)) continue;
      const e = add(withVia(fromInterpreter(fs, p, pyenvRoot, env), 'PATH'));
      active ??= e;
    }
  }

  // 4. The base interpreter a venv was made from (pyvenv.cfg `home`).
  for (const e of [...found.values()]) {
    if (e.kind !== 'venv') continue;
    const cfg = readPyvenvCfg(fs, e.prefix);
    const homeDir = cfg.get('home');
    if (!homeDir) continue;
    // `executable` (Python 3.11+) names the very binary; else the usual names in `home`.
    const mm = e.pythonVersion ? [`python${e.pythonVersion}`] : [];
    const candidates = [
      cfg.get('executable'),
      ...['python3', 'python', ...mm].map((x) => `${trimSlash(homeDir)}/${x}`),
    ];
    const p = candidates.find((c): c is string => c !== undefined && c.startsWith('/') && isFile(fs, c));
    if (p) add(withVia(fromInterpreter(fs, p, pyenvRoot, env), 'pyvenv.cfg home'));
  }

  // 5. conda / mamba environments: the list conda keeps, and the envs folders of the usual roots.
  const condaRoots = new Set<string>();
  if (home) for (const n of CONDA_ROOT_NAMES) condaRoots.add(`${home}/${n}`);
  for (const r of SYSTEM_CONDA_ROOTS) condaRoots.add(r);
  for (const v of [env.CONDA_EXE, env.MAMBA_EXE]) {
    if (v && v.startsWith('/')) condaRoots.add(parent(parent(v))); // <root>/bin/conda or <root>/condabin/conda
  }
  for (const v of [env.MAMBA_ROOT_PREFIX, env.CONDA_ROOT]) if (v && v.startsWith('/')) condaRoots.add(trimSlash(v));
  const listed = home ? readTextOr(fs, `${home}/.conda/environments.txt`) : undefined;
  for (const line of (listed ?? '').split('\n')) {
    const p = line.trim();
    if (p.startsWith('/') && fs.exists(`${p}/conda-meta`))
      add(withVia(fromPrefix(fs, trimSlash(p), pyenvRoot, 'conda'), 'conda envs'));
  }
  for (const root of condaRoots) {
    if (!fs.exists(`${root}/conda-meta`) && !fs.exists(`${root}/envs`)) continue;
    if (fs.exists(`${root}/conda-meta`)) {
      const b = add(withVia(fromPrefix(fs, root, pyenvRoot, 'conda'), 'conda envs'));
      if (b && !b.name) b.name = 'base';
    }
    for (const d of listDirs(fs, `${root}/envs`)) {
      const p = `${root}/envs/${d}`;
      if (fs.exists(`${p}/conda-meta`)) add(withVia(fromPrefix(fs, p, pyenvRoot, 'conda'), 'conda envs'));
    }
  }

  // 6. pyenv versions (and pyenv-virtualenv environments inside them).
  if (pyenvRoot) {
    for (const v of listDirs(fs, `${pyenvRoot}/versions`)) {
      const p = `${pyenvRoot}/versions/${v}`;
      add(withVia(fromPrefix(fs, p, pyenvRoot), 'pyenv'));
      for (const ve of listDirs(fs, `${p}/envs`)) add(withVia(fromPrefix(fs, `${p}/envs/${ve}`, pyenvRoot), 'pyenv'));
    }
  }

  const all = [...found.values()];
  if (active) active.active = true;
  // The active one first, then what was named, then the rest in discovery order.
  return [
    ...all.filter((e) => e.active),
    ...all.filter((e) => !e.active && e.explicit),
    ...all.filter((e) => !e.active && !e.explicit),
  ];
}

function withVia(e: PythonEnvironment | null, via: string): DiscoveredEnvironment | null {
  return e ? { ...e, foundVia: [via], explicit: false, problems: [] } : null;
}

/** An interpreter path (…/bin/python3) or an environment folder given with --python. */
function fromInterpreterOrPrefix(
  fs: FileSystem,
  p: string,
  pyenvRoot: string | null,
  env: Record<string, string | undefined>,
): PythonEnvironment | null {
  if (!p.startsWith('/')) return null;
  const path = trimSlash(p);
  let st;
  try {
    st = fs.stat(path);
  } catch {
    return null;
  }
  if (st.type === 'dir') return fromPrefix(fs, path, pyenvRoot);
  return fromInterpreter(fs, path, pyenvRoot, env);
}

/** What environment does this interpreter belong to? The link is NOT followed first: a venv's python3 is
 *  a link to the base interpreter, and the venv is told apart only by the pyvenv.cfg next to its bin/. */
function fromInterpreter(
  fs: FileSystem,
  p: string,
  pyenvRoot: string | null,
  env: Record<string, string | undefined>,
): PythonEnvironment | null {
  // pyenv's shims are shell scripts: the version they run is named by PYENV_VERSION or the version file.
  if (pyenvRoot && p.startsWith(`${pyenvRoot}/shims/`)) {
    const version = env.PYENV_VERSION?.split(':')[0] ?? readTextOr(fs, `${pyenvRoot}/version`)?.split(/\s+/)[0];
    if (!version || version === 'system') return null; // falls through to the next python3 on PATH
    const prefix = `${pyenvRoot}/versions/${version}`;
    return fs.exists(prefix) ? fromPrefix(fs, prefix, pyenvRoot) : null;
  }
  const binDir = parent(p);
  const prefix = parent(binDir);
  if (
    fs.exists(`${prefix}/pyvenv.cfg`) ||
    fs.exists(`${prefix}/conda-meta`) ||
    (pyenvRoot && prefix.startsWith(`${pyenvRoot}/versions/`))
  ) {
    const e = fromPrefix(fs, prefix, pyenvRoot);
    return e ? { ...e, interpreter: p } : null;
  }
  // A plain interpreter: follow the links to the real binary; its prefix is two levels up.
  let real = p;
  try {
    real = fs.realpath(p);
  } catch {
    /* keep p */
  }
  const realPrefix = parent(parent(real));
  const e = fromPrefix(fs, realPrefix, pyenvRoot, 'system');
  if (!e) return null;
  const exeVersion = /python(\d+\.\d+)t?$/.exec(real)?.[1] ?? null;
  const pythonVersion = exeVersion ?? e.pythonVersion;
  return { ...e, interpreter: p, pythonVersion, sitePackages: sitePackagesOf(fs, realPrefix, pythonVersion, 'system') };
}

/** The environment rooted at `prefix`, or null when nothing Python is there. */
export function fromPrefix(
  fs: FileSystem,
  prefix: string,
  pyenvRoot: string | null,
  hint?: PythonEnvKind,
): PythonEnvironment | null {
  const cfg = fs.exists(`${prefix}/pyvenv.cfg`) ? readPyvenvCfg(fs, prefix) : null;
  const kind: PythonEnvKind = cfg
    ? 'venv'
    : fs.exists(`${prefix}/conda-meta`)
      ? 'conda'
      : pyenvRoot && prefix.startsWith(`${pyenvRoot}/versions/`)
        ? 'pyenv'
        : (hint ?? 'system');
  const interpreter = interpreterIn(fs, prefix);
  const cfgVersion = cfg ? (cfg.get('version_info') ?? cfg.get('version')) : undefined;
  const versions = libPythonVersions(fs, prefix);
  const pythonVersion = cfgVersion
    ? (/^(\d+\.\d+)/.exec(cfgVersion)?.[1] ?? null)
    : (versions[versions.length - 1] ?? null);
  if (!interpreter && versions.length === 0) return null;
  const e: PythonEnvironment = {
    prefix,
    kind,
    interpreter,
    pythonVersion,
    sitePackages: sitePackagesOf(fs, prefix, pythonVersion, kind),
    active: false,
  };
  if (kind === 'conda' && /\/envs\/[^/]+$/.test(prefix)) e.name = prefix.slice(prefix.lastIndexOf('/') + 1);
  return e;
}

function interpreterIn(fs: FileSystem, prefix: string): string | null {
  for (const exe of ['bin/python3', 'bin/python', 'python.exe'])
    if (isFile(fs, `${prefix}/${exe}`)) return `${prefix}/${exe}`;
  return null;
}

/** "3.12" for each lib/python3.12 folder, sorted. */
function libPythonVersions(fs: FileSystem, prefix: string): string[] {
  const out = new Set<string>();
  for (const lib of ['lib', 'lib64']) {
    for (const d of listDirs(fs, `${prefix}/${lib}`)) {
      const m = /^python(\d+\.\d+)t?$/.exec(d);
      if (m) out.add(m[1]!);
    }
  }
  return [...out].sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
}

/** Every site-packages / dist-packages folder the environment's interpreter would search. */
export function sitePackagesOf(
  fs: FileSystem,
  prefix: string,
  pythonVersion: string | null,
  kind: PythonEnvKind,
): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  // A venv's lib64 is a link to lib: the same folder must be scanned (and its packages counted) once.
  const push = (p: string) => {
    if (!isDir(fs, p)) return;
    const real = canonical(fs, p);
    if (seen.has(real)) return;
    seen.add(real);
    out.push(p);
  };
  for (const lib of ['lib', 'lib64']) {
    for (const d of listDirs(fs, `${prefix}/${lib}`)) {
      const m = /^python(\d+\.\d+)t?$/.exec(d);
      if (!m || (pythonVersion && m[1] !== pythonVersion)) continue;
      push(`${prefix}/${lib}/${d}/site-packages`);
      push(`${prefix}/${lib}/${d}/dist-packages`);
    }
  }
  push(`${prefix}/Lib/site-packages`);
  if (kind === 'system') {
    // Debian and Ubuntu: apt's packages in /usr/lib/python3/dist-packages, pip's in /usr/local/lib/pythonX.Y.
    push(`${prefix}/lib/python3/dist-packages`);
    if (prefix === '/usr' && pythonVersion) push(`/usr/local/lib/python${pythonVersion}/dist-packages`);
  }
  return out;
}

export function readPyvenvCfg(fs: FileSystem, prefix: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of (readTextOr(fs, `${prefix}/pyvenv.cfg`, 64 * 1024) ?? '').split('\n')) {
    const m = /^\s*([\w-]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (m) out.set(m[1]!.toLowerCase(), m[2]!);
  }
  return out;
}

function canonical(fs: FileSystem, p: string): string {
  try {
    return fs.realpath(p);
  } catch {
    return p;
  }
}

function listDirs(fs: FileSystem, p: string): string[] {
  try {
    return fs
      .readdir(p)
      .filter((d) => d.type === 'dir' || (d.type === 'symlink' && isDir(fs, `${p}/${d.name}`)))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

function parent(p: string): string {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

function trimSlash(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}
