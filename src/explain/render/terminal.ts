// The terminal rendering of a Diagnosis: the verdict, then each cause with its confidence, the lines that
// prove it, and the fix in the order to try it. `-v` adds the reasoning, every signal and the facts read.
import pc from 'picocolors';
import { ROOT_CAUSE_TITLES } from '../../core/root-causes.js';
import type { Diagnosis, EnvironmentFacts } from '../types.js';

export interface RenderOptions {
  color: boolean;
  verbose: boolean;
}

export function renderExplainTerminal(d: Diagnosis, o: RenderOptions): string {
  const c = o.color ? pc : pc.createColors(false);
  const out: string[] = [];
  const src = d.input.sources.join(', ');
  out.push(`${c.bold('gpu-env-doctor explain')} ${c.dim(`${src}: ${d.input.lines} lines${d.machine?.used ? `, with the facts of ${d.machine.host ?? 'the machine'}` : ''}`)}`);
  out.push('');
  if (d.causes.length === 0) {
    out.push(`${c.green('✓')} ${d.verdict}`);
    if (d.signals.length > 0 && o.verbose) out.push(c.dim(`  (${d.signals.length} context line(s) read)`));
    out.push(c.dim('  Paste the whole error with the lines above it (and your CUDA/cuDNN/driver versions) for a diagnosis.'));
    return `${out.join('\n')}\n`;
  }
  out.push(c.bold(d.verdict));
  d.causes.forEach((cause, i) => {
    out.push('');
    const pct = `${Math.round(cause.confidence * 100)}%`.padStart(4);
    const mark = i === 0 ? c.red('✗') : c.yellow('!');
    out.push(`${mark} ${c.bold(`${i + 1}. ${ROOT_CAUSE_TITLES[cause.id]}`)} ${c.dim(`[${cause.id}]`)} ${c.cyan(pct)}`);
    const why = cause.why.filter((w) => !w.startsWith('against:'));
    for (const w of why.slice(0, o.verbose ? why.length : 2)) out.push(`   ${w}`);
    if (o.verbose) for (const w of cause.why.filter((x) => x.startsWith('against:'))) out.push(c.dim(`   ${w}`));
    const evid = cause.evidence.slice(0, o.verbose ? cause.evidence.length : 3);
    for (const e of evid) {
      const where = e.source === 'machine' ? 'machine' : `${e.source ? `${e.source}:` : 'line '}${e.line}`;
      out.push(c.dim(`   ${where.padStart(9)} │ `) + truncate(e.text, 160));
    }
    out.push(`   ${c.green('fix:')} ${cause.fix.text}`);
    for (const cmd of cause.fix.commands) out.push(`     ${c.cyan('$')} ${cmd}`);
    for (const m of cause.fix.manual ?? []) out.push(`     ${c.yellow('manual:')} ${m}`);
  });
  if (o.verbose) {
    out.push('');
    out.push(c.bold('Signals'));
    for (const s of d.signals) out.push(`  ${s.signature} ×${s.count} (line ${s.lines[0]?.line ?? '?'}): ${s.summary}`);
    const facts = describeFacts(d.environment);
    if (facts.length > 0) {
      out.push(c.bold('Facts read from the input'));
      for (const f of facts) out.push(`  ${f}`);
    }
    for (const n of d.machine?.notes ?? []) out.push(`  machine: ${n}`);
  } else {
    out.push('');
    out.push(c.dim('(the reasoning, every matched line and the facts read: add -v)'));
  }
  return `${out.join('\n')}\n`;
}

export function describeFacts(e: EnvironmentFacts): string[] {
  const out: string[] = [];
  const f = (label: string, v: { value: unknown; line: number } | undefined) => {
    if (v) out.push(`${label}: ${String(v.value)}${v.line > 0 ? ` (line ${v.line})` : ''}`);
  };
  f('framework', e.framework);
  f('framework version', e.frameworkVersion);
  f('built with CUDA', e.buildCuda);
  f('CUDA', e.cuda);
  f("driver's CUDA", e.driverCuda);
  f('cuDNN', e.cudnn);
  f('driver', e.driver);
  for (const g of e.gpus) out.push(`GPU: ${g.name}${g.computeCapability ? ` (compute capability ${g.computeCapability})` : ''} (line ${g.line})`);
  f('OS', e.os);
  f('Python', e.python);
  if (e.install.length) out.push(`install: ${e.install.map((i) => i.value).join(', ')}`);
  f('container', e.container);
  return out;
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
