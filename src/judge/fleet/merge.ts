// `fleet`: many machines' snapshots merged into groups (machines with the same key facts), outliers (machines
// whose value for a fact differs from the fleet's usual one) and findings across the fleet (which checks fail
// on which machines). Streaming: each snapshot is added, reduced to a few integers per fact and dropped, so
// 50,000 snapshots need tens of megabytes, not the gigabytes their JSON would take.
import type { Check } from '../checks/check.js';
import { runChecks } from '../checks/run-checks.js';
import { SEVERITY_RANK, type Finding, type Severity, type Status } from '../finding.js';
import type { RootCauseId } from '../../knowledge/root-causes.js';
import { FACTS, IMPACT_RANK, impactOf, instanceId, type FactDef, type FactValues, type Impact } from '../diff/facts.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';
import { MemoChecks, newSlot, ReadMemo, type Slot } from './memo-checks.js';

export const FLEET_SCHEMA_VERSION = 1;

/**
 * "Usual" means a clear majority: the most common value held by at least two thirds of the machines that
 * collected the fact. Below that the fleet is split (a rolling upgrade half done, two hardware generations)
 * and calling a third of the machines "outliers" would hide the real story: those facts are listed as splits.
 */
export const USUAL_SHARE = 2 / 3;
/** With fewer machines than this there is no "usual" to speak of. */
export const MIN_MACHINES_FOR_USUAL = 3;

export interface FleetDifference {
  fact: string;
  label: string;
  impact: Impact;
  /** null: absent on this machine (unset, not installed, no such GPU) */
  value: string | null;
  usual: string | null;
}

export interface FleetOutlier {
  machine: string;
  file: string;
  differs: FleetDifference[];
}

export interface FleetGroup {
  key: string;
  /** the key facts' values, readable */
  facts: Record<string, string>;
  size: number;
  machines: string[];
}

export interface FleetSplit {
  fact: string;
  label: string;
  impact: Impact;
  values: { value: string | null; machines: number }[];
}

export interface FleetFinding {
  check: string;
  /** the worst severity seen for this check on any machine */
  severity: Severity;
  statuses: Status[];
  rootCause: RootCauseId | null;
  /** the most common message (machines differ in numbers and PIDs) */
  message: string;
  count: number;
  machines: string[];
}

export interface FleetResult {
  schemaVersion: typeof FLEET_SCHEMA_VERSION;
  machines: number;
  inputs: { files: number; read: number; skipped: { file: string; reason: string }[] };
  /** host names found in more than one file; later ones are named "host (file)" */
  duplicates: string[];
  groups: FleetGroup[];
  /** the fleet's usual value of every fact that has one */
  usual: Record<string, string | null>;
  outliers: FleetOutlier[];
  splits: FleetSplit[];
  findings: FleetFinding[];
}

export interface FleetOptions {
  checks: readonly Check[];
  facts?: readonly FactDef[];
  /** reuse a check's findings on nodes that give it the same inputs (memo-checks.ts); default on */
  memo?: boolean;
  /** the number its partials carry: mergers whose partials are joined into one need distinct numbers */
  source?: number;
}

interface Instance {
  id: string;
  def: number;
  sub: string;
  values: Map<string, number>;
  names: string[];
}

interface CheckAgg {
  severity: Severity;
  statuses: Set<Status>;
  rootCause: RootCauseId | null;
  messages: Map<string, number>;
  machines: number[];
}

const ABSENT = -1;

/** The id of a value of an instance, numbered in the order values are first seen. */
function valueId(inst: Instance, v: string): number {
  let vid = inst.values.get(v);
  if (vid === undefined) {
    vid = inst.names.length;
    inst.values.set(v, vid);
    inst.names.push(v);
  }
  return vid;
}

/** What a fact's reader gave when it threw. */
const THREW = Symbol('threw');
const threw = (r: unknown) => r === THREW;

/** What the merger made of one answer of a fact's reader (found once per answer while it is reused). */
interface Placed {
  /** per keyed value: its instance (index) and value id there */
  inst: number[];
  vid: number[];
  /** per keyed value: the instance id and the value, in reading order */
  ids: string[];
  vals: string[];
  /** this merger's number for a kept answer; -1 for an answer made for one snapshot */
  serial: number;
}

