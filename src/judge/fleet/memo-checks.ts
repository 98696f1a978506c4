// Running every check on 10,000 snapshots, most of which are alike: each check is a pure function of the
// snapshot, so when a node gives a check the same values a previous node gave, the findings are the same.
// "The same values" is decided by what the check actually read: the first run of a check goes through a
// recording proxy that notes every property read (path, value), and a later snapshot reuses the findings
// when replaying those reads on it gives equal values. That is exact for pure functions (same reads, same
// answers, same control flow), whatever the check looks at, with no list of fields to keep up to date.
//
// Where it cannot be exact it is not used: a check that writes to the snapshot, or crashes under the proxy
// (structuredClone of a proxy, say), is run on the plain snapshot from then on; a check whose inputs differ
// on most nodes (memory in use, processes) stops being recorded after a while, since recording costs more
// than it saves there.
import type { Check } from '../checks/check.js';
import { runChecks, type CheckResult } from '../checks/run-checks.js';
import type { Finding } from '../finding.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';

/** A read: on the object of step `parent` (-1: the snapshot), `key`, and what it gave. */
interface Step {
  parent: number;
  kind: 'get' | 'has' | 'keys' | 'desc';
  key: PropertyKey;
  /** the primitive (or prototype function) read; for objects, OBJECT / ARRAY */
  value: unknown;
}

const OBJECT = Symbol('object');
const ARRAY = Symbol('array');
/** Recordings kept per check (the distinct input combinations seen most recently). */
const MAX_VARIANTS = 16;
/** After this many runs, a check that reused findings on fewer than this share of them is no longer recorded. */
const PROBATION_RUNS = 64;
const MIN_HIT_SHARE = 0.25;

interface Variant {
  tape: Step[];
  findings: Finding[];
}

interface CheckMemo {
  variants: Variant[];
  runs: number;
  hits: number;
  /** run on the plain snapshot, never recorded */
  off: boolean;
}

class Recorder {
  readonly tape: Step[] = [];
  live = true;
  /** the run wrote to the snapshot or did something the proxy cannot follow: do not reuse it */
  tainted = false;
  private readonly proxies = new Map<object, object>();
  private readonly ids = new Map<object, number>();
  private readonly seen = new Map<string, unknown>();

  wrap<T extends object>(target: T, id: number): T {
    const known = this.proxies.get(target);
    if (known) return known as T;
    this.ids.set(target, id);
    const rec = this;
    const p = new Proxy(target, {
      get(t, key) {
        const v = Reflect.get(t, key);
        if (!rec.live || typeof key === 'symbol') return v;
        return rec.read(t, id, key, v);
      },
      has(t, key) {
        const v = Reflect.has(t, key);
        if (rec.live && typeof key !== 'symbol') rec.note(id, 'has', key, v);
        return v;
      },
      ownKeys(t) {
        const keys = Reflect.ownKeys(t);
        if (rec.live) rec.note(id, 'keys', '', keys.map(String));
        return keys;
      },
      getOwnPropertyDescriptor(t, key) {
        const d = Reflect.getOwnPropertyDescriptor(t, key);
        if (rec.live && typeof key !== 'symbol')
          rec.note(id, 'desc', key, d === undefined ? 'none' : d.enumerable ? 'enumerable' : 'hidden');
        return d;
      },
      set(t, key, v) {
        rec.tainted = true;
        return Reflect.set(t, key, v);
      },
      deleteProperty(t, key) {
        rec.tainted = true;
        return Reflect.deleteProperty(t, key);
      },
      defineProperty(t, key, d) {
        rec.tainted = true;
        return Reflect.defineProperty(t, key, d);
      },
    });
    this.proxies.set(target, p);
    return p;
  }

  private note(parent: number, kind: Step['kind'], key: PropertyKey, value: unknown): number {
    // The snapshot does not change during a run: a second identical read adds nothing to check.
    const k = `${parent}\u0000${kind}\u0000${String(key)}`;
    if (this.seen.has(k)) return this.seen.get(k) as number;
    this.tape.push({ parent, kind, key, value });
    const idx = this.tape.length - 1;
    this.seen.set(k, idx);
    return idx;
  }

