// Detector: every known word (user and host names, serials, learned secrets) wherever it stands as a word.
//
// THE WORD RULE: a known name is replaced where it is not part of a longer word: the characters on either side
// must not be letters. Digits count as part of the word only for names shorter than 3 characters, or on the
// side where the name itself ends in a digit. So alice_env, exp_alice, bob_exp42, alice2, alice.smith,
// (alice_env) all lose "alice", while "ai" and "li" are replaced only as whole tokens or _-./-delimited parts:
// never inside "train", "libcudnn", "li2" or "ai2". User names are matched case-sensitively (as Linux does),
// host names case-insensitively (as DNS does).
import { plain, type Step } from './rule.js';
import type { Kind, Marks } from './types.js';

export function wordRule(m: Marks): Step {
  return plain((s) => {
    if (m.words.size === 0) return s;
    let out = '';
    let last = 0;
    for (let i = 0; i < s.length - 1; i++) {
      const bucket = m.words.get(s.slice(i, i + 2).toLowerCase());
      if (!bucket) continue;
      for (const w of bucket) {
        const end = i + w.value.length;
        const here = w.ci ? s.slice(i, end).toLowerCase() === w.value.toLowerCase() : s.startsWith(w.value, i);
        if (
          !here ||
          glued(s[i - 1], w.value[0]!, w.value.length) ||
          glued(s[end], w.value[w.value.length - 1]!, w.value.length)
        )
          continue;
        const kind: Kind = w.kind;
        out += s.slice(last, i) + m.ph(kind, w.canonical);
        last = end;
        i = end - 1;
        break;
      }
    }
    return last === 0 ? s : out + s.slice(last);
  });
}

/** Is `ch` (beside a known name whose edge character is `edge`) part of the same word? See THE WORD RULE. */
function glued(ch: string | undefined, edge: string, length: number): boolean {
  if (ch === undefined) return false;
  if (/\p{L}/u.test(ch)) return true;
  if (/\d/.test(ch)) return length < 3 || /\d/.test(edge);
  return false;
}
