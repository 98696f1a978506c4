// python.deep-conv (check --deep=frameworks): a tiny convolution in each framework on the GPU, as configured and,
// when that fails, with the framework taking memory as needed. It separates "cuDNN is broken" from
// "cuDNN could not get memory", which print the same final error.
import { fail, ok, type Evidence, type Finding } from '../../finding.js';
import { fmtMiB } from '../../../base/format.js';
import type { RootCauseId } from '../../../knowledge/root-causes.js';
import { growthLabel } from '../../../gather/python/memory-modes.js';
import type { ConvAttempt, FrameworkProbe, PythonEnvironmentFacts } from '../../../gather/snapshot/schema-python.js';
import type { Snapshot } from '../../../gather/snapshot/schema.js';
import type { Check } from '../check.js';
import { envLabel, hasNvidiaGpu, scannedEnvs } from './common.js';
import { convVerdict, matchSignature } from './conv-verdict.js';
import { joinList, t } from '../../../base/i18n/index.js';

const FW: Record<FrameworkProbe['framework'], string> = { torch: 'PyTorch', tensorflow: 'TensorFlow', jax: 'JAX' };
const LOW_FREE_MIB = 2048;

export const deepConvCheck: Check = {
  id: 'python.deep-conv',
  category: 'python',
  get title() {
    return t('title.python.deep-conv');
  },
  applies: (s) => {
    if (!s.python) return t('applies.noPythonFacts');
    if (!s.python.deep) return t('applies.deepConv');
    if (s.python.deepSkipped) return s.python.deepSkipped;
    if (!scannedEnvs(s).some((e) => e.probes.length > 0)) return t('applies.noFrameworkToTry');
    return true;
  },
  evaluate(s: Snapshot): Finding[] {
    const out: Finding[] = [];
    for (const e of scannedEnvs(s)) for (const p of e.probes) out.push(...judge(s, e, p));
    return out;
  },
};

