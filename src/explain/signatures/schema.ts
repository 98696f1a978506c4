// The schema of the error signature files (one JSON file per family, see README.md). Checked by the build
// (scripts/validate-data.ts) and the tests; the CLI itself reads the files without it.
import { z } from 'zod';
import { ROOT_CAUSES } from '../../core/root-causes.js';

const FRAMEWORKS = ['tensorflow', 'keras', 'pytorch', 'jax', 'xla', 'cupy', 'onnxruntime', 'caffe', 'mxnet', 'cntk', 'rapids', 'other'] as const;

export const SignatureRow = z.object({
  id: z.string().regex(/^[a-z0-9_.-]+$/),
  kind: z.enum(['evidence', 'symptom', 'memory', 'context']),
  pattern: z.string().min(3),
  flags: z.string().optional(),
  /** signatures sharing a group are alternatives: on one line only the first (most specific) counts */
  group: z.string().optional(),
  /** frameworks known to print it; empty = CUDA/driver/any */
  frameworks: z.array(z.enum(FRAMEWORKS)),
  indicates: z.partialRecord(z.enum(ROOT_CAUSES), z.number().min(-3).max(3)),
  summary: z.string().min(10),
  source: z.string().min(10),
  /** real lines it must match (tested) */
  examples: z.array(z.string()).min(1),
});
export type SignatureRow = z.infer<typeof SignatureRow>;

export const FrameworkCueRow = z.object({
  framework: z.enum(FRAMEWORKS),
  pattern: z.string(),
  weight: z.number().positive(),
  source: z.string().min(10),
});

export type FrameworkCueRow = z.infer<typeof FrameworkCueRow>;
