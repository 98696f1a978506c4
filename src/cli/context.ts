// One context object carries what a command needs from the outside world, so tests pass fakes.
import type { FileSystem } from '../ports/fs.js';
import type { ProcessRunner } from '../ports/runner.js';


export interface Output {
  write(s: string): void;
  readonly isTTY: boolean;
}

export interface UserFiles {
  /** throws UsageError with a one-line message when the file cannot be read */
  readText(path: string, maxBytes?: number): string;
  write(path: string, data: string): void;
  /** true when something (file or folder) exists at the path */
  exists(path: string): boolean;
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
  /** colour on stdout: a TTY, and neither NO_COLOR nor --no-color */
  color: boolean;
  pid: number;
  /** read all of standard input (for `explain -`); undefined when there is none */
  stdin: NodeJS.ReadableStream;
}
