// --redact: the one redactor. Every command and every reporter that shows machine facts goes through it.
//
// WHAT IT HIDES: user names (also glued into other names: alice_env, exp_alice, bob_exp42), home folders
// (/home/X, /Users/X, /users/X, /u/X, NFS homes such as /nfs/home/X, /scratch/X, and the home folders of the
// accounts in /etc/passwd wherever they are), host names (this machine's, every snapshot's in a fleet, and
// other hosts named in command lines and logs: --master X, MASTER_ADDR=X, NCCL's "X:pid:tid" prefix, URLs,
// user@X, fully qualified names), GPU and MIG UUIDs (also their short prefixes), other UUIDs, GPU serials and
// labelled machine serials/ids, IPv4, IPv6 and MAC addresses, and secrets (--token=…, --password x,
// PASSWORD=…, API_KEY=…, *_SECRET=…, "Authorization: Bearer …", https://user:pw@host, AWS/GitHub/Hugging Face/
// OpenAI/Slack-shaped keys, private key blocks).
// WHAT IT KEEPS: versions that look like addresses ("cuDNN 8.9.7.29"), PCI bus ids (00000000:18:00.0 is the
// same slot on every server of a model: it identifies no machine), PIDs, sizes, public hosts of documentation
// and package indexes (docs.nvidia.com, download.pytorch.org), /root and accounts that name nobody (root,
// nobody, ubuntu, jovyan, …: PUBLIC_USERS).
//
// CONSISTENT: one Redactor gives the same value the same placeholder everywhere it is used (user-1, host-1,
// GPU-UUID-1, serial-1, ip-1, mac-1, secret-1 …), so a redacted report stays readable; make one per output.
//
// HOW TO USE IT (a command, a reporter, `serve`): redact the MODEL, before anything renders it, so every format
// (terminal, JSON, Markdown, HTML, Prometheus) shows the same placeholders by construction:
//     const shown = redactModel(model);                    // one output, one call
//     const r = createRedactor(model, extraKnown);         // or: several values sharing one set of placeholders
//     const a = redactDeep(x, r), b = redactDeep(y, r), line = r.text(s);
//     r.learn(nextFrame); redactDeep(nextFrame, r);        // a stream (procs --watch, serve): learn each new model
// Commands get theirs from src/commands/shared/redaction.ts, which adds this machine's /etc/passwd accounts.
// Models must not key records by machine facts (a Record<userName, …>): keys that look like identifiers are
// never rewritten (a user named "name" must not break a model), so such keys would pass through in clear;
// use arrays of { user, … } instead. Other keys (paths, host names with dots) are rewritten.
//
// WHERE: one detector per module under ./redact/ (each a list of rules, each rule a cheap gate and a pattern):
//   secrets.ts   secrets in command lines, logs and configs: --token=…, --wandb-key, curl -u, signed URLs, key shapes
//   ids.ts       GPU/MIG UUIDs, other UUIDs, MAC addresses, serials, machine ids
//   hosts.ts     host names by context: URLs (only PUBLIC_URL_HOSTS kept), user@host, NCCL, Slurm, FQDNs
//   users.ts     home folders and the users they name; /etc/passwd accounts
//   words.ts     every known name wherever it stands as a word (THE WORD RULE)
//   addresses.ts IPv4 (not versions), IPv6
//   names.ts     which option, variable and key names hold a secret or a host
//   model.ts     models: keys and argument vectors that say what a value is; what a snapshot states
//   state.ts     the shared memory: known words, placeholders, marks
// This file puts them in order and is the only entry point.
//
// HOW IT WORKS: createRedactor registers the values the seed states outright (each snapshot's host name, its
// user and the processes' users, GPU UUIDs and serials, plus `extra`, e.g. passwd accounts), then LEARNS from
// every string of the seed: a value found by context (the X of --master X, of /scratch/X, of alice@X, a token
// after --token) becomes a known word, so it is also replaced where it appears bare. text() then rewrites a
// string in one pass per rule; each replacement is first written as a private-use mark (never a letter or
// digit), so no later rule can rewrite a placeholder or match across one, and the marks become placeholders
// at the end.
//
// THE WORD RULE: see ./redact/words.ts.
import { ipRules } from './redact/addresses.js';
import { fqdnRule, hostRules } from './redact/hosts.js';
import { idRules } from './redact/ids.js';
import { collectKnown, STATED_ORDER, walk } from './redact/model.js';
import { keyKind } from './redact/names.js';
import type { Step } from './redact/rule.js';
import { secretRules } from './redact/secrets.js';
import { createMarks, PRIVATE_USE_RE, type Marks } from './redact/state.js';
import type { Known, Redactor } from './redact/types.js';
import { homeRules } from './redact/users.js';
import { wordRule } from './redact/words.js';

