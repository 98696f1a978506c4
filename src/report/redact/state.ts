// The redactor's memory, shared by every detector: the values known to be sensitive (as words), the placeholder
// each value got (user-1, host-1, secret-1 …, numbered in order of first use), and the private-use marks a
// replacement is written as until the end of text() (never a letter or digit, so no later rule can rewrite a
// placeholder or match across one).
import { ipMark, isIp } from './addresses.js';
import { PUBLIC_HOSTS } from './hosts.js';
import { isPrivateHome, NOT_PEOPLE, PUBLIC_USERS } from './users.js';
import type { Kind, Known, Marks, Word } from './types.js';

export type { Kind, Marks, Word } from './types.js';

const PREFIX: Record<Kind, string> = {
  user: 'user',
  host: 'host',
  'gpu-uuid': 'GPU-UUID',
  'mig-uuid': 'MIG-UUID',
  uuid: 'uuid',
  serial: 'serial',
  'machine-id': 'machine-id',
  ip: 'ip',
  ipv6: 'ipv6',
  mac: 'mac',
  secret: 'secret',
};
/** Already a placeholder (redacting a redacted report changes nothing). */
export const PLACEHOLDER_RE = /^(?:user|host|uuid|serial|machine-id|ip|ipv6|mac|secret|GPU-UUID|MIG-UUID)-\d+$/;

// Marks: U+E000, the placeholder's number written in U+E010..U+E019, U+E001. Not letters, not digits.
export const OPEN = '\uE000';
const CLOSE = '\uE001';
const MARK_RE = /\uE000([\uE010-\uE019]+)\uE001/g;
export const PRIVATE_USE_RE = /[\uE000-\uE01F]/g;

