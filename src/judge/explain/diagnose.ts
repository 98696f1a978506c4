// The differential diagnosis. Every matched message votes for the causes usually behind it: the catalog's order
// of causes, blended with how often each was the cause in labelled real reports (priors/, fitted from data).
// Then the rules in analyse/ read the numbers and versions the lines carry, the machine's facts are combined when
// given, the framework and era reweigh the causes, and the causes are ranked. The first cause's confidence is
// calibrated on reports the fit did not see; when the input cannot separate its candidates the diagnosis says so
// (`ambiguous`) and each candidate carries the check that tells it apart.
import { ROOT_CAUSE_TITLES, type RootCauseId } from '../../knowledge/root-causes.js';
import type { Snapshot } from '../../gather/snapshot/schema.js';
import { Board } from './analyse/board.js';
import { analyseMemory } from './analyse/memory.js';
import { analyseSetting } from './analyse/setting.js';
import { analyseVersions, cannotHaveCudaDevice } from './analyse/versions.js';
import { Collector, exactCase, type SignalState } from './collect.js';
import { fixFor } from './fixes/fixes.js';
import { neutralKey } from './fixes/family.js';
import { testFor } from './fixes/tests.js';
import { combineWithMachine } from './machine.js';
import { reasonAddsNothing, type Reading } from './readings.js';
import { contextKeys } from './priors/model.js';
import { eraOf, frameworkFamily } from './priors/context.js';
import { defaultPriors } from './priors/default.js';
import { WEIGHTS } from './priors/weights.js';
import type { PriorModel } from './priors/model.js';
import { platformOfLog, platformOfSnapshot } from '../platform/detect.js';
import type { Cause, Diagnosis, EnvironmentFacts, Framework, LogEvidence, Signal } from './types.js';
import { DIAGNOSIS_SCHEMA_VERSION } from './types.js';
import { getLang, t, tIn } from '../../base/i18n/index.js';
import { signatureZh } from '../../base/i18n/signatures.js';
import { eitherOf, regexOf } from '../../base/regex.js';
import { nativeWhenAsked } from '../../base/native-regex.js';
import { guarded } from './guarded.js';

/** Frameworks that reserve most of the GPU up front (or run on one that does). */
const PREALLOCATING: ReadonlySet<Framework> = new Set(['tensorflow', 'keras', 'jax', 'xla']);
/** Frameworks known not to: "preallocation" weight of a message goes to the job's own memory use instead. */
const NOT_PREALLOCATING: ReadonlySet<Framework> = new Set([
  'pytorch',
  'cupy',
  'caffe',
  'cntk',
  'mxnet',
  'onnxruntime',
  'paddle',
]);

/** Order of attack for equal scores (memory → versions → driver → installation). */
const ATTACK_ORDER: RootCauseId[] = [
  'memory_held_by_other_process',
  'framework_preallocation',
  'allocator_fragmentation',
  'gpu_memory_exhausted',
  'cudnn_version_mismatch',
  'cuda_toolkit_mismatch',
  'gpu_arch_unsupported',
  'driver_too_old',
  'library_conflict',
  'library_missing',
  'no_device_visible',
  'hardware_or_driver_fault',
  'configuration_invalid',
  'framework_bug',
  'other',
];

/** How much one message weighs, by what it is (priors/weights.json: evidence, memory, symptom, family). */
export const KIND_WEIGHT = WEIGHTS.kindWeight;

/** a cause an evidence message gives at least this share of its vote is one the message states */
const STATED_SHARE = WEIGHTS.statedShare;
const MIN_CONFIDENCE = WEIGHTS.minConfidence;
const MAX_CAUSES = 6;
const MIN_SHARE_SHOWN = 0.1;
/** the weight of a symptom printed after the log's first failure (see the votes) */
const LATER_SYMPTOM = WEIGHTS.laterSymptom;
/**
 * The input cannot tell its candidates apart when only messages stand behind the first (no number, version or
 * machine fact read), the second weighs at least AMBIGUOUS_RATIO of it, and the first holds less than
 * AMBIGUOUS_BELOW of the weight. Decided on the weights, before the calibration, which uses it (cross-validated:
 * such first places are right about half the time, others far more often).
 */
const AMBIGUOUS_RATIO = WEIGHTS.ambiguousRatio;
const AMBIGUOUS_BELOW = WEIGHTS.ambiguousBelow;

export interface DiagnoseInput {
  collector: Collector;
  bytes: number;
  truncatedLines: number;
  sources: string[];
  snapshot?: Snapshot;
  frameworkHint?: string;
  priors?: PriorModel;
}

/** What the fit needs of a report: the groups that voted and the context keys (see priors/fit.ts). */
export interface Features {
  groups: string[];
  contextKeys: string[];
}

export function features(col: Collector, frameworkHint?: string): Features {
  const env = structuredClone(col.env.facts());
  const fw = chooseFramework(frameworkHint, env, col);
  const fam = frameworkFamily(fw);
  return {
    groups: [...col.signals.values()].filter((s) => voting(s)).map((s) => s.group),
    contextKeys: contextKeys(fam, eraOf(env, col.signals, fam)),
  };
}

function voting(st: SignalState): boolean {
  return st.sig.kind !== 'context' && st.sig.kind !== 'noise';
}

