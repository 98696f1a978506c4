// Reading Python package metadata as files: the names of *.dist-info / *.egg-info folders, METADATA /
// PKG-INFO headers, and conda-meta/*.json records. Pure functions over text; the I/O is in inventory.ts.

/** PEP 503 normalisation: "Nvidia_CuDNN.cu12" and "nvidia-cudnn-cu12" are one distribution. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

export interface DistFolder {
  name: string;
  version: string | null;
  kind: 'dist-info' | 'egg-info';
}

/**
 * "torch-2.11.0+cu130.dist-info" → torch 2.11.0+cu130. In dist-info folder names the name part has no "-"
 * (PEP 427 escapes it to "_"), so the first "-" splits name and version. Egg-info folders may carry a
 * "-pyX.Y" tag, or no version at all ("foo.egg-info" from a develop install).
 */
export function parseDistFolder(folder: string): DistFolder | null {
  const m = /^(.+?)\.(dist-info|egg-info)$/.exec(folder);
  if (!m) return null;
  const stem = m[1]!;
  const kind = m[2] as DistFolder['kind'];
  const dash = stem.indexOf('-');
  if (dash < 0) return { name: normalizeName(stem), version: null, kind };
  let version = stem.slice(dash + 1);
  if (kind === 'egg-info') version = version.replace(/-py\d+(\.\d+)*(-.*)?$/, '');
  return { name: normalizeName(stem.slice(0, dash)), version: version || null, kind };
}

export interface CoreMetadata {
  name: string | null;
  version: string | null;
  requiresDist: string[];
}

/** The header block of METADATA / PKG-INFO (RFC 822 style); the body after the blank line is the README. */
export function parseCoreMetadata(text: string): CoreMetadata {
  const out: CoreMetadata = { name: null, version: null, requiresDist: [] };
  for (const line of text.split(/\r?\n/)) {
    if (line === '') break;
    const m = /^([A-Za-z-]+):\s?(.*)$/.exec(line);
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (key === 'name' && out.name === null) out.name = value;
    else if (key === 'version' && out.version === null) out.version = value;
    else if (key === 'requires-dist') out.requiresDist.push(value);
  }
  return out;
}

/** "nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\"" → its parts. */
export interface Requirement {
  name: string;
  extras: string[];
  specifier: string;
  marker: string | null;
  raw: string;
}

export function parseRequirement(raw: string): Requirement | null {
  const [head, ...rest] = raw.split(';');
  const marker = rest.length > 0 ? rest.join(';').trim() : null;
  const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?\s*\(?([^)]*)\)?\s*$/.exec(head ?? '');
  if (!m) return null;
  return {
    name: normalizeName(m[1]!),
    extras: (m[2] ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean),
    specifier: (m[3] ?? '').replace(/\s+/g, ''),
    marker,
    raw,
  };
}

/** The extra a requirement is conditional on (`extra == "and-cuda"`), or null. */
export function markerExtra(marker: string | null): string | null {
  if (!marker) return null;
  const m = /extra\s*==\s*["']([^"']+)["']/.exec(marker);
  return m ? normalizeName(m[1]!) : null;
}

export interface CondaRecord {
  name: string;
  version: string;
  build: string | null;
  channel: string | null;
  depends: string[];
  /** dist-info / egg-info folders this conda package installed (relative to the prefix) */
  distFolders: string[];
}

/** One conda-meta/NAME-VERSION-BUILD.json. Null when it is not a conda record. */
export function parseCondaRecord(text: string): CondaRecord | null {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    return null;
  }
  if (!j || typeof j !== 'object') return null;
  const o = j as Record<string, unknown>;
  if (typeof o.name !== 'string' || typeof o.version !== 'string') return null;
  const files = Array.isArray(o.files) ? o.files.filter((f): f is string => typeof f === 'string') : [];
  const distFolders = new Set<string>();
  for (const f of files) {
    const m = /^(.*?\.(?:dist-info|egg-info))(?:\/|$)/.exec(f);
    if (m) distFolders.add(m[1]!);
  }
  return {
    name: o.name,
    version: o.version,
    build: typeof o.build === 'string' ? o.build : null,
    channel: typeof o.channel === 'string' ? o.channel : typeof o.schannel === 'string' ? o.schannel : null,
    depends: Array.isArray(o.depends) ? o.depends.filter((d): d is string => typeof d === 'string') : [],
    distFolders: [...distFolders],
  };
}

/** "cudnn-9.1.1.17-h...json" → "cudnn": conda-meta names are NAME-VERSION-BUILD, and NAME may contain "-". */
export function condaFileName(file: string): string | null {
  const m = /^(.+)-([^-]+)-([^-]+)\.json$/.exec(file);
  return m ? m[1]! : null;
}
