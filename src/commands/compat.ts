// compat SPEC: what a framework version needs (CUDA, cuDNN, driver, Python, GPU architectures), and whether
// this machine (or --from SNAPSHOT) has it. Exit 1 when the machine does not satisfy the spec.
import { fitToWidth } from '../report/fit.js';
import { flag, str } from '../cli/args.js';
import { UsageError } from '../base/errors.js';
import { machineVerdict, type MachineVerdict } from '../judge/compat/machine.js';
import { requirementsFor, type CompatRequirements } from '../judge/compat/requirements.js';
import { parseSpec } from '../judge/compat/spec.js';
import type { Command } from '../cli/registry.js';
import { obtainSnapshotWithSource } from './shared/obtain-snapshot.js';
import { redactorFor, shown } from './shared/redaction.js';
import { optionSpec } from '../cli/options.js';
import { headerLines, type ReportSource } from '../report/provenance.js';
import { visibleLine } from '../report/escape.js';
import { labelsOf } from '../report/labels.js';
import { joinList, t } from '../base/i18n/index.js';
import type { Words } from '../base/i18n/words.js';

/** the shape of compat --json (every JSON document says which version of its shape it is) */
const COMPAT_SCHEMA_VERSION = 1;

export const command: Command = {
  name: 'compat',
  get summary() {
    return t('cmd.compat.summary');
  },
  synopsis: 'compat SPEC [OPTIONS]',
  get description() {
    return t('cmd.compat.description');
  },
  get examples(): [string, string][] {
    return [
      ['gpu-env-doctor compat torch==2.1.0+cu121', t('cmd.compat.example1')],
      ['gpu-env-doctor compat tensorflow==2.12 --no-machine', t('cmd.compat.example2')],
      ['gpu-env-doctor compat jax==0.4.30 --from node7.json', t('cmd.compat.example3')],
    ];
  },
  get exitCodes() {
    return t('cmd.compat.exitCodes');
  },
  options: optionSpec('compat'),
  async run(ctx, args, words) {
    if (args.positionals.length !== 1)
      throw new UsageError(
        args.positionals.length === 0
          ? t('usage.compat.needsSpec')
          : t('usage.compat.oneSpec', { n: args.positionals.length }),
      );
    const platform = str(args, 'platform') ?? 'linux';
    if (platform !== 'linux' && platform !== 'windows')
      throw new UsageError(t('usage.compat.platform', { value: platform }));
    if (flag(args, 'no-machine') && str(args, 'from') !== undefined)
      throw new UsageError(t('usage.compat.noMachineFrom'));
    const spec = parseSpec(args.positionals[0]!);
    const req = requirementsFor(spec, platform);
    const got = flag(args, 'no-machine') ? null : await obtainSnapshotWithSource(words, ctx, args);
    const judged = got ? machineVerdict(req, got.snapshot) : null;
    // the requirements are public knowledge; what is said about this machine (its name, its paths, the
    // snapshot file it came from) is redacted
    const redactor = redactorFor(ctx, args, { snapshot: got?.snapshot ?? null, judged });
    // a fix that installs a newer CUDA minor than the driver reports says why that runs (check says "≤ 13.0")
    const driverCuda = got?.snapshot.nvidia.ok ? got.snapshot.nvidia.cudaVersion : null;
    if (judged?.fix) {
      const note = minorCompatNote(judged.fix.text, judged.driver, driverCuda);
      if (note) judged.fix.text = joinList([judged.fix.text, note], 'sentence');
    }
    const machine = shown(redactor, judged);
    const source = got ? shown(redactor, got.source) : null;
    if (flag(args, 'json')) {
      const doc = {
        schemaVersion: COMPAT_SCHEMA_VERSION,
        ...req,
        ...(spec.variant === undefined || req.variant !== undefined ? {} : { variant: spec.variant }),
        ...(machine ? { machine } : {}),
      };
      ctx.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    } else {
      ctx.stdout.write(
        fitToWidth(words, renderText(words, req, machine, flag(args, 'verbose'), source), ctx.width ?? 80),
      );
    }
    return judged && !judged.ok ? 1 : 0;
  },
};

/** The sentence on minor-version compatibility when the fix names a CUDA X.Y newer than the driver's own X.Z. */
export function minorCompatNote(fixText: string, driver: string | null, driverCuda: string | null | undefined) {
  const own = /^(\d+)\.(\d+)/.exec(driverCuda ?? '');
  if (!driver || !own) return null;
  for (const m of fixText.matchAll(/\bCUDA (\d+)\.(\d+)\b/g))
    if (m[1] === own[1] && Number(m[2]) > Number(own[2]))
      return t('compat.minorCompat', { driver, max: `${own[1]}.${own[2]}`, cuda: `${m[1]}.${m[2]}`, major: own[1]! });
  return null;
}

const MARK = { ok: '✓', warn: '!', fail: '✗', unknown: '?' } as const;

