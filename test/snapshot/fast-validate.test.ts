// The generated yes/no validator `fleet` uses (src/gather/snapshot/validate.generated.ts, written from the zod schema
// by src/gather/snapshot/fast-validate.ts) must accept exactly what zod's Snapshot schema accepts within the depth
// bound: checked on the real H200 snapshots and on thousands of mutations of them (a leaf set to another JSON value,
// a key removed, an object turned into an array, a value nested past the bound, …), generated with fast-check.
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { validatorSource } from '../../src/gather/snapshot/fast-validate.js';
import { isSnapshotWithin } from '../../src/gather/snapshot/validate.generated.js';
import { depthExceeds, MAX_JSON_DEPTH } from '../../src/gather/snapshot/depth.js';
import { parseSnapshotText, parseSnapshotTextFast } from '../../src/gather/snapshot/load.js';
import { Snapshot } from '../../src/gather/snapshot/schema.js';
import { UsageError } from '../../src/base/errors.js';
import { VALIDATOR_FILE, validatorText } from '../../scripts/lib/snapshot-validator.mjs';

const DIR = path.resolve(__dirname, '../fixtures/snapshots');
const REAL = ['h200-idle.json', 'h200-memory-held.json'].map(
  (f) => JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')) as unknown,
);
/** zod's verdict and the depth bound, as parseSnapshotText applies them */
const wanted = (doc: unknown): boolean => !depthExceeds(doc, MAX_JSON_DEPTH) && Snapshot.safeParse(doc).success;

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

const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);
const valueAt = (doc: unknown, p: (string | number)[]): unknown =>
  p.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], doc);

/** `levels` arrays/objects around a leaf */
const nest = (levels: number, leaf: unknown = 1): unknown => {
  let v: unknown = leaf;
  for (let i = 0; i < levels; i++) v = i % 2 === 0 ? { k: v } : [0, v];
  return v;
};

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
  // around the depth bound wherever it lands: deep enough to cross it from any depth of the snapshot, or not
  fc.integer({ min: MAX_JSON_DEPTH - 12, max: MAX_JSON_DEPTH + 1 }).map((n) => nest(n)),
);

