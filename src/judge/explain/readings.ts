// How a message reads under a cause: the message's meaning, then (in a sentence of its own) what that meaning is
// under this cause, the catalog's reason. The reason is left out where it adds nothing to what the reader already
// sees: words the cause's title or the meaning already say ("no GPU visible" under "No GPU is visible to the
// process"), or a remedy ("set memory growth…"), which the cause's fix gives in full. Each reading is kept as data
// (`Cause.readings`) so that the answer can say a message once, under the first cause that cites it, and under a
// later cause only what that cause makes of the same line.
import { ROOT_CAUSES, type RootCauseId } from '../../knowledge/root-causes.js';
import { tIn } from '../../base/i18n/index.js';
import { nativeAtFirstUse, nativeWhenAsked } from '../../base/native-regex.js';

/** One message's reading under one cause (data of `explain --json`, English there like every text). */
export interface Reading {
  /** the cause's why-line this reading is */
  why: string;
  /** the line of the input the message was read on */
  line: number;
  /** what the message means */
  meaning: string;
  /** what it means under this cause, when that adds to the meaning and the cause's title */
  reason?: string;
}

/** words that carry no content of their own (a reason made only of these and the title's words restates it) */
const STOP = new Set(
  (
    'a an the of to for in on at by as is are be been not no nor and or with without from this that it its ' +
    'their there here e.g eg etc also any some one'
  ).split(' '),
);
/** a reason that begins with one of these is a remedy: the fix says it, with its commands */
const REMEDY = new RegExp(
  '^(?:set|install|use|upgrade|downgrade|reduce|lower|increase|enable|disable|add|remove|run|call|pass|update|' +
    'restart|reboot|export|try|pin|free|kill|switch|rebuild|reinstall|unset|avoid|leave)\\b',
  'i',
);

const remedy = nativeWhenAsked(REMEDY);

/** words the titles say another way: a "full" device is a GPU whose memory the job does not fit in */
const SAME: Record<string, string> = {
  device: 'gpu',
  full: 'fit',
  usable: 'visible',
  seen: 'visible',
  incompatible: 'match',
  mismatch: 'match',
  mismatched: 'match',
  wrong: 'match',
};

/** what splits a text into words, compiled natively at the first text split */
const NOT_WORD = /[^a-z0-9_+]+/;
const primeNotWord = nativeAtFirstUse(NOT_WORD);

function words(s: string): string[] {
  primeNotWord();
  return s
    .toLowerCase()
    .split(NOT_WORD)
    .filter((w) => w.length > 1 && !STOP.has(w))
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w))
    .map((w) => SAME[w] ?? w);
}

const titles = new Map<RootCauseId, Set<string>>();
/** the content words of a cause's English title */
function titleWords(cause: RootCauseId): Set<string> {
  let s = titles.get(cause);
  if (!s) {
    s = new Set(ROOT_CAUSES.includes(cause) ? words(tIn('en', `cause.${cause}` as const)) : []);
    titles.set(cause, s);
  }
  return s;
}

/**
 * The catalog's (English) reason for `cause` adds nothing: every content word of it is in the cause's title or
 * in the message's meaning, or it is a remedy. Decided on the English text, for either language of the output.
 */
export function reasonAddsNothing(reason: string, cause: RootCauseId, meaning: string): boolean {
  const r = reason.trim();
  if (r === '' || remedy().test(r)) return true;
  const known = new Set([...titleWords(cause), ...words(meaning)]);
  const own = words(r);
  return own.length === 0 || own.every((w) => known.has(w));
}
