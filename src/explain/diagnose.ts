// The differential diagnosis: every matched signature votes for the root causes it indicates (data), then the
// rules in analyse/ read the numbers and versions, the machine's facts are combined when given, and the
// causes are ranked. Confidence is a cause's share of all the weight, scaled down when the evidence is thin.
import { ROOT_CAUSE_TITLES, type RootCauseId } from '../core/root-causes.js';
import type { Snapshot } from '../snapshot/schema.js';
import { Board } from './analyse/board.js';
import { analyseMemory } from './analyse/memory.js';
import { analyseSetting } from './analyse/setting.js';
import { analyseVersions } from './analyse/versions.js';
import { Collector, type SignalState } from './collect.js';
import { fixFor } from './fixes.js';
import { combineWithMachine } from './machine.js';
import { platformOfLog, platformOfSnapshot } from '../platform/detect.js';
import type { Cause, Diagnosis, EnvironmentFacts, Framework, Signal } from './types.js';
import { DIAGNOSIS_SCHEMA_VERSION } from './types.js';

/** Frameworks that reserve most of the GPU up front (or run on one that does). */
const PREALLOCATING: ReadonlySet<Framework> = new Set(['tensorflow', 'keras', 'jax', 'xla']);
/** Frameworks known not to: "preallocation" weight of a symptom goes to the job's own memory use instead. */
const NOT_PREALLOCATING: ReadonlySet<Framework> = new Set(['pytorch', 'cupy', 'caffe', 'cntk', 'mxnet', 'onnxruntime']);

/** Order of attack for equal scores (memory → versions → driver → installation). */
const ATTACK_ORDER: RootCauseId[] = [
  'memory_held_by_other_process', 'framework_preallocation', 'allocator_fragmentation', 'gpu_memory_exhausted',
  'cudnn_version_mismatch', 'cuda_toolkit_mismatch', 'gpu_arch_unsupported', 'driver_too_old',
  'library_conflict', 'library_missing', 'no_device_visible', 'hardware_or_driver_fault', 'framework_bug', 'other',
];

const MIN_CONFIDENCE = 0.05;
const MAX_CAUSES = 6;

export interface DiagnoseInput {
  collector: Collector;
  bytes: number;
  truncatedLines: number;
  sources: string[];
  snapshot?: Snapshot;
  frameworkHint?: string;
}

export function diagnose(inp: DiagnoseInput): Diagnosis {
  const col = inp.collector;
  const env: EnvironmentFacts = col.env.facts();
  const fw = chooseFramework(inp.frameworkHint, env, col);
  if (fw && !env.framework) env.framework = { value: fw, line: 0, text: inp.frameworkHint ? '(given by the caller)' : '(detected from the log)' };
  const board = new Board();
  const ev = (st: SignalState, max?: number) => col.evidenceOf(st, max);
  const all = [...col.signals.values()];
  const errors = all.filter((s) => s.sig.kind !== 'context');

  // 1. votes of the signatures
  const strong = errors.some((s) => (s.sig.kind === 'evidence' || s.sig.kind === 'memory') && Math.max(0, ...Object.values(s.sig.indicates)) >= 1.5);
  for (const st of errors) {
    const repeat = 1 + 0.15 * Math.min(st.count - 1, 3);
    // a symptom ("cuDNN failed to initialize") matters less once a line says why
    const damp = st.sig.kind === 'symptom' && strong ? 0.45 : 1;
    for (const [cause, w] of Object.entries(st.sig.indicates) as Array<[RootCauseId, number]>) {
      let target: RootCauseId = cause;
      if (cause === 'framework_preallocation' && fw && NOT_PREALLOCATING.has(fw)) target = 'gpu_memory_exhausted';
      board.add(target, w * repeat * damp, st.sig.summary, ev(st, 2));
    }
  }
  // a framework that preallocates makes memory-starved cuDNN/cuBLAS failures more likely to be that preallocation
  if (fw && PREALLOCATING.has(fw) && board.score('framework_preallocation') > 0 && board.score('gpu_memory_exhausted') > 0 && !col.signals.has('torch.oom.current')) {
    board.add('framework_preallocation', 0.15, `${fw} reserves most GPU memory at start unless told otherwise`);
  }
  // 2. context lines (what the reporter wrote) adjust a diagnosis, they do not make one
  if (errors.length > 0) {
    for (const st of all.filter((s) => s.sig.kind === 'context')) {
      for (const [cause, w] of Object.entries(st.sig.indicates) as Array<[RootCauseId, number]>) board.add(cause, w, st.sig.summary, ev(st, 1));
    }
  }
  // 3. numbers and versions
  const mentionedCuda = env.notes.map((n) => /\bCUDA\s+(\d+(?:\.\d+)?)/i.exec(n.value)?.[1]).find((x) => x !== undefined);
  if (errors.length > 0 || env.gpus.length > 0) {
    analyseMemory(board, col.signals, ev, env, fw);
    analyseVersions(board, col.signals, ev, env, fw, mentionedCuda);
    // after the signatures and the versions: the setting re-weighs causes that something else put on the board
    analyseSetting(board, col.signals, env);
    analyseXid(board, col.signals, ev);
  }
  // 4. the machine
  let machine: Diagnosis['machine'];
  if (inp.snapshot) {
    const notes = errors.length > 0 ? combineWithMachine(board, inp.snapshot, col.signals, env) : [];
    machine = { used: true, host: inp.snapshot.host.name, notes };
  }

  // 5. rank
  const scored = [...board.entries.entries()].filter(([, e]) => e.score > 0.05);
  const total = scored.reduce((a, [, e]) => a + e.score, 0);
  // thin evidence (a total below 1: only weak symptoms) scales every confidence down
  const certainty = Math.min(1, total);
  const cudnnSymptoms = errors.some((s) => s.sig.id.startsWith('cudnn.') || s.sig.id.includes('conv'));
  // where the job ran: the log says it (OS line, C:\ paths, DLL names), else the machine's snapshot
  const matchedLines = all.flatMap((st) => Collector.matches(st).map((m) => m.text));
  const platform = platformOfLog(env.os?.value, matchedLines) ?? (inp.snapshot ? platformOfSnapshot(inp.snapshot) : 'linux');
  const causes: Cause[] = scored
    .map(([id, e]) => {
      const confidence = round2(Math.min(0.97, (e.score / total) * certainty));
      const cause: Cause = {
        id,
        confidence,
        summary: summaryOf(id, board.reasons(id)),
        evidence: e.evidence.slice().sort((a, b) => (a.source === 'machine' ? 1 : 0) - (b.source === 'machine' ? 1 : 0) || a.line - b.line),
        fix: fixFor(id, { framework: fw, hints: e.hints, cudnnSymptoms, platform, lines: [...e.evidence.map((x) => x.text), ...matchedLines], ...(env.frameworkVersion ? { frameworkVersion: env.frameworkVersion.value } : {}) }),
        why: board.reasons(id),
        score: round2(e.score),
      };
      return cause;
    })
    .filter((c) => c.confidence >= MIN_CONFIDENCE)
    .sort((a, b) => b.score - a.score || ATTACK_ORDER.indexOf(a.id) - ATTACK_ORDER.indexOf(b.id))
    .slice(0, MAX_CAUSES);

  const signals: Signal[] = all
    .sort((a, b) => (Collector.matches(a)[0]?.line ?? 0) - (Collector.matches(b)[0]?.line ?? 0))
    .map((st) => ({ signature: st.sig.id, kind: st.sig.kind, lines: ev(st, 3), count: st.count, values: Collector.matches(st)[0]?.values ?? {}, summary: st.sig.summary }));

  const top = causes[0];
  const verdict = top
    ? `Most likely: ${lowerFirst(ROOT_CAUSE_TITLES[top.id])} (${Math.round(top.confidence * 100)}%).`
    : errors.length === 0
      ? 'Nothing in the input points to a known GPU, CUDA, cuDNN or driver failure.'
      : 'The input shows a GPU-related message, but not enough to tell the cause.';

  return {
    schemaVersion: DIAGNOSIS_SCHEMA_VERSION,
    causes,
    signals,
    environment: env,
    input: { lines: col.lines, bytes: inp.bytes, truncatedLines: inp.truncatedLines, sources: inp.sources },
    ...(machine ? { machine } : {}),
    verdict,
  };
}

