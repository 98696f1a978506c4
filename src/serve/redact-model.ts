// --redact for the live page: command lines are replaced by the process name, and every text of the page
// model goes through the project's redactor (src/reporters/redact.ts: user and host names, home folders, IP
// addresses, GPU UUIDs and serials). The page is a stream of models, so the redactor is seeded with every
// user seen since the start, in the order first seen: "user1" stays the same person from one update to the next.
import { createRedactor, type Redactor } from '../reporters/redact.js';
import type { Snapshot } from '../snapshot/schema.js';
import type { PageModel, ProcView } from './model.js';

/** Keys whose values are the page's own words (classes, verdict names, ids), never a user's data. */
const STRUCTURAL = new Set(['kind', 'group', 'mark', 'verdict', 'check', 'framework', 'settings', 'source', 'line', 'allLine']);
const MAX_USERS = 10_000;

export class ModelRedactor {
  private readonly users: string[] = [];
  private readonly seen = new Set<string>();
  private host = '';
  private gpus: { uuid: string; serial: string | null }[] = [];

  /** Learns the names a snapshot holds (call it for every sample, before `apply`). */
  observe(s: Snapshot): void {
    this.host = s.host.name;
    const add = (u: string | null | undefined) => {
      if (u && !this.seen.has(u) && this.users.length < MAX_USERS) {
        this.seen.add(u);
        this.users.push(u);
      }
    };
    add(s.self.user);
    for (const p of s.processes.list) add(p.user);
    if (s.nvidia.ok) this.gpus = s.nvidia.gpus.map((g) => ({ uuid: g.uuid, serial: g.serial }));
  }

  redactor(): Redactor {
    // A snapshot-shaped seed: collectKnown() numbers users in PID order, so the PIDs here are the order seen.
    return createRedactor({
      host: { name: this.host },
      self: { user: null },
      nvidia: { gpus: this.gpus },
      processes: { list: this.users.map((user, i) => ({ pid: i + 1, user })) },
    });
  }

  apply(m: PageModel): PageModel {
    const hide = (p: ProcView): ProcView => ({ ...p, command: p.name, commandFull: p.name });
    const hidden: PageModel = {
      ...m,
      gpus: m.gpus.map((g) => ({ ...g, procs: g.procs.map(hide) })),
      deviceHolders: m.deviceHolders.map(hide),
      redacted: true,
    };
    return walk(hidden, this.redactor()) as PageModel;
  }
}

function walk(v: unknown, r: Redactor, key?: string): unknown {
  if (typeof v === 'string') return key !== undefined && STRUCTURAL.has(key) ? v : r.text(v, key);
  if (Array.isArray(v)) return key !== undefined && STRUCTURAL.has(key) ? v : v.map((x) => walk(x, r, key));
  if (v !== null && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = walk(x, r, k);
    return o;
  }
  return v;
}

/** --redact for the fleet page: the same rules, seeded with every machine's host and users (in file order). */
export function redactFleetModel<T extends { machines: { file: string; host: string; users: string[]; stale: { name: string; command: string }[] }[]; redacted: boolean }>(m: T): T {
  const byFile = [...m.machines].sort((a, b) => a.file.localeCompare(b.file));
  const r = createRedactor(byFile.map((x) => ({ host: { name: x.host }, nvidia: { gpus: [] }, processes: { list: x.users.map((user, i) => ({ pid: i + 1, user })) } })));
  const hidden = {
    ...m,
    machines: m.machines.map((x) => ({ ...x, users: [], stale: x.stale.map((s) => ({ ...s, command: s.name })) })),
    redacted: true,
  };
  return walk(hidden, r) as T;
}