export function diagnose(inp: DiagnoseInput): Diagnosis {
  const col = inp.collector;
  const priors = inp.priors ?? defaultPriors();
  // a copy: the same collection may be diagnosed again with other priors (the accuracy bench does)
  const env: EnvironmentFacts = structuredClone(col.env.facts());
  const fw = chooseFramework(inp.frameworkHint, env, col);
  if (fw && !env.framework)
    env.framework = {
      value: fw,
      line: 0,
      text: inp.frameworkHint ? '(given by the caller)' : '(detected from the log)',
    };
  const board = new Board();
  // each message's reading under each cause it votes for, by its why-line (Cause.readings)
  const readings = new Map<string, Reading>();
  const ev = (st: SignalState, max?: number) => col.evidenceOf(st, max);
  const all = [...col.signals.values()];
  // JAX tries every platform it knows at start and logs the ones that are not there ("Unable to initialize backend
  // 'tpu': … libtpu.so: cannot open shared object file"): a signal read only on such lines says nothing of a GPU
  const read = all.filter((s) => voting(s) && !Collector.matches(s).every((m) => otherPlatformBackend.test(m.text)));
  // with no message read, the reporter's paraphrase of one that names what failed ("libcudnn.so.8 … dont load": a
  // loader's failure retold) is the only account of the failure: it votes as a failure's vocabulary does (a family,
  // at low confidence); beside any message it stays what it is, a word on the setting
  const paraphrased = read.length === 0 ? all.filter((s) => PARAPHRASES.has(s.group)) : [];
  const errors = read.length > 0 ? read : paraphrased;
  const familyLike = (s: SignalState) => s.sig.kind === 'family' || paraphrased.includes(s);
  const familyOnly = errors.length > 0 && errors.every(familyLike);

  // 1. votes of the messages
  // a consequence (a crash after the failure, a wrapper that points at the next line) says nothing of its own
  // once the failure it follows is read: the first failure is the cause, the rest follow from it
  // JAX leaves a CUDA plugin whose initialize() raised out of its backends: "Backend 'cuda' is not in the list of
  // known backends" then follows the plugin's own exception, which says why
  const pluginRaised = col.signals.has(JAX_PLUGIN_RAISED);
  // (the "configuration error" line itself only points at the exception that follows it)
  const consequence = (s: SignalState) =>
    CONSEQUENCES.has(s.group) ||
    IMPORT_NOISE.has(s.group) ||
    (pluginRaised && (JAX_BACKEND_UNKNOWN.test(s.group) || s.group === JAX_PLUGIN_RAISED));
  const firstVoters = errors.some((s) => !consequence(s) && s.sig.kind !== 'family')
    ? errors.filter((s) => !consequence(s))
    : errors;
  // a wrapper that appends a CUDA status ("Error 803: system has unsupported …") defers to that status's own
  // message when one is read on its line: the wrapper's text says the appended code is the reason
  const lineOf = (s: SignalState) => Collector.matches(s)[0]?.line ?? -1;
  const lineText = (s: SignalState) => Collector.matches(s)[0]?.text ?? '';
  const voters = firstVoters.filter(
    (s) =>
      !STATUS_WRAPPERS.has(s.group) ||
      !firstVoters.some((o) => o !== s && !STATUS_WRAPPERS.has(o.group) && lineOf(o) === lineOf(s)),
  );
  const strong = voters.some((s) => s.sig.kind === 'evidence' || s.sig.kind === 'memory');
  // one line, one message: several signals read on the same line (the wordings of several releases, a status
  // text printed as the message's value) share that line's vote instead of counting it two or three times
  const onLine = new Map<number, number>();
  for (const st of voters) onLine.set(lineOf(st), (onLine.get(lineOf(st)) ?? 0) + 1);
  // where the job ran: the log says it (OS line, C:\ paths, DLL names), else the machine's snapshot
  const matchedLines = all.flatMap((st) => Collector.matches(st).map((m) => m.text));
  const platform =
    platformOfLog(env.os?.value, matchedLines) ?? (inp.snapshot ? platformOfSnapshot(inp.snapshot) : 'linux');
  // inside a container: the reporter says so, or the lines show the container runtime
  const inContainer = !!env.container || matchedLines.some((l) => containerWords.test(l));
  const firstFailure = Math.min(...voters.filter((v) => v.sig.kind !== 'family').map(lineOf));
  const noPool = fw !== undefined && NOT_PREALLOCATING.has(fw) && !paddleBefore2(fw, env, col.signals);
  const paddleOom = fw === 'paddle' && all.some((s) => PADDLE_OOM.test(s.group));
  const driverJit = col.signals.has(DRIVER_JIT_REFUSED);
  const noCudaDevice = cannotHaveCudaDevice(env);
  // built from source: the framework uses the machine's libraries, not ones its binary brings
  const fromSource =
    env.install.some((i) => i.value === 'source') || fromSourceWord.test(env.frameworkVersion?.value ?? '');
  // TensorFlow's pool starved cuBLAS only when something outside TensorFlow took its reserve (see TF_LIBRARY_RESERVE)
  const tfCublasOnly =
    (fw === 'tensorflow' || fw === 'keras') &&
    voters.some((s) => CUBLAS_HANDLE.test(lineText(s))) &&
    !voters.some(
      (s) =>
        (s.sig.kind === 'memory' && !CUBLAS_HANDLE.test(lineText(s))) || /dnn|convolution algorithm/i.test(lineText(s)),
    );
  for (const st of voters) {
    const kind = (familyLike(st) ? 'family' : st.sig.kind) as keyof typeof KIND_WEIGHT;
    const w = KIND_WEIGHT[kind] ?? KIND_WEIGHT.symptom;
    const repeat = 1 + 0.15 * Math.min(st.count - 1, 3);
    // a symptom ("cuDNN failed to initialize") matters less once a line says why
    const damp = (kind === 'symptom' || kind === 'family') && strong ? 0.45 : 1;
    // a symptom printed after the first failure is usually that failure's echo further up the stack (TensorFlow's
    // "Could not create cudnn handle", then "Failed to get convolution algorithm"): it counts a little less
    const later = lineOf(st) > firstFailure && kind === 'symptom' ? LATER_SYMPTOM : 1;
    const share = later / (onLine.get(lineOf(st)) ?? 1);
    // the catalog's opinion is read in this framework's terms before the reports' counts are added (those are
    // already in their framework's terms)
    const dist = noFork(
      redirect(
        priors.groupDist(
          st.group,
          inFramework(paraphrased.includes(st) ? shares(st.sig.causes) : st.sig.causes, st, fw),
        ),
        st,
        fw,
        inContainer,
        paddleOom,
        driverJit,
        tfCublasOnly,
        noCudaDevice,
        fromSource,
      ),
      st,
      platform,
    );
    for (const [cause, q] of Object.entries(dist) as Array<[RootCauseId, number]>) {
      let target: RootCauseId = cause;
      if (cause === 'framework_preallocation' && noPool) target = 'gpu_memory_exhausted';
      board.add(target, w * q * repeat * damp * share, reasonOf(st, cause, readings, fw), ev(st, 2));
      // a message that names its cause states it (the catalog's cause of a message that has one or two)
      if (kind === 'evidence' && q >= STATED_SHARE) board.grounded.add(target);
    }
    if (st.sig.setting) board.hint('configuration_invalid', 'setting', st.sig.setting);
  }
  // a framework that preallocates makes memory-starved cuDNN/cuBLAS failures more likely to be that preallocation
  if (
    fw &&
    PREALLOCATING.has(fw) &&
    !tfCublasOnly &&
    board.score('framework_preallocation') > 0 &&
    board.score('gpu_memory_exhausted') > 0 &&
    !col.signals.has('torch.oom.current')
  ) {
    // at most 0.15, and no more than a quarter of the memory weight already there (a family's few hundredths of
    // "exhausted" are not a memory failure the bonus should decide)
    board.add(
      'framework_preallocation',
      Math.min(0.15, 0.25 * (board.score('framework_preallocation') + board.score('gpu_memory_exhausted'))),
      t('why.fw.reserves', {
        fw: fw === 'keras' ? 'TensorFlow' : fw === 'xla' ? 'JAX' : fw === 'jax' ? 'JAX' : 'TensorFlow',
      }),
    );
  }
  const fromMessages = new Map([...board.entries].map(([id, e]) => [id, e.score]));
  // 2. context lines (what the reporter wrote) adjust a diagnosis, they do not make one
  if (errors.length > 0) {
    // what users write about their setting (hand-written rows); the catalog's context lines only inform
    for (const st of all.filter((s) => s.sig.kind === 'context' && !s.sig.catalog && !paraphrased.includes(s))) {
      for (const [cause, w] of Object.entries(st.sig.causes) as Array<[RootCauseId, number]>) {
        if (w > 0) {
          // a reporter's own word for a cause (cue.*) is a habit of speech, not evidence: it moves the ranking only
          // among the causes the messages allow, and never adds one
          if (st.sig.id.startsWith(CUE_PREFIX) && !allowedByMessages(fromMessages, cause)) continue;
          board.add(cause, w, st.sig.summary, ev(st, 1));
          continue;
        }
        // what the reporter states of the machine rules a message's reading out ("the GPU works in other
        // programs": not the GPU): the reading loses that weight and is no longer one the input states
        const why = (getLang() === 'zh' ? signatureZh(st.sig.id)?.summary : undefined) ?? st.sig.summary;
        board.against(cause, -w, why);
        board.grounded.delete(cause);
      }
    }
  }
  // 3. numbers and versions
  const mentionedCuda = env.notes
    .map((n) => /\bCUDA\s+(\d+(?:\.\d+)?)/i.exec(n.value)?.[1])
    .find((x) => x !== undefined);
  if (errors.length > 0 || env.gpus.length > 0) {
    analyseMemory(board, col.signals, ev, env, fw);
    analyseVersions(board, col.signals, ev, env, fw, mentionedCuda, (col.frameworkScore.get('pytorch') ?? 0) > 0);
    // after the signatures and the versions: the setting re-weighs causes that something else put on the board
    analyseSetting(board, col.signals, env);
    analyseXid(board, col.signals, ev);
  }
  // 4. the machine
  let machine: Diagnosis['machine'];
  if (inp.snapshot) {
    const notes = errors.length > 0 ? combineWithMachine(board, inp.snapshot, col.signals, env) : [];
    if (!inp.snapshot.nvidia.ok) notes.unshift(t('why.m.noGpuHere'));
    machine = { used: inp.snapshot.nvidia.ok, host: inp.snapshot.host.name, notes };
  }
  // 5. the framework and era: how often each cause is behind failures there (fitted), as a factor
  const fam = frameworkFamily(fw);
  const keys = contextKeys(fam, eraOf(env, col.signals, fam));
  const factors = priors.contextFactors(keys);
  for (const [id, e] of board.entries) if (e.score > 0) e.score *= factors[id];

  // 6. rank and calibrate
  const scored = [...board.entries.entries()].filter(([, e]) => e.score > 0.05);
  const total = scored.reduce((a, [, e]) => a + e.score, 0);
  const cudnnSymptoms = errors.some((s) => cudnnOrConv.test(s.group));
  const tierOf = evidenceTiers(board, fromMessages, matchedLines);
  const ranked = scored.sort(
    (a, b) =>
      tierOf(b[0]) - tierOf(a[0]) || b[1].score - a[1].score || ATTACK_ORDER.indexOf(a[0]) - ATTACK_ORDER.indexOf(b[0]),
  );
  const topShare = ranked.length > 0 ? ranked[0]![1].score / total : 0;
  const [topId, topEntry] = ranked[0] ?? [];
  // the first place is only a message's usual cause: nothing read from numbers, versions or the machine moved it
  const onlyMessages = topId
    ? Math.abs((fromMessages.get(topId) ?? 0) * factors[topId] - topEntry!.score) < 1e-6
    : false;
  // the input does not separate its first two candidates: only messages stand behind the first, the second weighs
  // at least half as much, and the first holds less than AMBIGUOUS_BELOW of all the weight
  const ambiguous =
    ranked.length > 1 &&
    ranked[1]![1].score >= topEntry!.score * AMBIGUOUS_RATIO &&
    topShare < AMBIGUOUS_BELOW &&
    onlyMessages &&
    !(topId === 'configuration_invalid' && topEntry!.hints.setting?.[0]);
  // calibrated on what the diagnosis knows: the first cause's share, the total weight, and whether it is ambiguous
  const topConf = ranked.length > 0 ? priors.calibrate(topShare, total, ambiguous, onlyMessages) : 0;
  // the first cause gets its calibrated confidence; the rest of the probability goes to the others in proportion
  const rest = topShare < 1 ? (1 - topConf) / (1 - topShare) : 0;
  const causes: Cause[] = ranked
    .map(([id, e], i) => {
      const setting = id === 'configuration_invalid' ? e.hints.setting?.[0] : undefined;
      const test = testOnPlatform(testFor(id, fw), platform);
      const cause: Cause = {
        id,
        confidence: round2(Math.min(0.97, i === 0 ? topConf : (e.score / total) * rest)),
        summary: summaryOf(id, board.reasons(id), setting),
        evidence: e.evidence
          .slice()
          .sort((a, b) => (a.source === 'machine' ? 1 : 0) - (b.source === 'machine' ? 1 : 0) || a.line - b.line),
        fix: fixFor(id, {
          framework: fw,
          hints: e.hints,
          cudnnSymptoms,
          platform,
          lines: [...e.evidence.map((x) => x.text), ...matchedLines],
          // (a traceback through torch/nn/modules/container.py is not a container)
          container:
            matchedLines.some((l) => containerWords.test(l)) ||
            (!!env.container && !containerPy.test(env.container.text)),
          ...(env.frameworkVersion ? { frameworkVersion: env.frameworkVersion.value } : {}),
          stated: {
            ...((env.buildCuda ?? env.cuda) ? { cuda: (env.buildCuda ?? env.cuda)!.value } : {}),
            ...(env.cudnn ? { cudnn: env.cudnn.value } : {}),
          },
        }),
        why: board.reasons(id),
        readings: board
          .reasons(id)
          .map((w) => readings.get(w))
          .filter((r): r is Reading => r !== undefined),
        score: round2(e.score),
        ...(test ? { test } : {}),
        ...(setting ? { setting } : {}),
      };
      return cause;
    })
    // a candidate that holds a good part of the weight stays on the list even when a confident first place leaves
    // it little of the probability: its test is what tells it apart; so does a reading the input itself states
    // among the first three (a message that names two causes: both are candidates to test)
    .filter(
      (c, i) =>
        c.confidence >= MIN_CONFIDENCE || c.score / total >= MIN_SHARE_SHOWN || (i < 3 && board.grounded.has(c.id)),
    )
    .slice(0, MAX_CAUSES);
  // the contract: causes sorted by confidence, highest first. A cause ranked lower by its evidence never shows a
  // higher confidence than one above it (its proportional share can exceed the first place's calibrated value)
  for (let i = 1; i < causes.length; i++)
    causes[i]!.confidence = Math.min(causes[i]!.confidence, causes[i - 1]!.confidence);

  const signals: Signal[] = all
    .sort((a, b) => (Collector.matches(a)[0]?.line ?? 0) - (Collector.matches(b)[0]?.line ?? 0))
    .map((st) => ({
      signature: st.group,
      kind: st.sig.kind,
      lines: ev(st, 3),
      count: st.count,
      values: Collector.matches(st)[0]?.values ?? {},
      summary: (getLang() === 'zh' ? signatureZh(st.sig.id)?.summary : undefined) ?? st.sig.summary,
    }));

  const top = causes[0];
  const lines = col.lines;
  const verdict = !top
    ? errors.length === 0
      ? t('explain.nothing')
      : t('explain.notEnough')
    : familyOnly
      ? t('explain.familyOnly')
      : ambiguous
        ? t(lines <= 2 ? 'explain.ambiguousLine' : 'explain.ambiguousLog', { n: Math.min(causes.length, 4) })
        : top.setting
          ? t('explain.mostLikelySetting', { setting: top.setting, pct: Math.round(top.confidence * 100) })
          : t('explain.mostLikely', {
              cause: lowerFirst(ROOT_CAUSE_TITLES[top.id]),
              pct: Math.round(top.confidence * 100),
            });

  return {
    schemaVersion: DIAGNOSIS_SCHEMA_VERSION,
    causes,
    signals,
    environment: env,
    input: { lines: col.lines, bytes: inp.bytes, truncatedLines: inp.truncatedLines, sources: inp.sources },
    ...(machine ? { machine } : {}),
    verdict,
    ambiguous,
    unknownMessage: familyOnly,
    weights: { total: Math.round(total * 1000) / 1000, topShare: Math.round(topShare * 1000) / 1000, onlyMessages },
  };
}

