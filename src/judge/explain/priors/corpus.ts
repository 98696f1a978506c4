// Labelled reports (test/fixtures/corpus: dev, dev2) as the fit and the accuracy bench read them: the log alone,
// or the log with the reporter's environment written the way issue templates ask for it.
import type { RootCauseId } from '../../../knowledge/root-causes.js';
import { collectText } from '../engine.js';
import { diagnose, features } from '../diagnose.js';
import type { Diagnosis } from '../types.js';
import type { FitReport } from './fit.js';
import type { PriorModel } from './model.js';

export interface CorpusCase {
  id: string;
  framework?: string | null;
  framework_version?: string | null;
  log: string;
  env?: Record<string, string | null | undefined> | null;
  label: RootCauseId;
  secondary?: RootCauseId | null;
  /** the reporter's own environment lines, verbatim (dev3: often Chinese) */
  env_text?: string | null;
}

const FW_NAMES: Record<string, string | null> = {
  tensorflow: 'TensorFlow',
  pytorch: 'PyTorch',
  jax: 'JAX',
  keras: 'Keras',
  onnxruntime: 'ONNX Runtime',
  other: null,
};

/** The reporter's facts as users paste them: the lines of the TensorFlow/PyTorch issue templates. */
export function envBlock(c: CorpusCase): string {
  const e = c.env ?? {};
  const lines = ['', '**System information**'];
  const fwName = c.framework ? (FW_NAMES[c.framework] ?? null) : null;
  if (fwName) lines.push(`- ${fwName} version: ${c.framework_version ?? 'unknown'}`);
  else if (c.framework_version) lines.push(`- Framework: ${c.framework_version}`);
  if (e.os) lines.push(`- OS Platform and Distribution: ${e.os}`);
  if (e.python) lines.push(`- Python version: ${e.python}`);
  if (e.install) lines.push(`- Installed using: ${e.install}`);
  if (e.cuda) lines.push(`- CUDA version: ${e.cuda}`);
  if (e.cudnn) lines.push(`- cuDNN version: ${e.cudnn}`);
  if (e.driver) lines.push(`- NVIDIA driver version: ${e.driver}`);
  if (e.gpu) lines.push(`- GPU model and memory: ${e.gpu}`);
  if (e.other) lines.push(`- Other: ${e.other}`);
  if (e.note) lines.push(`- Notes: ${e.note}`);
  return lines.join('\n');
}

export type Mode = 'log' | 'env';

/** env mode: the log, the template lines, and the reporter's own environment lines where the report has them */
export function textOf(c: CorpusCase, mode: Mode): string {
  if (mode === 'log') return c.log;
  return c.env_text ? `${c.log}\n${envBlock(c)}\n\n${c.env_text}\n` : `${c.log}\n${envBlock(c)}\n`;
}

/** Read a report once; diagnose it as often as needed. */
export function fitReport(c: CorpusCase, mode: Mode): FitReport & { id: string } {
  const text = textOf(c, mode);
  const { collector, truncatedLines } = collectText(text);
  const f = features(collector);
  return {
    id: c.id,
    sample: { label: c.label, groups: f.groups, contextKeys: f.contextKeys },
    diagnose: (priors: PriorModel): Diagnosis =>
      diagnose({ collector, bytes: text.length, truncatedLines, sources: [c.id], priors }),
  };
}
