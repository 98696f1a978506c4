// The CUDA toolkit (nvcc) on this machine, read from files: the toolkit's version.json / version.txt next to
// the nvcc found on PATH (or /usr/local/cuda). No program runs: `nvcc --version` would cost a process start
// for a fact that is informational (pip frameworks bring their own CUDA runtime).
import type { FileSystem } from '../ports/fs.js';
import { readTextOr } from '../ports/fs.js';
import type { Toolkit } from './snapshot/schema.js';

export function probeToolkit(fs: FileSystem, env: Record<string, string | undefined>): Toolkit {
  const candidates = [...(env.PATH ?? '').split(':').filter((d) => d.startsWith('/')), '/usr/local/cuda/bin'];
  for (const dir of candidates) {
    const nvcc = `${dir.replace(/\/$/, '')}/nvcc`;
    let real: string;
    try {
      if (fs.stat(nvcc).type !== 'file') continue;
      real = fs.realpath(nvcc);
    } catch {
      continue;
    }
    const root = real.replace(/\/bin\/nvcc$/, '');
    const version = toolkitVersion(fs, root);
    return { nvcc: { path: nvcc, root, version: version?.value ?? null, source: version?.source ?? null } };
  }
  return { nvcc: null };
}

function toolkitVersion(fs: FileSystem, root: string): { value: string; source: string } | null {
  const json = readTextOr(fs, `${root}/version.json`, 256 * 1024);
  if (json) {
    try {
      const doc = JSON.parse(json) as { cuda?: { version?: unknown }; cuda_nvcc?: { version?: unknown } };
      const v = doc.cuda_nvcc?.version ?? doc.cuda?.version;
      if (typeof v === 'string' && /^\d+\.\d+/.test(v)) return { value: v, source: `${root}/version.json` };
    } catch {
      /* fall through to version.txt */
    }
  }
  const txt = readTextOr(fs, `${root}/version.txt`, 4096);
  const m = txt ? /CUDA Version (\d+\.\d+(?:\.\d+)?)/.exec(txt) : null;
  return m ? { value: m[1]!, source: `${root}/version.txt` } : null;
}
