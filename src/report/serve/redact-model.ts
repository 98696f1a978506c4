// --redact for the live page: command lines are replaced by the process name, and every text of the page
// model goes through the project's redactor (src/report/redact.ts: user and host names, home folders,
// addresses, GPU UUIDs and serials, secrets). The page is a stream of models, so one redactor serves the whole
// run and learns each new sample before its model is shown: "user-1" stays the same person from one update to
// the next, and a user who appears later gets the next number.
import { hideSkippedNames } from '../../gather/fleet-inputs.js';
import { createRedactor, type Redactor } from '../redact.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';
import type { PageModel, ProcView } from './model.js';

/** Keys whose values are the page's own words (classes, verdict names, ids), never a user's data. The free-GPU
 *  lines are not: they name GPUs by UUID, redacted as in the check block below them. */
const STRUCTURAL = new Set(['kind', 'group', 'mark', 'verdict', 'check', 'framework']);

export class ModelRedactor {
  /** `redactor`: the command's (seeded with this machine's accounts and whoever runs it) */
  constructor(readonly redactor: Redactor = createRedactor()) {}

  /** Learns the names a sample holds (call it for every sample, before `apply`). */
  observe(s: Snapshot): void {
    this.redactor.learn(s);
  }

  apply(m: PageModel): PageModel {
    const hide = (p: ProcView): ProcView => ({ ...p, command: p.name, commandFull: p.name });
    const hidden: PageModel = {
      ...m,
      gpus: m.gpus.map((g) => ({ ...g, procs: g.procs.map(hide) })),
      deviceHolders: m.deviceHolders.map(hide),
      redacted: true,
    };
    return walk(hidden, this.redactor) as PageModel;
  }
}

/** --redact for the fleet page: the same rules, one redactor learning every machine's host and users. */
export class FleetRedactor {
  constructor(readonly redactor: Redactor = createRedactor()) {}

  apply<
    T extends {
      machines: { file: string; host: string; users: string[]; stale: { name: string; command: string }[] }[];
      skipped?: { file: string; reason: string }[];
      redacted: boolean;
    },
  >(m: T): T {
    // in file order, so a machine keeps its number while others come and go
    const byFile = [...m.machines].sort((a, b) => a.file.localeCompare(b.file));
    this.redactor.learn(
      byFile.map((x) => ({
        host: { name: x.host },
        nvidia: { gpus: [] },
        processes: { list: x.users.map((user, i) => ({ pid: i + 1, user })) },
      })),
    );
    const hidden = {
      ...m,
      machines: m.machines.map((x) => ({ ...x, users: [], stale: x.stale.map((s) => ({ ...s, command: s.name })) })),
      ...(m.skipped ? { skipped: hideSkippedNames(m.skipped) } : {}),
      redacted: true,
    };
    return walk(hidden, this.redactor) as T;
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
