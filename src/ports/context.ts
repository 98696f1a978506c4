// One context object carries what a command needs from the outside world, so tests pass fakes.
import type { FileSystem } from './fs.js';
import type { ProcessRunner } from './runner.js';
import type { ConfigRead, ConfigReadRules } from './config-file.js';

export interface Output {
  write(s: string): void;
  readonly isTTY: boolean;
  /** the terminal's width, when it is one */
  readonly columns?: number;
  /** true once the reader went away (EPIPE): later writes are dropped */
  readonly closed?: boolean;
}

export interface UserFiles {
  /** throws UsageError with a one-line message when the file cannot be read */
  readText(path: string, maxBytes?: number): string;
  write(path: string, data: string): void;
  /** true when something (file or folder) exists at the path */
  exists(path: string): boolean;
  /**
   * For a file the tool rewrites and the user then runs (`source ./gpu-env-doctor.env`): why it must not be
   * written, or null. Refused: a symbolic link, anything but a regular file, another user's file, a folder
   * that other users may write (they could swap the file before it is sourced) or that belongs to another user.
   */
  privateFileProblem(path: string): string | null;
  /** Reads such a file without following links; null when there is none. Throws UsageError (refusals, not text). */
  readPrivate(path: string, maxBytes: number): string | null;
  /** Writes such a file whole: a new file beside it, renamed over it (never through a link). Throws UsageError. */
  writePrivate(path: string, data: string): void;
  /** A config file, as data (src/ports/config-file.ts): never blocks on a FIFO, judged on the open file. */
  readConfig(path: string, rules: ConfigReadRules): ConfigRead;
}

export interface Context {
  stdout: Output;
  stderr: Output;
  env: Record<string, string | undefined>;
  cwd: string;
  runner: ProcessRunner;
  /** the machine's filesystem, rooted at --root (probes read through it) */
  fs: FileSystem;
  /** files the user names (--from, logs, --html output): relative to cwd, never under --root */
  files: UserFiles;
  /** Date.now(), replaceable in tests */
  now(): number;
  /** colour on stdout: --color=always|never|auto, --no-color, NO_COLOR, FORCE_COLOR, a TTY (reporters/layout.ts) */
  color: boolean;
  /** the same rule for stderr (`run` reports there); defaults to `color` */
  colorErr?: boolean;
  /** the width to wrap to (reporters/layout.ts wrapWidth); 80 when absent */
  width?: number;
  pid: number;
  /** read all of standard input (for `explain -`); undefined when there is none */
  stdin: NodeJS.ReadableStream;
}
