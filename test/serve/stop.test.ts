// `serve` stopping: the nvidia-smi calls still in flight end with it, their process groups too (a wrapper
// script's own children), instead of being left to init.
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fakeBin, tempDir } from '../helpers/fake-bin.js';
import { startServe, until } from './helpers.js';

/** PIDs of processes whose command line holds `marker` (read from /proc, as ps would). */
function withMarker(marker: string): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').includes(marker)) found.push(Number(name));
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

describe('serve stops its children', () => {
  it('a hanging nvidia-smi (a wrapper whose sleep hangs): none left after SIGTERM', async () => {
    const dir = tempDir('ged-serve-hang-');
    // unique, so that other tests' and other checkouts' sleeps are not counted
    const marker = String(1_000_000 + Math.floor(Math.random() * 8_000_000));
    // a wrapper script with a child of its own: the child is in the script's process group
    fakeBin(dir, 'nvidia-smi', `sleep ${marker} & wait`);
    const s = await startServe(['--interval', '0.5', '--timeout', '60'], {
      PATH: `${dir}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    });
    try {
      await until('the hung nvidia-smi calls', async () => withMarker(marker).length >= 2, 10000);
    } finally {
      const code = await s.stop();
      expect(code).toBe(0);
    }
    // the children are killed before the server closes; give the kernel a moment to reap them
    await until('no sleep left', async () => withMarker(marker).length === 0, 3000).catch(() => undefined);
    expect(withMarker(marker)).toEqual([]);
  }, 30000);
});
