// Standard output and error, written with write(2) on the file descriptor. Node's process.stdout is a stream
// object whose first use costs several milliseconds (a pipe makes it load the net module, a terminal the tty
// module): for a CLI that prints a report at the end, more than the rest of `--version`. Writes are synchronous,
// as process.stdout's are on Linux for files, pipes and terminals, so the order of the output is the same.
// A pipe left non-blocking by another process (EAGAIN) hands the rest to the stream; a reader that went away
// (EPIPE, `| head`) ends the output quietly, as a shell tool should.
import * as nfs from 'node:fs';

export interface StdOutput {
  write(s: string): void;
  readonly isTTY: boolean;
}

export function fdOutput(fd: 1 | 2): StdOutput {
  let stream: NodeJS.WriteStream | null = null;
  let closed = false;
  let tty: boolean | undefined;
  const toStream = (buf: Buffer) => {
    stream ??= fd === 1 ? process.stdout : process.stderr;
    stream.write(buf);
  };
  return {
    write(s) {
      if (closed || s.length === 0) return;
      if (stream) return toStream(Buffer.from(s));
      const buf = Buffer.from(s);
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
      tty ??= isTerminal(fd);
      return tty;
    },
  };
}

/** isatty(3) without loading the tty module: a character device that /proc names a terminal. */
function isTerminal(fd: number): boolean {
  try {
    if (!nfs.fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  try {
    return /^\/dev\/(pts\/\d+|tty\w*|console)$/.test(nfs.readlinkSync(`/proc/self/fd/${fd}`));
  } catch {
    // no /proc: ask the tty module (slower, exact)
    return Boolean((fd === 1 ? process.stdout : process.stderr).isTTY);
  }
}
