// compat SPEC: what a framework version needs (CUDA, cuDNN, driver, Python, GPU architectures), and whether
// this machine (or --from SNAPSHOT) has it. Exit 1 when the machine does not satisfy the spec.
import { flag, str } from '../cli/args.js';
import { UsageError } from '../core/errors.js';
import { machineVerdict, type MachineVerdict } from '../compat/machine.js';
import { requirementsFor, type CompatRequirements } from '../compat/requirements.js';
import { parseSpec } from '../compat/spec.js';
import type { Command } from './registry.js';
import { obtainSnapshot, PROBE_OPTIONS } from './shared/obtain-snapshot.js';
import { redactorFor, shown } from './shared/redaction.js';

export const command: Command = {
  name: 'compat',
  summary: 'what a framework version needs (CUDA, cuDNN, driver, Python, GPU archs) and whether this machine has it',
  usage: `Usage: gpu-env-doctor compat SPEC [--json] [--from SNAPSHOT.json | --no-machine] [--platform linux|windows] [--redact] [-v]

SPEC is a framework and version as pip writes it: torch==2.1.0+cu121, tensorflow==2.12, jax[cuda12]==0.4.30,
paddlepaddle-gpu==2.6.1.post120 (paddle==3.0.0 for every CUDA build of a release).
Prints what that build needs, with the sources of each fact, and whether this machine (or a saved snapshot)
satisfies it. Exit code 0: it fits (or --no-machine); 1: it does not; 2: bad SPEC or unreadable input.`,
  options: { ...PROBE_OPTIONS, platform: { type: 'string' } },
  async run(ctx, args) {
    if (args.positionals.length !== 1) throw new UsageError(args.positionals.length === 0 ? 'compat needs a SPEC, like torch==2.1.0+cu121' : `compat takes one SPEC (got ${args.positionals.length})`);
    const platform = str(args, 'platform') ?? 'linux';
    if (platform !== 'linux' && platform !== 'windows') throw new UsageError(`--platform must be linux or windows, not "${platform}"`);
    if (flag(args, 'no-machine') && str(args, 'from') !== undefined) throw new UsageError('--no-machine and --from cannot be used together');
    const spec = parseSpec(args.positionals[0]!);
    const req = requirementsFor(spec, platform);
    const snapshot = flag(args, 'no-machine') ? null : await obtainSnapshot(ctx, args);
    const judged = snapshot ? machineVerdict(req, snapshot) : null;
    // the requirements are public knowledge; what is said about this machine (its name, its paths) is redacted
    const machine = shown(redactorFor(ctx, args, { snapshot, judged }), judged);
    if (flag(args, 'json')) {
      const doc = { ...req, ...(spec.variant === undefined || req.variant !== undefined ? {} : { variant: spec.variant }), ...(machine ? { machine } : {}) };
      ctx.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    } else {
      ctx.stdout.write(renderText(req, machine, flag(args, 'verbose')));
    }
    return judged && !judged.ok ? 1 : 0;
  },
};

const MARK = { ok: '✓', warn: '!', fail: '✗', unknown: '?' } as const;

function renderText(r: CompatRequirements, m: MachineVerdict | null, verbose: boolean): string {
  const lines: string[] = [];
  const q = r.requires;
  const name = r.framework === 'paddle' ? (r.variant === 'cpu' ? 'paddlepaddle' : 'paddlepaddle-gpu') : r.framework;
  const variant = !r.variant ? '' : r.framework === 'torch' ? `+${r.variant}` : r.framework === 'paddle' ? (r.variant === 'cpu' ? '' : ` (${r.variant})`) : ` [${r.variant}]`;
  lines.push(`${name} ${r.version}${variant}`);
  if (!r.gpu) lines.push('  no NVIDIA GPU support in this build');
  for (const b of r.builds) {
    const parts = [
      b.cuda ? `CUDA ${b.cuda}` : b.cudaRange ? `CUDA ${b.cudaRange}` : null,
      b.cudnn ? `cuDNN ${b.cudnn}` : b.cudnnRange ? `cuDNN ${b.cudnnRange}` : null,
      `driver ≥ ${b.driverMin.linux ?? '?'} (Linux)${b.driverMin.windows ? `, ≥ ${b.driverMin.windows} (Windows)` : ''}`,
      b.minComputeCapability ? `GPUs ≥ ${b.minComputeCapability}` : b.sass.length + b.ptx.length > 0 ? `GPUs ${[...b.sass.map((c) => `sm_${c.replace('.', '')}`), ...b.ptx.map((c) => `compute_${c.replace('.', '')}`)].join(' ')}` : null,
    ].filter(Boolean);
    lines.push(`  ${r.builds.length > 1 ? `${b.name}: ` : ''}${parts.join(' · ')}`);
  }
  lines.push(`  Python ${q.python.length > 2 && !q.python[0]!.startsWith('>') ? `${q.python[0]}–${q.python[q.python.length - 1]}` : q.python.join(', ') || '?'}${r.pythonExperimental.length ? ` (experimental: ${r.pythonExperimental.join(', ')})` : ''}`);
  // a row recalled rather than read is said without -v: the reader must know how firm the numbers are
  for (const n of r.notes) if (verbose || /\brecalled\b/.test(n)) lines.push(`  note: ${n}`);
  if (m) {
    lines.push('');
    const gpus = m.gpus.map((g) => `${g.name} (${g.computeCapability ?? '?'})`).join(', ') || 'no GPU';
    lines.push(`This machine (${m.host}): driver ${m.driver ?? 'none'}, ${gpus}${m.python ? `, Python ${m.python}` : ''}`);
    for (const v of m.verdicts) lines.push(`  ${MARK[v.status]} ${v.message}`);
    if (m.builds.length > 1) lines.push(`  builds that fit: ${m.builds.filter((b) => b.ok).map((b) => b.build).join(', ') || 'none'}`);
    lines.push(m.ok ? `Verdict: this machine fits ${name} ${r.version}${m.build && r.builds.length > 1 ? ` (${m.build})` : ''}.` : `Verdict: this machine does not fit ${name} ${r.version}.`);
    if (m.fix) {
      lines.push(`Fix: ${m.fix.text}`);
      for (const c of m.fix.commands) lines.push(`  $ ${c}`);
      for (const c of m.fix.manual ?? []) lines.push(`  (by hand) ${c}`);
    }
  }
  if (verbose) {
    lines.push('', 'Sources:');
    for (const s of r.sources) lines.push(`  - ${s}`);
  } else {
    lines.push('', `(${r.sources.length} sources: -v lists them)`);
  }
  return `${lines.join('\n')}\n`;
}
