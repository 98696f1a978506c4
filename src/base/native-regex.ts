// A regular expression compiled straight to machine code. V8 runs a pattern's first exec in its bytecode
// interpreter (compiling it to bytecode, with a costly peephole pass) and compiles it again to machine code at its
// second; a first exec on a subject of 1,000 characters or more skips the bytecode and compiles the machine code at
// once. On a short log most of explain's patterns run once or a few times: compiled once, natively, they cost
// about a third of what the two compiles cost (a pattern run once: about two thirds). What the pattern matches is
// unchanged: the exec below only compiles it.

/** V8 compiles straight to machine code for a subject at least this long (JSRegExp::kTierUpForSubjectLengthValue) */
const LONG_SUBJECT = 1000;
/** line breaks: `.` never takes one, nor \w or a letter, so a pattern fails on them at once (no pattern of the
 *  registry takes more than a few microseconds over it: test/explain/native-regex.test.ts) */
const SUBJECT = '\n'.repeat(LONG_SUBJECT);

/** `re`, compiled to machine code for one-byte subjects (its lastIndex left at 0) */
export function native<R extends RegExp>(re: R): R {
  re.lastIndex = 0;
  re.exec(SUBJECT);
  re.lastIndex = 0;
  return re;
}

/**
 * A function that compiles `res` natively at its first call and does nothing after: called where the patterns are
 * first executed, never at module load (a run that never reaches them would pay for their compile)
 */
export function nativeAtFirstUse(...res: RegExp[]): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    for (const re of res) native(re);
  };
}

/** A getter of `re` that compiles it natively at its first call: for a pattern run only behind a cheaper test */
export function nativeWhenAsked<R extends RegExp>(re: R): () => R {
  const prime = nativeAtFirstUse(re);
  return () => {
    prime();
    return re;
  };
}
