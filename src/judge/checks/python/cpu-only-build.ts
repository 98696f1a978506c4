// python.cpu-only-build: a framework built without CUDA on a machine with an NVIDIA GPU. The job runs,
// slowly, on the CPU — or fails on the first `.cuda()` with "Torch not compiled with CUDA enabled".
// Evidence comes from the framework's own files (torch/version.py's cuda = None, TensorFlow's
// build_info is_cuda_build False, a jaxlib without a CUDA plugin), not from importing it.
import { warn, type Finding } from '../../finding.js';
import type { FrameworkBuild, PythonEnvironmentFacts } from '../../../gather/snapshot/schema-python.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { appliesPython, driverCuda, envLabel, hasNvidiaGpu, pipCommand, scannedEnvs } from './common.js';
import { wheelFor, wheelsOf, type GpuWheel } from '../../../knowledge/python/gpu-wheels.js';
import { t } from '../../../base/i18n/index.js';

export const cpuOnlyBuildCheck: Check = {
  id: 'python.cpu-only-build',
  category: 'python',
  get title() {
    return t('title.python.cpu-only-build');
  },
  applies: (s) => {
    const a = appliesPython(s);
    if (a !== true) return a;
    return hasNvidiaGpu(s) ? true : t('applies.cpuExpected');
  },
  evaluate(s: Snapshot): Finding[] {
    const out: Finding[] = [];
    for (const e of scannedEnvs(s)) {
      for (const b of e.frameworks) {
        if (b.gpuBuild !== false) continue;
        out.push(cpuFinding(s, e, b));
      }
    }
    return out;
  },
};

function cpuFinding(s: Snapshot, e: PythonEnvironmentFacts, b: FrameworkBuild): Finding {
  const cuda = driverCuda(s);
  const row = pickWheel(b.framework, cuda);
  const what = b.hip ? t('cpuonly.rocm', { hip: b.framework === 'jax' ? b.hip : `HIP ${b.hip}` }) : t('cpuonly.cpu');
  const evidence = b.sources.map((src) => ({ text: evidenceText(b, e), source: src }));
  const commands: string[] = [];
  let text: string;
  switch (b.framework) {
    case 'torch': {
      const extras = e.packages
        .filter((p) => (p.name === 'torchvision' || p.name === 'torchaudio') && p.source !== 'conda-meta')
        .map((p) => p.name);
      const index = row?.indexUrl ? ['--index-url', row.indexUrl] : [];
      if (row) commands.push(pipCommand(e, ['install', '--force-reinstall', 'torch', ...extras, ...index]));
      text = row ? t('cpuonly.torchRow', { tag: row.tag, cuda: cuda?.join('.') ?? '?' }) : t('cpuonly.torch');
      break;
    }
    case 'tensorflow': {
      const pkgName = typeof b.details.package === 'string' ? b.details.package : 'tensorflow';
      if (pkgName === 'tensorflow-cpu') commands.push(pipCommand(e, ['uninstall', '-y', 'tensorflow-cpu']));
      commands.push(
        pipCommand(e, ['install', `tensorflow[and-cuda]${b.version ? `==${b.version.replace(/\+.*$/, '')}` : ''}`]),
      );
      text = t(pkgName === 'tensorflow-cpu' ? 'cpuonly.tfCpu' : 'cpuonly.tf');
      break;
    }
    case 'jax': {
      if (row) commands.push(pipCommand(e, ['install', '-U', row.requirement]));
      text = row ? t('cpuonly.jaxRow', { tag: row.tag, cuda: cuda?.join('.') ?? '?' }) : t('cpuonly.jax');
      break;
    }
  }
  return warn({
    check: 'python.cpu-only-build',
    rootCause: 'cuda_toolkit_mismatch',
    message: t('cpuonly.message', { fw: fwName(b), version: b.version ?? '', env: envLabel(e), what })
      .replace(/\s+in /, ' in ')
      .replace(/ {2,}/, ' '),
    evidence,
    affects: { framework: b.framework },
    fix: { text, commands },
  });
}

function evidenceText(b: FrameworkBuild, e: PythonEnvironmentFacts): string {
  switch (b.framework) {
    case 'torch':
      return (
        `__version__ = '${b.version ?? '?'}', cuda = ${b.cuda === null ? 'None' : `'${b.cuda}'`}, hip = ` +
        `${b.hip === null ? 'None' : `'${b.hip}'`}`
      );
    case 'tensorflow':
      return (
        `is_cuda_build = ` +
        `${b.gpuBuild === false ? 'False' : String(b.gpuBuild)}${
          typeof b.details.package === 'string' ? ` (package ` + `${b.details.package})` : ''
        }`
      );
    case 'jax': {
      const jaxlib = e.packages.find((p) => p.name === 'jaxlib');
      return t(b.hip ? 'cpuonly.jaxEvidenceHip' : 'cpuonly.jaxEvidence', {
        version: jaxlib?.version ?? String(b.details.jaxlib ?? '?'),
        hip: b.hip ?? '',
      });
    }
  }
}

function fwName(b: FrameworkBuild): string {
  return b.framework === 'torch' ? 'PyTorch' : b.framework === 'tensorflow' ? 'TensorFlow' : 'JAX';
}

/** The newest CUDA wheel variant whose CUDA the driver can run; with the driver unknown, the newest. */
export function pickWheel(framework: string, driver: [number, number] | null): GpuWheel | null {
  return driver ? wheelFor(framework, driver.join('.')) : (wheelsOf(framework)[0] ?? null);
}
