// The redactor's public types (re-exported by ../redact.ts, the one entry point).
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
