// check's judging begun while nvidia-smi works. The checks run once on the snapshot so far (every section but
// what needs the answer: the GPUs, the GPU processes, the libraries those mapped), each through a proxy that notes
// what it read of the snapshot, two levels deep (a section, a field of a section). Once the whole snapshot is
// there, a check keeps the findings it gave when everything it read is the very same value there (the sections
// probed before the answer are the same objects in both); any other check runs again, on code compiled and
// tables read by then. A check is a pure function of what it reads, so the findings are those of a plain run;
// a check that wrote to the snapshot or crashed runs again whatever it read.
import type { Category, Check } from '../../judge/checks/check.js';
import { runChecks, type CheckResult } from '../../judge/checks/run-checks.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

type Obj = Record<PropertyKey, unknown>;

/** What one run read: per level-1 key (or '' for the snapshot itself) the keys read of it, and how. */
class Reads {
  /** the snapshot's own keys read; ownKeys: the key list itself */
  readonly top = new Set<PropertyKey>();
  topKeys = false;
  /** per level-1 key whose value is an object: the keys read of that object */
  readonly inner = new Map<PropertyKey, { keys: Set<PropertyKey>; ownKeys: boolean }>();
  wrote = false;

  wrap(s: Snapshot): Snapshot {
    const innerProxies = new Map<PropertyKey, object>();
    const innerOf = (k: PropertyKey, v: object): object => {
      const known = innerProxies.get(k);
      if (known) return known;
      let r = this.inner.get(k);
      if (!r) {
        r = { keys: new Set(), ownKeys: false };
        this.inner.set(k, r);
      }
      const rec = r;
      const p = new Proxy(
        v,
        recording(this, rec.keys, () => (rec.ownKeys = true)),
      );
      innerProxies.set(k, p);
      return p;
    };
    const inner = (key: PropertyKey, v: unknown) => (v !== null && typeof v === 'object' ? innerOf(key, v) : v);
    return new Proxy(
      s as unknown as Obj,
      recording(this, this.top, () => (this.topKeys = true), inner),
    ) as unknown as Snapshot;
  }

  /** Everything read of `before` is the same in `after` (same value, same presence, same key lists). */
  sameIn(before: Snapshot, after: Snapshot): boolean {
    const a = before as unknown as Obj;
    const b = after as unknown as Obj;
    if (this.topKeys && !sameKeys(a, b)) return false;
    for (const k of this.top) {
      if (!samePlace(a, b, k)) return false;
      const va = a[k];
      const vb = b[k];
      if (Object.is(va, vb)) continue;
      // a section made again after the answer (the libraries, with the processes' part): the fields read of it
      const r = this.inner.get(k);
      if (!r || va === null || vb === null || typeof va !== 'object' || typeof vb !== 'object') return false;
      if (Array.isArray(va) !== Array.isArray(vb)) return false;
      if (r.ownKeys && !sameKeys(va as Obj, vb as Obj)) return false;
      for (const j of r.keys) {
        if (!samePlace(va as Obj, vb as Obj, j) || !Object.is((va as Obj)[j], (vb as Obj)[j])) return false;
      }
    }
    return true;
  }
}

/** A handler that notes every key asked of its object into `keys` (a list of them: `ownKeys`) and every write;
 *  `wrap` stands in for what a read gives (the snapshot's sections, recorded in turn). */
function recording(
  reads: Reads,
  keys: Set<PropertyKey>,
  ownKeys: () => void,
  wrap: (key: PropertyKey, v: unknown) => unknown = (_, v) => v,
): ProxyHandler<Obj> {
  return {
    get(t, key) {
      keys.add(key);
      return wrap(key, Reflect.get(t, key));
    },
    has(t, key) {
      keys.add(key);
      return Reflect.has(t, key);
    },
    getOwnPropertyDescriptor(t, key) {
      keys.add(key);
      return Reflect.getOwnPropertyDescriptor(t, key);
    },
    ownKeys(t) {
      ownKeys();
      return Reflect.ownKeys(t);
    },
    ...writeTraps(reads),
  };
}

