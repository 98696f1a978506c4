// Statements that must read as true: no list repeats an item (issue 13, point 4), no ✓ line sounds like a
// problem (point 6). Over the full H200 snapshots (test/fixtures/snapshots/h200-full-*.json, with the library
// and Python sections) and plantings of the H200 scenarios into them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../src/judge/checks/index.js';
import { runChecks } from '../../src/judge/checks/run-checks.js';
import type { Finding } from '../../src/judge/finding.js';
import { listOf, unique } from '../../src/base/format.js';
import { Snapshot } from '../../src/gather/snapshot/schema.js';
import { FIXTURES } from '../helpers/fake-bin.js';

const full = (name: 'h200-full-idle' | 'h200-full-held'): Snapshot =>
  Snapshot.parse(JSON.parse(fs.readFileSync(path.join(FIXTURES, 'snapshots', `${name}.json`), 'utf8')));

/** The H200's system cuDNN 9.14 first on LD_LIBRARY_PATH: every sub-library comes from /usr/lib. */
function systemCudnnFirst(): Snapshot {
  const s = structuredClone(full('h200-full-idle'));
  const lib = s.libraries!;
  lib.ldLibraryPath = ['/usr/lib/x86_64-linux-gnu', ...lib.ldLibraryPath];
  s.env.LD_LIBRARY_PATH = lib.ldLibraryPath.join(':');
  for (const c of lib.consumers) {
    for (const r of c.resolved) {
      if (!r.family?.startsWith('libcudnn_')) continue;
      const own = { path: r.path!, realPath: r.realPath, version: r.version, via: r.via };
      r.path = `/usr/lib/x86_64-linux-gnu/${r.name}`;
      r.realPath = `/usr/lib/x86_64-linux-gnu/${r.name}.14.0`;
      r.version = '9.14.0';
      r.via = 'ld_library_path';
      r.shadowed = [own];
    }
  }
  return Snapshot.parse(s);
}

const findingsOf = (s: Snapshot): Finding[] => runChecks(ALL_CHECKS, s).flatMap((r) => r.findings);

/** A comma-separated run inside a sentence that names one item twice: "a, b, a". */
function repeatedItem(text: string): string | null {
  for (const segment of text.split(/[;:()—]|\. /)) {
    const items = segment
      .split(/, | and /)
      .map((x) => x.trim())
      .filter((x) => x.length > 2);
    const seen = new Set<string>();
    for (const i of items) {
      if (seen.has(i)) return i;
      seen.add(i);
    }
  }
  return null;
}

const scenarios: [string, () => Snapshot][] = [
  ['idle', () => full('h200-full-idle')],
  ['memory held', () => full('h200-full-held')],
  ['system cuDNN first', systemCudnnFirst],
];

describe('no list repeats an item (point 4)', () => {
  it('listOf and unique keep the first of each', () => {
    expect(listOf(['/usr/lib/x86_64-linux-gnu', '/usr/lib/x86_64-linux-gnu', '/opt/x'])).toBe(
      '/usr/lib/x86_64-linux-gnu, /opt/x',
    );
    expect(unique([3, 1, 3, 2, 1])).toEqual([3, 1, 2]);
  });

  it.each(scenarios)('%s: messages, fix texts and fix commands name each item once', (_name, make) => {
    const fs_ = findingsOf(make());
    expect(fs_.length).toBeGreaterThan(10);
    for (const f of fs_) {
      expect(repeatedItem(f.message), f.message).toBeNull();
      if (!f.fix) continue;
      expect(repeatedItem(f.fix.text), f.fix.text).toBeNull();
      expect(f.fix.commands).toEqual(unique(f.fix.commands));
      expect(f.fix.manual ?? []).toEqual(unique(f.fix.manual ?? []));
    }
  });

  it('the system-cuDNN-first fix names /usr/lib/x86_64-linux-gnu once (it said it seven times)', () => {
    const f = findingsOf(systemCudnnFirst()).find(
      (x) => x.check === 'libs.cudnn-sublibrary-mismatch' && x.affects?.framework === 'torch',
    )!;
    expect(f.fix!.text.match(/\/usr\/lib\/x86_64-linux-gnu/g)).toHaveLength(1);
    expect(f.fix!.commands).toEqual(['export LD_LIBRARY_PATH=/usr/local/nvidia/lib64:/usr/local/nvidia/lib']);
  });
});

describe('a ✓ line reads as fine (point 6)', () => {
  it('idle H200: the LD_LIBRARY_PATH line says what the driver folders are, not that they shadow anything', () => {
    const f = findingsOf(full('h200-full-idle')).find((x) => x.check === 'env.library-path')!;
    expect(f.status).toBe('ok');
    expect(f.message).toBe(
      'LD_LIBRARY_PATH lists /usr/local/nvidia/lib64, /usr/local/nvidia/lib: the frameworks take only the driver (libcuda, NVML) from there, their CUDA libraries from their own files',
    );
  });

  it('no ok finding on the idle H200 uses the words of a problem', () => {
    for (const f of findingsOf(full('h200-full-idle')).filter((x) => x.status === 'ok')) {
      expect(f.message, f.message).not.toMatch(/\bahead of\b|\bshadow|\bfails?\b|\bbroken\b|\bmismatch\b|\bconflict/i);
    }
  });

  it('with the system cuDNN first the same line says what loads from there', () => {
    const f = findingsOf(systemCudnnFirst()).find((x) => x.check === 'env.library-path')!;
    expect(f.message).toMatch(
      /^LD_LIBRARY_PATH lists \/usr\/lib\/x86_64-linux-gnu, \/usr\/local\/nvidia\/lib64, \/usr\/local\/nvidia\/lib; the frameworks load libcudnn_graph, /,
    );
  });
});
