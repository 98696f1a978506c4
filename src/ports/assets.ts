// The tool's own data files, read when first needed (not the machine's files: those go through ./fs.ts). The
// knowledge tables (350 kB) are such files in dist/knowledge/: bundled as code, every command that loads them would
// pay for reading and scanning them at start, whether it asks them anything or not (`explain` of most logs does not).
import * as nfs from 'node:fs';
import * as npath from 'node:path';
import { fileURLToPath } from 'node:url';

export function readAssetText(url: URL): string {
  return nfs.readFileSync(fileURLToPath(url), 'utf8');
}

/**
 * Bytes [start, end) of one of the tool's own files as Latin-1 text (of an ASCII file, its text), fewer past its end:
 * a part of a big file read without reading (and decoding) the rest.
 */
export function readAssetBytes(url: URL, start: number, end: number): string {
  const fd = nfs.openSync(fileURLToPath(url), 'r');
  try {
    const buf = Buffer.allocUnsafe(Math.max(0, end - start));
    let n = 0;
    while (n < buf.length) {
      const got = nfs.readSync(fd, buf, n, buf.length - n, start + n);
      if (got === 0) break;
      n += got;
    }
    return buf.toString('latin1', 0, n);
  } finally {
    nfs.closeSync(fd);
  }
}

/** The names in one of the tool's own folders (the findings pages), or none when it is not there. */
export function listAssetDir(url: URL): string[] {
  try {
    return nfs.readdirSync(fileURLToPath(url)).sort();
  } catch {
    return [];
  }
}

/** The installed docs/findings/ folder (docs/zh/findings/ for Chinese, when shipped), found upward from this module:
 *  the bundle puts this code in dist/cli.js or dist/chunks/, the sources in src/ports/, and docs/ sits beside dist/
 *  and src/. Null when it is not shipped. */
export function findingsDir(lang = 'en'): string | null {
  const names =
    lang === 'zh'
      ? [
          ['docs', 'zh', 'findings'],
          ['docs', 'findings'],
        ]
      : [['docs', 'findings']];
  for (const name of names) {
    let dir = npath.dirname(fileURLToPath(import.meta.url));
    for (let up = 0; up < 3; up++) {
      const candidate = npath.join(dir, ...name);
      if (nfs.existsSync(npath.join(candidate, 'README.md'))) return `${candidate}${npath.sep}`;
      dir = npath.dirname(dir);
    }
  }
  return null;
}
