// The knowledge tables: valid against their schemas, every row names a source, and the tables agree with
// each other where they must (monotonic drivers, variant names, unique GPU phrases).
import { describe, expect, test } from 'vitest';
import { knowledge, rawKnowledge } from '../../src/knowledge/index.js';
import { KNOWLEDGE_SCHEMAS } from '../../src/knowledge/schemas.js';
import { compareVersions } from '../../src/judge/compat/version.js';

const SCHEMAS = KNOWLEDGE_SCHEMAS;

/** Every row: each object element of a top-level array, and each top-level object with a `text`. */
function rows(doc: Record<string, unknown>): { where: string; row: Record<string, unknown> }[] {
  const out: { where: string; row: Record<string, unknown> }[] = [];
  for (const [k, v] of Object.entries(doc)) {
    if (Array.isArray(v)) v.forEach((r, i) => out.push({ where: `${k}[${i}]`, row: r as Record<string, unknown> }));
    else if (v && typeof v === 'object') out.push({ where: k, row: v as Record<string, unknown> });
  }
  return out;
}

describe('knowledge files', () => {
  for (const [file, doc] of Object.entries(rawKnowledge())) {
    test(`${file} matches its schema`, () => {
      const r = SCHEMAS[file as keyof typeof SCHEMAS].safeParse(doc);
      expect(r.success, r.success ? '' : JSON.stringify(r.error.issues.slice(0, 3))).toBe(true);
    });
    test(`${file}: every row names a source`, () => {
      const all = rows(doc as Record<string, unknown>);
      expect(all.length).toBeGreaterThan(2);
      const missing = all
        .filter(({ row }) => typeof row.source !== 'string' || row.source.trim().length < 8)
        .map((r) => r.where);
      expect(missing).toEqual([]);
    });
  }

  test('the checker of sources fails on a row without one', () => {
    const bad = { releases: [{ version: '1.0', source: 'https://example.org/x' }, { version: '2.0' }] };
    const missing = rows(bad).filter(({ row }) => typeof row.source !== 'string');
    expect(missing.map((m) => m.where)).toEqual(['releases[1]']);
  });

  test('toolkit drivers never go down as CUDA goes up (Linux and Windows)', () => {
    const t = [...knowledge().cudaDriver.toolkits].sort((a, b) => compareVersions(a.version, b.version));
    for (const os of ['linux', 'windows'] as const) {
      const ds = t.map((r) => r[os]).filter((d): d is string => d !== null);
      for (let i = 1; i < ds.length; i++)
        expect(compareVersions(ds[i]!, ds[i - 1]!), `${os} ${ds[i - 1]} → ${ds[i]}`).toBeGreaterThanOrEqual(0);
    }
  });

  test('minor-version-compatibility floors are not above any toolkit driver of their major, except 11.0 pre-releases', () => {
    for (const m of knowledge().cudaDriver.minorVersionCompat) {
      for (const r of knowledge().cudaDriver.toolkits.filter(
        (x) => x.cuda.startsWith(`${m.major}.`) && x.linux && x.cuda !== '11.0',
      )) {
        expect(compareVersions(r.linux!, m.linux), `${r.release}`).toBeGreaterThanOrEqual(0);
      }
    }
  });

  test('torch variant names agree with their CUDA; SASS lists are sorted and non-empty', () => {
    for (const r of knowledge().pytorch.releases) {
      for (const v of r.variants) {
        expect(v.name, `${r.version}`).toBe(`cu${v.cuda.replace('.', '')}`);
        expect(v.sass.length).toBeGreaterThan(0);
        expect([...v.sass].sort(compareVersions)).toEqual(v.sass);
      }
    }
  });

  test('every TensorFlow Linux release 1.0–2.21 is there; Windows GPU ends at 2.10', () => {
    const tf = knowledge().tensorflow.builds;
    const linux = tf.filter((b) => b.platform === 'linux' && b.gpu).map((b) => b.version);
    for (const v of ['1.0.0', '1.15.0', '2.0.0', '2.10.0', '2.12.0', '2.15.0', '2.16.1', '2.21.0'])
      expect(linux).toContain(v);
    const winGpu = tf
      .filter((b) => b.platform === 'windows' && b.gpu)
      .map((b) => b.version)
      .sort(compareVersions);
    expect(winGpu[winGpu.length - 1]).toBe('2.10.0');
    expect(
      tf
        .filter((b) => b.platform === 'windows' && compareVersions(b.version, '2.11.0') >= 0)
        .every((b) => !b.gpu && b.cuda === null),
    ).toBe(true);
  });

  test('GPU phrases are unique across products', () => {
    const seen = new Map<string, string>();
    for (const p of knowledge().gpus.products)
      for (const n of p.names) {
        expect(seen.has(n), n).toBe(false);
        seen.set(n, p.computeCapability);
      }
  });

  test('every compute capability of a GPU product has an architecture row', () => {
    const ccs = new Set(knowledge().computeCapability.architectures.map((a) => a.computeCapability));
    for (const p of knowledge().gpus.products) expect(ccs.has(p.computeCapability), p.names[0]).toBe(true);
  });
});
