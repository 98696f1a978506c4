// The terminal rendering of a Diagnosis.
// - When the input cannot separate its candidates (`ambiguous`), it says so first, shows the evidence once, one
//   line per candidate with the check that tells it apart, the cheapest of those checks, and the command that
//   decides on the machine that failed.
// - Otherwise each cause with its confidence, its reasons, the lines that prove it (a line shown under one cause
//   is not shown again under the next) and the fix, in the order to try it.
// Ranks are "1.", "2."; `Fix:`; commands after "$ "; steps to judge as "By hand, after checking:"; evidence from
// the log as "line N: text", from the machine as "text   (machine)". Root-cause ids only with -v.
import pc from 'picocolors';
import { ROOT_CAUSE_TITLES } from '../../core/root-causes.js';
import { LABELS } from '../../reporters/labels.js';
import type { Cause, Diagnosis, EnvironmentFacts, LogEvidence } from '../types.js';
import { t, type MessageKey } from '../../i18n/index.js';

export interface RenderOptions {
  color: boolean;
  verbose: boolean;
  /** columns to fit evidence lines in (default 100) */
  width?: number;
}

export function renderExplainTerminal(d: Diagnosis, o: RenderOptions): string {
  const c = o.color ? pc : pc.createColors(false);
  const width = Math.max(60, o.width ?? 100);
  const out: string[] = [];
  out.push(`${c.bold('gpu-env-doctor explain')} ${c.dim(`${inputLine(d)}`)}`);
  out.push('');
  if (d.causes.length === 0) {
    out.push(d.verdict);
    if (d.signals.length > 0 && o.verbose) out.push(c.dim(`  ${t('explain.contextRead', { n: d.signals.length })}`));
    out.push(c.dim(`  ${t('explain.pasteWhole')}`));
    return `${out.join('\n')}\n`;
  }
  out.push(c.bold(d.verdict));
  if (d.ambiguous || d.unknownMessage) renderCandidates(d, o, c, width, out);
  else renderCauses(d, o, c, width, out);
  if (o.verbose) renderVerbose(d, c, out);
  else {
    out.push('');
    out.push(c.dim(t('explain.addV')));
  }
  return `${out.join('\n')}\n`;
}

function inputLine(d: Diagnosis): string {
  const n = d.input.lines;
  const sources = d.input.sources.join(', ');
  if (!d.machine) return t('explain.inputLine', { sources, n });
  if (!d.machine.used) return t('explain.inputNoGpu', { sources, n });
  return t('explain.inputWith', { sources, n, host: d.machine.host ?? t('explain.thisMachine') });
}

type Colors = ReturnType<typeof pc.createColors>;

/** the evidence once, then one line per candidate with its check; the cheapest check; what decides */
function renderCandidates(d: Diagnosis, o: RenderOptions, c: Colors, width: number, out: string[]): void {
  const shown = new Set<string>();
  const evidence = d.causes.flatMap((x) => x.evidence).filter((e) => {
    const k = key(e);
    if (shown.has(k)) return false;
    shown.add(k);
    return true;
  });
  for (const e of evidence.slice(0, o.verbose ? 8 : 3)) out.push(`  ${evidenceLine(e, width - 2, c)}`);
  out.push('');
  const list = d.causes.slice(0, 4);
  const titleWidth = Math.min(60, Math.max(...list.map((x) => title(x).length)));
  list.forEach((cause, i) => {
    const pct = `${Math.round(cause.confidence * 100)}%`.padStart(4);
    const check = cause.test ? (cause.test.command ? t('explain.testCommand', { test: cause.test.text, command: cause.test.command }) : cause.test.text) : '';
    out.push(`  ${i + 1}. ${title(cause).padEnd(titleWidth)} ${c.cyan(pct)}${check ? `  ${c.dim(t('explain.check'))}${LABELS.gap}${check}` : ''}${o.verbose ? c.dim(`  [${cause.id}]`) : ''}`);
  });
  const cheapest = list.filter((x) => x.test).sort((a, b) => a.test!.cost - b.test!.cost || b.confidence - a.confidence)[0];
  out.push('');
  if (cheapest?.test) out.push(cheapest.test.command ? `${t('explain.cheapest', { test: cheapest.test.text })}\n  ${c.cyan('$')} ${cheapest.test.command}` : t('explain.cheapestNoCmd', { test: cheapest.test.text }));
  const cudnn = d.signals.some((s) => /cudnn|conv|dnn/i.test(s.signature));
  out.push(`${t('explain.decides')}${LABELS.gap}${c.cyan('$')} gpu-env-doctor check${cudnn ? ' --deep' : ''}   ${c.dim(t(cudnn ? 'explain.onMachineCudnn' : 'explain.onMachine'))}`);
  if (list[0]) {
    out.push('');
    out.push(`${t('explain.ifFirst')}${LABELS.gap}${c.green(LABELS.fix)}${LABELS.gap}${list[0].fix.text}`);
    for (const cmd of list[0].fix.commands) out.push(`  ${c.cyan('$')} ${cmd}`);
  }
}