interface ConfigurationKey {
  key: string;
  facts: Record<string, string>;
}

const notPassed = (fs: readonly Finding[]): Finding[] => fs.filter((f) => f.status !== 'ok' && f.status !== 'skip');

/**
 * What one merger merged since its last partial, as plain data (a worker thread posts it back): the files of one
 * chunk of the inputs. FleetMerger.absorb takes the chunks in input order and ends where one merger given every file
 * in that order would have ended, so the result is the same to the byte (first-seen orders, ties, renamed
 * duplicates). A merger numbers instances and values once for all its partials: each partial names only those it
 * met since the last, and the partials of one merger must be absorbed in the order it made them.
 */
export interface FleetPartial {
  /** the merger that made it (FleetOptions.source): its numbering of instances and values */
  source: number;
  filesSeen: number;
  skipped: { file: string; reason: string }[];
  /** per machine: the host name as the snapshot gives it (a duplicate is renamed when chunks are joined) */
  hosts: string[];
  files: string[];
  defCollected: number[];
  /** how many instances the merger had met before this partial: those below are named in earlier partials */
  instanceBase: number;
  /** the instances met since the last partial, numbered on from instanceBase */
  instances: { id: string; def: number; sub: string }[];
  /** per instance (by the merger's number), the values met since the last partial, numbered on from `from` */
  values: { inst: number; from: number; names: string[] }[];
  /** per machine: value number per instance number (-1: absent) */
  vals: Int32Array[];
  notCollected: (number[] | undefined)[];
  groups: [string, { facts: Record<string, string>; machines: number[] }][];
  checks: [
    string,
    {
      severity: Severity;
      statuses: Status[];
      rootCause: RootCauseId | null;
      messages: [string, number][];
      machines: number[];
    },
  ][];
}

/** How one source's numbering maps onto a merger's: instance number → this merger's; per instance, value numbers. */
interface SourceMap {
  inst: number[];
  vals: number[][];
}

export class FleetMerger {
  private readonly defs: FactDef[];
  /** per fact: its reader, an exception turned into THREW */
  private readonly readers: ((s: Snapshot) => FactValues | undefined | typeof THREW)[];
  private readonly checks: readonly Check[];
  /** the memo of facts and checks (shared paths), unless turned off */
  private readonly reads: ReadMemo | undefined;
  private readonly factSlots: Slot<FactValues | undefined | typeof THREW>[];
  private readonly memo: MemoChecks | undefined;
  /** per fact, for the snapshot being added: where its answer went (undefined: not collected) */
  private readonly placedNow: (Placed | undefined)[] = [];
  /** the snapshot's (instance, value id) pairs, flat */
  private readonly pairs: number[] = [];
  /** configuration keys by the serials of the key facts' kept answers */
  private readonly keyCache = new Map<string, ConfigurationKey>();
  private serials = 0;
  private readonly instances: Instance[] = [];
  private readonly instanceIndex = new Map<string, number>();
  private readonly defCollected: number[];
  private readonly names: string[] = [];
  private readonly hosts: string[] = [];
  private readonly files: string[] = [];
  /** per machine: value id per instance (ABSENT when absent); instances found later are absent there */
  private readonly vals: Int32Array[] = [];
  /** per machine: the facts it did not collect (def indexes), or undefined when it collected all */
  private readonly notCollected: (number[] | undefined)[] = [];
  private readonly groups = new Map<string, { facts: Record<string, string>; machines: number[] }>();
  private readonly checkAgg = new Map<string, CheckAgg>();
  private readonly seenHosts = new Set<string>();
  private readonly duplicates = new Set<string>();
  private skipped: { file: string; reason: string }[] = [];
  private filesSeen = 0;
  private readonly source: number;
  /** what the partials made so far named: instances, and per instance its values */
  private sentInstances = 0;
  private readonly sentValues: number[] = [];
  /** per source absorbed: its numbering → this merger's */
  private readonly sources = new Map<number, SourceMap>();

