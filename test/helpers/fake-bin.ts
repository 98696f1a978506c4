// Fake programs on PATH that replay real captures: `fakeBin(dir, 'nvidia-smi', script)`.
// They are tiny shell scripts so the real runner (spawn, timeout, exit codes) is exercised end to end.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export function tempDir(prefix = 'ged-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Writes an executable sh script named `name` in `dir`. */
export function fakeBin(dir: string, name: string, body: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return p;
}

/**
 * A fake nvidia-smi that prints `xmlFile` for `-q -x` and `csvFile` for `--query-gpu=...`,
 * and `appsFile` for `--query-compute-apps=...`.
 */
export function fakeNvidiaSmi(
  dir: string,
  files: { xml?: string; csv?: string; apps?: string; text?: string },
): string {
  const cat = (f?: string) => (f ? `cat '${f}'` : 'echo "unsupported" >&2; exit 2');
  return fakeBin(
    dir,
    'nvidia-smi',
    `case "$1" in
  -q) ${cat(files.xml)} ;;
  --query-gpu=*) ${cat(files.csv)} ;;
  --query-compute-apps=*) ${cat(files.apps)} ;;
  *) ${cat(files.text)} ;;
esac`,
  );
}

export const FIXTURES = path.resolve(__dirname, '../fixtures');
