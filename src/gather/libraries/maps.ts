// /proc/PID/maps: the files a running process really mapped — the loaded copy is the truth the emulation
// is compared with (NVIDIA's cudnn-frontend reads /proc/self/maps for the same reason).
import type { FileSystem } from '../../ports/fs.js';

/** Unique file paths of mapped shared objects, in first-mapped order. " (deleted)" files keep their path. */
export function parseMaps(text: string): string[] {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    // address perms offset dev inode pathname — the path starts at the first "/" after the inode.
    const m = /^\S+\s+\S+\s+\S+\s+\S+\s+\d+\s+(\/.*)$/.exec(line);
    if (!m) continue;
    const path = m[1]!.replace(/ \(deleted\)$/, '');
    if (/\.so(\.|$)|\.so\b/.test(path.slice(path.lastIndexOf('/')))) out.add(path);
  }
  return [...out];
}

export type MapsResult = { ok: true; files: string[] } | { ok: false; message: string };

export function readMaps(fs: FileSystem, pid: number): MapsResult {
  try {
    return { ok: true, files: parseMaps(fs.readText(`/proc/${pid}/maps`, 16 * 1024 * 1024)) };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      message: /EACCES|permission/i.test(msg)
        ? `/proc/${pid}/maps: permission denied (another user's process: run as that user or root)`
        : `/proc/${pid}/maps: ${msg}`,
    };
  }
}