function renderText(
  words: Words,
  r: CompatRequirements,
  m: MachineVerdict | null,
  verbose: boolean,
  src: ReportSource | null,
): string {
  const lines: string[] = [];
  const q = r.requires;
  const name = r.framework === 'paddle' ? (r.variant === 'cpu' ? 'paddlepaddle' : 'paddlepaddle-gpu') : r.framework;
  const variant = !r.variant
    ? ''
    : r.framework === 'torch'
      ? `+${r.variant}`
      : r.framework === 'paddle'
        ? r.variant === 'cpu'
          ? ''
          : ` (${r.variant})`
        : ` [${r.variant}]`;
  lines.push(`${name} ${r.version}${variant}`);
  if (!r.gpu) lines.push(`  ${t('compat.noGpuBuild')}`);
  for (const b of r.builds) {
    const archs = [
      ...b.sass.map((c) => `sm_${c.replace('.', '')}`),
      ...b.ptx.map((c) => `compute_${c.replace('.', '')}`),
    ];
    const parts = [
      b.cuda ? `CUDA ${b.cuda}` : b.cudaRange ? `CUDA ${b.cudaRange}` : null,
      b.cudnn ? `cuDNN ${b.cudnn}` : b.cudnnRange ? `cuDNN ${b.cudnnRange}` : null,
      `driver ≥ ${b.driverMin.linux ?? '?'} ` +
        `(Linux)${b.driverMin.windows ? `, ≥ ${b.driverMin.windows} (Windows)` : ''}`,
      b.minComputeCapability
        ? `GPUs ≥ ${b.minComputeCapability}`
        : b.sass.length + b.ptx.length > 0
          ? `GPUs ${archs.join(' ')}`
          : null,
    ].filter(Boolean);
    lines.push(`  ${r.builds.length > 1 ? `${b.name}: ` : ''}${parts.join(' · ')}`);
  }
  // a long list of Pythons as its first and last, a list of ranges (">=3.9") as it is
  const pythons =
    q.python.length > 2 && !q.python[0]!.startsWith('>')
      ? `${q.python[0]}–${q.python[q.python.length - 1]}`
      : q.python.join(', ') || '?';
  const experimental = r.pythonExperimental.length
    ? ` (${t('compat.experimental', { list: r.pythonExperimental.join(', ') })})`
    : '';
  lines.push(`  Python ${pythons}${experimental}`);
  // a row recalled rather than read is said without -v: the reader must know how firm the numbers are
  for (const n of r.notes) if (verbose || /\brecalled\b/.test(n)) lines.push(`  ${t('compat.note', { note: n })}`);
  if (m) {
    lines.push('');
    const gpus = m.gpus.map((g) => `${g.name} (${g.computeCapability ?? '?'})`).join(', ') || t('compat.noGpu');
    const head = src && src.file !== null ? headerLines(words, 'compat', src) : null;
    if (head) lines.push(visibleLine(t('compat.snapshot', { file: src!.file ?? '', sub: head.sub ?? '' })));
    lines.push(
      t(
        head
          ? m.python
            ? 'compat.thatMachinePy'
            : 'compat.thatMachine'
          : m.python
            ? 'compat.thisMachinePy'
            : 'compat.thisMachine',
        { host: visibleLine(m.host), driver: m.driver ?? t('compat.none'), gpus, python: m.python ?? '' },
      ),
    );
    for (const v of m.verdicts) lines.push(`  ${MARK[v.status]} ${v.message}`);
    if (m.builds.length > 1)
      lines.push(
        `  ${t('compat.buildsFit', {
          list:
            m.builds
              .filter((b) => b.ok)
              .map((b) => b.build)
              .join(', ') || t('compat.none'),
        })}`,
      );
    lines.push(
      m.ok
        ? t(head ? 'compat.fitsThat' : 'compat.fitsThis', {
            what: `${name} ${r.version}${m.build && r.builds.length > 1 ? ` (${m.build})` : ''}`,
          })
        : t(head ? 'compat.notFitsThat' : 'compat.notFitsThis', { what: `${name} ${r.version}` }),
    );
    if (m.fix) {
      // an install through pip: where the catalog has one (zh), the line about pip mirrors
      const mirror = m.fix.commands.some((c) => /^(?:python -m )?pip install\b/.test(c)) ? t('fix.pipMirror') : '';
      const label = labelsOf(words);
      lines.push(`${label.fix}${label.gap}${joinList([m.fix.text, ...(mirror ? [mirror] : [])], 'sentence')}`);
      for (const c of m.fix.commands) lines.push(`  $ ${c}`);
      for (const c of m.fix.manual ?? []) lines.push(`  ${label.byHand}${label.gap}${c}`);
    }
  }
  if (verbose) {
    lines.push('', t('compat.sources'));
    for (const s of r.sources) lines.push(`  - ${s}`);
  } else {
    lines.push('', t('compat.sourcesHint', { n: r.sources.length }));
  }
  return `${lines.join('\n')}\n`;
}
