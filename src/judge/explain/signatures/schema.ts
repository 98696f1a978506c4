// The schema of the hand-written signature files, the families and the framework cues (one JSON file each, see
// README.md). Checked by the build (scripts/validate-data.ts) and the tests; the CLI itself reads the files
// without it (no zod at start: loading it costs start-up time).
import { z } from 'zod';
import { ROOT_CAUSES } from '../../../knowledge/root-causes.js';

export const FRAMEWORKS = [
  'tensorflow',
  'keras',
  'pytorch',
  'jax',
  'xla',
  'cupy',
  'onnxruntime',
  'caffe',
  'mxnet',
  'cntk',
  'rapids',
  'paddle',
  'other',
] as const;

/** A hand-written row (the JSON files of this folder). */
export const SignatureRow = z.object({
  id: z.string().regex(/^[a-z0-9_.-]+$/),
  kind: z.enum(['evidence', 'symptom', 'memory', 'context']),
  pattern: z.string().min(3),
  /** prefilter words, one of which every line the pattern matches holds (lower case, at least 3 characters) */
  anchors: z.array(z.string().min(3)).min(1),
  flags: z.string().optional(),
  frameworks: z.array(z.enum(FRAMEWORKS)),
  /** root-cause id → weight: for context rows the weight added; for the others the prior before data (normalised) */
  indicates: z.partialRecord(z.enum(ROOT_CAUSES), z.number().min(-3).max(3)),
  summary: z.string().min(10),
  source: z.string().min(10),
  /** real lines it must match (tested) */
  examples: z.array(z.string()).min(1),
  group: z.string().optional(),
});
export type SignatureRow = z.infer<typeof SignatureRow>;

export const FrameworkCueRow = z.object({
  framework: z.enum(FRAMEWORKS),
  pattern: z.string(),
  anchors: z.array(z.string().min(3)).min(1),
  weight: z.number().positive(),
  source: z.string().min(10),
});

export const FamilyRow = z.object({
  id: z.string().regex(/^family\.[a-z]+$/),
  pattern: z.string(),
  anchors: z.array(z.string().min(3)).min(1),
  summary: z.string(),
  source: z.string(),
});

export type FrameworkCueRow = z.infer<typeof FrameworkCueRow>;
export type FamilyRow = z.infer<typeof FamilyRow>;
