// python.conda-pip-mix: the same library installed by conda and by pip in one environment. Both copies
// sit in the environment; which one the framework loads depends on RPATHs, LD_LIBRARY_PATH and import
// order, and a cuDNN from one with a sub-library from the other fails at the first convolution.
import { finding, type Finding } from '../../core/finding.js';
import type { RootCauseId } from '../../core/root-causes.js';
import type { PythonEnvironmentFacts, PythonPackage } from '../../python/schema.js';
import { LIBRARY_FAMILIES } from '../../python/relevant.js';
import type { Snapshot } from '../../snapshot/schema.js';
import type { Check } from '../check.js';
import { appliesPython, envLabel, pipCommand, scannedEnvs, shq } from './common.js';
import { t } from '../../i18n/index.js';

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
  get title() { return t('title.python.conda-pip-mix'); },
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
        finding({
          check: this.id,
          severity: cudnn || framework ? 'error' : 'warn',
          status: 'fail',
          rootCause: cudnn ? rootCause : 'library_conflict',
          message: `${envLabel(e)} has ${names.join(', ')} from both conda and pip`,
          details: mixes
            .map((m) => `${m.library}: conda ${m.conda.map((p) => `${p.name} ${p.version}`).join(', ')} / pip ${m.pip.map((p) => `${p.name} ${p.version}`).join(', ')}`)
            .join('\n'),
          evidence: mixes.flatMap((m) => [
            ...m.conda.map((p) => ({ text: `${p.name} ${p.version}${p.build ? ` build ${p.build}` : ''}${p.channel ? ` from ${p.channel}` : ''}`, source: p.path })),
            ...m.pip.map((p) => ({ text: `${p.name} ${p.version} installed by ${p.installer ?? 'an unknown installer'}`, source: p.path })),
          ]),
          affects: { library: names.join(', ') },
          fix: {
            text:
              'Keep one package manager in charge of the CUDA libraries of this environment. The clean way is a fresh environment installed from one side only ' +
              '(all conda: pytorch/tensorflow + cudnn from one channel; or all pip: the framework wheels bring their own nvidia-* libraries). ' +
              'In place: remove one side, then reinstall the framework from the other side. Check first which copy the framework loads: gpu-env-doctor libs.',
            commands: ['gpu-env-doctor libs', `conda list -p ${shq(e.prefix)} ${shq(condaNames.join('|'))}`, pipCommand(e, ['list']).replace(/ list$/, ` list 2>/dev/null | grep -i -E ${shq(pipNames.join('|'))}`)],
            manual: [pipCommand(e, ['uninstall', '-y', ...pipNames]), `conda remove -p ${shq(e.prefix)} --force ${condaNames.map(shq).join(' ')}`],
          },
        }),
      );
    }
    return out;
  },
};
