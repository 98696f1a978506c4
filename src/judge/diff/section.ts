// Reading the optional snapshot sections (python, libraries) without trusting their shape: older snapshots
// lack them, newer ones may add fields, a hand-edited file may hold anything. Every accessor returns
// undefined instead of throwing, so a fact over a missing or odd section is "not collected".
import type { Snapshot } from '../../gather/snapshot/schema.js';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The named top-level section, when it is an object. */
export function section(s: Snapshot, name: string): Obj | undefined {
  const v = (s as unknown as Obj)[name];
  return isObj(v) ? v : undefined;
}

export function arr(o: Obj | undefined, key: string): Obj[] {
  const v = o?.[key];
  return Array.isArray(v) ? v.filter(isObj) : [];
}

export function text(o: Obj | undefined, key: string): string | null {
  const v = o?.[key];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
}

export function bool(o: Obj | undefined, key: string): boolean | null {
  const v = o?.[key];
  return typeof v === 'boolean' ? v : null;
}
