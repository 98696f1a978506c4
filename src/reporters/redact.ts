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
// HOW IT WORKS: createRedactor registers the values the seed states outright (each snapshot's host name, its
// user and the processes' users, GPU UUIDs and serials, plus `extra`, e.g. passwd accounts), then LEARNS from
// every string of the seed: a value found by context (the X of --master X, of /scratch/X, of alice@X, a token
// after --token) becomes a known word, so it is also replaced where it appears bare. text() then rewrites a
// string in one pass per rule; each replacement is first written as a private-use mark (never a letter or
// digit), so no later rule can rewrite a placeholder or match across one, and the marks become placeholders
// at the end.
//
// THE WORD RULE (user and host names, serials, learned secrets): a known name is replaced where it is not part
// of a longer word: the characters on either side must not be letters. Digits count as part of the word only
// for names shorter than 3 characters, or on the side where the name itself ends in a digit. So alice_env,
// exp_alice, bob_exp42, alice2, alice.smith, (alice_env) all lose "alice", while "ai" and "li" are replaced
// only as whole tokens or _-./-delimited parts: never inside "train", "libcudnn", "li2" or "ai2".
// User names are matched case-sensitively (as Linux does), host names case-insensitively (as DNS does).

export type KnownKind = 'user' | 'host' | 'uuid' | 'serial' | 'home' | 'secret';

/** A value known to be sensitive. `home`: a home folder, `owner` its account (placeholder ~user-N). */
export interface Known {
  kind: KnownKind;
  value: string;
  owner?: string;
}

export interface Redactor {
  /** a string, rewritten; `key` is the JSON key it was found under, if any */
  text(s: string, key?: string): string;
  /** learn the sensitive values a further model names or shows (for streams: each new frame) */
  learn(seed: unknown, extra?: readonly Known[]): void;
  /** the placeholder table so far: original → placeholder (for tests and for a --verbose note) */
  readonly table: ReadonlyMap<string, string>;
}

/** Accounts that name nobody (system, default cloud and container users): never replaced. */
export const PUBLIC_USERS = new Set([
  'root', 'nobody', 'daemon', 'bin', 'sys', 'sync', 'games', 'man', 'lp', 'mail', 'news', 'uucp', 'proxy', 'www-data', 'backup',
  'list', 'irc', 'gnats', 'sshd', '_apt', 'messagebus', 'systemd-resolve', 'systemd-network', 'systemd-timesync', 'nvidia-persistenced',
  'git', 'user', 'admin', 'guest', 'test', 'ubuntu', 'debian', 'centos', 'ec2-user', 'jovyan', 'ray', 'node', 'nixbld', 'dev', '?', '',
]);
const PUBLIC_HOSTS = new Set(['localhost', 'localhost.localdomain', 'unknown', 'ip6-localhost', 'ip6-loopback', '']);
/** Folder names that follow /scratch/ or a home base but are not people: a path through them learns no user. */
const NOT_PEOPLE = new Set(['shared', 'share', 'public', 'common', 'data', 'datasets', 'models', 'projects', 'project', 'software', 'apps', 'opt', 'tmp', 'temp', 'local', 'scratch', 'work', 'group', 'groups', 'lab', 'team', 'home', 'users', 'gpfs', 'lustre', 'global', 'cache', 'linuxbrew']);

type Kind = 'user' | 'host' | 'gpu-uuid' | 'mig-uuid' | 'uuid' | 'serial' | 'machine-id' | 'ip' | 'ipv6' | 'mac' | 'secret';
const PREFIX: Record<Kind, string> = { user: 'user', host: 'host', 'gpu-uuid': 'GPU-UUID', 'mig-uuid': 'MIG-UUID', uuid: 'uuid', serial: 'serial', 'machine-id': 'machine-id', ip: 'ip', ipv6: 'ipv6', mac: 'mac', secret: 'secret' };
/** Already a placeholder (redacting a redacted report changes nothing). */
const PLACEHOLDER_RE = /^(?:user|host|uuid|serial|machine-id|ip|ipv6|mac|secret|GPU-UUID|MIG-UUID)-\d+$/;

interface Word {
  value: string;
  /** the value whose placeholder it takes (a host's short name takes its full name's) */
  canonical: string;
  kind: 'user' | 'host' | 'serial' | 'secret';
  /** compare case-insensitively (host names) */
  ci: boolean;
}

// Marks: U+E000, the placeholder's number written in U+E010..U+E019, U+E001. Not letters, not digits.
const OPEN = '\uE000';
const CLOSE = '\uE001';
const MARK_RE = /\uE000([\uE010-\uE019]+)\uE001/g;
const PRIVATE_USE_RE = /[\uE000-\uE01F]/g;

