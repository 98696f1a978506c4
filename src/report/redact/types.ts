// The redactor's types: the public ones (re-exported by ../redact.ts, the one entry point) and the ones the detectors
// share.
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

export type Kind =
  | 'user'
  | 'host'
  | 'gpu-uuid'
  | 'mig-uuid'
  | 'uuid'
  | 'serial'
  | 'machine-id'
  | 'ip'
  | 'ipv6'
  | 'mac'
  | 'secret';

export interface Word {
  value: string;
  /** the value whose placeholder it takes (a host's short name takes its full name's) */
  canonical: string;
  kind: 'user' | 'host' | 'serial' | 'secret';
  /** compare case-insensitively (host names) */
  ci: boolean;
}

/** What the detectors use: placeholders, marks and the known words. */
export interface Marks {
  /** original → placeholder, so far */
  readonly table: Map<string, string>;
  /** known words by their first two characters (lower case), longest first */
  readonly words: Map<string, Word[]>;
  /** known home folders not named after their account, longest first */
  readonly homes: { path: string; owner: string }[];
  /** known GPU UUIDs (lower case): a prefix of one is that GPU */
  readonly gpuUuids: string[];
  /** bumped whenever a known value is added: text() results cached before then are stale */
  readonly generation: number;
  /** true during the learning pass: nothing is numbered there, so numbers follow the order values are shown in */
  dry: boolean;
  /** the placeholder of a value, assigned on first use */
  placeholder(kind: Kind, original: string): string;
  /** the mark that stands for a placeholder inside text() */
  mark(placeholder: string): string;
  /** mark(placeholder(kind, original)) */
  ph(kind: Kind, original: string): string;
  /** marks back to placeholders, at the end of text() */
  unmark(s: string): string;
  addKnown(k: Known): void;
  addWord(value: string, kind: Word['kind'], canonical?: string): void;
  addUser(name: string): void;
  addHost(name: string, stated?: boolean): void;
  isKnownHost(h: string): boolean;
  hasWord(kind: Word['kind'], value: string): boolean;
  /** a user name found by context: learned (when it could be a person) and replaced */
  userMark(name: string): string;
  /** a secret found by context: learned (8 characters or more) and replaced */
  secretMark(value: string): string;
  /** a host found by context: learned and replaced (an address as an address; public names kept) */
  hostMark(host: string, shown?: string): string;
  /** a host, host:port, scheme://host:port, [v6]:port, or a comma-separated list of them */
  hostValue(value: string): string;
  /** the value of an option or variable that names a secret or a host, quotes kept; null: leave the match */
  valueOf(kind: 'secret' | 'host' | null, raw: string): string | null;
}