function chooseFramework(hint: string | undefined, env: EnvironmentFacts, col: Collector): Framework | undefined {
  const h = hint?.toLowerCase();
  if (h) {
    if (h.includes('jax')) return 'jax';
    if (h.includes('keras')) return 'keras';
    if (h.includes('tensorflow') || h === 'tf') return 'tensorflow';
    if (h.includes('torch')) return 'pytorch';
    if (h.includes('paddle')) return 'paddle';
  }
  const detected = col.detectedFramework();
  const stated = env.framework?.value;
  // keras on TensorFlow: treat as TensorFlow for memory behaviour, but keep what was stated
  if (stated && stated !== 'other') return stated;
  return detected;
}

function analyseXid(board: Board, signals: Map<string, SignalState>, ev: (st: SignalState, max?: number) => import('./types.js').LogEvidence[]): void {
  const st = signals.get('kernel.xid');
  if (!st) return;
  // Xid 13, 31, 43, 45: usually the application (illegal access, MMU fault in user code, killed context);
  // 48, 63, 64, 74, 79, 92, 94, 95, 119, 120, 122, 123: hardware, ECC, NVLink, bus, GSP firmware.
  const xids = new Set(Collector.matches(st).map((m) => Number(m.values.xid)));
  const hard = [48, 61, 62, 63, 64, 74, 79, 92, 94, 95, 119, 120, 122, 123, 140].filter((x) => xids.has(x));
  const app = [13, 31, 43, 45, 69].filter((x) => xids.has(x));
  if (hard.length > 0) board.add('hardware_or_driver_fault', 1.6, `Xid ${hard.join(', ')}: errors NVIDIA documents as hardware, memory (ECC), NVLink, bus or firmware faults`, ev(st, 2));
  if (app.length > 0 && hard.length === 0) {
    board.add('framework_bug', 0.6, `Xid ${app.join(', ')}: usually raised by the application's own kernels (illegal address, MMU fault)`, ev(st, 2));
    board.against('hardware_or_driver_fault', 0.8, `Xid ${app.join(', ')} are usually application errors`);
  }
}

function summaryOf(id: RootCauseId, why: string[]): string {
  const first = why.find((w) => !w.startsWith('against:'));
  return first ? `${ROOT_CAUSE_TITLES[id]}: ${first}` : ROOT_CAUSE_TITLES[id];
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** "The NVIDIA driver…" → "the NVIDIA driver…": lower the first letter only, so GPU, CUDA and cuDNN keep their case. */
function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}