export function createRedactor(seed?: unknown, extra: readonly Known[] = []): Redactor {
  const table = new Map<string, string>();
  const byKey = new Map<string, string>();
  const counters = new Map<Kind, number>();
  const marks: string[] = [];
  const markOf = new Map<string, string>();
  const words = new Map<string, Word[]>();
  const wordSet = new Set<string>();
  /** a host's short name → its full name (one placeholder for both) */
  const hostCanonical = new Map<string, string>();
  const homes: { path: string; owner: string }[] = [];
  /** bumped whenever a known value is added: text() results cached before then are stale */
  let generation = 0;
  const gpuUuids: string[] = [];

  const mark = (placeholder: string): string => {
    let m = markOf.get(placeholder);
    if (m === undefined) {
      const id = marks.push(placeholder) - 1;
      m = OPEN + String(id).replace(/\d/g, (d) => String.fromCharCode(0xe010 + Number(d))) + CLOSE;
      markOf.set(placeholder, m);
    }
    return m;
  };
  /** true during the learning pass: nothing is numbered there, so numbers follow the order values are shown in */
  let dry = false;
  /** the placeholder of a value, assigned on first use */
  const placeholder = (kind: Kind, original: string): string => {
    if (dry) return `${PREFIX[kind]}-0`;
    const norm = kind === 'host' || kind === 'mac' || kind.endsWith('uuid') || kind === 'ipv6' ? original.toLowerCase() : original;
    const key = `${kind}\0${norm}`;
    let p = byKey.get(key);
    if (p === undefined) {
      const n = (counters.get(kind) ?? 0) + 1;
      counters.set(kind, n);
      p = `${PREFIX[kind]}-${n}`;
      byKey.set(key, p);
    }
    table.set(original, p);
    return p;
  };
  const ph = (kind: Kind, original: string): string => mark(placeholder(kind, original));

  const addWord = (value: string, kind: Word['kind'], canonical = value) => {
    if (value.length < 2 || PLACEHOLDER_RE.test(value) || !/^[\p{L}\p{N}]/u.test(value)) return;
    const ci = kind === 'host';
    const id = `${kind}\0${ci ? value.toLowerCase() : value}`;
    if (wordSet.has(id)) return;
    wordSet.add(id);
    generation++;
    const k = value.slice(0, 2).toLowerCase();
    const list = words.get(k) ?? [];
    list.push({ value, canonical, kind, ci });
    // Longer first, so "alice-ws01" is replaced before "alice".
    list.sort((a, b) => b.value.length - a.value.length);
    words.set(k, list);
  };
  const addUser = (name: string) => {
    if (PUBLIC_USERS.has(name) || /^\d+$/.test(name) || PLACEHOLDER_RE.test(name)) return;
    addWord(name, 'user');
  };
  /** `stated`: the snapshot says it is a host name; otherwise it was found by context (--master X, a URL) */
  const addHost = (name: string, stated = false) => {
    const h = name.replace(/\.$/, '');
    if (PUBLIC_HOSTS.has(h.toLowerCase()) || isIp(h) || PLACEHOLDER_RE.test(h) || !/[A-Za-z]/.test(h)) return;
    addWord(h, 'host');
    // The short name of a fully qualified host appears in prompts and logs. Of a name found by context, only a
    // machine-like one (gpu-node-17, dgx01): "git" of git.corp.internal or "www" must stay words.
    const short = h.split('.')[0]!;
    if (short !== h && short.length >= 3 && /[A-Za-z]/.test(short) && (stated || /\d|-/.test(short))) {
      addWord(short, 'host', h);
      if (!hostCanonical.has(short.toLowerCase())) hostCanonical.set(short.toLowerCase(), h);
    }
  };
  const addKnown = (k: Known) => {
    if (k.kind === 'user') addUser(k.value);
    else if (k.kind === 'host') addHost(k.value, true);
    else if (k.kind === 'uuid') {
      if (!gpuUuids.includes(k.value.toLowerCase())) {
        gpuUuids.push(k.value.toLowerCase());
        generation++;
      }
    } else if (k.kind === 'serial') {
      if (k.value.length >= 4 && !/^(n\/a|\[n\/a\]|0+)$/i.test(k.value)) addWord(k.value, 'serial');
    } else if (k.kind === 'secret') {
      if (k.value.length >= 8) addWord(k.value, 'secret');
    } else if (k.kind === 'home' && k.owner !== undefined) {
      addUser(k.owner);
      const path = k.value.replace(/\/+$/, '');
      // A home named after its account (/users/dave) is already covered by the name; others (/nfs/h/u77) by path.
      if (!PUBLIC_USERS.has(k.owner) && isPrivateHome(path) && path.split('/').pop() !== k.owner && !homes.some((h) => h.path === path)) {
        homes.push({ path, owner: k.owner });
        generation++;
        homes.sort((a, b) => b.path.length - a.path.length);
      }
    }
  };

  // ---- the rules, in the order text() applies them ----

  const userMark = (name: string): string => {
    if (PUBLIC_USERS.has(name) || /^\d+$/.test(name) || PLACEHOLDER_RE.test(name)) return name;
    if (name.length >= 3 && !NOT_PEOPLE.has(name)) addUser(name);
    return ph('user', name);
  };
  const secretMark = (value: string): string => {
    if (value === '' || value.includes(OPEN) || PLACEHOLDER_RE.test(value)) return value;
    if (value.length >= 8) addWord(value, 'secret');
    return ph('secret', value);
  };
  /** `user:password` (curl -u): the user as a user, the password as a secret; no colon: a user alone */
  const userPass = (v: string): string => {
    const q = /^(["'])(.*)\1$/s.exec(v);
    const inner = q ? q[2]! : v;
    const at = inner.indexOf(':');
    const out = at === -1 ? userMark(inner) : `${userMark(inner.slice(0, at))}:${secretMark(inner.slice(at + 1))}`;
    return q ? `${q[1]}${out}${q[1]}` : out;
  };
  /** a host, host:port, scheme://host:port, [v6]:port, or a comma-separated list of them */
  const hostValue = (value: string): string =>
    value
      .split(',')
      .map((item) => {
        const m = /^((?:[a-z][a-z0-9+.-]*:\/\/)?)(\[[^\]]*\]|[^:/\s]*)(.*)$/i.exec(item);
        if (!m) return item;
        const [, scheme, host, rest] = m as unknown as [string, string, string, string];
        return scheme + hostMark(host.replace(/^\[|\]$/g, ''), host) + rest;
      })
      .join(',');
  const hostMark = (host: string, shown = host): string => {
    if (host === '' || host.includes(OPEN) || PLACEHOLDER_RE.test(host)) return shown;
    if (isIp(host)) return ipMark(host) === host ? shown : shown.replace(host, ipMark(host));
    if (PUBLIC_HOSTS.has(host.toLowerCase()) || !/[A-Za-z]/.test(host)) return shown;
    addHost(host);
    const h = host.replace(/\.$/, '');
    return shown.replace(host, ph('host', hostCanonical.get(h.toLowerCase()) ?? h));
  };
  const ipMark = (ip: string): string => {
    if (ip.includes(':')) return ip === '::1' || ip === '::' ? ip : ph('ipv6', ip);
    if (ip.startsWith('127.') || ip === '0.0.0.0' || ip === '255.255.255.255') return ip;
    return ph('ip', ip);
  };
  const valueOf = (kind: 'secret' | 'host' | null, raw: string): string | null => {
    if (kind === null || raw.includes(OPEN)) return null;
    const q = /^(["'])(.*)\1$/s.exec(raw);
    const inner = q ? q[2]! : raw;
    const out = kind === 'secret' ? secretMark(inner) : /[A-Za-z]/.test(inner) || isIp(inner) ? hostValue(inner) : inner;
    return q ? `${q[1]}${out}${q[1]}` : out;
  };

  // Each rule: a cheap test that must pass first (most strings are short paths and numbers), then its pattern.
  type Replacer = (match: string, ...groups: any[]) => string; // eslint-disable-line @typescript-eslint/no-explicit-any
  const rule = (gate: RegExp | null, re: RegExp, fn: Replacer) => (s: string) => (gate === null || gate.test(s) ? s.replace(re, fn) : s);
  /** the rules that find values by context (and so learn them); the learning pass runs only these */
  const learning = new Set<(s: string) => string>();
  const L = (r: (s: string) => string) => (learning.add(r), r);
  const rules: ((s: string) => string)[] = [
    // secrets first: they may hold anything
    L(rule(/PRIVATE KEY/, PRIVATE_KEY_RE, (m) => secretMark(m))),
    L(rule(/:\/\/[^\s/]*@/, URL_USERINFO_RE, (_m, scheme: string, info: string) => `${scheme}${secretMark(info)}@`)),
    L(rule(/authorization/i, AUTH_HEADER_RE, (_m, head: string, scheme: string | undefined, v: string) => `${head}${scheme ?? ''}${secretMark(v)}`)),
    L(rule(/bearer/i, BEARER_RE, (_m, head: string, v: string) => `${head}${secretMark(v)}`)),
    L(rule(/-[A-Za-z]/, FLAG_VALUE_RE, (m, dashes: string, name: string, sep: string, v: string) => {
      if (USER_PASS_FLAGS.has(name)) return v.includes(OPEN) ? m : `${dashes}${name}${sep}${userPass(v)}`;
      const out = valueOf(flagKind(name), v);
      return out === null ? m : `${dashes}${name}${sep}${out}`;
    })),
    L(rule(/=/, ASSIGN_RE, (m, name: string, v: string) => {
      const out = valueOf(nameKind(name), v);
      return out === null ? m : `${name}=${out}`;
    })),
    L(rule(/:\s*["']/, QUOTED_KV_RE, (m, q: string, name: string, sep: string, vq: string, v: string) => {
      const kind = nameKind(name);
      if (kind === null || v.includes(OPEN)) return m;
      return `${q}${name}${q}${sep}${vq}${kind === 'secret' ? secretMark(v) : hostValue(v)}${vq}`;
    })),
    L(rule(/:[ \t]/, PLAIN_KV_RE, (m, name: string, sep: string, v: string) => (nameKind(name) === 'secret' && !v.includes(OPEN) && !AUTH_SCHEME_RE.test(v) ? `${name}${sep}${secretMark(v)}` : m))),
    L(rule(/[?&;][\w.-]+=/, QUERY_PARAM_RE, (m, head: string, name: string, v: string) => (SECRET_PARAM_RE.test(name) && !v.includes(OPEN) ? `${head}${name}=${secretMark(v)}` : m))),
    L(rule(TOKEN_GATE, TOKEN_SHAPES_RE, (m) => secretMark(m))),
    // identifiers of the machine and its GPUs
    rule(/(?:GPU|MIG)-/, GPU_UUID_RE, (m, kind: string, hex: string) => {
      const lower = `${kind}-${hex}`.toLowerCase();
      const full = gpuUuids.find((u) => u.startsWith(lower)) ?? lower;
      return ph(kind.toUpperCase() === 'MIG' ? 'mig-uuid' : 'gpu-uuid', full === lower ? m : full);
    }),
    rule(/[0-9a-fA-F]{8}-/, BARE_UUID_RE, (m) => ph('uuid', m)),
    rule(/[0-9A-Fa-f]{2}[:-][0-9A-Fa-f]{2}[:-]/, MAC_RE, (m) => ph('mac', m)),
    rule(/serial/i, SERIAL_LABEL_RE, (_m, label: string, sep: string, v: string) => `${label}${sep}${ph('serial', v)}`),
    rule(/(?:machine|product|system|boot)[ _-]?(?:id|uuid)/i, MACHINE_ID_LABEL_RE, (_m, label: string, sep: string, v: string) => `${label}${sep}${ph('machine-id', v)}`),
    // other hosts, by context
    L(rule(/:\/\//, URL_HOST_RE, (m, scheme: string, host: string) => (isPublicUrlHost(host, isKnownHost) ? m : `${scheme}${hostMark(host.replace(/^\[|\]$/g, ''), host)}`))),
    L(rule(/@/, USER_AT_HOST_RE, (m, user: string, host: string) => {
      if (/^sha\d+$/i.test(host) || !/[A-Za-z]/.test(host)) return m;
      const hostShown = isPublicHost(host, isKnownHost) ? host : hostMark(host);
      return `${userMark(user)}@${hostShown}`;
    })),
    L(rule(/:\d+:\d+ \[/, NCCL_PREFIX_RE, (_m, host: string, rest: string) => `${hostMark(host)}${rest}`)),
    L(rule(/\]:\d/, BRACKET_HOST_RE, (m, host: string, port: string) => (PUBLIC_HOSTS.has(host.toLowerCase()) || isIp(host) ? m : `[${hostMark(host)}]:${port}`))),
    L(rule(/srun: error|CANCELLED/, SLURM_HOST_RE, (_m, head: string, host: string, tail: string) => `${head}${hostMark(host)}${tail}`)),
    L(rule(/host|node/i, HOST_LABEL_RE, (m, label: string, sep: string, host: string) => (/^v?\d/.test(host) ? m : `${label}${sep}${hostMark(host)}`))),
    L(rule(/ip-\d/, AWS_HOST_RE, (m) => hostMark(m))),
    // home folders: the account's name is the folder's
    (s) => {
      if (homes.length === 0 || !s.includes('/')) return s;
      let out = s;
      for (const h of homes) out = replaceAll(out, h.path, (at) => isPathEnd(out, at + h.path.length), () => `~${mark(placeholder('user', h.owner))}`);
      return out;
    },
    L(rule(/\/(?:home\d*|homes|Users|users|u)\//, HOME_RE, (m, base: string, name: string) => (NOT_PEOPLE.has(name) ? m : `${base}${userMark(name)}`))),
    L(rule(/\/scratch/, SCRATCH_RE, (m, base: string, mid: string | undefined, name: string) => (NOT_PEOPLE.has(name) ? m : `${base}${mid ?? ''}${userMark(name)}`))),
    // every known word, wherever it stands as a word (see THE WORD RULE above)
    (s) => replaceWords(s),
    // fully qualified names that are not public documentation or package hosts
    L(rule(/[A-Za-z0-9]\.[A-Za-z]/, FQDN_RE, (m) => (looksLikeMachine(m) && !isKnownHost(m) ? hostMark(m) : m))),
  ];
  const ipRules: ((s: string) => string)[] = [
    rule(/\d\.\d+\.\d+\.\d/, IPV4_RE, (ip: string, offset: number, whole: string) => (isVersion(ip, offset, whole) ? ip : ipMark(ip))),
    rule(/::|(?:[0-9a-fA-F]{1,4}:){4}/, IPV6_RE, (ip: string) => ipMark(ip)),
  ];

  function isKnownHost(h: string): boolean {
    return wordSet.has(`host\0${h.toLowerCase()}`);
  }

  function replaceWords(s: string): string {
    if (words.size === 0) return s;
    let out = '';
    let last = 0;
    for (let i = 0; i < s.length - 1; i++) {
      const bucket = words.get(s.slice(i, i + 2).toLowerCase());
      if (!bucket) continue;
      for (const w of bucket) {
        const end = i + w.value.length;
        const here = w.ci ? s.slice(i, end).toLowerCase() === w.value.toLowerCase() : s.startsWith(w.value, i);
        if (!here || glued(s[i - 1], w.value[0]!, w.value.length) || glued(s[end], w.value[w.value.length - 1]!, w.value.length)) continue;
        const kind: Kind = w.kind;
        out += s.slice(last, i) + ph(kind, w.canonical);
        last = end;
        i = end - 1;
        break;
      }
    }
    return last === 0 ? s : out + s.slice(last);
  }

  const learnRules = rules.filter((r) => learning.has(r));
  const cache = new Map<string, string>();
  let cachedAt = generation;
  /** `learnOnly`: run only the rules that find values by context (the learning pass; its output is dropped) */
  const rewrite = (input: string, key: string | undefined, learnOnly: boolean): string => {
    if (input === '') return input;
    let s = input.replace(PRIVATE_USE_RE, '\uFFFD');
    // a value stored under a key that names it: the whole value is the secret, or the host list
    const kind = key === undefined ? null : keyKind(key);
    if (kind === 'secret') s = secretMark(s);
    else if (kind === 'host' && /[A-Za-z]/.test(s) && !/\s/.test(s)) s = hostValue(s);
    for (const rule of learnOnly ? learnRules : rules) s = rule(s);
    if (!learnOnly && kind !== 'version') for (const rule of ipRules) s = rule(s);
    return s.includes(OPEN) ? s.replace(MARK_RE, (_m, n: string) => marks[Number([...n].map((c) => c.charCodeAt(0) - 0xe010).join(''))]!) : s;
  };
  // Models repeat strings (library folders, paths): a result holds until a new value becomes known.
  const text = (input: string, key?: string): string => {
    if (cachedAt !== generation) {
      cache.clear();
      cachedAt = generation;
    }
    const id = `${key === undefined ? '' : (keyKind(key) ?? '')}\0${input}`;
    const hit = cache.get(id);
    if (hit !== undefined) return hit;
    const out = rewrite(input, key, false);
    if (cachedAt === generation && cache.size < 100_000) cache.set(id, out);
    return out;
  };

  const learn = (value: unknown, more: readonly Known[] = []) => {
    const stated = collectKnown(value);
    for (const k of stated) addKnown(k);
    for (const k of more) addKnown(k);
    // What the snapshots state is numbered first, machines before people: this machine is host-1, its user user-1.
    for (const k of [...stated, ...more.filter((m) => m.kind === 'host')].sort((a, b) => STATED_ORDER.indexOf(a.kind) - STATED_ORDER.indexOf(b.kind))) {
      if (k.kind === 'host' && wordSet.has(`host\0${k.value.toLowerCase()}`)) placeholder('host', k.value);
      else if (k.kind === 'user' && wordSet.has(`user\0${k.value}`)) placeholder('user', k.value);
      else if (k.kind === 'uuid') placeholder('gpu-uuid', k.value);
      else if (k.kind === 'serial' && wordSet.has(`serial\0${k.value}`)) placeholder('serial', k.value);
    }
    // A pass whose output is dropped: what it finds by context becomes known for every string.
    dry = true;
    try {
      walk(value, (str, key) => rewrite(str, key, true));
    } finally {
      dry = false;
    }
  };
  learn(seed, extra);
  return { text, learn, table };
}

/** A deep copy of a value with every string redacted (plain objects, arrays, Maps and Sets; other values as they are). */
export function redactDeep<T>(value: T, redactor: Redactor = createRedactor(value)): T {
  return walk(value, redactor.text) as T;
}

/** The model, redacted, with placeholders of its own: the call for a command or reporter with one output. */
export function redactModel<T>(model: T, extra: readonly Known[] = []): T {
  return redactDeep(model, createRedactor(model, extra));
}

const STATED_ORDER: KnownKind[] = ['host', 'user', 'uuid', 'serial'];

/**
 * Keys whose values are the tool's own identifiers (check ids, root causes, severities, verdicts): a machine
 * called "gpu" or a user called "memory" must not turn "gpu.driver" or "memory.holders" into something else.
 */
const STRUCTURAL_KEYS = new Set(['check', 'checks', 'rootCause', 'severity', 'status', 'statuses', 'category', 'verdict', 'impact', 'stream', 'via', 'origin', 'mark', 'action', 'by', 'mode']);
const IDENTIFIER_RE = /^[A-Za-z][\w.:-]{0,63}$/;

/** Fields that name what a record is about (a fact, a variable): the record's value fields are then of that kind. */
const NAME_FIELDS = ['fact', 'name', 'key', 'variable'] as const;
const VALUE_FIELDS = new Set(['value', 'values', 'a', 'b', 'usual', 'current', 'expected']);
/** a key that makes text() read a value as that kind (see keyKind) */
const KIND_KEY = { secret: 'token', host: 'host', version: 'version' } as const;

function walk(value: unknown, text: (s: string, key?: string) => string): unknown {
  // `as`: the key a value is read under, when its record says what it is ({ fact: "env[HF_TOKEN]", a, b })
  const visit = (v: unknown, key?: string, as?: string): unknown => {
    if (typeof v === 'string') return key !== undefined && STRUCTURAL_KEYS.has(key) && IDENTIFIER_RE.test(v) ? v : text(v, as ?? key);
    if (Array.isArray(v)) return argv(v, key, as);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [typeof k === 'string' ? renameKey(k) : k, visit(x, typeof k === 'string' ? k : key, as)]));
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
      for (const [k, x] of Object.entries(v)) o[renameKey(k)] = visit(x, k, VALUE_FIELDS.has(k) ? (own ?? as) : undefined);
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

/** What a key (or a fact id such as "env[HF_TOKEN]", "loads[torch libcudnn.so.9]") says its string value is. */
export function keyKind(key: string): 'secret' | 'host' | 'version' | null {
  if (key === '' || /^\d+$/.test(key)) return null;
  if (VERSION_KEY_RE.test(key)) return 'version';
  const inner = /^[\w.-]*\[([A-Za-z_][\w.-]*)\]$/.exec(key);
  return nameKind(inner ? inner[1]! : key);
}
/** keys and facts whose values are versions: a four-part version there is not an IPv4 address */
const VERSION_KEY_RE = /version|^(?:loads|copies|wheel|framework|driver|cuda|cudnn|kernel-module|tool|nvcc)(?:\[|\.|$)/i;

// ---------------------------------------------------------------------------------------------------------
// Names of options, variables and keys: which hold a secret, which a host.

const SECRET_WORDS = new Set(['token', 'password', 'passwd', 'pwd', 'pass', 'passphrase', 'secret', 'secrets', 'credential', 'credentials', 'apikey', 'auth', 'authorization', 'cookie']);
const SECRET_PAIRS = new Set(['api key', 'access key', 'private key', 'session key', 'auth key', 'signing key', 'encryption key', 'account key', 'license key']);
/** a last part that says the value is about the secret, not the secret ("--token-file", "max_token_len") */
const NOT_THE_VALUE = new Set(['file', 'files', 'path', 'dir', 'env', 'var', 'type', 'name', 'names', 'len', 'length', 'count', 'url', 'uri', 'id', 'ids', 'limit', 'size', 'max', 'min', 'mode', 'method', 'provider', 'scope', 'ttl', 'expiry', 'expires', 'header', 'prompt']);
const HOST_LAST = new Set(['host', 'hostname', 'hosts', 'hostnames', 'nodename', 'nodelist', 'node', 'nodes', 'addr', 'address', 'master', 'endpoint', 'endpoints', 'server', 'servers', 'coordinator', 'peer', 'peers', 'head']);

/** options whose value is `user:password` (curl, wget) */
const USER_PASS_FLAGS = new Set(['u', 'user', 'proxy-user', 'U']);

/**
 * What an option's value is: as nameKind, and also a key (`--key`, `--wandb-key`, `--ssh_key`) and `--pwd`,
 * which on a command line is a password. Not for JSON keys or variables: a record's `key` field and $PWD are
 * not secrets.
 */
export function flagKind(name: string): 'secret' | 'host' | null {
  const k = nameKind(name);
  if (k !== null) return k;
  const parts = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split(/[-_.]+/).filter(Boolean);
  const last = parts[parts.length - 1];
  if (parts[0] === 'no' || last === undefined) return null;
  return last === 'key' || last === 'keys' || last === 'pwd' ? 'secret' : null;
}

const nameKinds = new Map<string, 'secret' | 'host' | null>();
export function nameKind(name: string): 'secret' | 'host' | null {
  let k = nameKinds.get(name);
  if (k === undefined) {
    k = classifyName(name);
    if (nameKinds.size < 10_000) nameKinds.set(name, k);
  }
  return k;
}

function classifyName(name: string): 'secret' | 'host' | null {
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[-_.]+/)
    .filter(Boolean);
  if (parts.length === 0 || parts[0] === 'no') return null;
  const whole = parts.join('_');
  if (whole === 'pwd' || whole === 'oldpwd') return null; // the working directory
  const last = parts[parts.length - 1]!;
  const secret = parts.some((p) => SECRET_WORDS.has(p)) || parts.some((p, i) => i > 0 && SECRET_PAIRS.has(`${parts[i - 1]} ${p}`));
  if (secret) return NOT_THE_VALUE.has(last) ? null : 'secret';
  return HOST_LAST.has(last) ? 'host' : null;
}

// ---------------------------------------------------------------------------------------------------------
// Patterns.

const PRIVATE_KEY_RE = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g;
const URL_USERINFO_RE = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:"'<>]+(?::[^\s/@"'<>]*)?)@/gi;
const AUTH_HEADER_RE = /\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?)((?:bearer|basic|token|digest|negotiate)\s+)?([^\s"',;]+)/gi;
const BEARER_RE = /\b(bearer\s+)([A-Za-z0-9._~+/=-]{8,})/gi;
/** --name=value or --name value (not a further option); the value may be quoted */
const FLAG_VALUE_RE = /(?<![\w-])(--?)([A-Za-z][\w.-]*)(=|[ \t]+)(?!-)("[^"]*"|'[^']*'|[^\s"'][^\s]*)/g;
/** NAME=value as in a shell or an env dump */
const ASSIGN_RE = /(?<![\w$.-])([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|[^\s"';&|]*)/g;
/** "password": "x", 'token': 'x' (JSON, Python dicts, YAML with quotes) */
const QUOTED_KV_RE = /(["']?)([A-Za-z_][\w.-]*)\1(\s*:\s*)(["'])((?:(?!\4)[^\n])*)\4/g;
const AUTH_SCHEME_RE = /^(?:bearer|basic|token|digest|negotiate)$/i;
/** password: x (YAML, logs) */
const PLAIN_KV_RE = /(?<![\w-])([A-Za-z_][\w-]*)(:[ \t]+)([^\s,;"']+)/g;

/** a URL's query parameter (also `;` as some signed URLs use) */
const QUERY_PARAM_RE = /([?&;])([\w.-]+)=([^&#;\s"'<>]*)/g;
/** query parameters that carry a signature, a token, a key or a credential (X-Amz-Signature, sig, sv, access_token…) */
const SECRET_PARAM_RE = /sig|signature|token|key|credential|secret|passw|auth/i;

/** Key shapes whose prefix says what they are. */
const TOKEN_SHAPES: { re: RegExp; source: string }[] = [
  { re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g, source: 'AWS IAM identifiers: docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html' },
  { re: /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g, source: 'GitHub token formats: github.blog/2021-04-05-behind-githubs-new-authentication-token-formats' },
  { re: /\bgithub_pat_[A-Za-z0-9_]{22,}\b/g, source: 'GitHub fine-grained personal access tokens' },
  { re: /\bhf_[A-Za-z0-9]{16,}\b/g, source: 'Hugging Face user access tokens: huggingface.co/docs/hub/security-tokens' },
  { re: /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}\b/g, source: 'OpenAI / Anthropic API keys' },
  { re: /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g, source: 'Slack tokens: api.slack.com/authentication/token-types' },
  { re: /\bglpat-[A-Za-z0-9_-]{20,}\b/g, source: 'GitLab personal access tokens' },
  { re: /\bAIza[0-9A-Za-z_-]{35}\b/g, source: 'Google API keys' },
  { re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g, source: 'JSON Web Tokens (RFC 7519): base64url of {"…' },
];
const TOKEN_SHAPES_RE = new RegExp(TOKEN_SHAPES.map((t) => t.re.source).join('|'), 'g');
const TOKEN_GATE = /AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|gh[pousr]_|github_pat_|hf_|sk-|xox|glpat-|AIza|eyJ/;

// No boundary after: a UUID glued to other text ("…3df7alice") is still a UUID. A prefix ("GPU-86cd2dae", as
// CUDA_VISIBLE_DEVICES accepts) is the UUID it starts, when that UUID is known.
const GPU_UUID_RE = /(GPU|MIG)-([0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}|[0-9a-fA-F]{4,}(?:-[0-9a-fA-F]{1,12})*(?![0-9a-zA-Z]))/g;
const BARE_UUID_RE = /(?<![0-9a-zA-Z])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![0-9a-zA-Z])/g;
const MAC_RE = /(?<![\w:-])[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}(?![\w:-])/g;
const SERIAL_LABEL_RE = /\b((?:(?:board|chassis|system|product|module|gpu)[ _-]?)?serial(?:[ _-]?(?:number|no\.?))?)(["']?\s*[:=]\s*["']?)([A-Za-z0-9][A-Za-z0-9-]{3,})/gi;
const MACHINE_ID_LABEL_RE = /\b(machine[ _-]?id|product[ _-]?uuid|system[ _-]?uuid|boot[ _-]?id)(["']?\s*[:=]\s*["']?)([0-9A-Fa-f-]{16,})/gi;
const URL_HOST_RE = /\b([a-z][a-z0-9+.-]*:\/\/(?:\uE000[\uE010-\uE019]+\uE001@)?)(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)/gi;
const USER_AT_HOST_RE = /(?<![\w.+%-])([a-z_][a-z0-9_.-]{0,31})@([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)/g;
/** NCCL and PyTorch prefix their log lines with host:pid:tid */
const NCCL_PREFIX_RE = /^([A-Za-z][\w-]*(?:\.[\w-]+)*)(:\d+:\d+ \[)/gm;
/** c10d: "[gpu-node-17]:29500" */
const BRACKET_HOST_RE = /\[([A-Za-z][\w.-]*[A-Za-z0-9])\]:(\d+)/g;
/** "srun: error: gpu-node-17: task 0: Exited", "*** JOB 12 ON gpu-node-17 CANCELLED" */
const SLURM_HOST_RE = /(\bsrun: error: |\bON )([A-Za-z][\w.-]*[A-Za-z0-9])(: task|\s+CANCELLED)/g;
const HOST_LABEL_RE = /\b(host ?name|host|node ?name|node)(\s*[:=]\s*)([A-Za-z][\w.-]*[A-Za-z0-9])(?![\w.-])/gi;
/** AWS's ip-10-0-0-1 host names carry the address */
const AWS_HOST_RE = /\bip-\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3}(?:\.[A-Za-z0-9.-]+)?\b/g;
/** a folder named home/homes/Users/users/u anywhere in a path (/home, /nfs/home, /export/home2, /u): the next is a person */
const HOME_RE = /((?:^|[\s"'=:(,])(?:\/[\w.+-]+)*?\/(?:home\d*|homes|Users|users|u)\/)([A-Za-z0-9_][\w.-]*)/g;
/** /scratch/NAME, /scratch/gpfs/NAME */
const SCRATCH_RE = /((?:^|[\s"'=:(,])(?:\/[\w.+-]+)*?\/scratch\d*\/)((?:gpfs|lustre|local|shared|global|fs\d*|[a-z]+fs)\/)?([A-Za-z0-9_][\w.-]*)/g;
const FQDN_RE = /(?<![\w.@/\\-])[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+(?![\w-]|\.\w)/g;
// Glued to letters is still an address (alice10.20.30.40); glued to digits or dots it is part of a longer number.
const IPV4_RE = /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?!\d|\.\d)/g;
// "::" with at least one more group, or five or more colon groups (not times like 12:34:56, not PCI bus ids).
const IPV6_RE = /(?<![\w:])(?:(?:[0-9a-fA-F]{1,4}:){4,7}[0-9a-fA-F]{1,4}|(?:[0-9a-fA-F]{1,4}:)*[0-9a-fA-F]{0,4}::(?:[0-9a-fA-F]{1,4}:)*[0-9a-fA-F]{1,4})(?![\w:])/g;
/**
 * A four-part version ("cuDNN 8.9.7.29", "nvidia_cublas-13.1.0.3.dist-info") looks like an IPv4 address. It is an
 * address right after an address context (://, @, eth0:, addr=, from, =); a version right after a version word,
 * or with one earlier in the same clause (not across ; , ( ) [ ] or a line), or before a package suffix.
 */
function isVersion(ip: string, offset: number, whole: string): boolean {
  const before = whole.slice(Math.max(0, offset - 48), offset);
  if (IP_BEFORE.test(before)) return false;
  const clause = before.slice(Math.max(...[';', ',', '(', ')', '[', ']', '\n'].map((c) => before.lastIndexOf(c))) + 1);
  return VERSION_BEFORE.test(before) || VERSION_NEAR.test(clause) || VERSION_AFTER.test(whole.slice(offset + ip.length, offset + ip.length + 12));
}
const IP_BEFORE = /(?::\/\/|@|\b(?:eth|ens|enp|eno|ib|bond|wlan|br|docker|veth)\w*:|\b(?:addr|address|host|ip|inet|from|to|on|at|peer|server|via)[\s:=]+|(?<![=<>~!])=)$/i;
const VERSION_BEFORE = /(?:version|\bver\.?|\bv|==|>=|<=|~=|cudnn|cuda|nccl|cublas|tensorrt|driver|\.so\.|[\w-]+-cu\d+)[\s:=]*$|\w[-_]$/i;
const VERSION_NEAR = /version|\bver\b|cudnn|cublas|cuda|nccl|tensorrt|driver|\bbuilt\b|compiled|\.so\.|-cu\d+/i;
/** what follows a version in a file name: nvidia_cublas-13.1.0.3.dist-info, torch-2.1.0.1-cp311…whl */
const VERSION_AFTER = /^(?:\.dist-info|\.egg-info|\.whl|\.tar|\.zip|-py\d|-cp\d|\+)/;

/** Suffixes of private and cluster names: a name ending so is a machine. */
const PRIVATE_SUFFIXES = new Set(['local', 'lan', 'internal', 'intranet', 'corp', 'home', 'localdomain', 'cluster', 'private', 'priv', 'svc', 'pod', 'compute', 'ec2', 'arpa', 'test', 'example', 'invalid', 'localnet', 'hpc']);
/** Top-level domains of public names; such a name is a machine only when its first label has a digit (dgx01.acme.com). */
const PUBLIC_TLDS = new Set(['com', 'net', 'org', 'edu', 'gov', 'mil', 'io', 'ai', 'co', 'cloud', 'info', 'biz', 'us', 'uk', 'de', 'fr', 'jp', 'cn', 'kr', 'ca', 'au', 'eu', 'ch', 'nl', 'se', 'ru', 'in', 'tw', 'sg', 'il', 'br', 'it', 'es', 'pl', 'fi', 'no', 'dk', 'at', 'be']);

function looksLikeMachine(name: string): boolean {
  const labels = name.toLowerCase().split('.');
  const tld = labels[labels.length - 1]!;
  if (/^\d+$/.test(tld)) return false; // versions, addresses
  if (PRIVATE_SUFFIXES.has(tld)) return true;
  return PUBLIC_TLDS.has(tld) && labels.length >= 3 && /\d/.test(labels[0]!) && /[a-z]/.test(labels[0]!);
}

function isPublicHost(host: string, known: (h: string) => boolean): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  if (known(h)) return false;
  if (isIp(h)) return false;
  if (PUBLIC_HOSTS.has(h.toLowerCase())) return true;
  if (!h.includes('.')) return false; // a bare name (gpu-node-17) is a machine
  return !looksLikeMachine(h);
}

/**
 * Hosts of documentation, package indexes and code hosting that a URL in a log or a command line may name
 * (data: what the tools fetch from). A URL's host is kept only when it is one of these or below one; any other
 * host in a URL (a company's GitLab, a bucket, a database) is replaced.
 */
export const PUBLIC_URL_HOSTS: readonly string[] = [
  'pytorch.org', 'nvidia.com', 'nvidia.github.io', 'nvcr.io', 'github.com', 'githubusercontent.com', 'github.io', 'gitlab.com', 'bitbucket.org',
  'pypi.org', 'pythonhosted.org', 'python.org', 'huggingface.co', 'hf.co', 'anaconda.org', 'anaconda.com', 'conda-forge.org', 'continuum.io',
  'tensorflow.org', 'jax.dev', 'readthedocs.io', 'readthedocs.org', 'docker.com', 'docker.io', 'ubuntu.com', 'debian.org', 'kernel.org',
  'microsoft.com', 'google.com', 'googleapis.com', 'wandb.ai', 'openai.com', 'anthropic.com', 'stackoverflow.com', 'rust-lang.org', 'npmjs.org', 'npmjs.com',
];

function isPublicUrlHost(host: string, known: (h: string) => boolean): boolean {
  const h = host.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (known(h) || isIp(h)) return false;
  if (PUBLIC_HOSTS.has(h)) return true;
  return PUBLIC_URL_HOSTS.some((d) => h === d || h.endsWith(`.${d}`));
}

function isIp(s: string): boolean {
  return /^(?:\d{1,3}\.){3}\d{1,3}$/.test(s) || (s.includes(':') && /^[0-9a-fA-F:]+$/.test(s) && s.split(':').length >= 3);
}

/** Home folders that name someone: not /root, not system folders. */
function isPrivateHome(path: string): boolean {
  return path.length > 1 && !/^\/(?:root|var|usr|bin|sbin|etc|dev|proc|sys|run|tmp|opt|srv|nonexistent|lib\w*|snap|boot|mnt|media)?(?:\/|$)/.test(path);
}

function isPathEnd(s: string, at: number): boolean {
  return at >= s.length || /[/\s"':;,)\]}]/.test(s[at]!);
}

/** replace every occurrence of `needle` at which `ok(index)` holds */
function replaceAll(s: string, needle: string, ok: (at: number) => boolean, by: () => string): string {
  let out = '';
  let from = 0;
  for (let at = s.indexOf(needle); at !== -1; at = s.indexOf(needle, at + needle.length)) {
    if (!ok(at) || (at > 0 && /[\w.-]/.test(s[at - 1]!))) continue;
    out += s.slice(from, at) + by();
    from = at + needle.length;
  }
  return from === 0 ? s : out + s.slice(from);
}

/** Is `ch` (beside a known name whose edge character is `edge`) part of the same word? See THE WORD RULE. */
function glued(ch: string | undefined, edge: string, length: number): boolean {
  if (ch === undefined) return false;
  if (/\p{L}/u.test(ch)) return true;
  if (/\d/.test(ch)) return length < 3 || /\d/.test(edge);
  return false;
}

// ---------------------------------------------------------------------------------------------------------
// What a seed states outright.

/** The sensitive values a snapshot (or a result holding snapshots, at any of its top levels) names, in a stable order. */
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

/** The people among /etc/passwd's accounts (uid 1000–59999, or a home under a home folder) and their homes. */
export function knownFromPasswd(text: string): Known[] {
  const out: Known[] = [];
  for (const line of text.split('\n')) {
    const [name, , uidText, , , home] = line.split(':');
    if (!name || !uidText || !/^\d+$/.test(uidText) || PUBLIC_USERS.has(name)) continue;
    const uid = Number(uidText);
    const homeish = home !== undefined && /\/(?:home\d*|homes|Users|users|u|scratch\d*)\//.test(home);
    if (!((uid >= 1000 && uid < 60000) || homeish)) continue;
    out.push({ kind: 'user', value: name });
    if (home) out.push({ kind: 'home', value: home, owner: name });
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
