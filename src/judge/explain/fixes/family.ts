// The framework family a fix or a test speaks to: frameworks that share their settings and commands are one family
// (Keras belongs to TensorFlow's, XLA to JAX's); any other framework gets neutral words.
import type { Framework } from '../types.js';

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
