// Reads a config file without trusting where it is: opened with O_NOFOLLOW (when asked) and O_NONBLOCK (a FIFO
// planted under the name never blocks the open), then judged on the open descriptor (fstat), so what is read is
// what was judged. Returns what it found as data; the caller words the refusal.
import * as nfs from 'node:fs';

export type ConfigRead =
  | { kind: 'text'; text: string }
  | { kind: 'missing' }
  | { kind: 'link' }
  | { kind: 'not-a-file' }
  | { kind: 'other-owner'; uid: number }
  | { kind: 'writable-by-others'; mode: number }
  | { kind: 'too-large'; size: number }
  | { kind: 'error'; message: string };

export interface ConfigReadRules {
  /** a link is refused, not followed (a file found in the working directory, not named) */
  noFollow: boolean;
  /** only the caller's or root's own file, not group- or world-writable */
  mustOwn: boolean;
  maxBytes: number;
}

export function readConfigFile(abs: string, rules: ConfigReadRules): ConfigRead {
  let fd: number;
  try {
    fd = nfs.openSync(
      abs,
      nfs.constants.O_RDONLY | nfs.constants.O_NONBLOCK | (rules.noFollow ? nfs.constants.O_NOFOLLOW : 0),
    );
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    if (code === 'ELOOP' && rules.noFollow) return { kind: 'link' };
    return { kind: 'error', message: code ?? 'cannot open' };
  }
  try {
    const st = nfs.fstatSync(fd);
    if (!st.isFile()) return { kind: 'not-a-file' };
    if (rules.mustOwn) {
      const me = typeof process.geteuid === 'function' ? process.geteuid() : -1;
      if (st.uid !== me && st.uid !== 0) return { kind: 'other-owner', uid: st.uid };
      if ((st.mode & 0o022) !== 0) return { kind: 'writable-by-others', mode: st.mode & 0o7777 };
    }
    if (st.size > rules.maxBytes) return { kind: 'too-large', size: st.size };
    const buf = Buffer.alloc(Math.min(st.size, rules.maxBytes) + 1);
    let got = 0;
    while (got < buf.length) {
      const n = nfs.readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    if (got > rules.maxBytes) return { kind: 'too-large', size: got };
    return { kind: 'text', text: buf.subarray(0, got).toString('utf8') };
  } catch (err) {
    return { kind: 'error', message: (err as NodeJS.ErrnoException).code ?? 'cannot read' };
  } finally {
    nfs.closeSync(fd);
  }
}
