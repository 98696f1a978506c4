// --redact: user names, host names, home paths, IP addresses, GPU UUIDs and serials replaced by placeholders,
// consistently (the same value is the same placeholder in the terminal text, the JSON, the Markdown and the
// HTML of one run). A pure function over the JSON-able result, applied before anything is rendered.
//
// How: first the values we know are sensitive are collected from the snapshot (host.name, self.user, the users
// of processes, GPU UUIDs and serials); then every string is rewritten: known values (as whole words), GPU/MIG
// UUIDs, home folders (/home/NAME, /Users/NAME), IPv4 and IPv6 addresses. Four-part versions ("cuDNN
// 8.9.7.29") look like IPv4 addresses: a value under a key named like "version", or a number right after
// "version", "==" or a library name, is left alone.

export interface Redactor {
  /** a string, rewritten; `key` is the JSON key it was found under, if any */
  text(s: string, key?: string): string;
  /** the placeholder table so far: original → placeholder (for tests and for a --verbose note) */
  readonly table: ReadonlyMap<string, string>;
}

/** Users and hosts that say nothing about anyone: never replaced. */
const PUBLIC_USERS = new Set(['root', 'nobody', 'daemon', 'nvidia-persistenced', 'systemd-resolve', 'messagebus', '?', '']);
const PUBLIC_HOSTS = new Set(['localhost', 'unknown', '']);

export function createRedactor(seed?: unknown): Redactor {
  const table = new Map<string, string>();
  const counters = new Map<string, number>();
  const users = new Map<string, string>();
  const words: { value: string; re: RegExp; placeholder: string }[] = [];
  const next = (kind: string) => {
    const n = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, n);
    return n;
  };
  const assign = (original: string, make: () => string): string => {
    const have = table.get(original);
    if (have) return have;
    const p = make();
    table.set(original, p);
    return p;
  };
  const userPlaceholder = (name: string) => {
    let p = users.get(name);
    if (!p) {
      p = assign(name, () => `user${next('user')}`);
      users.set(name, p);
    }
    return p;
  };
  const addWord = (value: string, placeholder: string) => {
    if (words.some((w) => w.value === value)) return;
    words.push({ value, placeholder, re: new RegExp(`(?<![\\w.-])${escapeRe(value)}(?![\\w-])`, 'g') });
    // Longer first, so "alice-dev" is replaced before "alice".
    words.sort((a, b) => b.value.length - a.value.length);
  };

  for (const k of collectKnown(seed)) {
    if (k.kind === 'user' && !PUBLIC_USERS.has(k.value) && !/^\d+$/.test(k.value)) addWord(k.value, userPlaceholder(k.value));
    if (k.kind === 'host' && !PUBLIC_HOSTS.has(k.value)) {
      const p = assign(k.value, () => `host${next('host')}`);
      addWord(k.value, p);
      // the short name of a fully qualified host appears in prompts and logs
      const short = k.value.split('.')[0];
      if (short && short !== k.value && short.length >= 3) addWord(short, p);
    }
    if (k.kind === 'uuid') assign(k.value, () => uuidPlaceholder(k.value, next));
    if (k.kind === 'serial' && k.value.length >= 4) addWord(k.value, assign(k.value, () => `serial-${next('serial')}`));
  }

  const text = (s: string, key?: string): string => {
    let out = s.replace(UUID_RE, (u) => assign(u, () => uuidPlaceholder(u, next)));
    out = out.replace(HOME_RE, (_m, base: string, name: string) => (PUBLIC_USERS.has(name) ? `${base}${name}` : `${base}${userPlaceholder(name)}`));
    for (const w of words) out = out.replace(w.re, w.placeholder);
    if (!(key && /version/i.test(key))) {
      out = out.replace(IPV4_RE, (ip, offset: number, whole: string) => {
        if (VERSION_BEFORE.test(whole.slice(Math.max(0, offset - 24), offset))) return ip;
        if (ip.startsWith('127.') || ip === '0.0.0.0') return ip;
        return assign(ip, () => `ip${next('ip')}`);
      });
      out = out.replace(IPV6_RE, (ip) => (ip === '::1' ? ip : assign(ip, () => `ipv6-${next('ipv6')}`)));
    }
    return out;
  };
  return { text, table };
}

/** A deep copy of a JSON-able value with every string redacted. */
export function redactDeep<T>(value: T, redactor: Redactor = createRedactor(value)): T {
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === 'string') return redactor.text(v, key);
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v !== null && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) o[k] = walk(x, k);
      return o;
    }
    return v;
  };
  return walk(value) as T;
}

// No boundary after: a UUID glued to other text ("…3df7alice") is still a UUID.
const UUID_RE = /(?:GPU|MIG)-[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}/g;
const HOME_RE = /(\/home\/|\/Users\/)([A-Za-z0-9._-]+)/g;
const IPV4_RE = /(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?!\w|\.\d)/g;
// "::" with at least one more group, or five or more colon groups (not times like 12:34:56, not PCI bus ids).
const IPV6_RE = /(?<![\w:])(?:(?:[0-9a-fA-F]{1,4}:){4,7}[0-9a-fA-F]{1,4}|(?:[0-9a-fA-F]{1,4}:)*[0-9a-fA-F]{0,4}::(?:[0-9a-fA-F]{1,4}:)*[0-9a-fA-F]{1,4})(?![\w:])/g;
const VERSION_BEFORE = /(?:version|ver\.?|v|==|>=|<=|~=|cudnn|cuda|nccl|cublas|tensorrt|driver|\.so\.|[\w-]+-cu\d+)[\s:=]*$/i;

function uuidPlaceholder(u: string, next: (k: string) => number): string {
  return u.startsWith('MIG-') ? `MIG-uuid-${next('mig')}` : `GPU-uuid-${next('uuid')}`;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface Known {
  kind: 'user' | 'host' | 'uuid' | 'serial';
  value: string;
}

/** The sensitive values a snapshot (or a result holding one) names, in a stable order. */
export function collectKnown(seed: unknown): Known[] {
  const out: Known[] = [];
  const snaps = findSnapshots(seed);
  for (const s of snaps) {
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
        if (typeof serial === 'string' && serial !== '' && !/^(n\/a|\[n\/a\]|0+)$/i.test(serial)) out.push({ kind: 'serial', value: serial });
      }
    }
  }
  return out;
}

/** The snapshot itself, or the `snapshot` field of a check/run result, or several (fleet). */
function findSnapshots(v: unknown): unknown[] {
  if (v === null || typeof v !== 'object') return [];
  if (get(v, 'host', 'name') !== undefined && get(v, 'nvidia') !== undefined) return [v];
  const inner = get(v, 'snapshot');
  if (inner !== undefined) return findSnapshots(inner);
  if (Array.isArray(v)) return v.flatMap(findSnapshots);
  return [];
}

function get(v: unknown, ...path: string[]): unknown {
  let cur = v;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}