function writeTraps(reads: Reads): ProxyHandler<Obj> {
  return {
    set(t, key, v) {
      reads.wrote = true;
      return Reflect.set(t, key, v);
    },
    deleteProperty(t, key) {
      reads.wrote = true;
      return Reflect.deleteProperty(t, key);
    },
    defineProperty(t, key, d) {
      reads.wrote = true;
      return Reflect.defineProperty(t, key, d);
    },
  };
}

/** `k` is an own key of both or of neither, with the same enumerability. */
function samePlace(a: Obj, b: Obj, k: PropertyKey): boolean {
  const da = Reflect.getOwnPropertyDescriptor(a, k);
  const db = Reflect.getOwnPropertyDescriptor(b, k);
  if (da === undefined || db === undefined) return da === db && Reflect.has(a, k) === Reflect.has(b, k);
  return da.enumerable === db.enumerable;
}

function sameKeys(a: Obj, b: Obj): boolean {
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i]);
}

interface Early {
  soFar: Snapshot;
  reads: Reads;
  result: CheckResult;
}

/**
 * The order of the early run where the wait is shorter than all of it: first the checks that judge the files (kept
 * whole, or, for the versions, their facts made), the GPU's own last (they run again after the answer anyway).
 */
const EARLY_FIRST: readonly Category[] = ['libraries', 'python', 'versions', 'env', 'system', 'memory', 'gpu'];

const LIBRARY_READERS: readonly Category[] = ['libraries', 'versions'];

export class Prejudge {
  /** the early run of each check that had one, by its index in `checks` */
  private readonly early = new Map<number, Early>();
  private readonly order: number[];
  private kept = 0;

  /** the order while the libraries are not there yet: the checks that judge them (and the versions, made from
   *  what loads) last, since they run again once the libraries came */
  private readonly orderWithoutLibraries: number[];

  constructor(private readonly checks: readonly Check[]) {
    const rank = (c: Check) => EARLY_FIRST.indexOf(c.category);
    this.order = checks.map((_, i) => i).sort((a, b) => rank(checks[a]!) - rank(checks[b]!) || a - b);
    const late = (i: number) => (LIBRARY_READERS.includes(checks[i]!.category) ? 1 : 0);
    this.orderWithoutLibraries = [...this.order].sort((a, b) => late(a) - late(b));
  }

  /**
   * The checks on the snapshot so far until `answered()` says what they wait for came (nvidia-smi's answer, or the
   * libraries from the scan's worker): past that they would only delay reading it (at most one check runs after
   * it). The event loop is served between two. Called again on a fuller snapshot, it runs the checks not yet run.
   */
  async beginChecks(soFar: Snapshot, answered: () => boolean): Promise<void> {
    for (const i of soFar.libraries === undefined ? this.orderWithoutLibraries : this.order) {
      if (answered()) return;
      if (this.early.has(i)) continue;
      const reads = new Reads();
      const result = runChecks([this.checks[i]!], reads.wrap(soFar))[0]!;
      this.early.set(i, { soFar, reads, result });
      await yieldToLoop();
    }
  }

  /** runChecks(checks, s): the same findings, those of the early run kept where everything it read is unchanged. */
  finishChecks(s: Snapshot): CheckResult[] {
    this.kept = 0;
    return this.checks.map((check, i) => {
      const e = this.early.get(i);
      if (e && !e.reads.wrote && !e.result.findings.some((f) => f.status === 'crash') && e.reads.sameIn(e.soFar, s)) {
        this.kept++;
        return { check, findings: e.result.findings };
      }
      return runChecks([check], s)[0]!;
    });
  }

  /** The checks run on the snapshot so far (in that order), and how many kept their findings (tests, bench). */
  stats(): { ranEarly: number; kept: number; order: string[] } {
    const order = [...this.early.keys()].map((i) => this.checks[i]!.id);
    return { ranEarly: this.early.size, kept: this.kept, order };
  }
}