/**
 * Evidence before habit, the one rule of the ranking above the weights: a cause the input's own text states (a
 * message that names its cause, the figures of an out-of-memory message, a version pair, a library or an
 * architecture the message names: Board.stated) ranks above every cause that only priors or the environment
 * suggest; the environment's facts reorder the causes the messages allow and add a cause of their own only below
 * those; a hardware or driver fault is never first for a text that has no word of the hardware or the driver
 * module (Xid, ECC, NVRM, NVLink, "fallen off the bus", a driver/library version mismatch…). The weights order
 * causes within a tier.
 */
export const HARDWARE_WORDS = regexOf(
  [
    eitherOf([
      /\bXid\b|\bECC\b|NVRM|fallen off the bus|\bhardware\b|uncorrectable|NVLink/, // the board and its kernel driver
      /version mismatch|does not match DSO version|kernel module/, // a driver/library version mismatch
      /unspecified launch failure|\bGSP\b|row remap|retired pages|\bthermal|\breboot|\bsuspend/, // faults, resets
      /\bunknown error\b|\berror 999\b|\(999\)|CUDA_ERROR_UNKNOWN|cudaErrorUnknown/, // CUDA's unknown error
      /\bSIGBUS\b|Bus error|illegal instruction|launch timed out|watchdog|TDR\b/, // signals, timeouts
      /\bdmesg\b|nvidia-smi|\bNVML\b|\bdriver\b|硬件|驱动/, // the driver's tools, in English and Chinese
    ]),
  ],
  'i',
);
/** compiled natively when first asked for */
const hardwareWords = nativeWhenAsked(HARDWARE_WORDS);
/** a message allows a cause when its votes give the cause at least this share of the best-voted cause */
const ALLOWED_SHARE = 0.1;
/** the context rows that are a reporter's words for a cause (signatures/context.json), not facts of the machine */
const CUE_PREFIX = 'cue.';
function allowedByMessages(fromMessages: Map<RootCauseId, number>, id: RootCauseId): boolean {
  const best = Math.max(0, ...fromMessages.values());
  return best > 0 && (fromMessages.get(id) ?? 0) >= best * ALLOWED_SHARE;
}

