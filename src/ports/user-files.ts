// Files the user names on the command line: read relative to the working directory, errors as one line.
import * as nfs from 'node:fs';
import * as nodePath from 'node:path';
import { InputError, UsageError } from '../base/errors.js';
import type { UserFiles } from './context.js';
import { readConfigFile } from './config-file.js';
import { osReason } from './os-reason.js';
import { readFull } from './fs.js';

export function createUserFiles(cwd: string): UserFiles {
  return {
    readText(p, maxBytes) {
      const abs = nodePath.resolve(cwd, p);
      try {
        const st = nfs.statSync(abs);
        if (st.isDirectory()) throw new InputError('usage.file.isDir', { file: p });
        if (maxBytes !== undefined && st.size > maxBytes)
          throw new InputError('usage.file.tooLarge', { file: p, size: String(st.size), max: String(maxBytes) });
        if (maxBytes === undefined) return nfs.readFileSync(abs, 'utf8');
        // Devices, FIFOs and /proc files report size 0 and may never end (/dev/zero): count while reading.
        return readAtMost(abs, maxBytes, p);
      } catch (err) {
        if (err instanceof UsageError) throw err;
        throw new InputError('usage.file.cannotRead', { file: p, reason: osReason(err) });
      }
    },
    exists(p) {
      return nfs.existsSync(nodePath.resolve(cwd, p));
    },
    write(p, data) {
      try {
        nfs.writeFileSync(nodePath.resolve(cwd, p), data);
      } catch (err) {
        throw new InputError('usage.file.cannotWrite', { file: p, reason: osReason(err) });
      }
    },
    readConfig(p, rules) {
      return readConfigFile(nodePath.resolve(cwd, p), rules);
    },
    privateFileProblem(p) {
      return privateProblem(nodePath.resolve(cwd, p), p);
    },
    readPrivate(p, maxBytes) {
      const abs = nodePath.resolve(cwd, p);
      const problem = privateProblem(abs, p);
      if (problem) throw new UsageError(problem);
      let fd: number;
      try {
        // O_NOFOLLOW: a link swapped in after the check above fails here instead of being followed.
        fd = nfs.openSync(abs, nfs.constants.O_RDONLY | nfs.constants.O_NOFOLLOW | nfs.constants.O_NONBLOCK);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw new InputError('usage.file.cannotRead', { file: p, reason: osReason(err) });
      }
      try {
        const st = nfs.fstatSync(fd);
        if (!st.isFile() || st.uid !== euid()) throw new InputError('usage.file.changed', { file: p });
        if (st.size > maxBytes)
          throw new InputError('usage.file.tooLargeSettings', {
            file: p,
            size: String(st.size),
            max: String(maxBytes),
          });
        const buf = Buffer.alloc(st.size);
        const bytes = buf.subarray(0, readFull(fd, buf, buf.length, 0));
        if (bytes.includes(0)) throw new InputError('usage.file.notText', { file: p });
        try {
          return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch {
          throw new InputError('usage.file.notUtf8', { file: p });
        }
      } finally {
        nfs.closeSync(fd);
      }
    },
    writePrivate(p, data) {
      const abs = nodePath.resolve(cwd, p);
      const problem = privateProblem(abs, p);
      if (problem) throw new UsageError(problem);
      let mode = 0o644;
      try {
        mode = nfs.lstatSync(abs).mode & 0o777;
      } catch {
        /* a new file */
      }
      const tmp = nodePath.join(
        nodePath.dirname(abs),
        `.${nodePath.basename(abs)}.${process.pid}.${Date.now().toString(36)}.tmp`,
      );
      try {
        // 'wx': O_CREAT|O_EXCL, so the temporary name cannot be a planted link or file either.
        nfs.writeFileSync(tmp, data, { flag: 'wx', mode });
        nfs.renameSync(tmp, abs);
      } catch (err) {
        try {
          nfs.unlinkSync(tmp);
        } catch {
          /* never created */
        }
        throw new InputError('usage.file.cannotWrite', { file: p, reason: osReason(err) });
      }
    },
  };
}

/** The whole file as text, or a one-line UsageError as soon as it passes maxBytes. */
function readAtMost(abs: string, maxBytes: number, shown: string): string {
  const fd = nfs.openSync(abs, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, maxBytes + 1 - total));
      const n = nfs.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) throw new InputError('usage.file.tooLargeRead', { file: shown, max: String(maxBytes) });
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    nfs.closeSync(fd);
  }
}

/** The user files are made and owned as (the effective user). */
export function euid(): number {
  return typeof process.geteuid === 'function' ? process.geteuid() : -1;
}

/** Why `abs` must not be written for the user to source, or null (see UserFiles.privateFileProblem). */
function privateProblem(abs: string, shown: string): string | null {
  const me = euid();
  const dir = nodePath.dirname(abs);
  let d: nfs.Stats;
  try {
    d = nfs.statSync(dir);
  } catch (err) {
    return `cannot write ${shown}: its folder ${dir}: ${osReason(err, 'en')}`;
  }
  if (!d.isDirectory()) return `cannot write ${shown}: ${dir} is not a folder`;
  const sticky = (d.mode & 0o1000) !== 0;
  if ((d.mode & 0o022) !== 0 && !sticky) {
    return (
      `not writing ${shown}: its folder ${dir} can be written by other users, who could replace the file before ` +
      `you source it; give --env-out in a folder of your own`
    );
  }
  if (d.uid !== me && d.uid !== 0)
    return (
      `not writing ${shown}: its folder ${dir} belongs to another user (uid ${d.uid}); give --env-out in a ` +
      `folder of your own`
    );
  try {
    nfs.accessSync(dir, nfs.constants.W_OK);
  } catch (err) {
    return `cannot write ${shown}: its folder ${dir}: ${osReason(err, 'en')}`;
  }
  let f: nfs.Stats;
  try {
    f = nfs.lstatSync(abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return `cannot write ${shown}: ${osReason(err, 'en')}`;
  }
  if (f.isSymbolicLink())
    return (
      `not writing ${shown}: it is a symbolic link (to ${safeReadlink(abs)}); fix never writes through a link: ` +
      `remove it, or give --env-out`
    );
  if (!f.isFile()) return `not writing ${shown}: it is not a regular file`;
  if (f.uid !== me)
    return `not writing ${shown}: it belongs to another user (uid ${f.uid}); remove it, or give --env-out`;
  return null;
}

function safeReadlink(p: string): string {
  try {
    return nfs.readlinkSync(p);
  } catch {
    return '?';
  }
}