function renderCauses(d: Diagnosis, o: RenderOptions, c: Colors, width: number, out: string[]): void {
  const shown = new Set<string>();
  d.causes.forEach((cause, i) => {
    out.push('');
    const pct = `${Math.round(cause.confidence * 100)}%`;
    out.push(`${c.bold(`${i + 1}. ${title(cause)}`)} ${c.cyan(pct)}${o.verbose ? c.dim(`  [${cause.id}]`) : ''}`);
    const why = cause.why.filter((w) => !w.startsWith('against:'));
    for (const w of why.slice(0, o.verbose ? why.length : 2)) out.push(`   ${w}`);
    if (o.verbose) for (const w of cause.why.filter((x) => x.startsWith('against:'))) out.push(c.dim(`   ${w}`));
    const fresh = cause.evidence.filter((e) => !shown.has(key(e)));
    for (const e of fresh.slice(0, o.verbose ? fresh.length : 3)) {
      shown.add(key(e));
      out.push(`   ${evidenceLine(e, width - 3, c)}`);
    }
    out.push(`   ${c.green(LABELS.fix)}${LABELS.gap}${cause.fix.text}`);
    for (const cmd of cause.fix.commands) out.push(`     ${c.cyan('$')} ${cmd}`);
    for (const m of cause.fix.manual ?? []) out.push(`     ${c.yellow(LABELS.byHand)}${LABELS.gap}${m}`);
  });
}

function renderVerbose(d: Diagnosis, c: Colors, out: string[]): void {
  out.push('');
  out.push(c.bold(t('explain.signals')));
  for (const s of d.signals) out.push(`  ${t('explain.signalLine', { signature: s.signature, count: s.count, line: s.lines[0]?.line ?? '?', summary: s.summary })}`);
  out.push(c.dim(`  ${t('explain.weights', { total: d.weights.total, pct: Math.round(d.weights.topShare * 100) })}`));
  const facts = describeFacts(d.environment);
  if (facts.length > 0) {
    out.push(c.bold(t('explain.factsRead')));
    for (const f of facts) out.push(`  ${f}`);
  }
  for (const n of d.machine?.notes ?? []) out.push(`  ${t('explain.machineNote', { note: n })}`);
}

function title(cause: Cause): string {
  return cause.setting ? t('explain.settingTitle', { setting: cause.setting }) : ROOT_CAUSE_TITLES[cause.id];
}

function key(e: LogEvidence): string {
  return e.source === 'machine' ? `m:${e.text}` : `${e.source ?? ''}:${e.line}`;
}

function evidenceLine(e: LogEvidence, width: number, c: Colors): string {
  if (e.source === 'machine') return `${truncate(e.text, width - 12)}   ${c.dim(t('explain.machineWhere'))}`;
  const where = `${e.source ? `${e.source} ` : ''}${LABELS.logLine(e.line)}`;
  return `${c.dim(where)}${LABELS.gap}${truncate(e.text, width - where.length - 1)}`;
}

export function describeFacts(e: EnvironmentFacts): string[] {
  const out: string[] = [];
  const f = (key: MessageKey, v: { value: unknown; line: number } | undefined) => {
    if (v) out.push(v.line > 0 ? t('fact.line', { label: t(key), value: String(v.value), n: v.line }) : t('fact.noLine', { label: t(key), value: String(v.value) }));
  };
  f('fact.framework', e.framework);
  f('fact.frameworkVersion', e.frameworkVersion);
  f('fact.buildCuda', e.buildCuda);
  f('fact.cuda', e.cuda);
  f('fact.driverCuda', e.driverCuda);
  f('fact.cudnn', e.cudnn);
  f('fact.driver', e.driver);
  for (const g of e.gpus) out.push(g.computeCapability ? t('fact.gpuCc', { name: g.name, cc: g.computeCapability, n: g.line }) : t('fact.gpu', { name: g.name, n: g.line }));
  f('fact.os', e.os);
  f('fact.python', e.python);
  if (e.install.length) out.push(t('fact.noLine', { label: t('fact.install'), value: e.install.map((i) => i.value).join(', ') }));
  f('fact.container', e.container);
  return out;
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, Math.max(1, n - 1))}…` : s;
}
