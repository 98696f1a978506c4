// `check --format prometheus`: the Prometheus text exposition format (version 0.0.4), for node_exporter's
// textfile collector. Per GPU: memory total, used, and held by stale processes (orphaned, stopped, zombie,
// idle: src/judge/procs/verdict.ts); problem findings by check id and severity; driver, CUDA runtime, cuDNN and
// framework versions as info metrics (gauge 1, the versions in labels). Pure: result in, text out.
//
// Format rules kept here: one HELP and one TYPE line per family, before its samples, samples of a family
// together; metric and label names match [a-zA-Z_:][a-zA-Z0-9_:]* / [a-zA-Z_][a-zA-Z0-9_]*; label values
// escape \ " and newline; HELP text escapes \ and newline. node_exporter rejects the whole file otherwise.
import type { CheckRunResult } from '../judge/result.js';
import type { Severity } from '../judge/finding.js';
import { arr, section, text } from '../judge/diff/section.js';
import { primaryEnv } from '../judge/diff/python-facts.js';
import { isStale, verdictOf, type Verdict } from '../judge/procs/verdict.js';
import type { HolderProcess, Snapshot } from '../gather/snapshot/schema.js';

const PREFIX = 'gpu_env_doctor_';
const MIB = 1024 * 1024;
const SEVERITIES: readonly Severity[] = ['info', 'warn', 'error'];

type Labels = Record<string, string>;
interface Family {
  name: string;
  help: string;
  type: 'gauge' | 'counter';
  samples: { labels: Labels; value: number }[];
}

export function escapeLabelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function escapeHelp(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Number.POSITIVE_INFINITY) return '+Inf';
  if (v === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(v);
}

export function renderFamilies(families: readonly Family[]): string {
  const out: string[] = [];
  for (const f of families) {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(f.name)) throw new Error(`invalid metric name ${f.name}`);
    out.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) {
      const names = Object.keys(s.labels);
      for (const n of names)
        if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(n) || n.startsWith('__')) throw new Error(`invalid label name ${n}`);
      const labels =
        names.length === 0 ? '' : `{${names.map((n) => `${n}="${escapeLabelValue(s.labels[n]!)}"`).join(',')}}`;
      out.push(`${f.name}${labels} ${formatValue(s.value)}`);
    }
  }
  return `${out.join('\n')}\n`;
}

function family(name: string, help: string, samples: Family['samples'] = []): Family {
  return { name: PREFIX + name, help, type: 'gauge', samples };
}

/** The holder of an nvidia-smi process entry: by PID, or by the host PID nvidia-smi reported inside a container. */
function holderOf(s: Snapshot, pid: number): HolderProcess | undefined {
  return s.processes.list.find((p) => p.pid === pid) ?? s.processes.list.find((p) => p.nvidiaSmiPid === pid);
}

/** Memory per GPU by the verdict on the process holding it ("unknown" when /proc could not say). */
function memoryByVerdict(
  s: Snapshot,
  gpuIndex: number,
): Map<Verdict | 'unknown', { bytes: number; processes: number }> {
  const out = new Map<Verdict | 'unknown', { bytes: number; processes: number }>();
  if (!s.nvidia.ok) return out;
  const g = s.nvidia.gpus.find((x) => x.index === gpuIndex);
  for (const p of g?.processes ?? []) {
    const h = holderOf(s, p.pid);
    const v = h ? verdictOf(h, s.self) : 'unknown';
    const e = out.get(v) ?? { bytes: 0, processes: 0 };
    e.bytes += (p.usedMiB ?? 0) * MIB;
    e.processes += 1;
    out.set(v, e);
  }
  return out;
}