  constructor(o: FleetOptions) {
    // Noise (memory in use, PIDs, timestamps) differs on every machine: never part of a group or an outlier.
    this.defs = (o.facts ?? FACTS).filter((d) => d.impact !== 'noise');
    this.readers = this.defs.map((def) => (s: Snapshot) => {
      try {
        return def.read(s);
      } catch {
        // A reader must never take a whole fleet down: a malformed section is "not collected".
        return THREW;
      }
    });
    this.checks = o.checks;
    this.reads = o.memo === false ? undefined : new ReadMemo();
    this.factSlots = this.defs.map(() => newSlot());
    this.memo = this.reads ? new MemoChecks(this.checks, this.reads) : undefined;
    this.defCollected = this.defs.map(() => 0);
    this.source = o.source ?? 0;
  }

  /** A file that could not be read or is not a snapshot: reported, not fatal. */
  skip(file: string, reason: string): void {
    this.filesSeen++;
    this.skipped.push({ file, reason });
  }

  add(s: Snapshot, file: string): void {
    this.filesSeen++;
    const m = this.names.length;
    let name = s.host.name;
    if (this.seenHosts.has(name)) {
      this.duplicates.add(name);
      name = `${name} (${file})`;
    }
    this.seenHosts.add(s.host.name);
    this.hosts.push(s.host.name);
    this.names.push(name);
    this.files.push(file);

    const reads = this.reads;
    reads?.load(s);
    const placed = this.placedNow;
    const pairs = this.pairs;
    pairs.length = 0;
    let missing: number[] | undefined;
    /** the answers of the key facts, when every one is a kept answer: the configuration key's cache key */
    let tuple: string | undefined = '';
    for (let d = 0; d < this.defs.length; d++) {
      const def = this.defs[d]!;
      const a = reads
        ? reads.answer(this.factSlots[d]!, s, this.readers[d]!, threw)
        : { result: this.readers[d]!(s), kept: false, derived: undefined };
      const read = a.result === THREW ? undefined : (a.result as FactValues | undefined);
      if (read === undefined) {
        (missing ??= []).push(d);
        placed[d] = undefined;
        if (def.key && tuple !== undefined) tuple += '-,';
        continue;
      }
      this.defCollected[d]!++;
      let p = a.derived as Placed | undefined;
      if (p === undefined) {
        p = this.place(d, def, read, a.kept);
        if (a.kept) a.derived = p;
      }
      placed[d] = p;
      if (def.key && tuple !== undefined) tuple = p.serial < 0 ? undefined : `${tuple}${p.serial},`;
      for (let k = 0; k < p.inst.length; k++) pairs.push(p.inst[k]!, p.vid[k]!);
    }
    const row = new Int32Array(this.instances.length).fill(ABSENT);
    for (let k = 0; k < pairs.length; k += 2) row[pairs[k]!] = pairs[k + 1]!;
    this.vals.push(row);
    this.notCollected.push(missing);

    let cfg = tuple === undefined ? undefined : this.keyCache.get(tuple);
    if (cfg === undefined) {
      cfg = this.configurationKey(placed);
      if (tuple !== undefined) this.keyCache.set(tuple, cfg);
    }
    const g = this.groups.get(cfg.key);
    if (g) g.machines.push(m);
    else this.groups.set(cfg.key, { facts: cfg.facts, machines: [m] });

    const all = this.memo ? undefined : runChecks(this.checks, s);
    for (let i = 0; i < this.checks.length; i++) {
      let bad: Finding[];
      if (all) bad = notPassed(all[i]!.findings);
      else {
        const a = this.memo!.answer(i, s);
        let kept = a.derived as Finding[] | undefined;
        if (kept === undefined) {
          kept = notPassed(a.result);
          if (a.kept) a.derived = kept;
        }
        bad = kept;
      }
      for (const f of bad) this.aggregate(f, m);
    }
  }

