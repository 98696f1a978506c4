// The nesting bound of a snapshot read back (src/gather/snapshot/load.ts depthExceeds): a document nested deeper than the
// bound is refused before validation walks it. Objects and arrays count alike; the root is depth 0.
import { describe, expect, it } from 'vitest';
import { depthExceeds } from '../../src/gather/snapshot/depth.js';

const nest = (levels: number, leaf: unknown = 1): unknown => {
  let v: unknown = leaf;
  for (let i = 0; i < levels; i++) v = i % 2 === 0 ? { k: v } : [0, v];
  return v;
};

describe('depthExceeds', () => {
  it('takes a document of exactly the bound and refuses one a level deeper, objects and arrays alike', () => {
    expect(depthExceeds(nest(64), 64)).toBe(false);
    expect(depthExceeds(nest(65), 64)).toBe(true);
    expect(depthExceeds(nest(64, {}), 64)).toBe(true); // an empty object is a level too
    expect(depthExceeds(nest(64, []), 64)).toBe(true);
  });

  it('finds the deep branch wherever it is, and takes scalars and shallow documents', () => {
    expect(depthExceeds({ a: 1, b: [1, 2, { c: 'x' }], d: nest(70) }, 64)).toBe(true);
    expect(depthExceeds([nest(3), nest(70), nest(3)], 64)).toBe(true);
    expect(depthExceeds({ a: { b: { c: null } }, e: [] }, 64)).toBe(false);
    for (const v of [null, 1, 'text', true]) expect(depthExceeds(v, 64)).toBe(false);
  });
});
