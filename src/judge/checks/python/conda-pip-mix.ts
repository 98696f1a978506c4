// python.conda-pip-mix: the same library installed by conda and by pip in one environment. Both copies
// sit in the environment; which one the framework loads depends on RPATHs, LD_LIBRARY_PATH and import
// order, and a cuDNN from one with a sub-library from the other fails at the first convolution.
import { fail, type Finding } from '../../finding.js';
import type { RootCauseId } from '../../../knowledge/root-causes.js';
import type { PythonEnvironmentFacts, PythonPackage } from '../../../gather/snapshot/schema-python.js';
import { LIBRARY_FAMILIES } from '../../../gather/python/relevant.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { appliesPython, envLabel, pipCommand, scannedEnvs, shq } from './common.js';
import { t } from '../../../base/i18n/index.js';

export interface MixPair {
  library: string;
  conda: PythonPackage[];
  pip: PythonPackage[];
}

/** Pure: the library families with a conda copy and a pip copy in this environment. */
export function findMixes(e: PythonEnvironmentFacts): MixPair[] {
  const out: MixPair[] = [];
  for (const fam of LIBRARY_FAMILIES) {
    const condaRe = new RegExp(fam.conda);
    const pipRe = new RegExp(fam.pip);
    const conda = e.packages.filter((p) => p.source === 'conda-meta' && condaRe.test(p.name));
    // A dist-info that conda itself wrote (INSTALLER "conda", or listed in a conda record) is not pip's.
    const pip = e.packages.filter((p) => p.source !== 'conda-meta' && p.installer !== 'conda' && pipRe.test(p.name));
    if (conda.length > 0 && pip.length > 0) out.push({ library: fam.library, conda, pip });
  }
  return out;
}

export const condaPipMixCheck: Check = {
  id: 'python.conda-pip-mix',
  category: 'python',
  get title() {
    return t('title.python.conda-pip-mix');
  },
  applies: appliesPython,
  evaluate(s: Snapshot): Finding[] {
    const out: Finding[] = [];
    for (const e of scannedEnvs(s)) {
      const mixes = findMixes(e);
      if (mixes.length === 0) continue;
      const names = mixes.map((m) => m.library);
      const cudnn = names.includes('cuDNN');
      const framework = mixes.some((m) => ['PyTorch', 'TensorFlow', 'jaxlib'].includes(m.library));
      const rootCause: RootCauseId = cudnn ? 'cudnn_version_mismatch' : 'library_conflict';
      const pipNames = [...new Set(mixes.flatMap((m) => m.pip.map((p) => p.name)))];
      const condaNames = [...new Set(mixes.flatMap((m) => m.conda.map((p) => p.name)))];
      out.push(
        fail({
          check: this.id,
          severity: cudnn || framework ? 'error' : 'warn',
          rootCause: cudnn ? rootCause : 'library_conflict',
          message: t('condapip.message', { env: envLabel(e), names: names.join(', ') }),
          details: mixes
            .map((m) =>
              t('condapip.detail', {
                lib: m.library,
                conda: m.conda.map((p) => `${p.name} ${p.version}`).join(', '),
                pip: m.pip.map((p) => `${p.name} ${p.version}`).join(', '),
              }),
            )
            .join('\n'),
          evidence: mixes.flatMap((m) => [
            ...m.conda.map((p) => ({
              text: t(
                p.build
                  ? p.channel
                    ? 'condapip.condaBuildChannel'
                    : 'condapip.condaBuild'
                  : p.channel
                    ? 'condapip.condaChannel'
                    : 'condapip.conda',
                { name: p.name, version: p.version, build: p.build ?? '', channel: p.channel ?? '' },
              ),
              source: p.path,
            })),
            ...m.pip.map((p) => ({
              text: t('condapip.pip', {
                name: p.name,
                version: p.version,
                installer: p.installer ?? t('condapip.unknownInstaller'),
              }),
              source: p.path,
            })),
          ]),
          affects: { library: names.join(', ') },
          fix: {
            text: t('condapip.fix'),
            commands: [
              'gpu-env-doctor libs',
              `conda list -p ${shq(e.prefix)} ${shq(condaNames.join('|'))}`,
              pipCommand(e, ['list']).replace(/ list$/, ` list 2>/dev/null | grep -i -E ${shq(pipNames.join('|'))}`),
            ],
            manual: [
              pipCommand(e, ['uninstall', '-y', ...pipNames]),
              `conda remove -p ${shq(e.prefix)} --force ${condaNames.map(shq).join(' ')}`,
            ],
          },
        }),
      );
    }
    return out;
  },
};