describe('the generated snapshot validator', () => {
  it('is the one the schema gives now (npm run build rewrites the file)', async () => {
    expect(fs.readFileSync(VALIDATOR_FILE, 'utf8')).toBe(await validatorText());
  }, 60_000);

  it('accepts the real snapshots, as zod does', () => {
    for (const s of REAL) {
      expect(wanted(s)).toBe(true);
      expect(isSnapshotWithin(s)).toBe(true);
    }
  });

  it('agrees with zod and the depth bound on mutated snapshots', () => {
    const all = REAL.map((doc) => ({ doc, paths: paths(doc) }));
    let rejected = 0;
    let deep = 0;
    fc.assert(
      fc.property(fc.nat(all.length - 1), fc.nat(), jsonValue, fc.nat(2), (which, pick, value, how) => {
        const { doc, paths: ps } = all[which]!;
        const p = ps[pick % ps.length]!;
        // set the value there, remove it, or add it under a key the schema does not name (in an object)
        const mutated =
          how === 2 && isObject(valueAt(doc, p))
            ? setAt(doc, [...p, 'extra'], value, false)
            : setAt(doc, p, value, how === 1);
        const want = wanted(mutated);
        if (!want) rejected++;
        if (depthExceeds(mutated, MAX_JSON_DEPTH)) deep++;
        expect(isSnapshotWithin(mutated)).toBe(want);
      }),
      { numRuns: 4000 },
    );
    // the mutations exercise both answers, and the depth bound
    expect(rejected).toBeGreaterThan(300);
    expect(deep).toBeGreaterThan(30);
  });

  it('measures what the schema does not name: a kept unknown key, an unknown value, the loose root', () => {
    const base = REAL[0] as Record<string, unknown>;
    const gpu0 = (base.nvidia as { gpus: Record<string, unknown>[] }).gpus[0]!;
    const at = (deepKey: unknown) => ({
      ...base,
      nvidia: { ...(base.nvidia as object), gpus: [{ ...gpu0, extra: deepKey }] },
    });
    // the GPU object is at depth 3 (root, nvidia, gpus, gpu): its extra key's value at 4
    expect(isSnapshotWithin(at(nest(MAX_JSON_DEPTH - 4)))).toBe(true);
    expect(isSnapshotWithin(at(nest(MAX_JSON_DEPTH - 3)))).toBe(false);
    expect(isSnapshotWithin({ ...base, future: nest(MAX_JSON_DEPTH - 1) })).toBe(true);
    expect(isSnapshotWithin({ ...base, future: nest(MAX_JSON_DEPTH) })).toBe(false);
    // a zod-valid document refused only for its depth: zod alone would take it
    expect(Snapshot.safeParse({ ...base, future: nest(MAX_JSON_DEPTH) }).success).toBe(true);
  });

  it('refuses a construct it does not know, rather than accepting anything', () => {
    const opts = { name: 'f', header: [], depthModule: './depth.js', maxDepth: 64 };
    expect(() => validatorSource(z.object({ a: z.string().min(3) }), opts)).toThrow(/unsupported check/);
    expect(() => validatorSource(z.object({ a: z.date() }), opts)).toThrow(/unsupported zod type date/);
    expect(() => validatorSource(z.object({ a: z.object({ b: z.object({}) }) }), { ...opts, maxDepth: 2 })).toThrow(
      /nests 2 levels/,
    );
    expect(() => validatorSource(z.object({ a: z.array(z.string()) }), { ...opts, maxDepth: 2 })).not.toThrow();
    expect(() =>
      validatorSource(
        z.lazy(() => z.string()),
        opts,
      ),
    ).toThrow(/unsupported zod type lazy/);
    const node = z.object({
      get child() {
        return node.nullable();
      },
    });
    expect(() => validatorSource(node, opts)).toThrow(/a recursive schema/);
  });

  it("parseSnapshotTextFast: the document as parsed when valid, zod's message when not", () => {
    const text = JSON.stringify({ schemaVersion: 1, snapshot: REAL[0] });
    expect(parseSnapshotTextFast(text, 'a.json')).toEqual(JSON.parse(text).snapshot);
    expect(parseSnapshotTextFast(JSON.stringify(REAL[0]), 'a.json')).toEqual(REAL[0]);
    // around a snapshot, as deep as the bound allows, in the snapshot or beside it
    const atBound = { ...(REAL[0] as object), future: nest(MAX_JSON_DEPTH - 2) };
    const wrapped = JSON.stringify({ snapshot: atBound, findings: [nest(MAX_JSON_DEPTH - 2)] });
    expect(parseSnapshotTextFast(wrapped, 'a.json')).toEqual(atBound);
    expect(parseSnapshotText(wrapped, 'a.json')).toBeTruthy();
    const message = (f: () => unknown): string | null => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        return (e as Error).message;
      }
      return null;
    };
    const bad = [
      { ...(REAL[0] as object), nvidia: { ok: 'yes' } },
      { ...(REAL[0] as object), future: nest(MAX_JSON_DEPTH) },
      { snapshot: { ...(REAL[0] as object), future: nest(MAX_JSON_DEPTH - 1) } },
      { snapshot: { ...(REAL[0] as object), host: 1 } },
      { snapshot: REAL[0], findings: [nest(MAX_JSON_DEPTH - 1)] },
      [REAL[0]],
    ].map((d) => JSON.stringify(d));
    for (const b of [...bad, '{', '5']) {
      const zodSays = message(() => parseSnapshotText(b, 'b.json'));
      expect(zodSays).not.toBeNull();
      expect(message(() => parseSnapshotTextFast(b, 'b.json'))).toBe(zodSays);
    }
  });
});