  /** Where one answer of fact d's reader goes: its instances (created on first sight) and their value ids. */
  private place(d: number, def: FactDef, read: FactValues, kept: boolean): Placed {
    const p: Placed = { inst: [], vid: [], ids: [], vals: [], serial: kept ? this.serials++ : -1 };
    for (const [sub, v] of Object.entries(read)) {
      const id = instanceId(def.id, sub);
      const inst = this.instanceFor(id, d, def);
      const vid = valueId(inst, v);
      p.inst.push(this.instanceIndex.get(id)!);
      p.vid.push(vid);
      p.ids.push(id);
      p.vals.push(v);
    }
    return p;
  }

  private aggregate(f: Finding, m: number): void {
    let agg = this.checkAgg.get(f.check);
    if (!agg) {
      agg = {
        severity: f.severity,
        statuses: new Set(),
        rootCause: f.rootCause,
        messages: new Map(),
        machines: [],
      };
      this.checkAgg.set(f.check, agg);
    }
    if (SEVERITY_RANK[f.severity] > SEVERITY_RANK[agg.severity]) {
      agg.severity = f.severity;
      agg.rootCause = f.rootCause;
    }
    agg.statuses.add(f.status);
    agg.messages.set(f.message, (agg.messages.get(f.message) ?? 0) + 1);
    if (agg.machines[agg.machines.length - 1] !== m) agg.machines.push(m);
  }

  /**
   * Everything merged since the last partial, as plain data for FleetMerger.absorb (in another thread); this merger
   * then starts on the next chunk, keeping what it learnt (its numbering of instances and values, its memo).
   */
  partial(): FleetPartial {
    const values: FleetPartial['values'] = [];
    for (let i = 0; i < this.instances.length; i++) {
      const names = this.instances[i]!.names;
      const from = this.sentValues[i] ?? 0;
      if (names.length > from) values.push({ inst: i, from, names: names.slice(from) });
      this.sentValues[i] = names.length;
    }
    const p: FleetPartial = {
      source: this.source,
      filesSeen: this.filesSeen,
      skipped: this.skipped,
      hosts: this.hosts.splice(0),
      files: this.files.splice(0),
      defCollected: this.defCollected.splice(0, this.defCollected.length, ...this.defs.map(() => 0)),
      instanceBase: this.sentInstances,
      instances: this.instances.slice(this.sentInstances).map(({ id, def, sub }) => ({ id, def, sub })),
      values,
      vals: this.vals.splice(0),
      notCollected: this.notCollected.splice(0),
      groups: [...this.groups],
      checks: [...this.checkAgg].map(([check, a]) => [
        check,
        {
          severity: a.severity,
          statuses: [...a.statuses],
          rootCause: a.rootCause,
          messages: [...a.messages],
          machines: a.machines,
        },
      ]),
    };
    this.sentInstances = this.instances.length;
    this.filesSeen = 0;
    this.skipped = [];
    this.names.length = 0;
    this.groups.clear();
    this.checkAgg.clear();
    return p;
  }