function evidenceTiers(
  board: Board,
  fromMessages: Map<RootCauseId, number>,
  lines: string[],
): (id: RootCauseId) => number {
  const best = Math.max(0, ...fromMessages.values());
  const hardwareWord = lines.some((l) => hardwareWords().test(l));
  return (id) => {
    if (id === 'hardware_or_driver_fault' && !hardwareWord && !board.grounded.has(id)) return 0;
    if (board.grounded.has(id)) return 3;
    // a cause a message allows, or one the environment adds with facts of its own (a version, the GPU, the OS)
    if (
      best <= 0 ||
      (fromMessages.get(id) ?? 0) >= best * ALLOWED_SHARE ||
      (board.entries.get(id)?.evidence.length ?? 0) > 0
    )
      return 2;
    return 1;
  };
}

/**
 * Signals that follow from an earlier failure rather than name one: a crash after a library failed (TensorRT's
 * engine that did not deserialize, then "Segmentation fault"), the container runtime's wrapper whose cause is the
 * nvidia-container-cli line after it (catalog: "see the nvidia-container-cli line that follows"), TensorRT's
 * "Engine deserialization failed" (its runtime prints the reason, another TensorRT or another GPU, the line before),
 * StreamExecutor's "without BLAS support" (stream.cc: the cuBLAS plugin was not created; cublasCreate's failure is
 * printed before it).
 */
