// python.import-failed (check --deep=frameworks): a framework that is installed but does not import, or whose
// process died or hung while importing. The exact error text and the end of stderr are kept as evidence:
// `explain` classifies such text in depth; here only a first, conservative root cause is given.
import { fail, type Finding } from '../../finding.js';
import type { RootCauseId } from '../../../knowledge/root-causes.js';
import type { FrameworkProbe } from '../../../gather/snapshot/schema-python.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { envLabel, pipCommand, scannedEnvs } from './common.js';
import { t } from '../../../base/i18n/index.js';

const FW: Record<FrameworkProbe['framework'], string> = { torch: 'PyTorch', tensorflow: 'TensorFlow', jax: 'JAX' };

/** A first guess from the error text; `explain` has the full signature set. */
export function importRootCause(text: string): RootCauseId {
  if (/libcudnn[^\s:]*: cannot open shared object|cuDNN version incompatibility|Outdated cuDNN/i.test(text))
    return /cannot open/.test(text) ? 'library_missing' : 'cudnn_version_mismatch';
  if (/lib\S+\.so[.\d]*: cannot open shared object file/i.test(text)) return 'library_missing';
  if (/undefined symbol|version `[^']+' not found/i.test(text)) return 'library_conflict';
  if (/driver version is insufficient|NVIDIA driver on your system is too old/i.test(text)) return 'driver_too_old';
  if (/out of memory|RESOURCE_EXHAUSTED/i.test(text)) return 'gpu_memory_exhausted';
  return 'other';
}

export const importFailedCheck: Check = {
  id: 'python.import-failed',
  category: 'python',
  get title() {
    return t('title.python.import-failed');
  },
  applies: (s) => {
    if (!s.python) return t('applies.noPythonFacts');
    if (!s.python.deep) return t('applies.deepImport');
    if (s.python.deepSkipped) return s.python.deepSkipped;
    return scannedEnvs(s).some((e) => e.probes.length > 0) ? true : t('applies.noFrameworkInstalled');
  },
  evaluate(s: Snapshot): Finding[] {
    const out: Finding[] = [];
    for (const e of scannedEnvs(s)) {
      for (const p of e.probes) {
        if (p.imported === true) continue;
        const name = FW[p.framework];
        const src = `${p.interpreter} -c <probe> ${p.framework}`;
        const died = p.imported === null;
        const errText = p.importError
          ? `${p.importError.type}: ${p.importError.message}`
          : (p.exitDetail ?? t('import.noOutput'));
        const text = `${errText}\n${p.importError?.traceback ?? ''}\n${p.stderrTail}`;
        const tail = p.stderrTail
          .split('\n')
          .filter((l) => l.trim() !== '')
          .slice(-12)
          .join('\n');
        out.push(
          fail({
            check: this.id,
            severity: 'error',
            rootCause: p.exit === 'timeout' ? 'other' : importRootCause(text),
            message: died
              ? t(p.exit === 'timeout' ? 'import.hung' : 'import.crashed', {
                  name,
                  env: envLabel(e),
                  detail: p.exitDetail ?? p.exit,
                })
              : t('import.fails', { name, env: envLabel(e), error: errText.split('\n')[0]!.slice(0, 300) }),
            details: p.importError?.traceback || undefined,
            evidence: [
              { text: errText.slice(0, 4000), source: src },
              ...(tail ? [{ text: tail, source: t('import.stderrOf', { fw: p.framework }) }] : []),
            ],
            affects: { framework: p.framework },
            fix: {
              text: t('import.fix'),
              commands: [
                `${p.interpreter} -c ` +
                  `${JSON.stringify(`import ${p.framework === 'tensorflow' ? 'tensorflow' : p.framework}`)} 2>&1 | ` +
                  `gpu-env-doctor explain -`,
                pipCommand(e, ['check']),
              ],
            },
          }),
        );
      }
    }
    return out;
  },
};
