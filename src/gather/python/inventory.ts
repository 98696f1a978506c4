// What an environment has installed, read from files: the folder names of every *.dist-info / *.egg-info
// (cheap: one readdir per site-packages), METADATA only for the packages that matter, and the conda-meta
// records of the CUDA-related conda packages. Never runs pip or conda (seconds to minutes).
import type { FileSystem } from '../../ports/fs.js';
import { isFile, readTextOr } from '../../ports/fs.js';
import type { PythonEnvironment } from './environments.js';
import {
  condaFileName,
  normalizeName,
  parseCondaRecord,
  parseCoreMetadata,
  parseDistFolder,
  parseRequirement,
} from './metadata.js';
import { isRelevant } from './relevant.js';
import type { DuplicateDist, PythonPackage } from '../snapshot/schema-python.js';

export interface Inventory {
  packages: PythonPackage[];
  distributionCount: number;
  duplicates: DuplicateDist[];
  problems: string[];
}

const METADATA_MAX = 256 * 1024; // the headers are at the top; the README after them can be long
const CONDA_RECORD_MAX = 64 * 1024 * 1024;

export function readInventory(fs: FileSystem, env: PythonEnvironment): Inventory {
  const packages: PythonPackage[] = [];
  const problems: string[] = [];
  const byName = new Map<string, { path: string; version: string | null }[]>();
  let distributionCount = 0;

  // conda first: its records say which dist-info folders conda itself put there.
  const condaOwned = new Set<string>();
  if (fs.exists(`${env.prefix}/conda-meta`)) {
    let files: string[] = [];
    try {
      files = fs
        .readdir(`${env.prefix}/conda-meta`)
        .filter((d) => d.type === 'file' && d.name.endsWith('.json'))
        .map((d) => d.name);
    } catch (err) {
      problems.push(`${env.prefix}/conda-meta: ${err instanceof Error ? err.message : String(err)}`);
    }
    for (const f of files.sort()) {
      const name = condaFileName(f);
      if (!name || !isRelevant(normalizeName(name))) continue;
      const path = `${env.prefix}/conda-meta/${f}`;
      const rec = parseCondaRecord(readTextOr(fs, path, CONDA_RECORD_MAX) ?? '');
      if (!rec) {
        problems.push(`${path}: not a readable conda record`);
        continue;
      }
      for (const d of rec.distFolders) condaOwned.add(`${env.prefix}/${d}`);
      const requires = rec.depends.filter((d) => isRelevant(normalizeName(d.split(/\s/)[0] ?? '')));
      packages.push({
        name: normalizeName(rec.name),
        version: rec.version,
        source: 'conda-meta',
        path,
        installer: 'conda',
        ...(requires.length > 0 ? { requires } : {}),
        channel: rec.channel,
        build: rec.build,
      });
    }
  }

  for (const sp of env.sitePackages) {
    let entries;
    try {
      entries = fs.readdir(sp);
    } catch (err) {
      problems.push(`${sp}: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    for (const entry of entries) {
      const folder = parseDistFolder(entry.name);
      if (!folder) continue;
      distributionCount++;
      const path = `${sp}/${entry.name}`;
      const list = byName.get(folder.name) ?? [];
      list.push({ path, version: folder.version });
      byName.set(folder.name, list);
      if (!isRelevant(folder.name)) continue;
      // An egg-info may be a single file (distutils) or a folder holding PKG-INFO.
      const metaFile =
        folder.kind === 'dist-info' ? `${path}/METADATA` : entry.type === 'file' ? path : `${path}/PKG-INFO`;
      const meta = parseCoreMetadata(readTextOr(fs, metaFile, METADATA_MAX) ?? '');
      const version = meta.version ?? folder.version;
      if (!version) {
        problems.push(`${metaFile}: no version`);
        continue;
      }
      const installerText = folder.kind === 'dist-info' ? readTextOr(fs, `${path}/INSTALLER`, 256)?.trim() : undefined;
      const installer = condaOwned.has(path) ? 'conda' : installerText ? installerText : null;
      const requires = meta.requiresDist.filter((r) => {
        const req = parseRequirement(r);
        return req !== null && isRelevant(req.name);
      });
      packages.push({
        name: meta.name ? normalizeName(meta.name) : folder.name,
        version,
        source: folder.kind,
        path,
        installer,
        ...(requires.length > 0 ? { requires } : {}),
      });
    }
  }

  const duplicates: DuplicateDist[] = [];
  for (const [name, entries] of byName) {
    if (entries.length < 2) continue;
    // A version-less egg-info ("foo.egg-info", as Debian ships beside foo-1.2.dist-info): its PKG-INFO says which.
    for (const e of entries) {
      if (e.version !== null || !e.path.endsWith('.egg-info')) continue;
      const file = isFile(fs, e.path) ? e.path : `${e.path}/PKG-INFO`;
      e.version = parseCoreMetadata(readTextOr(fs, file, METADATA_MAX) ?? '').version;
    }
    // The same version recorded twice in one folder is one install with two metadata formats, not two installs.
    const folders = new Set(entries.map((e) => e.path.slice(0, e.path.lastIndexOf('/'))));
    const versions = new Set(entries.map((e) => e.version));
    if (folders.size === 1 && versions.size === 1 && !versions.has(null)) continue;
    duplicates.push({ name, entries });
  }
  duplicates.sort((a, b) => a.name.localeCompare(b.name));
  return { packages, distributionCount, duplicates, problems };
}