  /**
   * Adds a chunk merged elsewhere, as if its files were added here one by one: chunks must come in input order
   * (each first-seen order — instances, values, groups, messages — then continues where the last left off), and
   * the partials of one source in the order it made them. Throws on a partial out of its source's order.
   */
  absorb(p: FleetPartial): void {
    const base = this.names.length;
    this.filesSeen += p.filesSeen;
    for (const sk of p.skipped) this.skipped.push(sk);
    p.hosts.forEach((host, k) => {
      let name = host;
      if (this.seenHosts.has(host)) {
        this.duplicates.add(host);
        name = `${host} (${p.files[k]!})`;
      }
      this.seenHosts.add(host);
      this.hosts.push(host);
      this.names.push(name);
      this.files.push(p.files[k]!);
    });
    p.defCollected.forEach((c, d) => {
      this.defCollected[d]! += c;
    });
    // the source's instance and value numbers → this merger's, extended by what this partial met first
    let map = this.sources.get(p.source);
    if (!map) this.sources.set(p.source, (map = { inst: [], vals: [] }));
    if (p.instanceBase !== map.inst.length) throw new Error(`fleet: partial of source ${p.source} out of order`);
    for (const pi of p.instances) {
      this.instanceFor(pi.id, pi.def, this.defs[pi.def]!);
      map.inst.push(this.instanceIndex.get(pi.id)!);
      map.vals.push([]);
    }
    for (const { inst, from, names } of p.values) {
      const vals = map.vals[inst]!;
      if (vals.length !== from) throw new Error(`fleet: values of source ${p.source} out of order`);
      const target = this.instances[map.inst[inst]!]!;
      for (const v of names) vals.push(valueId(target, v));
    }
    for (let m = 0; m < p.vals.length; m++) {
      const prow = p.vals[m]!;
      const row = new Int32Array(this.instances.length).fill(ABSENT);
      for (let j = 0; j < prow.length; j++) {
        if (prow[j] === ABSENT) continue;
        row[map.inst[j]!] = map.vals[j]![prow[j]!]!;
      }
      this.vals.push(row);
      this.notCollected.push(p.notCollected[m]);
    }
    for (const [key, g] of p.groups) {
      const machines = g.machines.map((m) => m + base);
      const known = this.groups.get(key);
      if (known) for (const m of machines) known.machines.push(m);
      else this.groups.set(key, { facts: g.facts, machines });
    }
    for (const [check, a] of p.checks) {
      const machines = a.machines.map((m) => m + base);
      const agg = this.checkAgg.get(check);
      if (!agg) {
        this.checkAgg.set(check, {
          severity: a.severity,
          statuses: new Set(a.statuses),
          rootCause: a.rootCause,
          messages: new Map(a.messages),
          machines,
        });
        continue;
      }
      // the first finding of the worst severity gives the root cause, as when the findings come one by one
      if (SEVERITY_RANK[a.severity] > SEVERITY_RANK[agg.severity]) {
        agg.severity = a.severity;
        agg.rootCause = a.rootCause;
      }
      for (const st of a.statuses) agg.statuses.add(st);
      for (const [msg, c] of a.messages) agg.messages.set(msg, (agg.messages.get(msg) ?? 0) + c);
      for (const m of machines) agg.machines.push(m);
    }
  }

  private instanceFor(id: string, d: number, def: FactDef): Instance {
    let i = this.instanceIndex.get(id);
    if (i === undefined) {
      i = this.instances.length;
      this.instanceIndex.set(id, i);
      const sub = id === def.id ? '' : id.slice(def.id.length + 1, -1);
      this.instances.push({ id, def: d, sub, values: new Map(), names: [] });
    }
    return this.instances[i]!;
  }

  /** "driver 580.159.04 · 8× NVIDIA H100 · 81559 MiB · x64 · torch 2.11.0+cu130 (CUDA 13.0)" */
  private configurationKey(placed: readonly (Placed | undefined)[]): ConfigurationKey {
    const parts: string[] = [];
    const facts: Record<string, string> = {};
    this.defs.forEach((def, d) => {
      if (!def.key) return;
      const p = placed[d];
      let shown: string;
      if (p === undefined) shown = `${def.id} not collected`;
      else if (p.ids.length === 0) shown = `no ${def.id}`;
      else if (p.ids.length === 1 && p.ids[0] === def.id) shown = p.vals[0]!;
      else if (p.ids.every((id) => /\[\d+\]$/.test(id))) {
        // Per GPU: "8× NVIDIA H100", or "4× A100 + 4× H100" on a mixed machine.
        const counts = new Map<string, number>();
        for (const v of p.vals) counts.set(v, (counts.get(v) ?? 0) + 1);
        shown = [...counts].map(([v, n]) => `${n}× ${v}`).join(' + ');
      } else {
        shown = p.ids.map((id, k) => `${id.slice(def.id.length + 1, -1)} ${p.vals[k]}`).join(', ');
      }
      if (def.id === 'gpu.count') return; // implied by the per-GPU counts
      facts[def.id] = shown;
      parts.push(def.id === 'driver' ? `driver ${shown}` : shown);
    });
    return { key: parts.join(' · '), facts };
  }

  /** Per instance, per value: how many machines hold it (a row holds one value per instance). */
  private tally(): number[][] {
    const counts = this.instances.map((inst) => new Array<number>(inst.names.length).fill(0));
    for (const row of this.vals) for (let i = 0; i < row.length; i++) if (row[i] !== ABSENT) counts[i]![row[i]!]!++;
    return counts;
  }

