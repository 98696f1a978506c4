// How deep a parsed JSON document nests. A snapshot nests about ten levels; unknown keys are kept (forward
// compatibility), so what is read back is bounded: everything downstream walks it recursively.

/** The deepest nesting of arrays/objects a snapshot read back may have (the root is depth 0). */
export const MAX_JSON_DEPTH = 64;

/** Does the JSON value nest deeper than `max` arrays/objects? */
export function depthExceeds(doc: unknown, max: number): boolean {
  return doc !== null && typeof doc === 'object' && deeper(doc, 0, max);
}

/**
 * Does `v`, at depth `d`, reach depth `max`? Recursive, as deep as `max` at most: no [value, depth] pair and no
 * values array per node (fleet parses thousands of snapshots; a stack of pairs was a tenth of its time there).
 */
export function deeper(v: object, d: number, max: number): boolean {
  if (d >= max) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const c: unknown = v[i];
      if (c !== null && typeof c === 'object' && deeper(c, d + 1, max)) return true;
    }
    return false;
  }
  // own enumerable keys, as Object.values gives them
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    const c: unknown = (v as Record<string, unknown>)[k];
    if (c !== null && typeof c === 'object' && deeper(c, d + 1, max)) return true;
  }
  return false;
}
