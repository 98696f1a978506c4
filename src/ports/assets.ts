// The tool's own data files, read when first needed (not the machine's files: those go through ./fs.ts). The
// knowledge tables (350 kB) are such files in dist/knowledge/: bundled as code, every command that loads them would
// pay for reading and scanning them at start, whether it asks them anything or not (`explain` of most logs does not).
import * as nfs from 'node:fs';
import { fileURLToPath } from 'node:url';

export function readAssetText(url: URL): string {
  return nfs.readFileSync(fileURLToPath(url), 'utf8');
}

/** The names in one of the tool's own folders (the findings pages), or none when it is not there. */
export function listAssetDir(url: URL): string[] {
  try {
    return nfs.readdirSync(fileURLToPath(url)).sort();
  } catch {
    return [];
  }
}