export function createMarks(): Marks {
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
  const gpuUuids: string[] = [];

  const m: Marks = {
    table,
    words,
    homes,
    gpuUuids,
    generation: 0,
    dry: false,
    mark(placeholder) {
      let x = markOf.get(placeholder);
      if (x === undefined) {
        const id = marks.push(placeholder) - 1;
        x = OPEN + String(id).replace(/\d/g, (d) => String.fromCharCode(0xe010 + Number(d))) + CLOSE;
        markOf.set(placeholder, x);
      }
      return x;
    },
    placeholder(kind, original) {
      if (m.dry) return `${PREFIX[kind]}-0`;
      const norm =
        kind === 'host' || kind === 'mac' || kind.endsWith('uuid') || kind === 'ipv6'
          ? original.toLowerCase()
          : original;
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
    },
    ph: (kind, original) => m.mark(m.placeholder(kind, original)),
    unmark: (s) =>
      s.includes(OPEN)
        ? s.replace(MARK_RE, (_x, n: string) => marks[Number([...n].map((c) => c.charCodeAt(0) - 0xe010).join(''))]!)
        : s,
    addWord(value, kind, canonical = value) {
      if (value.length < 2 || PLACEHOLDER_RE.test(value) || !/^[\p{L}\p{N}]/u.test(value)) return;
      const ci = kind === 'host';
      const id = `${kind}\0${ci ? value.toLowerCase() : value}`;
      if (wordSet.has(id)) return;
      wordSet.add(id);
      bump();
      const k = value.slice(0, 2).toLowerCase();
      const list = words.get(k) ?? [];
      list.push({ value, canonical, kind, ci });
      // Longer first, so "alice-ws01" is replaced before "alice".
      list.sort((a, b) => b.value.length - a.value.length);
      words.set(k, list);
    },
    addUser(name) {
      if (PUBLIC_USERS.has(name) || /^\d+$/.test(name) || PLACEHOLDER_RE.test(name)) return;
      m.addWord(name, 'user');
    },
    /** `stated`: the snapshot says it is a host name; otherwise it was found by context (--master X, a URL) */
    addHost(name, stated = false) {
      const h = name.replace(/\.$/, '');
      if (PUBLIC_HOSTS.has(h.toLowerCase()) || isIp(h) || PLACEHOLDER_RE.test(h) || !/[A-Za-z]/.test(h)) return;
      m.addWord(h, 'host');
      // The short name of a fully qualified host appears in prompts and logs. Of a name found by context, only a
      // machine-like one (gpu-node-17, dgx01): "git" of git.corp.internal or "www" must stay words.
      const short = h.split('.')[0]!;
      if (short !== h && short.length >= 3 && /[A-Za-z]/.test(short) && (stated || /\d|-/.test(short))) {
        m.addWord(short, 'host', h);
        if (!hostCanonical.has(short.toLowerCase())) hostCanonical.set(short.toLowerCase(), h);
      }
    },
    addKnown(k) {
      if (k.kind === 'user') m.addUser(k.value);
      else if (k.kind === 'host') m.addHost(k.value, true);
      else if (k.kind === 'uuid') {
        if (!gpuUuids.includes(k.value.toLowerCase())) {
          gpuUuids.push(k.value.toLowerCase());
          bump();
        }
      } else if (k.kind === 'serial') {
        if (k.value.length >= 4 && !/^(n\/a|\[n\/a\]|0+)$/i.test(k.value)) m.addWord(k.value, 'serial');
      } else if (k.kind === 'secret') {
        if (k.value.length >= 8) m.addWord(k.value, 'secret');
      } else if (k.kind === 'home' && k.owner !== undefined) {
        m.addUser(k.owner);
        const path = k.value.replace(/\/+$/, '');
        // A home named after its account (/users/dave) is already covered by the name; others (/nfs/h/u77) by path.
        if (
          !PUBLIC_USERS.has(k.owner) &&
          isPrivateHome(path) &&
          path.split('/').pop() !== k.owner &&
          !homes.some((h) => h.path === path)
        ) {
          homes.push({ path, owner: k.owner });
          bump();
          homes.sort((a, b) => b.path.length - a.path.length);
        }
      }
    },
    isKnownHost: (h) => wordSet.has(`host\0${h.toLowerCase()}`),
    hasWord: (kind, value) => wordSet.has(`${kind}\0${kind === 'host' ? value.toLowerCase() : value}`),
    userMark(name) {
      if (PUBLIC_USERS.has(name) || /^\d+$/.test(name) || PLACEHOLDER_RE.test(name)) return name;
      if (name.length >= 3 && !NOT_PEOPLE.has(name)) m.addUser(name);
      return m.ph('user', name);
    },
    secretMark(value) {
      if (value === '' || value.includes(OPEN) || PLACEHOLDER_RE.test(value)) return value;
      if (value.length >= 8) m.addWord(value, 'secret');
      return m.ph('secret', value);
    },
    hostValue: (value) =>
      value
        .split(',')
        .map((item) => {
          const x = /^((?:[a-z][a-z0-9+.-]*:\/\/)?)(\[[^\]]*\]|[^:/\s]*)(.*)$/i.exec(item);
          if (!x) return item;
          const [, scheme, host, rest] = x as unknown as [string, string, string, string];
          return scheme + m.hostMark(host.replace(/^\[|\]$/g, ''), host) + rest;
        })
        .join(','),
    hostMark(host, shown = host) {
      if (host === '' || host.includes(OPEN) || PLACEHOLDER_RE.test(host)) return shown;
      if (isIp(host)) return ipMark(m, host) === host ? shown : shown.replace(host, ipMark(m, host));
      if (PUBLIC_HOSTS.has(host.toLowerCase()) || !/[A-Za-z]/.test(host)) return shown;
      m.addHost(host);
      const h = host.replace(/\.$/, '');
      return shown.replace(host, m.ph('host', hostCanonical.get(h.toLowerCase()) ?? h));
    },
    valueOf(kind, raw) {
      if (kind === null || raw.includes(OPEN)) return null;
      const q = /^(["'])(.*)\1$/s.exec(raw);
      const inner = q ? q[2]! : raw;
      const out =
        kind === 'secret' ? m.secretMark(inner) : /[A-Za-z]/.test(inner) || isIp(inner) ? m.hostValue(inner) : inner;
      return q ? `${q[1]}${out}${q[1]}` : out;
    },
  };
  const bump = () => {
    (m as { generation: number }).generation++;
  };
  return m;
}
