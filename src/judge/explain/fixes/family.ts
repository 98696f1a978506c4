// The framework family a fix or a test speaks to: frameworks that share their settings and commands are one family
// (Keras belongs to TensorFlow's, XLA to JAX's); any other framework gets neutral words. The same words decide
// whether a catalog reading speaks of the input's framework (neutralKey).
import type { Framework } from '../types.js';
import type { MessageKey } from '../../../base/i18n/index.js';
import { en } from '../../../base/i18n/en.js';
import { native } from '../../../base/native-regex.js';

export type Family = 'tf' | 'jax' | 'torch' | 'paddle' | 'ort' | 'cupy' | 'mxnet' | 'other';
export function family(fw: Framework | undefined): Family {
  if (fw === 'tensorflow' || fw === 'keras') return 'tf';
  if (fw === 'jax' || fw === 'xla') return 'jax';
  if (fw === 'pytorch') return 'torch';
  if (fw === 'paddle') return 'paddle';
  if (fw === 'onnxruntime') return 'ort';
  if (fw === 'cupy') return 'cupy';
  if (fw === 'mxnet') return 'mxnet';
  return 'other';
}

/** the words only one framework family uses: its name, its packages, its components and its settings (exported for
 *  the tests) */
export const NAMED_WORDS: ReadonlyArray<[Family | 'xla' | 'caffe', RegExp]> = [
  ['torch', /\b(?:PyTorch|torch\w*|libtorch\w*|c10\w*|ATen|THC\w*|CUDACachingAllocator|PYTORCH_\w+|DataLoader)\b/],
  ['tf', /\b(?:TensorFlow|tensorflow\w*|TF|tf\.\w+|Keras|keras|TF_\w+|MaybeTryDlopenGPULibraries)\b/],
  ['jax', /\b(?:JAX|jax\w*|XLA_PYTHON_CLIENT_\w+)\b/],
  // the compiler and the device layer TensorFlow and JAX share
  ['xla', /\b(?:XLA|StreamExecutor)\b/],
  ['paddle', /\b(?:Paddle\w*|paddle\w*)\b/],
  ['ort', /\b(?:ONNX Runtime|onnxruntime\w*|CUDAExecutionProvider)\b/],
  ['cupy', /\b(?:CuPy|cupy\w*)\b/],
  ['mxnet', /\b(?:MXNet|mxnet\w*)\b/],
  ['caffe', /\bCaffe\b/],
];
/**
 * The words of every family but the input's (and XLA's, for TensorFlow and JAX), as one pattern: it matches where
 * one of theirs does (none captures; the flags are the same). One pattern compiles in about a third of the time of
 * the eight it stands for. Made when first asked, per family.
 */
const OTHER_WORDS = new Map<string, RegExp>();
function otherWords(own: Family | 'caffe'): RegExp {
  let re = OTHER_WORDS.get(own);
  if (re === undefined) {
    const others = NAMED_WORDS.filter(([f]) => !(f === own || (f === 'xla' && (own === 'tf' || own === 'jax'))));
    re = native(new RegExp(others.map(([, r]) => `(?:${r.source})`).join('|')));
    OTHER_WORDS.set(own, re);
  }
  return re;
}

/**
 * A text names a framework (or a part only one framework has: libtorch, DataLoader, TF_*, jaxlib) that the input
 * is not: with no framework known, any. XLA belongs to TensorFlow and JAX alike.
 */
export function namesOtherFramework(text: string, fw: Framework | undefined): boolean {
  return otherWords(fw === 'caffe' ? 'caffe' : family(fw)).test(text);
}

/**
 * The catalog row's framework-neutral words for its meaning (`cause` null) or its reason under `cause`, when its own
 * English text names a framework the input is not: a row whose pattern matches text every framework prints (glibc's
 * "cannot open shared object file", a cuDNN status) keeps its framework's words for that framework only.
 * Null: the row's own words stand (they name no other framework, or the row has no neutral wording).
 */
export function neutralKey(
  row: string,
  cause: string | null,
  text: string,
  fw: Framework | undefined,
): MessageKey | null {
  if (!namesOtherFramework(text, fw)) return null;
  const key = cause ? `reading.neutral.${row}.${cause}` : `reading.neutral.${row}`;
  return Object.hasOwn(en, key) ? (key as MessageKey) : null;
}