const CONSEQUENCES: ReadonlySet<string> = new Set([
  'segfault',
  'oci-hook-failed-prefix',
  'trt-deserialize-failed',
  'tf-blas-without-support',
  // JAX appends "(you may need to uninstall the failing plugin package, or set JAX_PLATFORMS=cpu …)" to every
  // plugin backend that fails to initialise (jax/_src/xla_bridge.py): a hint printed whatever the failure was
  'jax-unable-init-backend-suffix-uninstall',
]);
/** context rows that retell a failure and name its object (signatures/context.json, libraries.json) */
const PARAPHRASES: ReadonlySet<string> = new Set(['lib.paraphrased_missing']);
/** a context row's weights as shares of one vote (a message's causes are shares; a context row's are weights) */
function shares(causes: Partial<Record<RootCauseId, number>>): Partial<Record<RootCauseId, number>> {
  const pos = Object.entries(causes).filter(([, w]) => (w ?? 0) > 0) as Array<[RootCauseId, number]>;
  const sum = pos.reduce((a, [, w]) => a + w, 0);
  return Object.fromEntries(pos.map(([c, w]) => [c, w / sum]));
}
/** JAX/XLA's start-up line for a platform other than a GPU's (xla_bridge.py backends: ROCm is AMD's, TPU Google's) */
const OTHER_PLATFORM_BACKEND = /Unable to initialize backend '(?:rocm|tpu|metal|iree_\w+)'/i;
/**
 * Lines a framework prints at every start, whatever happens next: TensorFlow 2.14-2.16 and its bundled XLA both
 * register the cuDNN/cuFFT/cuBLAS plugins ("Unable to register cuDNN factory: Attempting to register factory for
 * plugin cuDNN when one has already been registered", harmless: the catalog's own reason). Beside another failure they
 * step aside like a consequence; alone they keep their reading.
 */
const IMPORT_NOISE: ReadonlySet<string> = new Set([
  'tf-cudnn-factory',
  'tf-plugin-already-registered',
  'tf-unable-register-cufft-factory',
  'tf-unable-register-cublas-factory',
  // TensorFlow 2.12+ warns "TF-TRT Warning: Could not find TensorRT" at every import without TensorRT, which only
  // TF-TRT needs (tf2tensorrt/utils/py_utils.cc)
  'tf-trt-not-found',
]);
/** messages that print a CUDA call's failure as "Error N: <cudaGetErrorString(N)>" and name no cause of their own
 *  (c10/cuda/CUDAFunctions.cpp: cudaGetDeviceCount's codes PyTorch does not special-case), and PyTorch's
 *  "<ncclGetErrorString>, NCCL version X" (c10d NCCLUtils.cpp ncclGetErrorWithVersion: the result's text decides) */
const STATUS_WRAPPERS: ReadonlySet<string> = new Set(['pt-unexpected-devicecount-error', 'pt-nccl-version-suffix']);
/** the driver refusing a module's PTX for its ISA version (cuda.h CUDA_ERROR_UNSUPPORTED_PTX_VERSION, 222: "the
 *  provided PTX was compiled with an unsupported toolchain"): its JIT, not a toolkit's ptxas, assembled the PTX */
const DRIVER_JIT_REFUSED = 'cuda.unsupported_ptx';
/** ptxas's "Unsupported .version X; current version is 'Y'" (signatures/misc.json) */
const PTXAS_ISA = 'ptxas.unsupported_ptx_version';
/** cuDNN 9's status for sub-libraries of different versions loaded together (cudnn_graph.h cudnnStatus_t 1002:
 *  "some cuDNN sub-libraries have different versions"): copies of cuDNN mixed, whichever wrapper prints it */
const CUDNN_SUBLIBRARY_STATUS = /\bCUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH\b/;
const cudnnSublibraryStatus = nativeWhenAsked(CUDNN_SUBLIBRARY_STATUS);
/** cuBLAS's handle failing to be created, in TensorFlow's words (stream_executor/cuda/cuda_blas.cc "failed to create
 *  cublas handle", the kernels' "Blas GEMM launch failed"). TF_LIBRARY_RESERVE: TensorFlow's pool is the free memory
 *  less MinSystemMemory (core/common_runtime/gpu/gpu_device.cc: 225 MiB under 2 GiB, else the larger of 300 MiB and
 *  5% in 1.x; 500-1536 MiB by compute capability in 2.x), left for the libraries' handles and workspaces */
const CUBLAS_HANDLE =
  /\bBlas x?GEMM(?:V|Batched)? launch failed|failed to create cublas handle|\bCUBLAS_STATUS_ALLOC_FAILED\b/i;
/** the CUDA driver's and runtime's status for no usable device (cuda.h CUresult 100, cudaError_t 100) */
const NO_DEVICE_STATUS = /\bCUDA_ERROR_NO_DEVICE\b|\bcudaErrorNoDevice\b/;
const noDeviceStatus = nativeWhenAsked(NO_DEVICE_STATUS);
/**
 * "Jax plugin configuration error: Exception when calling jax_plugins.xla_cudaNN.initialize()" (jax/_src/xla_bridge.py)
 */
const JAX_PLUGIN_RAISED = 'h200-jax-plugin-configuration-error';
/** JAX's messages for a backend no plugin registered (jax/_src/xla_bridge.py); and its warning that "a CUDA-enabled
 *  jaxlib is not installed", printed whenever a GPU is present and no CUDA backend came up (_suggest_missing_backends):
 *  after the plugin raised, that is the plugin skipped, not a jaxlib missing */
const JAX_BACKEND_UNKNOWN = /^jax-(?:backend-not-known|unable-init-backend|cuda-jaxlib-not-installed)/;

/** handle, context and workspace failures of CUDA libraries: they allocate outside the framework's memory pool */
const OUTSIDE_POOL = /cudnn|cublas|blas|conv|dnn|cuda[.-]error[.-]out[_-]of[_-]memory|cuda-out-of-memory/i;
/** a missing library by name: cuDNN's, and TensorRT's (optional for TensorFlow: TF-TRT only) */
const CUDNN_LIB = /\b(?:lib)?cudnn(?:64)?[\w.]*/i;
const TENSORRT_LIB = /\blibnvinfer/i;
/** the container runtime's own words: Docker, containerd, Kubernetes, the NVIDIA container toolkit */
const CONTAINER_WORDS = regexOf(
  [
    '\\b(?:',
    eitherOf([
      /docker|containerd|cri-containerd|kubernetes|kubelet/,
      /nvidia-container-(?:cli|toolkit|runtime)|container startup|--gpus/,
    ]),
    ')\\b',
  ],
  'i',
);
/** a framework version built from source, a cuDNN or convolution group, PyTorch's own container module, NCCL's group */
const FROM_SOURCE = /\bsource\b/i;
const CUDNN_OR_CONV = /cudnn|conv/i;
const CONTAINER_PY = /\bcontainer\.py\b/;
const NCCL = /nccl/i;
/*
 * What a text must hold, in lower case, for each pattern to match it: one of these strings. Tested first, so that a
 * pattern is compiled only for a text that may match it.
 */