function judge(s: Snapshot, e: PythonEnvironmentFacts, p: FrameworkProbe): Finding[] {
  const v = convVerdict(p);
  const name = FW[p.framework];
  const base = { check: 'python.deep-conv', affects: { framework: p.framework } };
  const where = envLabel(e);
  // A CPU-only build cannot run the GPU convolution; python.cpu-only-build says so, with the fix.
  if (e.frameworks.find((b) => b.framework === p.framework)?.gpuBuild === false && v.kind !== 'pass') return [];
  switch (v.kind) {
    case 'not-run': {
      if (p.imported !== true) return []; // python.import-failed reports it
      const build = e.frameworks.find((b) => b.framework === p.framework);
      if (build?.gpuBuild === false || !hasNvidiaGpu(s)) return [];
      return [
        fail({
          ...base,
          severity: 'error',
          rootCause: 'no_device_visible',
          message: t('deep.noGpu', { name, env: where, reason: v.reason }),
          evidence: [
            { text: v.reason, source: `${p.interpreter} (gpu-env-doctor probe)` },
            ...attemptsEvidence(p),
            ...stderrEvidence(p, 6),
          ],
          fix: { text: t('deep.noGpuFix'), commands: ['gpu-env-doctor explain --help'] },
        }),
      ];
    }
    case 'pass': {
      const run = p.conv.find((c) => c.mode === 'configured' && c.ok)!;
      const errs = factErrors(p);
      // A fact that raised is a finding of its own: the user's script may well ask the same question.
      const failedFacts = errs.map((e) => {
        const cudnn = matchSignature('cudnn', `${e.type}: ${e.message}`);
        return fail({
          ...base,
          severity: cudnn ? 'error' : 'warn',
          rootCause: cudnn ? 'cudnn_version_mismatch' : 'other',
          message: t('deep.factRaised', {
            name,
            env: where,
            call: e.call,
            type: e.type,
            message: e.message.split('\n')[0]!.slice(0, 240),
          }),
          evidence: [
            {
              text: `${e.call}: ${e.type}: ${e.message.slice(0, 600)}`,
              source: `${p.interpreter} (gpu-env-doctor probe)`,
            },
            ...libsEvidence(p),
          ],
          fix: cudnn
            ? { text: t('deep.factCudnnFix'), commands: ['gpu-env-doctor libs'] }
            : { text: t('deep.factFix', { fw: p.framework }), commands: [] },
        });
      });
      return [
        ...failedFacts,
        ok({
          ...base,
          message: t(
            cudnnOf(p)
              ? run.durationMs !== null
                ? 'deep.passCudnnTime'
                : 'deep.passCudnn'
              : run.durationMs !== null
                ? 'deep.passTime'
                : 'deep.pass',
            {
              name,
              env: where,
              cudnn: cudnnOf(p) ?? '',
              seconds: run.durationMs !== null ? (run.durationMs / 1000).toFixed(2) : '',
            },
          ),
          evidence: [...infoEvidence(p), ...libsEvidence(p)],
        }),
      ];
    }
    case 'memory-preallocation': {
      const held = othersHolding(s);
      const lowFree = lowestFree(s);
      // Preallocation is the cause when the GPU had room; when others hold nearly all of it, they are.
      const crowded = held.length > 0 && lowFree !== null;
      const rootCause: RootCauseId = crowded
        ? 'memory_held_by_other_process'
        : p.framework === 'torch'
          ? 'gpu_memory_exhausted'
          : 'framework_preallocation';
      return [
        fail({
          ...base,
          severity: 'warn',
          rootCause,
          message: crowded
            ? t('deep.preallocCrowded', {
                name,
                growth: growthLabel(p.framework),
                lowFree: lowFree ?? '',
                held: held[0] ?? '',
              })
            : t('deep.prealloc', { name, growth: growthLabel(p.framework) }),
          details: t('deep.asConfigured', { error: firstLine(v.failed) }),
          evidence: [
            ...attemptsEvidence(p),
            ...memoryEvidence(s),
            ...held.map((h) => ({ text: h, source: 'nvidia-smi + /proc' })),
            ...stderrEvidence(p, 4),
          ],
          fix: growthFix(p.framework, held.length > 0),
        }),
      ];
    }
    case 'memory': {
      const held = othersHolding(s);
      const lowFree = lowestFree(s);
      const rootCause: RootCauseId = held.length > 0 ? 'memory_held_by_other_process' : 'gpu_memory_exhausted';
      return [
        fail({
          ...base,
          severity: 'error',
          rootCause,
          message: t(
            p.conv.length > 1
              ? lowFree
                ? 'deep.memoryAlsoLow'
                : 'deep.memoryAlso'
              : lowFree
                ? 'deep.memoryLow'
                : 'deep.memory',
            { name, signature: v.signature.slice(0, 120), growth: growthLabel(p.framework), lowFree: lowFree ?? '' },
          ),
          evidence: [
            ...attemptsEvidence(p),
            ...memoryEvidence(s),
            ...held.map((h) => ({ text: h, source: 'nvidia-smi + /proc' })),
            ...stderrEvidence(p, 6),
          ],
          fix: {
            text: held.length > 0 ? t('deep.memoryHeldFix') : t('deep.memorySelfFix'),
            commands: [
              'gpu-env-doctor procs',
              'nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv',
            ],
          },
        }),
      ];
    }
    case 'cudnn': {
      const missing = /cannot open shared object/.test(v.signature);
      return [
        fail({
          ...base,
          severity: 'error',
          rootCause: missing ? 'library_missing' : 'cudnn_version_mismatch',
          message: t(p.conv.length > 1 ? 'deep.cudnnAlso' : 'deep.cudnn', {
            name,
            signature: v.signature.slice(0, 160),
            growth: growthLabel(p.framework),
          }),
          evidence: [...attemptsEvidence(p), ...memoryEvidence(s), ...libsEvidence(p), ...stderrEvidence(p, 8)],
          fix: {
            text: t('deep.cudnnFix'),
            commands: ['gpu-env-doctor libs', 'echo "$LD_LIBRARY_PATH"'],
          },
        }),
      ];
    }
    case 'other':
      return [
        fail({
          ...base,
          severity: 'error',
          rootCause: 'other',
          message: t('deep.other', { name, env: where, error: firstLine(v.failed) }),
          evidence: [...attemptsEvidence(p), ...memoryEvidence(s), ...stderrEvidence(p, 8)],
          fix: { text: t('deep.otherFix'), commands: ['gpu-env-doctor explain error.log'] },
        }),
      ];
  }
}

