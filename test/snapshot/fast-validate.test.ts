// The compiled yes/no validator `fleet` uses (src/gather/snapshot/fast-validate.ts) must accept exactly what zod's
// Snapshot schema accepts: checked on the real H200 snapshots and on thousands of mutations of them (a leaf set to
// another JSON value, a key removed, an object turned into an array, …), generated with fast-check.
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { compileValidator } from '../../src/gather/snapshot/fast-validate.js';
import { parseSnapshotText, parseSnapshotTextFast } from '../../src/gather/snapshot/load.js';
import { Snapshot } from '../../src/gather/snapshot/schema.js';
import { UsageError } from '../../src/base/errors.js';

const DIR = path.resolve(__dirname, '../fixtures/snapshots');
const REAL = ['h200-idle.json', 'h200-memory-held.json'].map(
  (f) => JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')) as unknown,
);
const isSnapshot = compileValidator(Snapshot);

/** Every path to a value inside a JSON document. */
function paths(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}

function setAt(doc: unknown, p: (string | number)[], value: unknown, remove: boolean): unknown {
  if (p.length === 0) return value;
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let cur = copy;
  for (const k of p.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  const last = p[p.length - 1]!;
  if (remove && !Array.isArray(cur)) delete cur[last];
  else cur[last] = value;
  return copy;
}

const jsonValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    2 ** 60,
    -1,
    0,
    1.5,
    '',
    'ok',
    'running',
    'zombie',
    'pip',
    'conda',
    'torch',
    'rpath',
    'needed',
    'largest',
  ),
  fc.string(),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);

describe('the compiled snapshot validator', () => {
  it('accepts the real snapshots, as zod does', () => {
    for (const s of REAL) {
      expect(Snapshot.safeParse(s).success).toBe(true);
      expect(isSnapshot(s)).toBe(true);
    }
  });

  it('agrees with zod on mutated snapshots', () => {
    const all = REAL.map((doc) => ({ doc, paths: paths(doc) }));
    let rejected = 0;
    fc.assert(
      fc.property(fc.nat(all.length - 1), fc.nat(), jsonValue, fc.boolean(), (which, pick, value, remove) => {
        const { doc, paths: ps } = all[which]!;
        const mutated = setAt(doc, ps[pick % ps.length]!, value, remove);
        const want = Snapshot.safeParse(mutated).success;
        if (!want) rejected++;
        expect(isSnapshot(mutated)).toBe(want);
      }),
      { numRuns: 3000 },
    );
    // the mutations exercise both answers
    expect(rejected).toBeGreaterThan(300);
  });

  it('refuses a construct it does not know, rather than accepting anything', () => {
    expect(() => compileValidator(z.object({ a: z.string().min(3) }))).toThrow(/unsupported check/);
    expect(() => compileValidator(z.object({ a: z.date() }))).toThrow(/unsupported zod type date/);
  });

  it("parseSnapshotTextFast: the document as parsed when valid, zod's message when not", () => {
    const text = JSON.stringify({ schemaVersion: 1, snapshot: REAL[0] });
    expect(parseSnapshotTextFast(text, 'a.json')).toEqual(JSON.parse(text).snapshot);
    const bad = JSON.stringify({ ...(REAL[0] as object), nvidia: { ok: 'yes' } });
    const zodSays = (() => {
      try {
        parseSnapshotText(bad, 'b.json');
      } catch (e) {
        return (e as Error).message;
      }
      return null;
    })();
    expect(() => parseSnapshotTextFast(bad, 'b.json')).toThrow(UsageError);
    expect(() => parseSnapshotTextFast(bad, 'b.json')).toThrow(zodSays!);
  });
});
