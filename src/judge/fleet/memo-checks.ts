// Running every check on 10,000 snapshots, most of which are alike: each check is a pure function of the
// snapshot, so when a node gives a check the same values a previous node gave, the findings are the same.
// "The same values" is decided by what the check actually read: the first run of a check goes through a
// recording proxy that notes every property read (path, value), and a later snapshot reuses the findings
// when replaying those reads on it gives equal values. That is exact for pure functions (same reads, same
// answers, same control flow), whatever the check looks at, with no list of fields to keep up to date.
// The same holds for any pure function of the snapshot (fleet's fact readers use it too).
//
// The reads of every recording share one table of paths (ReadPlan): a path that ten recordings read is read once
// per snapshot, and a recording replays as a list of comparisons with what its paths gave. That is the same test
// as replaying each recording's reads in order: reads of plain data have no effects, so reading a path once or
// once per recording gives the same value, and "every read gives what it gave then" does not depend on the order
// in which the reads are compared. A path is read when first asked for, and read again after anything that may
// have written to the snapshot (a function run on it without the proxy): replays see the snapshot as it is then.
//
// Where it cannot be exact it is not used: a function that writes to the snapshot, or crashes under the proxy
// (structuredClone of a proxy, say), is run on the plain snapshot from then on; a function whose inputs differ
// on most nodes (memory in use, processes) stops being recorded after a while, since recording costs more
// than it saves there.
import type { Check } from '../checks/check.js';
import { runChecks, type CheckResult } from '../checks/run-checks.js';
import type { Finding } from '../finding.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';

const GET = 0;
const HAS = 1;
const KEYS = 2;
const DESC = 3;
type Kind = typeof GET | typeof HAS | typeof KEYS | typeof DESC;

/** A read: on the object of step `parent` (-1: the snapshot), `key`, and what it gave. */
interface Step {
  parent: number;
  kind: Kind;
  key: string;
  /** the primitive (or prototype function) read; for objects, OBJECT / ARRAY; for keys, the keys as strings */
  value: unknown;
}

const OBJECT = Symbol('object');
const ARRAY = Symbol('array');
/** What a path gives where its parent is not an object, or its read throws: equal to nothing a recording holds. */
const UNREACHED = Symbol('unreached');
/** Recordings kept per function (the distinct input combinations seen most recently). */
const MAX_VARIANTS = 16;
/**
 * After this many runs, a function that reused its answer on fewer than this share of them is no longer recorded.
 * Soon: before V8 optimises the merger's per-snapshot code, which the first turn-off would throw away (at 64 it
 * was compiled twice in every thread). A fleet of up to 16 configurations still reuses half its answers by then.
 */
const PROBATION_RUNS = 16;
const MIN_HIT_SHARE = 0.25;

/** An answer of a memoised function, and what its caller derived from it (kept with it while it is reused). */
export interface Answer<T> {
  result: T;
  /** the answer is a recording's, met again on every snapshot that replays it (false: made for this one) */
  kept: boolean;
  derived: unknown;
}

/** A recording's reads: per read, the plan's path and what it gave. Recordings that read the same share one. */
interface Reads {
  nodes: Int32Array;
  want: unknown[];
  /** the epoch `replays` last answered for, and its answer then */
  stamp: number;
  verdict: boolean;
  /** the recordings that hold it */
  refs: number;
  /** the paths, as text (the key of the plan's table of Reads) */
  sig: string;
}

interface Variant<T> extends Answer<T> {
  reads: Reads;
}

/** One memoised function: its recordings, most recently reused first. */
export interface Slot<T> {
  variants: Variant<T>[];
  runs: number;
  hits: number;
  /** run on the plain snapshot, never recorded */
  off: boolean;
}

export function newSlot<T>(): Slot<T> {
  return { variants: [], runs: 0, hits: 0, off: false };
}

/** Did two recordings get the same from the same paths? */
function sameWants(a: readonly unknown[], b: readonly unknown[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (Object.is(x, y)) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) return false;
  }
  return a.length === b.length;
}