function growthFix(fw: FrameworkProbe['framework'], held: boolean): { text: string; commands: string[] } {
  switch (fw) {
    case 'tensorflow':
      return {
        text: joinList([t('deep.growthTf'), ...(held ? [t('deep.growthHeld').trim()] : [])], 'sentence'),
        commands: ['export TF_FORCE_GPU_ALLOW_GROWTH=true'],
      };
    case 'jax':
      return {
        text: joinList([t('deep.growthJax'), ...(held ? [t('deep.growthHeld').trim()] : [])], 'sentence'),
        commands: ['export XLA_PYTHON_CLIENT_PREALLOCATE=false'],
      };
    case 'torch':
      return {
        text: t('deep.growthTorch'),
        commands: ['gpu-env-doctor procs'],
      };
  }
}

function cudnnOf(p: FrameworkProbe): string | null {
  const v = p.info?.cudnnVersion;
  if (typeof v === 'number') return `${Math.floor(v / 10000)}.${Math.floor((v % 10000) / 100)}.${v % 100} (${v})`;
  const bi = p.info?.buildInfo as Record<string, unknown> | undefined;
  if (bi && typeof bi.cudnn_version === 'string') return `${bi.cudnn_version} (build)`;
  return null;
}

function infoEvidence(p: FrameworkProbe): Evidence[] {
  const src = `${p.interpreter} (gpu-env-doctor probe)`;
  const i = p.info ?? {};
  const parts: string[] = [];
  if (typeof i.version === 'string') parts.push(`version ${i.version}`);
  if (typeof i.cudaBuild === 'string') parts.push(`torch.version.cuda ${i.cudaBuild}`);
  if (typeof i.cudnnVersion === 'number') parts.push(`cudnn.version() ${i.cudnnVersion}`);
  if (Array.isArray(i.archList)) parts.push(`arch list ${i.archList.join(' ')}`);
  if (typeof i.backend === 'string') parts.push(`backend ${i.backend}`);
  if (typeof i.jaxlib === 'string') parts.push(`jaxlib ${i.jaxlib}`);
  if (Array.isArray(i.devices)) parts.push(`devices ${JSON.stringify(i.devices)}`);
  if (Array.isArray(i.gpus)) parts.push(`GPUs ${i.gpus.join(', ')}`);
  return parts.length > 0 ? [{ text: parts.join('; '), source: src }] : [];
}

function libsEvidence(p: FrameworkProbe): Evidence[] {
  const cudnn = p.loadedLibraries.filter((l) => /\/libcudnn[^/]*$/.test(l));
  return cudnn.length > 0 ? [{ text: `loaded: ${cudnn.join(', ')}`, source: `/proc/<probe pid>/maps` }] : [];
}

/** What the framework was asked after the convolution, and raised instead of answering. */
const FACT_CALLS: Record<string, string> = {
  cudnnVersion: 'torch.backends.cudnn.version()',
  cudnnAvailable: 'torch.backends.cudnn.is_available()',
  cudnnCompiled: 'torch._C._cudnn.getCompileVersion()',
  cudnnRuntime: 'torch._C._cudnn.getRuntimeVersion()',
  cudaAvailable: 'torch.cuda.is_available()',
  deviceCount: 'torch.cuda.device_count()',
  devices: 'the device list',
  archList: 'torch.cuda.get_arch_list()',
  allocatorBackend: 'torch.cuda.get_allocator_backend()',
  backend: 'jax.default_backend()',
  jaxlib: 'jaxlib.__version__',
  gpus: "tf.config.list_physical_devices('GPU')",
  setMemoryGrowth: 'tf.config.experimental.set_memory_growth()',
  buildInfo: 'tf.sysconfig.get_build_info()',
  builtWithCuda: 'tf.test.is_built_with_cuda()',
};

