// Why a file could not be read or written, in a few words of the catalog (errno → words): the common codes are
// worded, anything else keeps the first line of the system's own message.
import { t, tIn, type Lang } from '../base/i18n/index.js';

/** `lang`: a language other than the chosen one (a sentence that is still English everywhere) */
export function osReason(err: unknown, lang?: Lang): string {
  const word = (key: 'file.err.noSuchFile' | 'file.err.permission' | 'file.err.isDir') =>
    lang ? tIn(lang, key) : t(key);
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return word('file.err.noSuchFile');
  if (code === 'EACCES' || code === 'EPERM') return word('file.err.permission');
  if (code === 'EISDIR') return word('file.err.isDir');
  const message = (err as Error | null)?.message;
  return typeof message === 'string' ? (message.split('\n')[0] ?? message) : String(err);
}