const G_OTHER_PLATFORM_BACKEND = ["unable to initialize backend '"];
const G_CONTAINER_WORDS = [
  'docker',
  'containerd',
  'kubernetes',
  'kubelet',
  'nvidia-container-',
  'container startup',
  '--gpus',
];
const G_FROM_SOURCE = ['source'];
const G_CUDNN_OR_CONV = ['cudnn', 'conv'];
const G_CONTAINER_PY = ['container.py'];
const G_NCCL = ['nccl'];
const otherPlatformBackend = guarded(OTHER_PLATFORM_BACKEND, G_OTHER_PLATFORM_BACKEND);
const containerWords = guarded(CONTAINER_WORDS, G_CONTAINER_WORDS);
const fromSourceWord = guarded(FROM_SOURCE, G_FROM_SOURCE);
const cudnnOrConv = guarded(CUDNN_OR_CONV, G_CUDNN_OR_CONV);
const containerPy = guarded(CONTAINER_PY, G_CONTAINER_PY);
const ncclWord = guarded(NCCL, G_NCCL);
/** strerror texts (glibc) NCCL appends to a failed system call: the OS refused, not the GPU */
const OS_ERROR = regexOf(
  [
    eitherOf([
      /No space left on device|Permission denied|Address family not supported/, // ENOSPC, EACCES, EAFNOSUPPORT
      /Connection refused|Connection reset|Too many open files/, // ECONNREFUSED, ECONNRESET, EMFILE
      /Cannot allocate memory|Operation not permitted|No such device|Network is unreachable/, // ENOMEM, EPERM, ...
    ]),
  ],
  'i',
);
/** Paddle's own out-of-memory reports (its allocator's messages): with none, a cuDNN failure is not Paddle's memory */
const PADDLE_OOM = /^paddle[.-].*(?:oom|alloc|memory)|^paddle-gpu-oom/i;
/**
 * a cuDNN status Paddle relays ("CUDNN error(1), CUDNN_STATUS_NOT_INITIALIZED", 1.x's "Cudnn error, …") other than
 * ALLOC_FAILED
 */
const CUDNN_STATUS = /CUDNN_STATUS_(?!ALLOC_FAILED)[A-Z_]+/;
/** cuDNN statuses other than its own allocation failures (cudnn.h cudnnStatus_t) */
const TORCH_CUDNN_NOT_MEMORY =
  /CUDNN_STATUS_(?:INTERNAL_ERROR|BAD_PARAM|EXECUTION_FAILED|NOT_SUPPORTED|ARCH_MISMATCH|MAPPING_ERROR)/;
/** PyTorch's relay of a cuDNN status (ATen/cudnn/Exceptions.h: "cuDNN error: " and cudnnGetErrorString) */
const TORCH_CUDNN_ERROR = /\bcuDNN error: CUDNN_STATUS_[A-Z_]+/;
const torchCudnnNotMemory = nativeWhenAsked(TORCH_CUDNN_NOT_MEMORY);
const torchCudnnError = nativeWhenAsked(TORCH_CUDNN_ERROR);
const MEMORY_CAUSES: readonly RootCauseId[] = [
  'gpu_memory_exhausted',
  'framework_preallocation',
  'memory_held_by_other_process',
];
const VERSION_CAUSES: readonly RootCauseId[] = ['cudnn_version_mismatch', 'cuda_toolkit_mismatch', 'driver_too_old'];

/**
 * PaddlePaddle before 2.0 reserves its pool up front (fluid's naive_best_fit allocator takes
 * FLAGS_fraction_of_gpu_memory_to_use, 0.92 of the free memory by default); 2.0 made auto_growth the default. The
 * release is read from the stated version, else from a message only the 1.x allocator prints.
 */
function paddleBefore2(fw: Framework, env: EnvironmentFacts, signals: Map<string, SignalState>): boolean {
  if (fw !== 'paddle') return false;
  const v = env.frameworkVersion?.value;
  const major = v ? Number(/^(\d+)\./.exec(v)?.[1]) : NaN;
  if (Number.isFinite(major) && major > 0) return major < 2;
  return signals.has('paddle.enforce_allocating_le_available');
}

const MISSING_LIB_GROUPS: ReadonlySet<string> = new Set([
  'tf.could_not_load_dynamic_library',
  'lib.cannot_open_shared_object',
  'lib.dll_missing',
  'tf-selfcheck-missing-dll',
]);

/**
 * A message's usual causes, moved where what it carries says they cannot apply:
 * - a missing cuDNN library is not a CUDA toolkit mismatch: that reading of the message (another major installed)
 *   is, for cuDNN, another cuDNN major; the rest goes to the library not being installed;
 * - TensorRT (libnvinfer*) is optional for TensorFlow: dso_loader warns and TF-TRT is off; the job runs;
 * - NCCL's failed system calls (strerror texts) are the OS's refusal; a device refused for its compute capability
 *   is the GPU's architecture.
 */
