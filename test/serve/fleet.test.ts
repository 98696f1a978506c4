// `serve --fleet DIR`: rows from a folder of real H200 snapshots (examples/snapshots), renamed as several
// nodes, one of them with another driver and a leftover holding its GPU.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileSystem } from '../../src/ports/fs.js';
import { FleetWatcher } from '../../src/act/serve/fleet.js';
import { renderFleetMain } from '../../src/report/serve/fleet-render.js';
import { tempDir } from '../helpers/fake-bin.js';
import { get, startServe, until, type Serve } from './helpers.js';
import { getLang, wordsFor } from '../../src/base/i18n/index.js';

const EXAMPLES = path.resolve(__dirname, '../../examples/snapshots');
const IDLE = JSON.parse(fs.readFileSync(path.join(EXAMPLES, 'h200-idle.json'), 'utf8'));
const HELD = JSON.parse(fs.readFileSync(path.join(EXAMPLES, 'h200-memory-held.json'), 'utf8'));
// The capture predates the session facts; planted as on the H200 (hog-1200-proc.txt: session 417, PID 1 none):
// the evidence that the hog's parent exited, so it is a stale holder (without it, it is "unknown").
Object.assign(HELD.processes.list[0], { sid: 417, parentSid: 0 });

function write(dir: string, name: string, snap: unknown): void {
  fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(snap));
}

function fleetDir(): string {
  const dir = tempDir('ged-serve-fleet-');
  const now = new Date().toISOString();
  for (const n of ['node-a', 'node-b', 'node-c']) write(dir, n, { ...IDLE, host: { name: n }, collectedAt: now });
  write(dir, 'node-d', {
    ...HELD,
    host: { name: 'node-d' },
    collectedAt: now,
    nvidia: { ...HELD.nvidia, driverVersion: '570.86.15' },
  });
  return dir;
}

const servers: Serve[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

describe('the fleet page', () => {
  it('one row per machine: free GPUs, stale holders, outliers; machines needing a look first', async () => {
    const dir = fleetDir();
    let changes = 0;
    const w = new FleetWatcher({
      fs: createFileSystem('/'),
      cwd: '/',
      dir,
      now: Date.now,
      intervalMs: 1000,
      mergeEveryMs: 0,
      oldAfterMs: 600_000,
      onChange: () => changes++,
    });
    await w.scan();
    expect(changes).toBe(1);
    const m = w.model();
    expect(m.machines.map((r) => r.host)).toEqual(['node-d', 'node-a', 'node-b', 'node-c']);
    const d = m.machines[0]!;
    expect(d.free).toEqual([]);
    expect(d.stale).toEqual([
      expect.objectContaining({ pid: 666, user: 'root', verdict: 'orphaned', gpus: [0], miB: 141948 }),
    ]);
    expect(d.outliers).toEqual([expect.objectContaining({ value: '570.86.15', usual: '580.159.04' })]);
    expect(m.machines[1]!).toMatchObject({
      free: [0],
      // spelled as check and the machine's own page spell it: by UUID
      freeLine: `export CUDA_VISIBLE_DEVICES=${IDLE.nvidia.gpus[0].uuid}`,
      stale: [],
      outliers: [],
    });
    expect(m.totals).toEqual({ machines: 4, gpus: 4, free: 3, stale: 1, outliers: 1, old: 0 });
    const html = renderFleetMain(wordsFor(getLang()), m, Date.now());
    expect(html).toContain('<tr data-host="node-d" data-stale="1" data-free="0">');
    expect(html).toContain('3 of 4 GPUs free');
  });

  it('a new snapshot replaces its row; a half-written file keeps its last row and says why; a removed file goes', async () => {
    const dir = fleetDir();
    const w = new FleetWatcher({
      fs: createFileSystem('/'),
      cwd: '/',
      dir,
      now: Date.now,
      intervalMs: 1000,
      mergeEveryMs: 0,
      oldAfterMs: 600_000,
      onChange: () => undefined,
    });
    await w.scan();
    fs.writeFileSync(path.join(dir, 'node-a.json'), '{"schemaVersion": 1, "tool"');
    fs.rmSync(path.join(dir, 'node-b.json'));
    write(dir, 'node-c', { ...HELD, host: { name: 'node-c' }, collectedAt: new Date().toISOString() });
    await w.scan();
    const m = w.model();
    expect(m.machines.map((r) => r.host).sort()).toEqual(['node-a', 'node-c', 'node-d']);
    expect(m.machines.find((r) => r.host === 'node-a')!.problem).toMatch(/JSON|not/i);
    expect(m.machines.find((r) => r.host === 'node-c')!.stale).toHaveLength(1);
  });

  it('an old snapshot is marked old', async () => {
    const dir = fleetDir();
    write(dir, 'node-a', { ...IDLE, host: { name: 'node-a' }, collectedAt: '2026-01-01T00:00:00.000Z' });
    const w = new FleetWatcher({
      fs: createFileSystem('/'),
      cwd: '/',
      dir,
      now: Date.now,
      intervalMs: 1000,
      mergeEveryMs: 0,
      oldAfterMs: 600_000,
      onChange: () => undefined,
    });
    await w.scan();
    expect(w.model().totals.old).toBe(1);
    expect(renderFleetMain(wordsFor(getLang()), w.model(), Date.now())).toContain('1 snapshot older than 10 min');
  });

  it('gpu-env-doctor serve --fleet DIR serves it, and updates when a node writes a new snapshot', async () => {
    const dir = fleetDir();
    const s = await startServe(['--fleet', dir, '--interval', '1']);
    servers.push(s);
    const page = await until('the first read', async () => {
      const r = await get(s.url);
      return r.body.includes('data-host="node-d"') ? r.body : null;
    });
    expect(page).toContain('4 machines from');
    write(dir, 'node-d', { ...IDLE, host: { name: 'node-d' }, collectedAt: new Date().toISOString() });
    const json = await until('the new snapshot', async () => {
      const j = JSON.parse((await get(`${s.base}/state.json`)).body);
      return j.totals.stale === 0 ? j : null;
    });
    expect(json.totals.free).toBe(4);
  });
});
