// Files the user names on the command line: read relative to the working directory, errors as one line.
import * as nfs from 'node:fs';
import * as nodePath from 'node:path';
import { UsageError } from '../core/errors.js';
import type { UserFiles } from '../cli/context.js';

export function createUserFiles(cwd: string): UserFiles {
  return {
    readText(p, maxBytes) {
      const abs = nodePath.resolve(cwd, p);
      try {
        const st = nfs.statSync(abs);
        if (st.isDirectory()) throw new UsageError(`${p} is a directory, not a file`);
        if (maxBytes !== undefined && st.size > maxBytes) throw new UsageError(`${p} is too large (${st.size} bytes; at most ${maxBytes})`);
        return nfs.readFileSync(abs, 'utf8');
      } catch (err) {
        if (err instanceof UsageError) throw err;
        throw new UsageError(`cannot read ${p}: ${describe(err)}`);
      }
    },
    exists(p) {
      return nfs.existsSync(nodePath.resolve(cwd, p));
    },
    write(p, data) {
      try {
        nfs.writeFileSync(nodePath.resolve(cwd, p), data);
      } catch (err) {
        throw new UsageError(`cannot write ${p}: ${describe(err)}`);
      }
    },
  };
}

function describe(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  return (err as Error).message ?? String(err);
}