  result(): FleetResult {
    const n = this.names.length;
    const usual: Record<string, string | null> = {};
    const splits: FleetSplit[] = [];
    const deviating: { inst: number; usual: number }[] = [];
    const tally = this.tally();
    for (let i = 0; i < this.instances.length; i++) {
      const inst = this.instances[i]!;
      const counts = tally[i]!;
      const collected = this.defCollected[inst.def]!;
      if (collected === 0) continue;
      const absent = collected - counts.reduce((a, b) => a + b, 0);
      // The most common value, "absent" being one of the candidates.
      let best = ABSENT;
      let bestCount = absent;
      counts.forEach((c, v) => {
        if (c > bestCount) {
          best = v;
          bestCount = c;
        }
      });
      if (bestCount === collected) {
        usual[inst.id] = best === ABSENT ? null : inst.names[best]!;
        continue; // everyone agrees
      }
      if (collected >= MIN_MACHINES_FOR_USUAL && bestCount >= USUAL_SHARE * collected) {
        usual[inst.id] = best === ABSENT ? null : inst.names[best]!;
        deviating.push({ inst: i, usual: best });
      } else {
        const def = this.defs[inst.def]!;
        const values = inst.names.map((v, k) => ({ value: v as string | null, machines: counts[k]! }));
        if (absent > 0) values.push({ value: null, machines: absent });
        values.sort((a, b) => b.machines - a.machines || (a.value ?? '\uffff').localeCompare(b.value ?? '\uffff'));
        splits.push({ fact: inst.id, label: def.label, impact: impactOf(def, inst.sub), values });
      }
    }

    const outliers: FleetOutlier[] = [];
    for (let m = 0; m < n; m++) {
      const row = this.vals[m]!;
      const missing = this.notCollected[m];
      const differs: FleetDifference[] = [];
      for (const { inst: i, usual: u } of deviating) {
        const inst = this.instances[i]!;
        if (missing?.includes(inst.def)) continue; // not collected there: unknown, not different
        const v = i < row.length ? row[i]! : ABSENT;
        if (v === u) continue;
        const def = this.defs[inst.def]!;
        differs.push({
          fact: inst.id,
          label: inst.sub === '' ? def.label : `${def.label} ${inst.sub}`,
          impact: impactOf(def, inst.sub),
          value: v === ABSENT ? null : inst.names[v]!,
          usual: u === ABSENT ? null : inst.names[u]!,
        });
      }
      if (differs.length === 0) continue;
      differs.sort((a, b) => IMPACT_RANK[b.impact] - IMPACT_RANK[a.impact]);
      outliers.push({ machine: this.names[m]!, file: this.files[m]!, differs });
    }
    outliers.sort(
      (a, b) =>
        IMPACT_RANK[b.differs[0]!.impact] - IMPACT_RANK[a.differs[0]!.impact] ||
        b.differs.length - a.differs.length ||
        a.machine.localeCompare(b.machine),
    );
    splits.sort((a, b) => IMPACT_RANK[b.impact] - IMPACT_RANK[a.impact]);

    const groups: FleetGroup[] = [...this.groups]
      .map(([key, g]) => ({
        key,
        facts: g.facts,
        size: g.machines.length,
        machines: g.machines.map((m) => this.names[m]!),
      }))
      .sort((a, b) => b.size - a.size || a.key.localeCompare(b.key));

    const findings: FleetFinding[] = [...this.checkAgg]
      .map(([check, a]) => ({
        check,
        severity: a.severity,
        statuses: [...a.statuses].sort(),
        rootCause: a.rootCause,
        message: [...a.messages].sort((x, y) => y[1] - x[1])[0]![0],
        count: a.machines.length,
        machines: a.machines.map((m) => this.names[m]!),
      }))
      .sort(
        (a, b) =>
          SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || b.count - a.count || a.check.localeCompare(b.check),
      );

    return {
      schemaVersion: FLEET_SCHEMA_VERSION,
      machines: n,
      inputs: { files: this.filesSeen, read: n, skipped: this.skipped },
      duplicates: [...this.duplicates],
      groups,
      usual,
      outliers,
      splits,
      findings,
    };
  }
}