/** Are an object's own keys (Reflect.ownKeys, read now) the ones recorded (as strings)? */
function sameKeys(got: unknown, want: readonly string[]): boolean {
  if (!Array.isArray(got) || got.length !== want.length) return false;
  for (let k = 0; k < got.length; k++) if (String(got[k]) !== want[k]) return false;
  return true;
}

function descText(d: PropertyDescriptor | undefined): string {
  return d === undefined ? 'none' : d.enumerable ? 'enumerable' : 'hidden';
}

class Recorder {
  readonly tape: Step[] = [];
  live = true;
  /** the run wrote to the snapshot or did something the proxy cannot follow: do not reuse it */
  tainted = false;
  private readonly proxies = new Map<object, object>();
  private readonly seen = new Map<string, number>();

  wrap<T extends object>(target: T, id: number): T {
    const known = this.proxies.get(target);
    if (known) return known as T;
    const rec = this;
    const p = new Proxy(target, {
      get(t, key) {
        const v = Reflect.get(t, key);
        if (!rec.live || typeof key === 'symbol') return v;
        return rec.read(id, key, v);
      },
      has(t, key) {
        const v = Reflect.has(t, key);
        if (rec.live && typeof key !== 'symbol') rec.note(id, HAS, key, v);
        return v;
      },
      ownKeys(t) {
        const keys = Reflect.ownKeys(t);
        if (rec.live) rec.note(id, KEYS, '', keys.map(String));
        return keys;
      },
      getOwnPropertyDescriptor(t, key) {
        const d = Reflect.getOwnPropertyDescriptor(t, key);
        if (rec.live && typeof key !== 'symbol') rec.note(id, DESC, key, descText(d));
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

  private note(parent: number, kind: Kind, key: string, value: unknown): number {
    // The snapshot does not change during a run: a second identical read adds nothing to check.
    const k = `${parent}\u0000${kind}\u0000${key}`;
    const known = this.seen.get(k);
    if (known !== undefined) return known;
    this.tape.push({ parent, kind, key, value });
    const idx = this.tape.length - 1;
    this.seen.set(k, idx);
    return idx;
  }

  private read(parent: number, key: string, v: unknown): unknown {
    if (v !== null && typeof v === 'object') {
      const known = this.proxies.get(v);
      const step = this.note(parent, GET, key, Array.isArray(v) ? ARRAY : OBJECT);
      return known ?? this.wrap(v, step);
    }
    this.note(parent, GET, key, v);
    return v;
  }
}

/** One read of a path on the object of its parent path. A read that throws (a getter) gave no recording a value. */
function read(o: object, kind: Kind, key: string): unknown {
  try {
    switch (kind) {
      case GET:
        return (o as Record<string, unknown>)[key];
      case HAS:
        return Reflect.has(o, key);
      case KEYS:
        return Reflect.ownKeys(o);
      default:
        return descText(Reflect.getOwnPropertyDescriptor(o, key));
    }
  } catch {
    return UNREACHED;
  }
}

/**
 * Every path the recordings read, once each (parent path, kind of read, key), and what each gives on the snapshot
 * loaded now. A path is read when first asked for after a load (or after `stale`).
 */
class ReadPlan {
  private readonly parents: number[] = [];
  private readonly kinds: Kind[] = [];
  private readonly keys: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly vals: unknown[] = [];
  /** per path: the epoch its value was read in */
  private readonly stamps: number[] = [];
  private epoch = 0;
  private root: object = {};
  /** the Reads of the recordings kept, by their paths */
  private readonly shared = new Map<string, Reads[]>();

  /** The reads of a recording, shared with any recording kept that read the same paths and got the same. */
  reads(tape: readonly Step[]): Reads {
    const nodes = this.intern(tape);
    const want = tape.map((st) => st.value);
    const sig = nodes.join(',');
    const same = this.shared.get(sig);
    const known = same?.find((r) => sameWants(r.want, want));
    if (known) {
      known.refs++;
      return known;
    }
    const r: Reads = { nodes, want, stamp: -1, verdict: false, refs: 1, sig };
    if (same) same.push(r);
    else this.shared.set(sig, [r]);
    return r;
  }

  /** A recording is dropped: its reads go with the last one that held them. */
  release(r: Reads): void {
    if (--r.refs > 0) return;
    const same = this.shared.get(r.sig)!;
    same.splice(same.indexOf(r), 1);
    if (same.length === 0) this.shared.delete(r.sig);
  }

  /** The plan's path for each step of a tape (paths added as needed). */
  private intern(tape: readonly Step[]): Int32Array {
    const nodes = new Int32Array(tape.length);
    for (let i = 0; i < tape.length; i++) {
      const st = tape[i]!;
      const parent = st.parent === -1 ? -1 : nodes[st.parent]!;
      const k = `${parent}\u0000${st.kind}\u0000${st.key}`;
      let n = this.index.get(k);
      if (n === undefined) {
        n = this.parents.length;
        this.index.set(k, n);
        this.parents.push(parent);
        this.kinds.push(st.kind);
        this.keys.push(st.key);
        this.vals.push(undefined);
        this.stamps.push(-1);
      }
      nodes[i] = n;
    }
    return nodes;
  }

  /** Reads are of `s` from now on. */
  load(s: object): void {
    this.root = s;
    this.epoch++;
  }

  /** The snapshot may have changed (something ran on it unwatched): read every path again when asked. */
  stale(): void {
    this.epoch++;
  }

  value(n: number): unknown {
    const { stamps, vals, epoch } = this;
    if (stamps[n] === epoch) return vals[n];
    const p = this.parents[n]!;
    // the parent is usually read already (a recording reads a parent before its children)
    const o = p === -1 ? this.root : stamps[p] === epoch ? vals[p] : this.value(p);
    let v: unknown;
    if (o === null || typeof o !== 'object') v = UNREACHED;
    else if (this.kinds[n] === GET) {
      try {
        v = (o as Record<string, unknown>)[this.keys[n]!];
      } catch {
        v = UNREACHED;
      }
    } else v = read(o, this.kinds[n]!, this.keys[n]!);
    vals[n] = v;
    stamps[n] = epoch;
    return v;
  }

  /** Does every read of the recording give, on the snapshot loaded, what it gave then? (once per epoch) */
  replays(r: Reads): boolean {
    if (r.stamp !== this.epoch) {
      r.verdict = this.compare(r);
      r.stamp = this.epoch;
    }
    return r.verdict;
  }

  private compare(r: Reads): boolean {
    const { nodes, want } = r;
    const { stamps, vals, epoch } = this;
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i]!;
      const got = stamps[n] === epoch ? vals[n] : this.value(n);
      const w = want[i];
      // Object.is(got, w) for a primitive, spelt for speed: === first, then 0 / -0 (and NaN below)
      if (got === w) {
        if (got === 0 && 1 / (got as number) !== 1 / (w as number)) return false;
        continue;
      }
      if (w === OBJECT) {
        if (got === null || typeof got !== 'object' || Array.isArray(got)) return false;
      } else if (w === ARRAY) {
        if (!Array.isArray(got)) return false;
      } else if (typeof w === 'object' && w !== null) {
        if (!sameKeys(got, w as string[])) return false;
      } else if (!Object.is(got, w)) return false; // NaN
    }
    return true;
  }

  /** How many paths the recordings read (for the tests). */
  get size(): number {
    return this.parents.length;
  }
}

/**
 * Pure functions of one snapshot at a time, their answers reused across snapshots (see the header). `load` each
 * snapshot, then ask `answer` for each function's.
 */
export class ReadMemo {
  private readonly plan = new ReadPlan();

  load(s: Snapshot): void {
    this.plan.load(s);
  }

  /**
   * f(s), for the snapshot loaded last. `unusable`: an answer that must not be reused (a crash turned into a
   * finding); the function is then run plainly from then on, as one that wrote to the snapshot.
   */
  answer<T>(slot: Slot<T>, s: Snapshot, f: (s: Snapshot) => T, unusable: (r: T) => boolean): Answer<T> {
    slot.runs++;
    if (slot.off) return this.plain(s, f);
    const vs = slot.variants;
    for (let i = 0; i < vs.length; i++) {
      const v = vs[i]!;
      if (this.plan.replays(v.reads)) {
        slot.hits++;
        // most recent first
        for (let j = i; j > 0; j--) vs[j] = vs[j - 1]!;
        vs[0] = v;
        return v;
      }
    }
    if (slot.runs >= PROBATION_RUNS && slot.hits < MIN_HIT_SHARE * slot.runs) {
      this.turnOff(slot);
      return this.plain(s, f);
    }
    const rec = new Recorder();
    const result = f(rec.wrap(s, -1));
    rec.live = false;
    if (rec.tainted || unusable(result)) {
      // Not something a recording can stand for: the plain run decides, and this one is not recorded again.
      this.turnOff(slot);
      this.plan.stale();
      return this.plain(s, f);
    }
    vs.unshift({ result, kept: true, derived: undefined, reads: this.plan.reads(rec.tape) });
    if (vs.length > MAX_VARIANTS) this.plan.release(vs.pop()!.reads);
    return vs[0]!;
  }

  private turnOff(slot: Slot<unknown>): void {
    slot.off = true;
    for (const v of slot.variants) this.plan.release(v.reads);
    slot.variants = [];
  }

  /** f run on the snapshot itself: it may write to it, so every path is read again afterwards. */
  private plain<T>(s: Snapshot, f: (s: Snapshot) => T): Answer<T> {
    const result = f(s);
    this.plan.stale();
    return { result, kept: false, derived: undefined };
  }

  /** How many distinct paths the recordings read. */
  get paths(): number {
    return this.plan.size;
  }
}

export interface MemoStats {
  check: string;
  runs: number;
  reused: number;
  recorded: boolean;
}

const crashed = (findings: Finding[]) => findings.some((f) => f.status === 'crash');

/** runChecks with findings reused across snapshots that give a check the same inputs. */
export class MemoChecks {
  private readonly slots: Slot<Finding[]>[];
  private readonly runs: ((s: Snapshot) => Finding[])[];

  /** `reads`: the memo to share with other functions of the same snapshots (fleet's facts) */
  constructor(
    private readonly checks: readonly Check[],
    private readonly reads = new ReadMemo(),
  ) {
    this.slots = checks.map(() => newSlot<Finding[]>());
    this.runs = checks.map((check) => (s: Snapshot) => plain(check, s));
  }

  run(s: Snapshot): CheckResult[] {
    this.reads.load(s);
    const out: CheckResult[] = [];
    for (let i = 0; i < this.checks.length; i++) out.push({ check: this.checks[i]!, findings: this.findings(i, s) });
    return out;
  }

  /** How many checks. */
  get size(): number {
    return this.checks.length;
  }

  /** The findings of check i on s, as an answer (its `derived` free for the caller); `reads` must have s loaded. */
  answer(i: number, s: Snapshot): Answer<Finding[]> {
    return this.reads.answer(this.slots[i]!, s, this.runs[i]!, crashed);
  }

  private findings(i: number, s: Snapshot): Finding[] {
    return this.answer(i, s).result;
  }

  /** The checks run so far. */
  stats(): MemoStats[] {
    const out: MemoStats[] = [];
    this.checks.forEach((check, i) => {
      const m = this.slots[i]!;
      if (m.runs > 0) out.push({ check: check.id, runs: m.runs, reused: m.hits, recorded: !m.off });
    });
    return out;
  }
}

function plain(check: Check, s: Snapshot): Finding[] {
  return runChecks([check], s)[0]!.findings;
}