function redirect(
  dist: Partial<Record<RootCauseId, number>>,
  st: SignalState,
  fw: Framework | undefined,
  inContainer = false,
  paddleOom = false,
  driverJit = false,
  tfCublasOnly = false,
  noCudaDevice = false,
  fromSource = false,
): Partial<Record<RootCauseId, number>> {
  const out = { ...dist };
  const move = (from: RootCauseId, to: RootCauseId, frac: number) => {
    const v = (out[from] ?? 0) * frac;
    if (v <= 0) return;
    out[from] = (out[from] ?? 0) - v;
    out[to] = (out[to] ?? 0) + v;
  };
  const text = Collector.matches(st)[0]?.text ?? '';
  // the driver's status name on the line decides among the message's readings: CUDA_ERROR_NO_DEVICE
  // (cudaErrorNoDevice) is cuInit finding no GPU it may use (none visible), whatever call printed it
  if (noDeviceStatus().test(text))
    for (const c of Object.keys(out) as RootCauseId[]) if (c !== 'no_device_visible') move(c, 'no_device_visible', 0.8);
  // a machine stated to have no NVIDIA GPU (another vendor's graphics, macOS) has no NVIDIA driver to be too old:
  // the CUDA runtime answers cudaErrorInsufficientDriver when it finds no driver at all, so a message read both
  // ways (an old driver, or none) is the second
  if (noCudaDevice && (out.no_device_visible ?? 0) > 0) move('driver_too_old', 'no_device_visible', 0.8);
  // ptxas's ISA refusal printed in the driver's JIT log (after CUDA_ERROR_UNSUPPORTED_PTX_VERSION) is the driver's
  // compiler: the driver is older than the toolkit that wrote the PTX, whatever toolkit is installed
  if (driverJit && st.group === PTXAS_ISA) move('cuda_toolkit_mismatch', 'driver_too_old', 0.9);
  // TensorFlow leaves a reserve outside its pool for the CUDA libraries; a cuBLAS handle (a few MiB) that cannot
  // be created under it means memory taken after TensorFlow started: another process, not TensorFlow's own pool
  if (tfCublasOnly && CUBLAS_HANDLE.test(text)) move('framework_preallocation', 'memory_held_by_other_process', 0.8);
  // cuDNN's status for a mix of sub-library versions names two copies of cuDNN loaded together, whatever prefix
  // ("cuDNN error: ", a backend descriptor's failure) prints it: the wrapper's other readings do not apply
  if (cudnnSublibraryStatus().test(text))
    for (const c of Object.keys(out) as RootCauseId[]) if (c !== 'library_conflict') move(c, 'library_conflict', 0.8);
  // NCCL reports a failed system call with the OS's own words (strerror): shared memory, sockets, files
  if (ncclWord.test(st.group) && OS_ERROR.test(text))
    for (const c of Object.keys(out) as RootCauseId[]) if (c !== 'other') move(c, 'other', 0.8);
  // a device that is not usable, said in terms of its compute capability, is about the GPU's architecture
  if (st.group === 'family.device' && /compute capability|\bsm_\d{2,3}\b/i.test(text))
    for (const c of Object.keys(out) as RootCauseId[])
      if (c !== 'gpu_arch_unsupported') move(c, 'gpu_arch_unsupported', 0.8);
  // NVML's "Unknown Error" inside a container is the container losing its /dev/nvidia* device access (a cgroup
  // rule dropped when systemd reloads units: nvidia-container-toolkit's documented troubleshooting), not the GPU
  if (inContainer && st.group === 'nvml-unknown-error') move('hardware_or_driver_fault', 'no_device_visible', 0.8);
  // Paddle creates its cuDNN handles when it sets a device up (phi/backends/gpu/gpu_resources.cc), before its own
  // tensors, and reports its memory failures itself (ResourceExhaustedError, BadAlloc); it loads whatever libcudnn
  // the system has against a wheel built for one CUDA/cuDNN pair. A cuDNN status relayed by Paddle with no memory
  // report of Paddle's is a version problem: the memory readings go to the version causes the message allows.
  if (fw === 'paddle' && !paddleOom && CUDNN_STATUS.test(text)) {
    const versions = VERSION_CAUSES.filter((c) => (out[c] ?? 0) > 0);
    const vsum = versions.reduce((a, c) => a + (out[c] ?? 0), 0);
    const moved = MEMORY_CAUSES.reduce((a, c) => a + (out[c] ?? 0) * 0.8, 0);
    if (moved > 0) {
      for (const c of MEMORY_CAUSES) if (out[c]) out[c] = out[c]! * 0.2;
      if (vsum > 0) for (const c of versions) out[c] = (out[c] ?? 0) + (moved * (out[c] ?? 0)) / vsum;
      else out.cudnn_version_mismatch = (out.cudnn_version_mismatch ?? 0) + moved;
    }
  }
  // PyTorch gives cuDNN its workspace from its own caching allocator, which reports a failed allocation itself
  // ("CUDA out of memory"): a cuDNN status PyTorch relays that is not cuDNN's own allocation status
  // (NOT_INITIALIZED from cudnnCreate, ALLOC_FAILED) is not the job's memory; that reading goes to the versions
  // the message allows
  if (fw === 'pytorch' && torchCudnnNotMemory().test(text)) {
    const versions = VERSION_CAUSES.filter((c) => (out[c] ?? 0) > 0);
    const vsum = versions.reduce((a, c) => a + (out[c] ?? 0), 0);
    const moved = MEMORY_CAUSES.reduce((a, c) => a + (out[c] ?? 0) * 0.8, 0);
    if (moved > 0 && vsum > 0) {
      for (const c of MEMORY_CAUSES) if (out[c]) out[c] = out[c]! * 0.2;
      for (const c of versions) out[c] = (out[c] ?? 0) + (moved * (out[c] ?? 0)) / vsum;
    }
  }
  // PyTorch's binaries bring the cuDNN they were built with (pip wheels bundle it, conda's pytorch pins its cudnn
  // package: "PyTorch already comes bundled with cuDNN", torch/backends/cudnn/__init__.py), so the version of a cuDNN
  // installed on the machine is not what a cuDNN status relayed by them ("cuDNN error: CUDNN_STATUS_…",
  // ATen/cudnn/Exceptions.h) is about (another copy loaded first is a conflict, which PyTorch's own version check
  // names); that reading goes to the other version causes the message allows: the CUDA the build was made for,
  // against the machine's toolkit or driver. Not for a build from source, which uses the machine's cuDNN.
  if (fw === 'pytorch' && !fromSource && torchCudnnError().test(text) && (out.cudnn_version_mismatch ?? 0) > 0) {
    const others = (['cuda_toolkit_mismatch', 'driver_too_old'] as RootCauseId[]).filter((c) => (out[c] ?? 0) > 0);
    const osum = others.reduce((a, c) => a + (out[c] ?? 0), 0);
    const moved = out.cudnn_version_mismatch! * 0.8;
    out.cudnn_version_mismatch = out.cudnn_version_mismatch! - moved;
    if (osum > 0) for (const c of others) out[c] = (out[c] ?? 0) + (moved * (out[c] ?? 0)) / osum;
    else out.cuda_toolkit_mismatch = (out.cuda_toolkit_mismatch ?? 0) + moved;
  }
  if (MISSING_LIB_GROUPS.has(st.group)) {
    const m = Collector.matches(st)[0];
    const lib = `${m?.values.lib ?? m?.values.v ?? ''} ${m?.text ?? ''}`;
    if (TENSORRT_LIB.test(lib) && (fw === 'tensorflow' || fw === 'keras')) {
      for (const c of Object.keys(out) as RootCauseId[]) if (c !== 'other') move(c, 'other', 0.7);
    } else if (CUDNN_LIB.test(m?.values.lib ?? m?.values.v ?? '')) {
      const v = out.cuda_toolkit_mismatch ?? 0;
      out.cuda_toolkit_mismatch = 0;
      out.cudnn_version_mismatch = (out.cudnn_version_mismatch ?? 0) + v / 2;
      out.library_missing = (out.library_missing ?? 0) + v / 2;
    }
  }
  return out;
}

/**
 * Windows has no fork(): Python's multiprocessing starts its workers with spawn there (the only start method), so a
 * CUDA failure cannot come from CUDA used in a fork()ed child. A cause the catalog gives for a message only as
 * that fork usage (its reason names fork) is shared out among the message's other causes on Windows.
 */
