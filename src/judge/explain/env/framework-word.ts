// The framework a value of an environment line names ("torch 2.1.0", "tf-nightly", "jaxlib"), for the English and
// the Chinese readers alike.
import type { Framework } from '../types.js';

/** The framework `v` names, or undefined. */
export function frameworkWord(v: string): Framework | undefined {
  const s = v.toLowerCase();
  if (/\bjax/.test(s)) return 'jax';
  if (/\bkeras/.test(s)) return 'keras';
  if (/tensorflow|\btf\b/.test(s)) return 'tensorflow';
  if (/torch/.test(s)) return 'pytorch';
  if (/cupy/.test(s)) return 'cupy';
  if (/onnx/.test(s)) return 'onnxruntime';
  if (/caffe/.test(s)) return 'caffe';
  if (/mxnet/.test(s)) return 'mxnet';
  return undefined;
}
