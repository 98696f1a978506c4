// The preamble: the Python block for the top of a training script, one per framework.
// The Python lives in .py files next to this one (bundled as text); this module only stitches them together.
import common from './common.py?raw';
import jax from './jax.py?raw';
import tensorflow from './tensorflow.py?raw';
import torch from './torch.py?raw';

export const FRAMEWORKS = ['torch', 'tensorflow', 'jax'] as const;
export type PreambleFramework = (typeof FRAMEWORKS)[number];

const BODIES: Record<PreambleFramework, string> = { torch, tensorflow, jax };

/** Other spellings people use for the same frameworks. */
const ALIASES: Record<string, PreambleFramework> = {
  pytorch: 'torch',
  tf: 'tensorflow',
  'tensorflow-gpu': 'tensorflow',
};

export function normalizeFramework(name: string): PreambleFramework | null {
  const n = name.trim().toLowerCase();
  if ((FRAMEWORKS as readonly string[]).includes(n)) return n as PreambleFramework;
  return ALIASES[n] ?? null;
}

export function composePreamble(framework: PreambleFramework, toolVersion: string): string {
  const extra =
    framework === 'tensorflow'
      ? [
          '# For TensorFlow it also turns on memory growth, which only works before the first op: keep it above any ' +
            'TF code.',
        ]
      : framework === 'jax'
        ? ['# For JAX it warns, before JAX starts, when its 75% preallocation will not fit in the free memory.']
        : [];
  return [
    `# ---- GPU self-check: gpu-env-doctor preamble --framework ${framework} (${toolVersion}) ----`,
    '# Prints Python, framework, CUDA and cuDNN versions, the GPU and its free memory, and warns when other',
    '# processes already hold GPU memory. Standard library and the framework only: gpu-env-doctor need not be',
    '# installed where the job runs. Put it at the very top of the script; it writes to stderr.',
    ...extra,
    common.trimEnd(),
    '',
    '',
    BODIES[framework].trimEnd(),
    '',
    '',
    '_gpucheck_framework(_gpucheck_common())',
    'del _gpucheck_common, _gpucheck_framework, _gpucheck_loaded_libraries',
    '# ---- end of GPU self-check ----',
    '',
  ].join('\n');
}
