// libs.loaded on the snapshot taken on the H200 while a PyTorch job held the GPU (test/fixtures/snapshots): what
// the process mapped, said as information; a process whose maps could not be read is skipped, never ok; a file
// other than the emulation's is said with both paths (info: the emulation, not the job, may be wrong).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { setLang } from '../../../src/base/i18n/index.js';
import { loadedCheck } from '../../../src/judge/checks/libraries/loaded.js';
import { Snapshot } from '../../../src/gather/snapshot/schema.js';

const FILE = path.resolve(__dirname, '../../fixtures/snapshots/h200-full-held.json');
const held = (change: (s: Snapshot) => void = () => {}): Snapshot => {
  const s = Snapshot.parse(JSON.parse(fs.readFileSync(FILE, 'utf8')));
  change(s);
  return Snapshot.parse(s);
};

beforeAll(() => setLang('en'));

describe('libs.loaded', () => {
  it('the PyTorch job as captured: one line of information naming the CUDA libraries it mapped', () => {
    const [f, ...rest] = loadedCheck.evaluate(held());
    expect(rest).toEqual([]);
    expect([f!.severity, f!.status, f!.rootCause, f!.fix]).toEqual(['info', 'ok', null, undefined]);
    expect(f!.message).toBe(
      'Process 666 (PyTorch) loaded cuDNN 9.19.0, cuBLAS 13.1.0.3, the driver library libcuda 580.159.04, ' +
        'CUDA runtime 13.0.96',
    );
    expect(f!.evidence).toHaveLength(13);
    expect(f!.evidence.every((e) => e.source === '/proc/666/maps')).toBe(true);
    expect(f!.affects).toEqual({ pid: 666 });
  });

  it('maps that could not be read: skipped with the reason, nothing said of its libraries', () => {
    const found = loadedCheck.evaluate(
      held((s) => {
        s.libraries!.processes[0] = { ...s.libraries!.processes[0]!, ok: false, message: 'Permission denied' };
      }),
    );
    expect(found.map((f) => [f.severity, f.status, f.message])).toEqual([
      ['info', 'skip', 'Process 666: Permission denied'],
    ]);
  });

  it('a file other than the emulated one: said beside the ok line, both paths as evidence', () => {
    const found = loadedCheck.evaluate(
      held((s) => {
        s.libraries!.processes[0]!.differences = [{ family: 'libcudnn', loaded: '/a/libcudnn.so.9', expected: '/b/x' }];
      }),
    );
    expect(found).toHaveLength(2);
    expect(found[1]).toMatchObject({
      severity: 'info',
      status: 'ok',
      affects: { pid: 666, library: 'libcudnn' },
      evidence: [
        { text: 'loaded: /a/libcudnn.so.9', source: '/proc/666/maps' },
        { text: 'expected: /b/x', source: 'loader emulation' },
      ],
    });
  });
});
