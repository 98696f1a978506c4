// The file of environment settings that `fix` writes for the user to source (never their shell rc files).
// Re-running fix updates the lines it owns in place and keeps everything else, so the file is stable:
// the same settings give the same bytes, and an unchanged file is not rewritten. Pure.
import type { EnvSetting } from './env-settings.js';

export const DEFAULT_ENV_FILE = 'gpu-env-doctor.env';

const HEADER = (file: string) =>
  [
    '# GPU environment settings written by `gpu-env-doctor fix`.',
    `# Load them in the shell that starts the job:  source ${file.includes('/') ? file : `./${file}`}`,
    '# Re-running fix updates these lines; lines you add yourself are kept.',
  ].join('\n');

/** A shell word that survives `source` unchanged: values are checked against env-settings.json, quoted anyway. */
function quote(v: string): string {
  return /^[A-Za-z0-9_.:,+=/-]+$/.test(v) ? v : `'${v.replace(/'/g, "'\\''")}'`;
}

export function settingLine(s: EnvSetting): string {
  const stmt = s.value === null ? `unset ${s.name}` : `export ${s.name}=${quote(s.value)}`;
  return `${stmt}  # ${s.check}: ${s.why.replace(/[\r\n]+/g, ' ')}`;
}

/** Does this line set or unset NAME? (export NAME=, NAME=, unset NAME) */
function touches(line: string, name: string): boolean {
  const t = line.trim();
  return t.startsWith(`export ${name}=`) || t.startsWith(`${name}=`) || new RegExp(`^unset\\s+${name}(\\s|$)`).test(t);
}

/**
 * The file's new content: `existing` (empty when there is none) with each setting's line replaced where it
 * was, or appended. First setting of a name wins (a later one with another value is a conflict the caller reports).
 */
export function mergeEnvFile(existing: string, settings: readonly EnvSetting[], fileName: string): string {
  const unique = dedupe(settings).kept;
  const lines = existing === '' ? [HEADER(fileName)] : existing.replace(/\n$/, '').split('\n');
  for (const s of unique) {
    const line = settingLine(s);
    const at = lines.findIndex((l) => touches(l, s.name));
    if (at === -1) {
      lines.push(line);
      continue;
    }
    lines[at] = line;
    // drop any further lines for the same name, so the file says one thing
    for (let i = lines.length - 1; i > at; i--) if (touches(lines[i]!, s.name)) lines.splice(i, 1);
  }
  return `${lines.join('\n')}\n`;
}

/** One setting per name: the first; the others with a different value are conflicts. */
export function dedupe(settings: readonly EnvSetting[]): { kept: EnvSetting[]; conflicts: EnvSetting[] } {
  const kept: EnvSetting[] = [];
  const conflicts: EnvSetting[] = [];
  for (const s of settings) {
    const prev = kept.find((k) => k.name === s.name);
    if (!prev) kept.push(s);
    else if (prev.value !== s.value) conflicts.push(s);
  }
  return { kept, conflicts };
}
