// python.environments: which Python environments were found and what GPU stack each one that was looked
// into has — the frameworks with their build's CUDA, the cuDNN wheel, and what the --deep probe saw.
// Also flags a JAX CUDA plugin whose version differs from jaxlib's (JAX refuses to load it).
import { finding, type Finding } from '../../core/finding.js';
import type { PythonEnvironmentFacts } from '../../python/schema.js';
import type { Snapshot } from '../../snapshot/schema.js';
import type { Check } from '../check.js';
import { envLabel, pipCommand, scannedEnvs } from './common.js';

export const environmentsCheck: Check = {
  id: 'python.environments',
  category: 'python',
  title: 'Python environments',
  applies: (s) => (s.python ? (s.python.environments.length > 0 ? true : 'no Python interpreter found') : 'no Python facts in this snapshot'),
  evaluate(s: Snapshot): Finding[] {
    const out: Finding[] = [];
    const all = s.python!.environments;
    for (const e of all.filter((x) => x.problems.length > 0 && (x.scanned || x.foundVia.includes('--python')))) {
      out.push(
        finding({
          check: this.id,
          severity: 'warn',
          status: 'unknown',
          rootCause: null,
          message: e.problems[0]!,
          evidence: e.problems.map((p) => ({ text: p })),
          fix: { text: 'Name an interpreter (…/bin/python3) or an environment folder.', commands: [] },
        }),
      );
    }
    for (const e of scannedEnvs(s)) {
      if (e.problems.length > 0 && e.interpreter === null) continue;
      out.push(summary(e));
      const jax = e.frameworks.find((b) => b.framework === 'jax');
      if (jax && jax.details.pluginMatchesJaxlib === false) {
        const plugin = String(jax.details.cudaPlugin ?? '');
        const pluginName = plugin.split(' ')[0] ?? 'jax-cuda12-plugin';
        const jaxlibVersion = String(jax.details.jaxlib ?? '').replace(/\+.*$/, '');
        out.push(
          finding({
            check: this.id,
            severity: 'error',
            status: 'fail',
            rootCause: 'cuda_toolkit_mismatch',
            message: `JAX in ${envLabel(e)}: ${plugin} does not match jaxlib ${jaxlibVersion}; JAX will not load the plugin and falls back to the CPU`,
            evidence: jax.sources.map((src) => ({ text: src.includes('jax_cuda') ? plugin : `jaxlib ${jaxlibVersion}`, source: src })),
            affects: { framework: 'jax' },
            fix: {
              text: 'Install the plugin and PJRT of the same version as jaxlib (or upgrade all of them together).',
              commands: [pipCommand(e, ['install', `jax==${jax.version ?? jaxlibVersion}`, `jaxlib==${jaxlibVersion}`, `${pluginName}==${jaxlibVersion}`, `${pluginName.replace(/-plugin$/, '-pjrt')}==${jaxlibVersion}`])],
            },
          }),
        );
      }
    }
    const others = all.filter((x) => !x.scanned);
    if (others.length > 0) {
      out.push(
        finding({
          check: this.id,
          severity: 'info',
          status: 'skip',
          rootCause: null,
          message: `${others.length} more Python environment${others.length === 1 ? '' : 's'} found and not looked into (check --all-envs covers them all)`,
          evidence: others.slice(0, 20).map((x) => ({ text: `${x.kind} ${x.prefix}${x.name ? ` (${x.name})` : ''}`, source: x.foundVia.join(', ') })),
        }),
      );
    }
    return out;
  },
};

function summary(e: PythonEnvironmentFacts): Finding {
  const parts: string[] = [];
  for (const b of e.frameworks) {
    const what =
      b.framework === 'torch'
        ? `torch ${b.version ?? '?'} (${b.cuda ? `CUDA ${b.cuda}` : b.hip ? `ROCm ${b.hip}` : 'CPU'})`
        : b.framework === 'tensorflow'
          ? `tensorflow ${b.version ?? '?'} (${b.gpuBuild ? `CUDA ${b.cuda ?? '?'}, cuDNN ${b.cudnn ?? '?'}` : b.gpuBuild === false ? 'CPU' : 'build unknown: no build_info.py'})`
          : `jax ${b.version ?? '?'} (jaxlib ${String(b.details.jaxlib ?? '?')}${b.details.cudaPlugin ? `, ${String(b.details.cudaPlugin)}` : b.gpuBuild ? `, CUDA ${b.cuda}` : ', CPU'})`;
    parts.push(what);
  }
  const cudnnWheels = e.packages.filter((p) => /^nvidia-cudnn/.test(p.name) || (p.source === 'conda-meta' && p.name === 'cudnn'));
  if (cudnnWheels.length > 0) parts.push(`cuDNN ${cudnnWheels.map((p) => `${p.version} (${p.source === 'conda-meta' ? 'conda' : p.name})`).join(', ')}`);
  const deep: string[] = [];
  for (const p of e.probes) {
    const v = p.info?.cudnnVersion;
    const al = p.info?.archList;
    if (p.framework === 'torch' && typeof v === 'number') deep.push(`torch loads cuDNN ${Math.floor(v / 10000)}.${Math.floor((v % 10000) / 100)}.${v % 100}`);
    if (p.framework === 'torch' && Array.isArray(al)) deep.push(`torch arch list ${al.join(' ')}`);
    if (p.framework === 'jax' && typeof p.info?.backend === 'string') deep.push(`JAX backend ${p.info.backend}`);
    if (p.framework === 'tensorflow' && Array.isArray(p.info?.gpus)) deep.push(`TensorFlow sees ${(p.info.gpus as unknown[]).length} GPU(s)`);
  }
  const gpuCount = e.packages.filter((p) => /^nvidia-/.test(p.name)).length;
  return finding({
    check: 'python.environments',
    severity: 'info',
    status: 'ok',
    rootCause: null,
    message: `${envLabel(e)}${e.pythonVersion ? ` (Python ${e.pythonVersion}${e.active ? ', active' : ''})` : e.active ? ' (active)' : ''}: ${parts.length > 0 ? parts.join('; ') : 'no GPU framework installed'}${deep.length > 0 ? `; ${deep.join('; ')}` : ''}`,
    evidence: [
      { text: `${e.distributionCount} distributions, ${gpuCount} nvidia-* wheels`, source: e.sitePackages.join(', ') || e.prefix },
      ...e.frameworks.map((b) => ({ text: `${b.framework} ${b.version ?? '?'} cuda=${b.cuda ?? 'None'}${b.cudnn ? ` cudnn=${b.cudnn}` : ''}${b.computeCapabilities ? ` caps=${b.computeCapabilities.join(',')}` : ''}`, source: b.sources[0] ?? e.prefix })),
    ],
  });
}