export function factErrors(p: FrameworkProbe): { key: string; call: string; type: string; message: string }[] {
  const errors = p.info?.errors;
  if (typeof errors !== 'object' || errors === null) return [];
  return Object.entries(errors as Record<string, unknown>).flatMap(([key, v]) => {
    if (typeof v !== 'object' || v === null) return [];
    const e = v as { type?: unknown; message?: unknown };
    return [
      {
        key,
        call: FACT_CALLS[key] ?? key,
        type: typeof e.type === 'string' ? e.type : 'Error',
        message: typeof e.message === 'string' ? e.message : '',
      },
    ];
  });
}

function attemptsEvidence(p: FrameworkProbe): Evidence[] {
  return [
    ...convAttemptsEvidence(p),
    ...factErrors(p).map((e) => ({
      text: `${e.call} raised ${e.type}: ${e.message.split('\n')[0]!.slice(0, 300)}`,
      source: `${p.interpreter} (gpu-env-doctor probe)`,
    })),
  ];
}

function convAttemptsEvidence(p: FrameworkProbe): Evidence[] {
  return p.conv.map((c) => ({
    text:
      `${c.mode}${c.alone ? '' : ' (beside other framework probes)'}: ` +
      `${c.ok ? 'ok' : `${c.error?.type ?? 'failed'}: ${(c.error?.message ?? '').split('\n')[0]!.slice(0, 400)}`}${
        c.freeMiB != null ? ` ` + `[${fmtMiB(c.freeMiB)} free of ${fmtMiB(c.totalMiB)}]` : ''
      }`,
    source: `${p.interpreter} (gpu-env-doctor probe)`,
  }));
}

function stderrEvidence(p: FrameworkProbe, lines: number): Evidence[] {
  const tail = p.stderrTail
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-lines);
  return tail.length > 0 ? [{ text: tail.join('\n'), source: `stderr of the ${p.framework} probe` }] : [];
}

function memoryEvidence(s: Snapshot): Evidence[] {
  if (!s.nvidia.ok) return [];
  return s.nvidia.gpus.slice(0, 8).map((g) => ({
    text: `GPU ${g.index} ${g.name}: ${g.memory.freeMiB} MiB free of ${g.memory.totalMiB} MiB`,
    source: 'nvidia-smi -q -x',
  }));
}

/** Other processes that hold GPU memory: "PID 637 python3 holds 138.6 GiB on GPU 0". */
function othersHolding(s: Snapshot): string[] {
  return s.processes.list
    .filter((p) => !p.isSelfOrAncestor && (p.usedMiB ?? 0) >= 256)
    .sort((a, b) => (b.usedMiB ?? 0) - (a.usedMiB ?? 0))
    .slice(0, 5)
    .map((p) =>
      t('deep.holds', { pid: p.pid, name: p.name ?? '?', mib: fmtMiB(p.usedMiB), gpus: p.gpus.join(',') || '?' }),
    );
}

function lowestFree(s: Snapshot): string | null {
  if (!s.nvidia.ok || s.nvidia.gpus.length === 0) return null;
  const g = [...s.nvidia.gpus].sort((a, b) => a.memory.freeMiB - b.memory.freeMiB)[0]!;
  return g.memory.freeMiB < LOW_FREE_MIB
    ? t('deep.lowFree', { gpu: g.index, free: fmtMiB(g.memory.freeMiB), total: fmtMiB(g.memory.totalMiB) })
    : null;
}

function firstLine(failed: ConvAttempt | ConvAttempt[]): string {
  const a = Array.isArray(failed) ? failed[0] : failed;
  if (!a?.error) return 'failed';
  return `${a.error.type}: ${a.error.message.split('\n')[0]!.slice(0, 300)}`;
}
