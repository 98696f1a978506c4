// The job's window in the kernel log's clock: /proc/uptime at its start, else /proc/stat's btime against the wall
// clock; read through a --root tree holding the two files as the kernel writes them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { secondsSinceBoot, withJobWindow } from '../../src/act/run/job-window.js';
import { createFileSystem } from '../../src/ports/fs.js';
import { planted } from '../helpers/snapshots.js';
import { tempDir } from '../helpers/fake-bin.js';

const root = tempDir('ged-window-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
fs.mkdirSync(path.join(root, 'proc'));

describe('seconds since boot', () => {
  it('from /proc/uptime ("12844.21 201234.56")', () => {
    fs.writeFileSync(path.join(root, 'proc/uptime'), '12844.21 201234.56\n');
    expect(secondsSinceBoot(createFileSystem(root), Date.now())).toBe(12844.21);
  });
  it("from /proc/stat's btime when /proc/uptime cannot be read", () => {
    fs.rmSync(path.join(root, 'proc/uptime'));
    fs.writeFileSync(path.join(root, 'proc/stat'), 'cpu  1 2 3 4\nctxt 123\nbtime 1764669000\nprocesses 42\n');
    expect(secondsSinceBoot(createFileSystem(root), 1764669000000 + 12844210)).toBeCloseTo(12844.21, 3);
  });
  it('neither: null, and the snapshot keeps no window', () => {
    fs.rmSync(path.join(root, 'proc/stat'));
    expect(secondsSinceBoot(createFileSystem(root), Date.now())).toBeNull();
    const s = planted('h200-idle', (x) => {
      x.kernelLog = { readable: true, nvrmLines: 0, xid: [] };
    });
    expect(withJobWindow(s, null, 1000).kernelLog!.jobWindow).toBeUndefined();
    expect(withJobWindow(s, 100, 2500).kernelLog!.jobWindow).toEqual({ fromSeconds: 100, toSeconds: 102.5 });
  });
});
