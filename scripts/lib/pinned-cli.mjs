// The built CLI as the README pages show it: the clock pinned 4h 22m after the snapshot was taken (so the pages
// are stable), 80 columns, no colour, the given locale. Used by scripts/readme-samples.mjs and scripts/zh-readme.mjs.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A function that runs `dist/cli.js ARGS` in `root` and returns its stdout without the trailing blank. */
export function pinnedCli(root, snapshot, lang) {
  const taken = Date.parse(JSON.parse(fs.readFileSync(path.join(root, snapshot), 'utf8')).collectedAt);
  const now = taken + (4 * 60 + 22) * 60 * 1000;
  return (args) => {
    const r = spawnSync(
      process.execPath,
      ['--import', `data:text/javascript,Date.now=()=>${now}`, path.join(root, 'dist/cli.js'), ...args],
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NO_COLOR: '1', COLUMNS: '80', LANG: lang },
        encoding: 'utf8',
      },
    );
    if (r.error) throw r.error;
    return r.stdout.replace(/\s+$/, '');
  };
}
