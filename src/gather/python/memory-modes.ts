// The second try of the --deep convolution: each framework asked to take GPU memory as it needs it
// instead of up front. Pure data, shared by the probe (which sets it) and the checks (which name it).
import type { FrameworkProbe } from '../snapshot/schema-python.js';

/** Environment variables that make TensorFlow grow its memory and JAX skip its 75% preallocation. */
export const MEMORY_GROWTH_ENV: Record<string, string> = {
  TF_FORCE_GPU_ALLOW_GROWTH: 'true',
  XLA_PYTHON_CLIENT_PREALLOCATE: 'false',
};

/** How the retry ran, in words: torch retries in-process after empty_cache() with cudnn.benchmark off. */
export function growthLabel(fw: FrameworkProbe['framework']): string {
  return fw === 'tensorflow'
    ? 'TF_FORCE_GPU_ALLOW_GROWTH=true'
    : fw === 'jax'
      ? 'XLA_PYTHON_CLIENT_PREALLOCATE=false'
      : 'empty_cache() and cudnn.benchmark off';
}
