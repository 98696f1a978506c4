// libs.conda-pip-mix: conda's cudnn / cudatoolkit and pip's nvidia-* wheels in one environment. Each works
// alone; together, which copy loads depends on who dlopens first (conda's lib/ via RPATH, pip's via the
// framework's preloading), and a mixed set of versions is the result.
import { finding, type Finding } from '../../core/finding.js';
import type { Snapshot } from '../../snapshot/schema.js';
import type { Check } from '../check.js';
import { librariesOf, needsLibraries } from './common.js';

const CONDA_CUDA = /^(cudnn|libcudnn\d*|cudatoolkit|cuda-(cudart|runtime|libraries|toolkit|nvrtc)|libcublas|libcufft|libcusparse|libcurand|libcusolver|nccl|libnccl|libnvjitlink)$/;
const PIP_CUDA = /^nvidia-(cudnn|cublas|cuda-runtime|cuda-nvrtc|cufft|cusparse|curand|cusolver|nccl|nvjitlink)(-cu\d+)?$/;

export const condaPipMixCheck: Check = {
  id: 'libs.conda-pip-mix',
  category: 'libraries',
  title: "CUDA libraries from one package manager per environment",
  applies: needsLibraries,
  evaluate(s: Snapshot): Finding[] {
    const lib = librariesOf(s)!;
    const out: Finding[] = [];
    for (const env of lib.environments) {
      const conda = lib.packages.filter((p) => p.manager === 'conda' && p.prefix === env.prefix && CONDA_CUDA.test(p.name));
      const pip = lib.packages.filter((p) => p.manager === 'pip' && env.sitePackages.includes(p.prefix) && PIP_CUDA.test(p.name));
      if (conda.length === 0 || pip.length === 0) continue;
      out.push(
        finding({
          check: this.id,
          severity: 'warn',
          status: 'warn',
          rootCause: 'library_conflict',
          message: `Environment ${env.prefix} has CUDA libraries from both conda (${conda.map((p) => p.name).join(', ')}) and pip (${pip.map((p) => p.name).join(', ')})`,
          evidence: [
            ...conda.map((p) => ({ text: `conda ${p.name} ${p.version ?? ''}`.trim(), source: `${env.prefix}/conda-meta` })),
            ...pip.map((p) => ({ text: `pip ${p.name} ${p.version ?? ''}`.trim(), source: `${p.prefix} (*.dist-info)` })),
          ],
          fix: {
            text: 'Keep one source of CUDA libraries per environment: with pip-installed frameworks remove the conda ones, with conda-installed frameworks remove the pip wheels. Check `gpu-env-doctor libs` afterwards.',
            commands: ['gpu-env-doctor libs'],
            manual: [`conda remove -p ${env.prefix} ${conda.map((p) => p.name).join(' ')}`, `${env.prefix}/bin/python -m pip uninstall -y ${pip.map((p) => p.name).join(' ')}`],
          },
        }),
      );
    }
    return out;
  },
};