export function renderPrometheus(result: CheckRunResult): string {
  const s = result.snapshot;
  const host = s.host.name;
  const families: Family[] = [];
  const collected = Date.parse(s.collectedAt);

  families.push(
    family(
      'last_run_timestamp_seconds',
      'When gpu-env-doctor collected these facts (Unix time): alert when it stops updating.',
      Number.isFinite(collected) ? [{ labels: {}, value: collected / 1000 }] : [],
    ),
  );
  families.push(
    family(
      'nvidia_smi_ok',
      '1 when nvidia-smi answered, 0 when it failed (see the reason label of gpu_env_doctor_nvidia_smi_failure_info).',
      [{ labels: {}, value: s.nvidia.ok ? 1 : 0 }],
    ),
  );
  if (!s.nvidia.ok)
    families.push(
      family('nvidia_smi_failure_info', 'Why nvidia-smi failed.', [
        { labels: { reason: s.nvidia.failure.reason, message: s.nvidia.failure.message }, value: 1 },
      ]),
    );

  const gpus = s.nvidia.ok ? s.nvidia.gpus : [];
  const id = (g: (typeof gpus)[number]) => ({ gpu: String(g.index), uuid: g.uuid });
  families.push(
    family(
      'gpu_info',
      'One per GPU: model, bus id and compute capability.',
      gpus.map((g) => ({
        labels: { ...id(g), name: g.name, bus_id: g.busId, compute_capability: g.computeCapability ?? '' },
        value: 1,
      })),
    ),
    family(
      'gpu_memory_total_bytes',
      'GPU memory in all, as nvidia-smi reports it.',
      gpus.map((g) => ({ labels: id(g), value: g.memory.totalMiB * MIB })),
    ),
    family(
      'gpu_memory_used_bytes',
      'GPU memory in use.',
      gpus.map((g) => ({ labels: id(g), value: g.memory.usedMiB * MIB })),
    ),
    family(
      'gpu_memory_stale_bytes',
      'GPU memory held by stale processes: orphaned, stopped, zombie or idle for long (gpu-env-doctor procs names ' +
        'them).',
      gpus.map((g) => ({
        labels: id(g),
        value: [...memoryByVerdict(s, g.index)]
          .filter(([v]) => v !== 'unknown' && isStale(v))
          .reduce((a, [, e]) => a + e.bytes, 0),
      })),
    ),
    family(
      'gpu_stale_processes',
      'Number of stale processes holding memory on the GPU.',
      gpus.map((g) => ({
        labels: id(g),
        value: [...memoryByVerdict(s, g.index)]
          .filter(([v]) => v !== 'unknown' && isStale(v))
          .reduce((a, [, e]) => a + e.processes, 0),
      })),
    ),
    family(
      'gpu_memory_held_bytes',
      'GPU memory held by processes, by the verdict on each process (this job, active, idle, orphaned, stopped, ' +
        'zombie, other user, invisible, unknown).',
      gpus.flatMap((g) =>
        [...memoryByVerdict(s, g.index)].map(([v, e]) => ({ labels: { ...id(g), verdict: v }, value: e.bytes })),
      ),
    ),
  );

  // Findings: every check that ran, every severity, so that "== 0" is a real answer and not a missing series.
  const problems = new Map<string, Record<Severity, number>>();
  for (const f of result.findings) {
    const row = problems.get(f.check) ?? { info: 0, warn: 0, error: 0 };
    if (f.status !== 'ok' && f.status !== 'skip') row[f.severity]++;
    problems.set(f.check, row);
  }
  families.push(
    family(
      'findings',
      'Problems found by each check (status other than ok or skip), by severity. Details: gpu-env-doctor check.',
      [...problems].flatMap(([check, row]) =>
        SEVERITIES.map((sev) => ({ labels: { check, severity: sev }, value: row[sev] })),
      ),
    ),
  );

  // Versions as info metrics.
  const driver = s.nvidia.ok
    ? [
        {
          labels: {
            version: s.nvidia.driverVersion,
            cuda_max: s.nvidia.cudaVersion ?? '',
            kernel_module: s.system.kernelModule?.version ?? '',
          },
          value: 1,
        },
      ]
    : [];
  families.push(
    family(
      'driver_info',
      'The NVIDIA driver, the highest CUDA it supports and the kernel module that is loaded.',
      driver,
    ),
  );
  const libs = libraryVersions(s);
  families.push(family('cuda_runtime_info', 'The CUDA runtime (libcudart) each framework loads.', libs.cudart));
  families.push(family('cudnn_info', 'The cuDNN each framework loads.', libs.cudnn));
  families.push(
    family('framework_info', 'The framework builds in the active Python environment.', frameworkVersions(s)),
  );

  return `# gpu-env-doctor on ${host.replace(/\n/g, ' ')}\n${renderFamilies(families)}`;
}

function libraryVersions(s: Snapshot): { cudart: Family['samples']; cudnn: Family['samples'] } {
  const out = { cudart: [] as Family['samples'], cudnn: [] as Family['samples'] };
  const libs = section(s, 'libraries');
  if (!libs) return out;
  const originOf = new Map(arr(libs, 'copies').map((c) => [text(c, 'path'), text(c, 'origin')]));
  const seen = new Set<string>();
  for (const c of arr(libs, 'consumers')) {
    const framework = text(c, 'framework');
    if (!framework) continue;
    for (const r of arr(c, 'resolved')) {
      const name = text(r, 'name') ?? '';
      const kind = /^libcudart\.so/.test(name) ? 'cudart' : /^libcudnn\.so/.test(name) ? 'cudnn' : null;
      const path = text(r, 'realPath') ?? text(r, 'path');
      if (!kind || path === null || seen.has(`${framework} ${kind}`)) continue;
      seen.add(`${framework} ${kind}`);
      out[kind].push({
        labels: {
          framework,
          version: text(r, 'version') ?? '',
          origin: originOf.get(path) ?? originOf.get(text(r, 'path')) ?? '',
          path,
          via: text(r, 'via') ?? '',
        },
        value: 1,
      });
    }
  }
  return out;
}

function frameworkVersions(s: Snapshot): Family['samples'] {
  const env = primaryEnv(s);
  if (!env) return [];
  const seen = new Set<string>();
  const out: Family['samples'] = [];
  for (const b of arr(env, 'frameworks')) {
    const framework = text(b, 'framework');
    if (!framework || seen.has(framework)) continue;
    seen.add(framework);
    out.push({
      labels: {
        framework,
        version: text(b, 'version') ?? '',
        cuda: text(b, 'cuda') ?? '',
        environment: text(env, 'prefix') ?? '',
      },
      value: 1,
    });
  }
  return out;
}
