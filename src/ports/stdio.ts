// Standard output and error, written with write(2) on the file descriptor. Node's process.stdout is a stream
// object whose first use costs several milliseconds (a pipe makes it load the net module, a terminal the tty
// module): for a CLI that prints a report at the end, more than the rest of `--version`. Writes are synchronous,
// as process.stdout's are on Linux for files, pipes and terminals, so the order of the output is the same.
// A pipe left non-blocking by another process (EAGAIN) hands the rest to the stream; a reader that went away
// (EPIPE, `gpu-env-doctor procs --watch | head`) ends the output quietly, as a shell tool should: later writes
// are dropped, and commands that loop look at `closed` and stop.
import * as nfs from 'node:fs';
import { nativeWhenAsked } from '../base/native-regex.js';

export interface StdOutput {
  write(s: string): void;
  readonly isTTY: boolean;
  /** the terminal's width, when it is one (asked of the tty module only then) */
  readonly columns?: number;
  /** true once the reader went away (EPIPE) */
  readonly closed?: boolean;
}

/** `fold` rewrites what is written (the ASCII fallback where the locale cannot show the tool's symbols). */
export function fdOutput(fd: 1 | 2, fold: (s: string) => string = (s) => s): StdOutput {
  let stream: NodeJS.WriteStream | null = null;
  let closed = false;
  let tty: boolean | undefined;
  const toStream = (buf: Buffer) => {
    if (!stream) {
      stream = fd === 1 ? process.stdout : process.stderr;
      // without a listener, an EPIPE on the stream ends the process with a stack trace
      stream.on('error', () => {
        closed = true;
      });
    }
    stream.write(buf);
  };
  const isTTY = () => (tty ??= isTerminal(fd));
  return {
    write(text) {
      if (closed || text.length === 0) return;
      const buf = Buffer.from(fold(text));
      if (stream) return toStream(buf);
      let off = 0;
      try {
        while (off < buf.length) off += nfs.writeSync(fd, buf, off, buf.length - off);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EPIPE') closed = true;
        else if (code === 'EAGAIN') toStream(buf.subarray(off));
        else throw err;
      }
    },
    get isTTY() {
      return isTTY();
    },
    get columns() {
      return isTTY() ? (fd === 1 ? process.stdout : process.stderr).columns : undefined;
    },
    get closed() {
      return closed;
    },
  };
}

/** a terminal's device, compiled to machine code at its first use (src/base/native-regex.ts) */
const terminalDevice = nativeWhenAsked(/^\/dev\/(pts\/\d+|tty\w*|console)$/);

/** isatty(3) without loading the tty module: a character device that /proc names a terminal. */
function isTerminal(fd: number): boolean {
  try {
    if (!nfs.fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  try {
    return terminalDevice().test(nfs.readlinkSync(`/proc/self/fd/${fd}`));
  } catch {
    // no /proc: ask the tty module (slower, exact)
    return Boolean((fd === 1 ? process.stdout : process.stderr).isTTY);
  }
}
