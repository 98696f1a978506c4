// python.environments: which Python environments were found and what GPU stack each one that was looked
// into has — the frameworks with their build's CUDA, the cuDNN wheel, and what the --deep probe saw.
// Also flags a JAX CUDA plugin whose version differs from jaxlib's (JAX refuses to load it).
import { fail, ok, skip, unknown, type Finding } from '../../finding.js';
import type { PythonEnvironmentFacts } from '../../../gather/snapshot/schema-python.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { envLabel, pipCommand, scannedEnvs } from './common.js';
import { joinList, t } from '../../../base/i18n/index.js';

export const environmentsCheck: Check = {
  id: 'python.environments',
  category: 'python',
  get title() {
    return t('title.python.environments');
  },
  applies: (s) =>
    s.python
      ? s.python.environments.length > 0
        ? true
        : t('applies.noPythonInterpreter')
      : t('applies.noPythonFacts'),
  evaluate(s: Snapshot): Finding[] {
    const out: Finding[] = [];
    const all = s.python!.environments;
    for (const e of all.filter((x) => x.problems.length > 0 && (x.scanned || x.foundVia.includes('--python')))) {
      out.push(
        unknown({
          check: this.id,
          severity: 'warn',
          rootCause: null,
          message: e.problems[0]!,
          evidence: e.problems.map((p) => ({ text: p })),
          fix: { text: t('envs.nameInterpreter'), commands: [] },
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
          fail({
            check: this.id,
            severity: 'error',
            rootCause: 'cuda_toolkit_mismatch',
            message: t('envs.jaxPlugin', { env: envLabel(e), plugin, jaxlib: jaxlibVersion }),
            evidence: jax.sources.map((src) => ({
              text: src.includes('jax_cuda') ? plugin : `jaxlib ${jaxlibVersion}`,
              source: src,
            })),
            affects: { framework: 'jax' },
            fix: {
              text: t('envs.jaxPluginFix'),
              commands: [
                pipCommand(e, [
                  'install',
                  `jax==${jax.version ?? jaxlibVersion}`,
                  `jaxlib==${jaxlibVersion}`,
                  `${pluginName}==${jaxlibVersion}`,
                  `${pluginName.replace(/-plugin$/, '-pjrt')}==${jaxlibVersion}`,
                ]),
              ],
            },
          }),
        );
      }
    }
    const others = all.filter((x) => !x.scanned);
    if (others.length > 0) {
      out.push(
        skip({
          check: this.id,
          message: t('envs.more', { n: others.length }),
          evidence: others.slice(0, 20).map((x) => ({
            text: `${x.kind} ${x.prefix}${x.name ? ` (${x.name})` : ''}`,
            source: x.foundVia.join(', '),
          })),
        }),
      );
    }
    return out;
  },
};

/** one framework's build as the summary says it: "torch 2.5.1 (CUDA 12.4)", "jax 0.4.35 (jaxlib 0.4.35, CPU)" */
function buildLine(b: PythonEnvironmentFacts['frameworks'][number]): string {
  if (b.framework === 'torch')
    return `torch ${b.version ?? '?'} (${b.cuda ? `CUDA ${b.cuda}` : b.hip ? `ROCm ${b.hip}` : 'CPU'})`;
  if (b.framework === 'tensorflow') {
    const build = b.gpuBuild ? `CUDA ${b.cuda ?? '?'}, cuDNN ${b.cudnn ?? '?'}` : b.gpuBuild === false ? 'CPU' : null;
    return `tensorflow ${b.version ?? '?'} (${build ?? t('envs.buildUnknown')})`;
  }
  const plugin = b.details.cudaPlugin ? `, ${String(b.details.cudaPlugin)}` : b.gpuBuild ? `, CUDA ${b.cuda}` : ', CPU';
  return `jax ${b.version ?? '?'} (jaxlib ${String(b.details.jaxlib ?? '?')}${plugin})`;
}

function summary(e: PythonEnvironmentFacts): Finding {
  const parts: string[] = [];
  for (const b of e.frameworks) parts.push(buildLine(b));
  const cudnnWheels = e.packages.filter(
    (p) => /^nvidia-cudnn/.test(p.name) || (p.source === 'conda-meta' && p.name === 'cudnn'),
  );
  if (cudnnWheels.length > 0)
    parts.push(
      `cuDNN ${cudnnWheels.map((p) => `${p.version} (${p.source === 'conda-meta' ? 'conda' : p.name})`).join(', ')}`,
    );
  const deep: string[] = [];
  for (const p of e.probes) {
    const v = p.info?.cudnnVersion;
    const al = p.info?.archList;
    if (p.framework === 'torch' && typeof v === 'number')
      deep.push(
        t('envs.torchLoads', { version: `${Math.floor(v / 10000)}.${Math.floor((v % 10000) / 100)}.${v % 100}` }),
      );
    if (p.framework === 'torch' && Array.isArray(al)) deep.push(t('envs.archList', { list: al.join(' ') }));
    if (p.framework === 'jax' && typeof p.info?.backend === 'string')
      deep.push(t('envs.jaxBackend', { backend: p.info.backend }));
    if (p.framework === 'tensorflow' && Array.isArray(p.info?.gpus))
      deep.push(t('envs.tfSees', { n: (p.info.gpus as unknown[]).length }));
  }
  const gpuCount = e.packages.filter((p) => /^nvidia-/.test(p.name)).length;
  return ok({
    check: 'python.environments',
    message: t(
      e.pythonVersion
        ? e.active
          ? 'envs.summaryPyActive'
          : 'envs.summaryPy'
        : e.active
          ? 'envs.summaryActive'
          : 'envs.summary',
      {
        env: envLabel(e),
        py: e.pythonVersion ?? '',
        stack: joinList([...(parts.length > 0 ? parts : [t('envs.noFramework')]), ...deep]),
      },
    ),
    evidence: [
      {
        text: t('envs.distributions', { n: e.distributionCount, wheels: gpuCount }),
        source: e.sitePackages.join(', ') || e.prefix,
      },
      ...e.frameworks.map((b) => ({
        text:
          `${b.framework} ${b.version ?? '?'} ` +
          `cuda=${b.cuda ?? 'None'}${b.cudnn ? ` cudnn=${b.cudnn}` : ''}${
            b.computeCapabilities ? ` ` + `caps=${b.computeCapabilities.join(',')}` : ''
          }`,
        source: b.sources[0] ?? e.prefix,
      })),
    ],
  });
}
