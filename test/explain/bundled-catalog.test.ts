// The bundle ships the explain catalog as a head line and one row per line (src/judge/explain/catalog/bundled.ts,
// written by scripts/build.mjs into dist/explain/catalog.json, built by the tests' global setup). A registry restored
// from that file must hold the same signatures as the one built from the sources, select the same ones per anchor,
// and parse a row only when its signature is first read beyond its literals.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type BundledCatalog,
  bundledCatalog,
  bundledText,
  decodeClauses,
  encodeClauses,
} from '../../src/judge/explain/catalog/bundled.js';
import { Registry, registry, type Signature } from '../../src/judge/explain/signatures/index.js';

const repo = path.resolve(__dirname, '../..');
const text = fs.readFileSync(path.join(repo, 'dist/explain/catalog.json'), 'utf8');

/** the bundled catalog, counting the rows it parses */
function counted(): { catalog: BundledCatalog; rows: () => number } {
  const inner = bundledCatalog((start, end) => text.slice(start, end));
  let rows = 0;
  const catalog: BundledCatalog = {
    get families() {
      return inner.families;
    },
    get registry() {
      return inner.registry;
    },
    get count() {
      return inner.count;
    },
    literals: (i) => inner.literals(i),
    row: (i) => {
      rows++;
      return inner.row(i);
    },
  };
  return { catalog, rows: () => rows };
}

const fields = (s: Signature) => ({
  id: s.id,
  group: s.group,
  kind: s.kind,
  framework: s.framework,
  causes: s.causes,
  reasons: s.reasons,
  summary: s.summary,
  source: s.source,
  setting: s.setting,
  examples: s.examples,
  status: s.status,
  catalog: s.catalog,
  anchors: s.anchors,
  literals: s.literals,
  re: `/${s.re.source}/${s.re.flags}`,
  needs: s.needs ? `/${s.needs.source}/${s.needs.flags}` : undefined,
});

describe("the bundle's catalog", () => {
  it('restores a registry with the same signatures, selected per anchor as from the sources', () => {
    const source = registry();
    const { catalog } = counted();
    const restored = new Registry(catalog);
    expect(catalog.count).toBeGreaterThan(400);
    expect(restored.anchors.words).toEqual(source.anchors.words);
    for (let a = 0; a < source.anchors.words.length; a++) {
      expect(restored.signaturesFor([a]).map((s) => s.id)).toEqual(source.signaturesFor([a]).map((s) => s.id));
      expect(restored.cuesFor([a]).map((c) => c.framework)).toEqual(source.cuesFor([a]).map((c) => c.framework));
    }
    expect(restored.signaturesFor([0, 3, 1]).map((s) => s.id)).toEqual(
      source.signaturesFor([0, 3, 1]).map((s) => s.id),
    );
    expect(restored.signatures.length).toBe(source.signatures.length);
    restored.signatures.forEach((s, i) => expect(fields(s)).toEqual(fields(source.signatures[i]!)));
  });

  it('parses no row to build the registry or to test literals; a row when its signature is read', () => {
    const { catalog, rows } = counted();
    const restored = new Registry(catalog);
    const cuda = restored.anchors.words.indexOf('cuda');
    expect(cuda).toBeGreaterThanOrEqual(0);
    const selected = restored.signaturesFor([cuda]);
    expect(selected.length).toBeGreaterThan(50);
    expect(selected.filter((s) => s.literals !== null).length).toBeGreaterThan(50);
    expect(rows()).toBe(0);
    const first = selected.find((s) => s.catalog)!;
    expect(first.id.length).toBeGreaterThan(0);
    expect(first.re).toBeInstanceOf(RegExp);
    expect(rows()).toBe(1);
  });

  it('reads the head and the rows after it at once, any other row alone, and a head past the first read', () => {
    const reads: Array<[number, number]> = [];
    const catalog = bundledCatalog((start, end) => {
      reads.push([start, end]);
      return text.slice(start, end);
    });
    const lines = text.split('\n');
    expect(catalog.count).toBe(lines.length - 1);
    expect(reads).toEqual([[0, 1 << 17]]);
    expect(catalog.row(0)).toEqual(JSON.parse(lines[1]!));
    expect(reads.length).toBe(1);
    const last = catalog.count - 1;
    expect(catalog.row(last)).toEqual(JSON.parse(lines[last + 1]!));
    const end = text.length;
    expect(reads[1]).toEqual([end - lines[last + 1]!.length, end]);

    const long = bundledText(
      {
        families: [{ id: 'x'.repeat(300_000), causes: {}, messages: 0 }],
        signatures: [{ ...JSON.parse(lines[1]!), literals: [['a', 'b'], ['c']] }],
      },
      { count: 1, cues: 0, anchors: {}, byAnchor: [], cuesByAnchor: [] },
      JSON.stringify,
    );
    const sizes: number[] = [];
    const big = bundledCatalog((start, end) => {
      sizes.push(end - start);
      return long.slice(start, end);
    });
    expect(big.families[0]!.id.length).toBe(300_000);
    expect(sizes).toEqual([1 << 17, 1 << 18, 1 << 19]);
    expect(big.literals(0)).toEqual([['a', 'b'], ['c']]);
    expect(big.row(0)).toEqual(JSON.parse(lines[1]!));
  });

  it('is ASCII, so that an offset into its text is one into its bytes', () => {
    expect(/[^\x00-\x7f]/.test(text)).toBe(false);
  });

  it("encodes a row's literals as one string and back", () => {
    const clauses = [['memory', 'cudaerrormemoryallocation'], ['out']];
    expect(decodeClauses(encodeClauses(clauses))).toEqual(clauses);
    expect(decodeClauses(encodeClauses(null))).toBeNull();
    expect(() => encodeClauses([['a\u0001b']])).toThrow(/separator/);
    expect(() => encodeClauses([[]])).toThrow(/empty clause/);
  });
});
