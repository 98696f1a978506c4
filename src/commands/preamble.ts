import { str } from '../cli/args.js';
import { optionSpec } from '../cli/options.js';
import { UsageError } from '../core/errors.js';
import { composePreamble, FRAMEWORKS, normalizeFramework } from '../preamble/compose.js';
import { TOOL_VERSION } from '../version.js';
import type { Command } from './registry.js';

export const command: Command = {
  name: 'preamble',
  summary: 'the Python self-check block for the top of training scripts',
  synopsis: 'preamble --framework torch|tensorflow|jax [> gpu_check.py]',
  description: `Prints a Python block for the start of a training script. When the job starts it prints Python,
framework, CUDA and cuDNN versions, the GPU and its free memory, and warns when other processes already hold GPU
memory (through nvidia-smi, or NVML when nvidia-smi is missing). For TensorFlow it turns on memory growth before
any op. It needs only the standard library and the framework, not gpu-env-doctor, and writes to stderr.
Save it as a module and import it first, rather than pasting it.`,
  examples: [
    ['gpu-env-doctor preamble --framework torch > gpu_check.py', 'then "import gpu_check" as the first line of train.py'],
    ['gpu-env-doctor preamble --framework tensorflow | cat - train.py > train_checked.py', 'or prepend it'],
  ],
  exitCodes: '0 printed; 2 no or unknown --framework.',
  options: optionSpec('preamble'),
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