  private read(t: object, parent: number, key: string | number, v: unknown): unknown {
    if (v !== null && typeof v === 'object') {
      const known = this.proxies.get(v);
      const step = this.note(parent, 'get', key, Array.isArray(v) ? ARRAY : OBJECT);
      return known ?? this.wrap(v, step);
    }
    this.note(parent, 'get', key, v);
    return v;
  }
}

/** Replays the recorded reads on another snapshot: true when every read gives what it gave then. */
function replays(tape: readonly Step[], s: Snapshot): boolean {
  const objects: unknown[] = new Array(tape.length);
  for (let i = 0; i < tape.length; i++) {
    const st = tape[i]!;
    const o = st.parent === -1 ? s : objects[st.parent];
    if (o === null || typeof o !== 'object') return false;
    switch (st.kind) {
      case 'get': {
        const v = (o as Record<PropertyKey, unknown>)[st.key];
        if (st.value === OBJECT || st.value === ARRAY) {
          if (v === null || typeof v !== 'object' || Array.isArray(v) !== (st.value === ARRAY)) return false;
          objects[i] = v;
        } else if (!Object.is(v, st.value)) return false;
        break;
      }
      case 'has':
        if (Reflect.has(o, st.key) !== st.value) return false;
        break;
      case 'keys': {
        const want = st.value as string[];
        const got = Reflect.ownKeys(o);
        if (got.length !== want.length) return false;
        for (let k = 0; k < got.length; k++) if (String(got[k]) !== want[k]) return false;
        break;
      }
      case 'desc': {
        const d = Reflect.getOwnPropertyDescriptor(o, st.key);
        if ((d === undefined ? 'none' : d.enumerable ? 'enumerable' : 'hidden') !== st.value) return false;
        break;
      }
    }
  }
  return true;
}

export interface MemoStats {
  check: string;
  runs: number;
  reused: number;
  recorded: boolean;
}

/** runChecks with findings reused across snapshots that give a check the same inputs. */
export class MemoChecks {
  private readonly memo = new Map<string, CheckMemo>();

  constructor(private readonly checks: readonly Check[]) {}

  run(s: Snapshot): CheckResult[] {
    return this.checks.map((check) => ({ check, findings: this.one(check, s) }));
  }

  private one(check: Check, s: Snapshot): Finding[] {
    let m = this.memo.get(check.id);
    if (!m) {
      m = { variants: [], runs: 0, hits: 0, off: false };
      this.memo.set(check.id, m);
    }
    m.runs++;
    if (m.off) return plain(check, s);
    for (let i = 0; i < m.variants.length; i++) {
      const v = m.variants[i]!;
      if (replays(v.tape, s)) {
        m.hits++;
        if (i > 0) m.variants.unshift(...m.variants.splice(i, 1)); // most recent first
        return v.findings;
      }
    }
    if (m.runs >= PROBATION_RUNS && m.hits < MIN_HIT_SHARE * m.runs) {
      m.off = true;
      m.variants = [];
      return plain(check, s);
    }
    const rec = new Recorder();
    const findings = plain(check, rec.wrap(s, -1));
    rec.live = false;
    if (rec.tainted || findings.some((f) => f.status === 'crash')) {
      // Not something a recording can stand for: the plain run decides, and this check is not recorded again.
      m.off = true;
      m.variants = [];
      return plain(check, s);
    }
    m.variants.unshift({ tape: rec.tape, findings });
    if (m.variants.length > MAX_VARIANTS) m.variants.pop();
    return findings;
  }

  stats(): MemoStats[] {
    return [...this.memo].map(([check, m]) => ({ check, runs: m.runs, reused: m.hits, recorded: !m.off }));
  }
}

function plain(check: Check, s: Snapshot): Finding[] {
  return runChecks([check], s)[0]!.findings;
}
