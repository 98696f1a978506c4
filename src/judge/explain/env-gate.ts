// Which lines the environment reader (env/reader.ts, env/zh.ts) is handed. A training log prints a line holding
// "memory" every few steps ("process memory 3.2 GiB"): the reader's gate for facts anywhere in a line lets it in on
// that word alone and then tries some twenty patterns on it, all of which need another word. So a line holding
// "memory" is handed on only when it holds a word one of the reader's rules needs besides "memory"; every other line
// is handed on as before (the reader decides). The words below are a superset of what each rule needs (lower case):
// test/explain/env-gate.test.ts checks that every fixture line the reader takes a fact from passes.
import { eitherOf, regexOf } from '../../base/regex.js';
import { nativeWhenAsked } from '../../base/native-regex.js';

/** the word that alone lets a line into the reader's anywhere-rules */
const MEMORY = 'memory';

/** the words (see the head of this file); exported for bench/explain-work.mjs, which counts its calls */
export const ENV_WORDS = regexOf([
  eitherOf([
    // the key-value lines' keys, at the start of a line after a list's or a table's marks (as the reader tests them)
    /^[\s\-*•>|#_]*(?:gpu|graphics|video|device name|cuda|cudnn|nvidia|driver|nvcc|os\b|operating|platform|distro)/,
    /^[\s\-*•>|#_]*(?:system|python|install|how |environment|package|notes?\b|other|comments?|additional|describe)/,
    /^[\s\-*•>|#_]*(?:what happened|pytorch|torch|jax|keras|framework|deep|library|tf\b|tensorflow)/,
    // the anywhere-rules' words other than "memory", and the memory rules' own words (TensorFlow's device lines)
    /nvidia|name:|major:|capabilit|found version|torch|jax|tensorflow|cudnn|cuda|successfully opened|python/,
    /docker|container|kubernetes|k8s|podman|singularity|apptainer|enroot|conda|[a-z]:\\/,
    /total memory|totalmemory|devicememorysize|free memory/,
    /^\|/, // an nvidia-smi table row
    // the Chinese reader's rows and banners, and its gate (CJK and full-width characters)
    /paddle|api version|[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/,
    // traceback frames: notebooks and hosted runtimes
    /ipython|cell in|ipykernel|jupyter|\/content\/|\/kaggle\//,
  ]),
]);

/** compiled natively when the first line holding "memory" asks for it */
const envWords = nativeWhenAsked(ENV_WORDS);

/**
 * Whether the environment reader may take a fact from a line, given the line in lower case: false only for a line
 * holding "memory" and none of the other words any of its rules needs.
 */
export function mayHoldEnvFact(lower: string): boolean {
  return !lower.includes(MEMORY) || envWords().test(lower);
}
