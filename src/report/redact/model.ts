// Models, not strings: how a value's place says what it is. A string under a key that names a secret or a host
// ("token", "MASTER_ADDR", "env[HF_TOKEN]") is that whole; the element after "--token" in an argument vector is
// the secret; the tool's own identifiers (check ids, verdicts) are kept. And what a snapshot states outright:
// its host name, its users, its GPUs' UUIDs and serials.
import { flagKind, keyKind, USER_PASS_FLAGS } from './names.js';
import type { Known, KnownKind } from './types.js';

/**
 * Keys whose values are the tool's own identifiers (check ids, root causes, severities, verdicts): a machine
 * called "gpu" or a user called "memory" must not turn "gpu.driver" or "memory.holders" into something else.
 */
const STRUCTURAL_KEYS = new Set([
  'check',
  'checks',
  'rootCause',
  'severity',
  'status',
  'statuses',
  'category',
  'verdict',
  'impact',
  'stream',
  'via',
  'origin',
  'mark',
  'action',
  'by',
  'mode',
]);
const IDENTIFIER_RE = /^[A-Za-z][\w.:-]{0,63}$/;

/** Fields that name what a record is about (a fact, a variable): the record's value fields are then of that kind. */
const NAME_FIELDS = ['fact', 'name', 'key', 'variable'] as const;
const VALUE_FIELDS = new Set(['value', 'values', 'a', 'b', 'usual', 'current', 'expected']);
/** a key that makes text() read a value as that kind (see keyKind) */
export const KIND_KEY = { secret: 'token', host: 'host', version: 'version' } as const;

/** A deep copy of `value` with every string passed through `text` (with the key that says what it is). */
export function walk(value: unknown, text: (s: string, key?: string) => string): unknown {
  // `as`: the key a value is read under, when its record says what it is ({ fact: "env[HF_TOKEN]", a, b })
  const visit = (v: unknown, key?: string, as?: string): unknown => {
    if (typeof v === 'string')
      return key !== undefined && STRUCTURAL_KEYS.has(key) && IDENTIFIER_RE.test(v) ? v : text(v, as ?? key);
    if (Array.isArray(v)) return argv(v, key, as);
    if (v instanceof Map)
      return new Map(
        [...v].map(([k, x]) => [
          typeof k === 'string' ? renameKey(k) : k,
          visit(x, typeof k === 'string' ? k : key, as),
        ]),
      );
    if (v instanceof Set) return new Set([...v].map((x) => visit(x, key, as)));
    if (v !== null && typeof v === 'object') {
      let own: string | undefined;
      for (const f of NAME_FIELDS) {
        const n = (v as Record<string, unknown>)[f];
        const k = typeof n === 'string' ? keyKind(n) : null;
        if (k !== null) {
          own = KIND_KEY[k];
          break;
        }
      }
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v))
        o[renameKey(k)] = visit(x, k, VALUE_FIELDS.has(k) ? (own ?? as) : undefined);
      return o;
    }
    return v;
  };
  // Keys that look like identifiers are structure ("user", "LD_LIBRARY_PATH"): never rewritten.
  const renameKey = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : text(k));
  // An argument vector: the element after "--token" or "--master" is a secret or a host, whatever it looks like.
  const argv = (list: unknown[], key?: string, as?: string): unknown[] => {
    const out: unknown[] = [];
    let next: 'secret' | 'host' | 'userpass' | null = null;
    for (const x of list) {
      if (typeof x === 'string' && next === 'userpass' && !x.startsWith('-')) {
        // curl -u user:password: the password is the secret
        const at = x.indexOf(':');
        out.push(at === -1 ? text(x) : `${text(x.slice(0, at))}:${text(x.slice(at + 1), KIND_KEY.secret)}`);
        next = null;
        continue;
      }
      if (typeof x === 'string' && next !== null && next !== 'userpass' && !x.startsWith('-')) {
        // read as if stored under a key named so: the whole element is the secret (or the host list)
        out.push(text(x, KIND_KEY[next]));
        next = null;
        continue;
      }
      next = null;
      if (typeof x === 'string') {
        const flag = /^--?([A-Za-z][\w.-]*)$/.exec(x);
        if (flag) next = USER_PASS_FLAGS.has(flag[1]!) ? 'userpass' : flagKind(flag[1]!);
      }
      out.push(visit(x, key, as));
    }
    return out;
  };
  return visit(value);
}

export const STATED_ORDER: KnownKind[] = ['host', 'user', 'uuid', 'serial'];

/**
 * The sensitive values a snapshot (or a result holding snapshots, at any of its top levels) names, in a stable order.
 */
export function collectKnown(seed: unknown): Known[] {
  const out: Known[] = [];
  for (const s of findSnapshots(seed, 0)) {
    const host = get(s, 'host', 'name');
    if (typeof host === 'string') out.push({ kind: 'host', value: host });
    const self = get(s, 'self', 'user');
    if (typeof self === 'string') out.push({ kind: 'user', value: self });
    const list = get(s, 'processes', 'list');
    if (Array.isArray(list)) {
      const sorted = [...list].sort((a, b) => Number(get(a, 'pid') ?? 0) - Number(get(b, 'pid') ?? 0));
      for (const p of sorted) {
        const u = get(p, 'user');
        if (typeof u === 'string') out.push({ kind: 'user', value: u });
      }
    }
    const gpus = get(s, 'nvidia', 'gpus');
    if (Array.isArray(gpus)) {
      for (const g of gpus) {
        const uuid = get(g, 'uuid');
        if (typeof uuid === 'string' && uuid !== '') out.push({ kind: 'uuid', value: uuid });
        const serial = get(g, 'serial');
        if (typeof serial === 'string' && serial !== '') out.push({ kind: 'serial', value: serial });
      }
    }
  }
  return out;
}

function findSnapshots(v: unknown, depth: number): unknown[] {
  if (v === null || typeof v !== 'object' || depth > 3) return [];
  if (get(v, 'host', 'name') !== undefined && get(v, 'nvidia') !== undefined) return [v];
  const children = Array.isArray(v) ? v : v instanceof Map ? [...v.values()] : Object.values(v);
  return children.flatMap((c) => findSnapshots(c, depth + 1));
}

function get(v: unknown, ...path: string[]): unknown {
  let cur = v;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}
