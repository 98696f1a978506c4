// Which pip or conda package installed a library file: *.dist-info/RECORD lists a wheel's files relative to
// site-packages; conda-meta/<pkg>.json lists a conda package's files relative to the prefix. Reading these
// directly takes milliseconds where `pip list` / `conda list` take seconds. Only the CUDA-related packages
// are read, so a site-packages with thousands of packages costs one readdir.
import * as nodePath from 'node:path';
import type { FileSystem } from '../../ports/fs.js';
import type { PackageRecord } from '../snapshot/schema-libraries.js';

export interface Owner {
  manager: 'pip' | 'conda';
  name: string;
  version: string | null;
  prefix: string;
}

/** Distributions worth reading: NVIDIA's libraries, the frameworks and their CUDA plugins. */
const RELEVANT_PIP = /^(nvidia[-_]|torch$|torch[-_]|tensorflow|tf[-_]nightly|jax|jaxlib|cupy|cuda[-_]toolkit)/i;
const RELEVANT_CONDA =
  /^(cudnn|libcudnn|cudatoolkit|cuda-|libcu|nccl|libnccl|libnvjitlink|libnvrtc|pytorch|tensorflow|jaxlib|cupy|nvidia-)/;
const MAX_RECORD_BYTES = 16 * 1024 * 1024;
const MAX_CONDA_JSON_BYTES = 32 * 1024 * 1024;

export interface OwnerIndex {
  /** machine path (not resolved) → owner */
  byPath: Map<string, Owner>;
  packages: PackageRecord[];
}

export function emptyOwnerIndex(): OwnerIndex {
  return { byPath: new Map(), packages: [] };
}

/** "nvidia_cudnn_cu13-9.19.0.56.dist-info" → nvidia-cudnn-cu13 9.19.0.56 */
export function parseDistInfoName(folder: string): { name: string; version: string | null } | null {
  const m = /^(.+?)(?:-([^-]+))?\.dist-info$/.exec(folder);
  if (!m) return null;
  return { name: m[1]!.toLowerCase().replace(/[-_.]+/g, '-'), version: m[2] ?? null };
}

/** RECORD is CSV: path,hash,size. Paths are relative to site-packages; a comma in a path is quoted. */
export function parseRecord(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    if (line.startsWith('"')) {
      const end = line.indexOf('",');
      if (end > 0) out.push(line.slice(1, end).replace(/""/g, '"'));
    } else {
      const comma = line.indexOf(',');
      out.push(comma < 0 ? line : line.slice(0, comma));
    }
  }
  return out;
}

const SO = /\.so(\.|$)/;

/**
 * The shared libraries a RECORD lists: the lines holding ".so", found by searching the text, not by splitting
 * all of it (torch's RECORD has ~16,000 lines, a few dozen of them libraries). Same answer as filtering
 * parseRecord()'s paths.
 */
export function recordLibraries(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (;;) {
    const hit = text.indexOf('.so', from);
    if (hit < 0) return out;
    const start = text.lastIndexOf('\n', hit) + 1;
    let end = text.indexOf('\n', hit);
    if (end < 0) end = text.length;
    from = end + 1;
    const path = parseRecord(text.slice(start, end))[0];
    if (path !== undefined && SO.test(path)) out.push(path);
  }
}

/**
 * recordLibraries() over the file's bytes: only the lines holding ".so" are decoded (torch's RECORD is ~1.4 MB).
 * Same answer as recordLibraries() of the UTF-8 text: "\n" and ".so" are ASCII, which UTF-8 decoding keeps as they
 * are (an invalid sequence becomes U+FFFD without taking the byte after it), so the lines and hits are the same.
 */
export function recordLibrariesInBytes(bytes: Buffer): string[] {
  const out: string[] = [];
  let from = 0;
  for (;;) {
    const hit = bytes.indexOf('.so', from, 'latin1');
    if (hit < 0) return out;
    const start = hit === 0 ? 0 : bytes.lastIndexOf(0x0a, hit - 1) + 1;
    let end = bytes.indexOf(0x0a, hit);
    if (end < 0) end = bytes.length;
    from = end + 1;
    const path = parseRecord(bytes.toString('utf8', start, end))[0];
    if (path !== undefined && SO.test(path)) out.push(path);
  }
}

/** Adds the shared libraries of the relevant wheels in one site-packages folder. */
export function indexPipOwners(fs: FileSystem, sitePackages: string, into: OwnerIndex): void {
  let entries;
  try {
    entries = fs.readdir(sitePackages);
  } catch {
    return;
  }
  for (const e of entries) {
    if (!e.name.endsWith('.dist-info')) continue;
    const d = parseDistInfoName(e.name);
    if (!d || !RELEVANT_PIP.test(d.name)) continue;
    const owner: Owner = { manager: 'pip', name: d.name, version: d.version, prefix: sitePackages };
    into.packages.push({ ...owner });
    let record: Buffer;
    try {
      record = fs.readBytes(`${sitePackages}/${e.name}/RECORD`, 0, MAX_RECORD_BYTES);
    } catch {
      continue;
    }
    for (const rel of recordLibrariesInBytes(record))
      into.byPath.set(nodePath.posix.normalize(`${sitePackages}/${rel}`), owner);
  }
}

/** Adds the relevant conda packages of one prefix (conda-meta/<name>-<version>-<build>.json). */
export function indexCondaOwners(fs: FileSystem, prefix: string, into: OwnerIndex): void {
  let entries;
  try {
    entries = fs.readdir(`${prefix}/conda-meta`);
  } catch {
    return;
  }
  for (const e of entries) {
    if (!e.name.endsWith('.json') || !RELEVANT_CONDA.test(e.name)) continue;
    let meta: { name?: unknown; version?: unknown; files?: unknown };
    try {
      meta = JSON.parse(fs.readText(`${prefix}/conda-meta/${e.name}`, MAX_CONDA_JSON_BYTES)) as typeof meta;
    } catch {
      continue;
    }
    if (typeof meta.name !== 'string') continue;
    const owner: Owner = {
      manager: 'conda',
      name: meta.name,
      version: typeof meta.version === 'string' ? meta.version : null,
      prefix,
    };
    into.packages.push({ ...owner });
    if (!Array.isArray(meta.files)) continue;
    for (const f of meta.files) {
      if (typeof f === 'string' && /\.so(\.|$)/.test(f))
        into.byPath.set(nodePath.posix.normalize(`${prefix}/${f}`), owner);
    }
  }
}
