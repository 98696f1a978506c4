// explain's tree reads English from dist/i18n/en-explain.json, the messages a short explain prints (written by the
// build: scripts/lib/hot-messages.mjs), and the whole catalog only for another message. Tested on the built dist/
// (npm run build first); that both trees print the same for every command is test/build/bundle.test.ts's.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fake-bin.js';

const repo = path.resolve(__dirname, '../..');
const dist = path.join(repo, 'dist');
const log = path.join(repo, 'test/fixtures/h200/logs/conv-keep1200-bs64.txt');
const read = (f: string) => JSON.parse(fs.readFileSync(path.join(dist, 'i18n', f), 'utf8')) as Record<string, string>;

/** a command's output and the files of dist/i18n/ it read (a preload records node:fs's readFileSync, which the
 *  bundle reads from the module object when it loads) */
function run(args: string[]): { stdout: string; status: number | null; read: string[] } {
  const dir = tempDir('ged-hot-messages-');
  const preload = path.join(dir, 'preload.mjs');
  const list = path.join(dir, 'read.json');
  fs.writeFileSync(
    preload,
    `import { createRequire } from 'node:module';
const fs = createRequire(import.meta.url)('node:fs');
const seen = [];
const real = fs.readFileSync;
fs.readFileSync = function (p, ...rest) {
  if (typeof p === 'string' && p.includes('/i18n/')) seen.push(p.slice(p.lastIndexOf('/') + 1));
  return real.call(this, p, ...rest);
};
process.on('exit', () => fs.writeFileSync(${JSON.stringify(list)}, JSON.stringify(seen)));
`,
  );
  const r = spawnSync(process.execPath, ['--import', preload, path.join(dist, 'cli.js'), ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, NO_COLOR: '1', LANG: 'C.UTF-8' },
  });
  return { stdout: r.stdout, status: r.status, read: JSON.parse(fs.readFileSync(list, 'utf8')) as string[] };
}

describe("explain's English messages apart", () => {
  it('are messages of the whole catalog, word for word, and a small part of it', () => {
    const hot = read('en-explain.json');
    const whole = read('en.json');
    const keys = Object.keys(hot);
    expect(keys.length).toBeGreaterThan(5);
    expect(keys.length).toBeLessThan(Object.keys(whole).length / 10);
    for (const k of keys) expect(hot[k], k).toBe(whole[k]);
  });

  it('are all a short explain reads, in the terminal and as --json', () => {
    for (const extra of [[], ['--json']]) {
      const r = run(['explain', log, '--no-machine', ...extra]);
      expect(r.status).toBe(1);
      expect(r.stdout).toContain('out of memory');
      expect(r.read).toEqual(['en-explain.json']);
    }
  });

  it('leave every other message to the whole catalog, read when one is asked', () => {
    const hot = read('en-explain.json');
    const whole = read('en.json');
    const r = run(['help', 'explain']);
    expect(r.status).toBe(0);
    expect(r.read).toEqual(['en-explain.json', 'en.json']);
    // a message of explain's help is not among the hot ones, and is printed
    expect(hot['option.lang']).toBeUndefined();
    expect(r.stdout).toContain(whole['option.lang']!.slice(0, 30));
  });
});