export type { Known, KnownKind, Redactor } from './redact/types.js';
export { PUBLIC_USERS, knownFromPasswd } from './redact/users.js';
export { PUBLIC_URL_HOSTS } from './redact/hosts.js';
export { flagKind, keyKind, nameKind } from './redact/names.js';
export { collectKnown } from './redact/model.js';

export function createRedactor(seed?: unknown, extra: readonly Known[] = []): Redactor {
  const m = createMarks();
  // The rules in the order text() applies them: secrets first (they may hold anything), then identifiers of
  // the machine and its GPUs, other hosts by context, home folders, every known word, and last the fully
  // qualified names that look like machines. Addresses run after all of these (not on version values).
  const steps: Step[] = [...secretRules(m), ...idRules(m), ...hostRules(m), ...homeRules(m), wordRule(m), fqdnRule(m)];
  return assemble(m, steps, ipRules(m), seed, extra);
}

/**
 * Secrets only (tokens, passwords, keys, signed-URL signatures, and a secret learned once wherever it appears
 * again), for a page that shows command lines by design (`serve` without --redact): who runs what stays
 * readable, their credentials do not travel with it.
 */
export function createSecretRedactor(): Redactor {
  const m = createMarks();
  return assemble(m, [...secretRules(m), wordRule(m)], [], undefined, []);
}

function assemble(
  m: Marks,
  steps: readonly Step[],
  addressRules: readonly ((s: string) => string)[],
  seed: unknown,
  extra: readonly Known[],
): Redactor {
  const rules = steps.map((x) => x.rule);
  /** the rules that find values by context (and so learn them); the learning pass runs only these */
  const learnRules = steps.filter((x) => x.learns).map((x) => x.rule);

  const cache = new Map<string, string>();
  let cachedAt = m.generation;
  /** `learnOnly`: run only the rules that find values by context (the learning pass; its output is dropped) */
  const rewrite = (input: string, key: string | undefined, learnOnly: boolean): string => {
    if (input === '') return input;
    let s = input.replace(PRIVATE_USE_RE, '\uFFFD');
    // a value stored under a key that names it: the whole value is the secret, or the host list
    const kind = key === undefined ? null : keyKind(key);
    if (kind === 'secret') s = m.secretMark(s);
    else if (kind === 'host' && /[A-Za-z]/.test(s) && !/\s/.test(s)) s = m.hostValue(s);
    for (const rule of learnOnly ? learnRules : rules) s = rule(s);
    if (!learnOnly && kind !== 'version') for (const rule of addressRules) s = rule(s);
    return m.unmark(s);
  };
  // Models repeat strings (library folders, paths): a result holds until a new value becomes known.
  const text = (input: string, key?: string): string => {
    if (cachedAt !== m.generation) {
      cache.clear();
      cachedAt = m.generation;
    }
    const id = `${key === undefined ? '' : (keyKind(key) ?? '')}\0${input}`;
    const hit = cache.get(id);
    if (hit !== undefined) return hit;
    const out = rewrite(input, key, false);
    if (cachedAt === m.generation && cache.size < 100_000) cache.set(id, out);
    return out;
  };

  const learn = (value: unknown, more: readonly Known[] = []) => {
    const stated = collectKnown(value);
    for (const k of stated) m.addKnown(k);
    for (const k of more) m.addKnown(k);
    // What the snapshots state is numbered first, machines before people: this machine is host-1, its user user-1.
    for (const k of [...stated, ...more.filter((x) => x.kind === 'host')].sort(
      (a, b) => STATED_ORDER.indexOf(a.kind) - STATED_ORDER.indexOf(b.kind),
    )) {
      if (k.kind === 'host' && m.hasWord('host', k.value)) m.placeholder('host', k.value);
      else if (k.kind === 'user' && m.hasWord('user', k.value)) m.placeholder('user', k.value);
      else if (k.kind === 'uuid') m.placeholder('gpu-uuid', k.value);
      else if (k.kind === 'serial' && m.hasWord('serial', k.value)) m.placeholder('serial', k.value);
    }
    // A pass whose output is dropped: what it finds by context becomes known for every string.
    m.dry = true;
    try {
      walk(value, (str, key) => rewrite(str, key, true));
    } finally {
      m.dry = false;
    }
  };
  learn(seed, extra);
  return { text, learn, table: m.table };
}

/**
 * A deep copy of a value with every string redacted (plain objects, arrays, Maps and Sets; other values as they are).
 */
export function redactDeep<T>(value: T, redactor: Redactor = createRedactor(value)): T {
  return walk(value, redactor.text) as T;
}

/** The model, redacted, with placeholders of its own: the call for a command or reporter with one output. */
export function redactModel<T>(model: T, extra: readonly Known[] = []): T {
  return redactDeep(model, createRedactor(model, extra));
}