function noFork(
  dist: Partial<Record<RootCauseId, number>>,
  st: SignalState,
  platform: string,
): Partial<Record<RootCauseId, number>> {
  if (platform !== 'windows') return dist;
  const fork = (Object.keys(dist) as RootCauseId[]).filter((c) => /\bfork/i.test(st.sig.reasons[c] ?? ''));
  if (fork.length === 0) return dist;
  const moved = fork.reduce((a, c) => a + (dist[c] ?? 0), 0);
  const rest = (Object.keys(dist) as RootCauseId[]).filter((c) => !fork.includes(c));
  const restSum = rest.reduce((a, c) => a + (dist[c] ?? 0), 0);
  if (restSum <= 0) return dist;
  const out: Partial<Record<RootCauseId, number>> = {};
  for (const c of rest) out[c] = (dist[c] ?? 0) * (1 + moved / restSum);
  return out;
}

/**
 * TensorFlow and JAX reserve most of the GPU for their own pool up front (TF's allow_growth off and JAX's
 * XLA_PYTHON_CLIENT_PREALLOCATE true by default): a cuDNN/cuBLAS handle, a workspace or a CUDA context is
 * allocated outside that pool, so when one of those fails for lack of memory there, the pool holding the GPU is the
 * usual reason rather than the job's own size: half of the catalog's "exhausted" goes to the preallocation.
 */
function inFramework(
  causes: Partial<Record<RootCauseId, number>>,
  st: SignalState,
  fw: Framework | undefined,
): Partial<Record<RootCauseId, number>> {
  if (!fw || !PREALLOCATING.has(fw) || !OUTSIDE_POOL.test(st.group) || !causes.gpu_memory_exhausted) return causes;
  const v = causes.gpu_memory_exhausted / 2;
  return { ...causes, gpu_memory_exhausted: v, framework_preallocation: (causes.framework_preallocation ?? 0) + v };
}

/**
 * The message's meaning, and what it means under this cause when the catalog's reason adds to that meaning and to
 * the cause's title (readings.ts); kept as a reading so the answer can say the message once across the causes.
 */
function reasonOf(
  st: SignalState,
  cause: RootCauseId,
  readings: Map<string, Reading>,
  fw: Framework | undefined,
): string {
  // Chinese output: the catalog's meaning and reason in Chinese where src/base/i18n/signatures-zh.json has the row,
  // else the English of the catalog, whole (never a sentence half in each language)
  const zh = getLang() === 'zh' ? signatureZh(st.sig.id) : null;
  // a meaning or reason that names another framework than the input's is said in the row's neutral words
  const ownReason = st.sig.reasons[cause];
  const neutralWhat = neutralKey(st.sig.id, null, st.sig.summary, fw);
  const neutralWhy = ownReason === undefined ? null : neutralKey(st.sig.id, cause, ownReason, fw);
  const en = neutralWhy ? tIn('en', neutralWhy) : ownReason;
  const adds = en !== undefined && !reasonAddsNothing(en, cause, neutralWhat ? tIn('en', neutralWhat) : st.sig.summary);
  const what = neutralWhat
    ? t(neutralWhat).replace(/[.。]$/, '')
    : zh
      ? zh.summary.replace(/。$/, '')
      : st.sig.kind === 'family'
        ? st.sig.summary
        : st.sig.summary.replace(/\.$/, '');
  const why = adds ? (neutralWhy ? t(neutralWhy) : zh ? zh.reasons[cause] : en) : undefined;
  const text = why ? t(cause === 'other' ? 'why.sigHere' : 'why.sigOneReason', { what, why }) : what;
  const line = Collector.matches(st)[0]?.line ?? 0;
  if (!readings.has(text)) readings.set(text, { why: text, line, meaning: what, ...(why ? { reason: why } : {}) });
  return text;
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
  const stated = env.framework?.value;
  if (stated && stated !== 'other') return stated;
  const detected = col.detectedFramework();
  if (detected) return detected;
  // a message only one framework prints says whose log it is
  const printed = new Map<Framework, number>();
  // (in the case its source prints it: signatures ignore case, yet darknet's "CUDA Error: out of memory" is not
  // PyTorch's "CUDA error: out of memory")
  for (const st of col.signals.values()) {
    const m = Collector.matches(st)[0];
    if (!st.sig.framework || !m || !exactCase(m.sig, m.text)) continue;
    printed.set(st.sig.framework, (printed.get(st.sig.framework) ?? 0) + 1);
  }
  let best: Framework | undefined;
  for (const [f, n] of printed) if (!best || n > printed.get(best)!) best = f;
  return best;
}

function analyseXid(
  board: Board,
  signals: Map<string, SignalState>,
  ev: (st: SignalState, max?: number) => LogEvidence[],
): void {
  const st = signals.get('kernel.xid');
  if (!st) return;
  // Xid 13, 31, 43, 45: usually the application (illegal access, MMU fault in user code, killed context);
  // 48, 63, 64, 74, 79, 92, 94, 95, 119, 120, 122, 123: hardware, ECC, NVLink, bus, GSP firmware.
  const xids = new Set(Collector.matches(st).map((m) => Number(m.values.xid)));
  const hard = [48, 61, 62, 63, 64, 74, 79, 92, 94, 95, 119, 120, 122, 123, 140].filter((x) => xids.has(x));
  const app = [13, 31, 43, 45, 69].filter((x) => xids.has(x));
  if (hard.length > 0)
    board.add('hardware_or_driver_fault', 1.6, t('why.x.hard', { xids: hard.join(', ') }), ev(st, 2));
  if (app.length > 0 && hard.length === 0) {
    board.add('framework_bug', 0.6, t('why.x.app', { xids: app.join(', ') }), ev(st, 2));
    board.against('hardware_or_driver_fault', 0.8, t('why.x.appAgainst', { xids: app.join(', ') }));
  }
}

function summaryOf(id: RootCauseId, why: string[], setting: string | undefined): string {
  if (setting) return t('explain.settingTitle', { setting });
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

/** A test's command where the job runs: on native Windows an inline `NAME=value python …` is cmd's `set NAME=value`
 *  (cmd has no per-command environment; the job is then started as before). */
function testOnPlatform<T extends { command?: string }>(test: T | undefined, platform: string): T | undefined {
  if (!test?.command || platform !== 'windows') return test;
  const m = /^([A-Za-z_][A-Za-z0-9_]*)=(\S+) /.exec(test.command);
  return m ? { ...test, command: `set ${m[1]}=${m[2]}` } : test;
}
