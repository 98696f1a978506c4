import { str } from '../cli/args.js';
import { UsageError } from '../core/errors.js';
import { composePreamble, FRAMEWORKS, normalizeFramework } from '../preamble/compose.js';
import { TOOL_VERSION } from '../version.js';
import type { Command } from './registry.js';

export const command: Command = {
  name: 'preamble',
  summary: 'the Python self-check block for the top of training scripts',
  usage: `Usage: gpu-env-doctor preamble --framework torch|tensorflow|jax [> gpu_check.py]

Prints a Python block to put at the top of a training script. When the job starts it prints Python,
framework, CUDA and cuDNN versions, the GPU and its free memory, and warns when other processes
already hold GPU memory (through nvidia-smi, or NVML when nvidia-smi is missing). For TensorFlow it
turns on memory growth before any op. It needs only the standard library and the framework, not
gpu-env-doctor, and writes to stderr.

  gpu-env-doctor preamble --framework torch | cat - train.py > train_checked.py`,
  options: { framework: { type: 'string' } },
  async run(ctx, args) {
    if (args.positionals.length > 0) throw new UsageError(`preamble takes no arguments (got "${args.positionals[0]}"); use --framework`);
    const name = str(args, 'framework');
    if (name === undefined) throw new UsageError(`preamble needs --framework (${FRAMEWORKS.join(', ')})`);
    const fw = normalizeFramework(name);
    if (fw === null) throw new UsageError(`--framework must be one of ${FRAMEWORKS.join(', ')}, not "${name}"`);
    ctx.stdout.write(composePreamble(fw, TOOL_VERSION));
    return 0;
  },
};
