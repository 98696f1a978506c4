// Gathers the Snapshot: runs each probe once, records its timing. Adding a probe = one module in src/gather/
// and one `timed(...)` line here (plus its schema section).
//
// The order is the speed: nvidia-smi is started first (on a datacenter GPU `-q -x` takes ~0.1 s, mostly waiting on the
// driver) and every file probe runs while it works: the system, the Python environments, the library inventory
// and the loader emulation. Only what needs its answer waits for it: the GPU processes (nvidia-smi's list joined
// with /proc) and the libraries those processes mapped. Between probes the event loop runs, so nvidia-smi's
// output is read as it comes instead of filling the pipe. With --deep, the smoke-test processes start as soon
// as the emulation has named their files (Python's start and the loading of cuDNN overlap the rest), and touch
// the GPU only once nvidia-smi and the process scan are done.
import { isFile, readTextOr } from '../../ports/fs.js';
import { probeEnv } from '../env.js';
import { probeKernelLog } from '../kernel-log.js';
import { probeNvidia } from '../nvidia/probe.js';
import { warmUpParser } from '../nvidia/parse-xml.js';
import type { NvidiaRuns } from '../nvidia/run.js';
import { parsePasswd, parseProcStatus } from '../procfs/parse.js';
import { holderPids, probeProcesses, sampleGpuProcessCpu } from '../procfs/processes.js';
import { timed, type ProbeEnv, type Timing } from '../probe-env.js';
import { probeSystem } from '../system.js';
import { probeToolkit } from '../toolkit.js';
import { isScanned, readPythonSection, runDeepProbes } from '../python/probe.js';
import { discoverDetailed, discoverEnvironments } from '../python/discover.js';
import { torchCudaLibrary } from '../python/build-info.js';
import { fatbinWithCache, recordedScan } from '../libraries/kept-scan.js';
import type { ScanFingerprint } from '../libraries/scan-record.js';
import { smokePlans, type SmokePlan } from '../python/smoke-plan.js';
import { runVerdicts } from '../python/run-trust.js';
import type { DiscoveredEnvironment } from '../python/discover.js';
import { t } from '../../base/i18n/index.js';
import { startSmokeTests, type StartedSmoke } from '../python/smoke.js';
import type { SmokeNotRun, SmokeSection } from './schema-smoke.js';
import { addProcesses, scanLibraries, type LibraryScan } from '../libraries/probe.js';
import type { LibrariesSection } from './schema-libraries.js';
import type { LibrariesEarly } from '../libraries/libraries-job.js';
import { TOOL_NAME, TOOL_VERSION } from '../../base/tool-version.js';
import type { Nvidia, Snapshot } from './schema.js';
import { SNAPSHOT_SCHEMA_VERSION } from './schema-version.js';

/** What to collect: everything (`check`, `snapshot`, …), or what `libs` shows (no nvidia-smi, no package scan). */
export type Scope = 'all' | 'libraries';

/**
 * The smoke test may take this many times --timeout (a CUDA context and cuDNN's first kernels take seconds on a busy
 * machine).
 */
const SMOKE_TIMEOUT_FACTOR = 6;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Work a command does on the snapshot so far while it waits (`check` judges it): while the scan's worker reads the
 * libraries (the snapshot without them; `answered()` turns true when they come), then, if nvidia-smi has not
 * answered yet, on every section but the GPU's (`answered()` turns true as soon as the answer comes).
 */
export type WhileWaiting = (soFar: Snapshot, answered: () => boolean) => Promise<void>;

/** What the snapshot so far says where nvidia-smi's answer is not there yet: no GPU facts, no GPU process. */
export const NOT_YET_ANSWERED: Pick<Snapshot, 'nvidia' | 'processes'> = {
  nvidia: { ok: false, failure: { reason: 'failed', message: 'nvidia-smi has not answered yet' } },
  processes: { ok: true, list: [] },
};

/**
 * `nvidiaStarted`: the nvidia-smi calls, when the command started them before loading this module (./run.ts).
 * `whileWaiting`: see WhileWaiting (not with --deep, which changes the Python section after the answer).
 * `librariesEarly`: the library scan started in a worker thread with nvidia-smi, for these options and ports
 * (../libraries/libraries-job.ts).
 */
export async function collectSnapshot(
  input: ProbeEnv,
  scope: Scope = 'all',
  nvidiaStarted?: NvidiaRuns,
  whileWaiting?: WhileWaiting,
  librariesEarly?: LibrariesEarly,
): Promise<Snapshot> {
  const probes: Timing[] = [];
  // One view of the files for the whole collection: every probe asks about the same folders (src/ports/fs.ts).
  const penv: ProbeEnv = { ...input, fs: input.fs.session?.() ?? input.fs };
  const { fs } = penv;
  const all = scope === 'all';
  const nvidiaPromise = all
    ? timed(
        probes,
        'nvidia-smi',
        () => probeNvidia(penv, nvidiaStarted),
        (n) => (n.ok ? true : n.failure.message),
        nvidiaStarted?.startedAt,
      )
    : Promise.resolve<Nvidia>({
        ok: false,
        failure: { reason: 'not-supported', message: 'not collected: `libs` does not run nvidia-smi' },
      });
  // Who has a GPU open, and their CPU ticks: before nvidia-smi returns, so that the second reading after it
  // gives each one's recent CPU use (src/gather/procfs/processes.ts).
  const cpuBefore = sampleGpuProcessCpu(fs, performance.now());
  const kernelLogPromise = all
    ? timed(
        probes,
        'kernel-log',
        () => probeKernelLog(penv),
        (k) =>
          k === null
            ? { note: 'not read (--root, or no dmesg)' }
            : k.readable
              ? true
              : { note: `not readable: ${k.detail ?? k.reason ?? '?'}` },
      )
    : Promise.resolve(undefined);
  let nvidiaAnswered = false;
  const answered = () => {
    nvidiaAnswered = true;
  };
  void nvidiaStarted?.results.then(answered, answered);
  let kernelLogSoFar: Snapshot['kernelLog'] | undefined;
  void kernelLogPromise.then((k) => {
    kernelLogSoFar = k ?? undefined;
  });
  await yieldToLoop();
  const system = (await timed(probes, 'system', () => probeSystem(fs, penv.env, process.arch)))!;
  const env = (await timed(probes, 'env', () => probeEnv(penv.env)))!;
  const self = (await timed(probes, 'self', () => probeSelf(penv)))!;
  const toolkit = all ? await timed(probes, 'toolkit', () => probeToolkit(fs, penv.env)) : undefined;
  // The Python environments (file names only, ms). torch's GPU architectures are read from libtorch_cuda.so's
  // fatbinary headers in a worker thread (tens of thousands of small reads) while this thread reads the libraries.
  const discovered = all ? safeDiscoverDetailed(penv) : null;
  const environments = discovered ?? safeDiscover(penv);
  const torchLibraries = (discovered ?? [])
    .filter((e) => isScanned(e, penv.options.allEnvs))
    .flatMap((e) => e.sitePackages.map(torchCudaLibrary))
    .filter((p) => isFile(fs, p));
  const kept = librariesEarly?.cache;
  const fatbinPromise = timed(
    probes,
    'torch-fatbin',
    () => fatbinWithCache(fs, torchLibraries, kept),
    (f) => ({
      note:
        `${torchLibraries.length} file(s) ` +
        `${f.thread === 'cache' ? 'unchanged since read before (cache)' : `read in the ${f.thread} thread`}${
          [...f.results.values()].some((t) => t === null)
            ? '; no answer for ' + 'some (their architectures are unknown)'
            : ''
        }`,
    }),
  );
  await yieldToLoop();
  // The inventory and the loader emulation: in the worker thread started with nvidia-smi, where there is one and no
  // process holds a GPU (a process's libraries are compared with the emulation's objects, which stay in the worker);
  // else here. The worker's section is used only if it scanned the environments found here.
  const noHolder = all && holderPids(cpuBefore).length === 0;
  const offloaded = noHolder && librariesEarly?.worker ? librariesEarly : undefined;
  if (librariesEarly && !offloaded) librariesEarly.worker?.stop();
  // What the scan read (here, or in the worker), to keep its answer where no process was compared with it.
  let fingerprint: ScanFingerprint | { refused: string } | undefined;
  const scanHere = async (): Promise<LibraryScan> => {
    if (!(noHolder && kept && penv.options.pids.length === 0)) return scanLibraries(penv, environments);
    const r = await recordedScan(penv, environments);
    fingerprint = r.fingerprint;
    return r.scan;
  };
  let scan = offloaded ? undefined : await timed(probes, 'libraries', scanHere);
  // where the scan's timing stands in the list when it runs here: the worker's takes the same place
  const librariesAt = probes.length;
  await yieldToLoop();
  // What each environment has installed, from files (ms); `libs` needs only where they are, not what they hold.
  const fatbin = (await fatbinPromise)?.results ?? new Map();
  const python = discovered
    ? await timed(probes, 'python', () => readPythonSection(penv, { discovered, fatbin }))
    : undefined;
  let section: LibrariesSection | undefined;
  let sectionTiming: Timing | undefined;
  const hostName = readHostName(fs);
  const judgeEarly = all && nvidiaStarted !== undefined && whileWaiting !== undefined && penv.options.deep === 'off';
  // what the early checks see: the same sections (the same objects) as the snapshot returned below, but for what
  // needs nvidia-smi's answer, and the libraries where they are not here yet
  const soFarWith = (libraries: LibrariesSection | undefined) =>
    assemble(penv, hostName, {
      self,
      system,
      ...NOT_YET_ANSWERED,
      env,
      probes: [...probes],
      toolkit,
      python,
      libraries,
      kernelLog: kernelLogSoFar,
    });
  if (offloaded) {
    const pending = offloaded.worker!.result();
    // While the worker scans, the checks begin on what is here: those that read the libraries run again once
    // they came (prejudge compares what each read), the others are done by then.
    if (judgeEarly && whileWaiting) {
      let arrived = false;
      void pending.finally(() => {
        arrived = true;
      });
      try {
        await whileWaiting(soFarWith(undefined), () => arrived);
      } catch {
        // work done ahead of time only (as below)
      }
    }
    const posted = await pending;
    if (posted && posted.environments === JSON.stringify(environments)) {
      section = posted.section;
      sectionTiming = {
        id: 'libraries',
        ok: true,
        // from the worker's start to its answer (not to this thread's asking)
        durationMs: Math.round((posted.doneAt - performance.timeOrigin - offloaded.startedAt) * 10) / 10,
        message: offloaded.fromCache
          ? `the last scan's answer: the ${offloaded.cache?.checked ?? 0} files, folders and variables it read ` +
            'are unchanged'
          : 'read in a worker thread',
      };
      probes.splice(librariesAt, 0, sectionTiming);
      fingerprint = posted.fingerprint;
    } else scan = await timed(probes, 'libraries', () => scanLibraries(penv, environments));
  }
  // planned from the files the emulation resolved: the worker's (or the kept) section's, else the scan's here
  const smoke = all && penv.options.deep !== 'off' ? startSmoke(penv, section ?? scan, python, discovered ?? []) : null;
  // Still waiting: the XML parser's code is compiled now, on a small document, rather than on the real answer.
  if (all && nvidiaStarted && !nvidiaAnswered) warmUpParser();
  if (judgeEarly && whileWaiting && !nvidiaAnswered) {
    try {
      // --pid: the named processes' libraries are read once, after the answer
      const libraries = section ?? (scan && penv.options.pids.length === 0 ? addProcesses(scan, []) : undefined);
      await whileWaiting(soFarWith(libraries), () => nvidiaAnswered);
    } catch {
      // work done ahead of time only: what failed there is done again (and fails, if it must) after the answer
    }
  }
  try {
    const nvidia: Nvidia = (await nvidiaPromise) ?? {
      ok: false,
      failure: { reason: 'failed', message: 'the nvidia-smi probe failed' },
    };
    const processes = (await timed(
      probes,
      'processes',
      () => probeProcesses(fs, nvidia, penv.pid, penv.now(), cpuBefore, performance.now()),
      (p) => p.message ?? true,
    )) ?? {
      ok: false,
      message: 'the process probe failed',
      list: [],
    };
    const gpuPids = all ? processes.list.filter((p) => p.visible).map((p) => p.pid) : holderPids(cpuBefore);
    // the worker's section, where still no process is to be compared; else (a GPU process appeared since) the scan here
    if (section && gpuPids.length > 0) {
      section = undefined;
      if (sectionTiming) probes.splice(probes.indexOf(sectionTiming), 1);
      scan = await timed(probes, 'libraries', () => scanLibraries(penv, environments));
    }
    const full = scan;
    const libraries: LibrariesSection | undefined =
      section ??
      (full
        ? await timed(
            probes,
            'library-processes',
            () => addProcesses(full, gpuPids),
            (l) => l.message ?? true,
          )
        : undefined);
    // The GPU is ours now: the smoke tests run, then (--deep=frameworks) the framework imports, one after the other,
    // so that neither measures the memory the other holds. A driver that did not answer nvidia-smi would hang them too.
    if (smoke?.started && !nvidia.ok && nvidia.failure.reason === 'timeout') {
      smoke.started.stop();
      smoke.started = null;
      smoke.skipped =
        'nvidia-smi did not answer in time: the smoke test did not touch the GPU (it would hang the same way)';
    }
    smoke?.started?.go();
    const smokeSection = smoke
      ? await timed(
          probes,
          'cudnn-smoke',
          () => finishSmoke(smoke),
          (s) => s.skipped ?? true,
        )
      : undefined;
    const pythonFinal =
      python && penv.options.deep === 'frameworks'
        ? await timed(probes, 'python-deep', () => runDeepProbes(penv, python))
        : python;
    const kernelLog = (await kernelLogPromise) ?? null;
    if (kept && libraries && fingerprint && !('refused' in fingerprint) && gpuPids.length === 0)
      kept.store.rememberScan({
        key: kept.key,
        fingerprint,
        environments: JSON.stringify(environments),
        section: libraries,
      });
    kept?.store.save();
    return assemble(penv, hostName, {
      self,
      system,
      nvidia,
      processes,
      env,
      probes,
      toolkit,
      python: pythonFinal,
      libraries,
      smoke: smokeSection,
      kernelLog,
    });
  } finally {
    // never leave a smoke process waiting for its go-ahead (it would sit until its time limit)
    smoke?.started?.go();
  }
}

type Sections = Pick<Snapshot, 'self' | 'system' | 'nvidia' | 'processes' | 'env' | 'probes'> & {
  [K in 'toolkit' | 'python' | 'libraries' | 'smoke' | 'kernelLog']?: Snapshot[K] | null | undefined;
};

/** The snapshot of these sections, in the schema's key order; an optional section that is absent is left out. */
function assemble(penv: ProbeEnv, hostName: string, s: Sections): Snapshot {
  const { toolkit, python, libraries, smoke, kernelLog, ...required } = s;
  return {
    schemaVersion: SNAPSHOT_SCHEMA_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    collectedAt: new Date(penv.now()).toISOString(),
    host: { name: hostName },
    self: required.self,
    system: required.system,
    nvidia: required.nvidia,
    processes: required.processes,
    env: required.env,
    probes: required.probes,
    ...(toolkit ? { toolkit } : {}),
    ...(python ? { python } : {}),
    ...(libraries ? { libraries } : {}),
    ...(smoke ? { smoke } : {}),
    ...(kernelLog ? { kernelLog } : {}),
  };
}

function readHostName(fs: ProbeEnv['fs']): string {
  return (
    (readTextOr(fs, '/proc/sys/kernel/hostname') ?? readTextOr(fs, '/etc/hostname') ?? 'unknown').trim() || 'unknown'
  );
}

interface SmokeStart {
  started: StartedSmoke | null;
  skipped: string | null;
  notRun: SmokeNotRun[];
}

function startSmoke(
  penv: ProbeEnv,
  scan: Pick<LibrariesSection, 'consumers'> | undefined,
  python: Snapshot['python'] | undefined,
  discovered: readonly DiscoveredEnvironment[],
): SmokeStart {
  if (penv.fs.root !== '/')
    return {
      started: null,
      skipped: `the smoke test does not run with --root ${penv.fs.root}: those libraries are not this machine's`,
      notRun: [],
    };
  if (!scan) return { started: null, skipped: 'the library probe failed: no files to test', notRun: [] };
  // Only what the caller named or is running is executed or loaded (src/gather/python/run-trust.ts): the files of every
  // other environment were read for the facts above, but their interpreter and library constructors never run.
  const verdicts = runVerdicts(penv.fs, discovered, penv.options.allEnvs);
  const allowed = (env: string | null) => env === null || verdicts.get(env)?.run === true;
  const planned = smokePlans(scan);
  const { plans, skipped } = smokePlans({ consumers: scan.consumers.filter((c) => allowed(c.environment)) });
  const interpreters = new Map((python?.environments ?? []).map((e) => [e.prefix, e.interpreter]));
  // What would have been tested, per environment, and why it was not.
  const notRun: SmokeNotRun[] = [];
  for (const env of new Set(planned.plans.flatMap((p) => p.consumers.map((c) => c.environment)))) {
    const v = env === null ? undefined : verdicts.get(env);
    if (env !== null && v && !v.run)
      notRun.push({ environment: env, interpreter: interpreters.get(env) ?? null, reason: v.why });
  }
  const interpreterOf = (p: SmokePlan) =>
    p.consumers.map((c) => (c.environment ? interpreters.get(c.environment) : null)).find((i): i is string => !!i) ??
    'python3';
  if (penv.options.allEnvs && penv.announce) {
    const starting = [...new Set(plans.map(interpreterOf))];
    penv.announce(
      t('smoke.announce', {
        starting: starting.length > 0 ? starting.join(', ') : t('smoke.announceNone'),
        refused:
          notRun.length > 0 ? notRun.map((n) => `${n.environment} (${n.reason})`).join('; ') : t('smoke.announceNone'),
      }),
    );
  }
  if (plans.length === 0) {
    const refused =
      notRun.length > 0 ? `not run for ${notRun.map((n) => `${n.environment}: ${n.reason}`).join('; ')}` : null;
    return { started: null, skipped: refused ?? skipped, notRun };
  }
  const started = startSmokeTests(plans, interpreterOf, {
    runner: penv.runner,
    env: penv.env,
    timeoutMs: penv.options.timeoutMs * SMOKE_TIMEOUT_FACTOR,
  });
  return { started, skipped: null, notRun };
}

async function finishSmoke(s: SmokeStart): Promise<SmokeSection> {
  return {
    skipped: s.skipped,
    runs: s.started ? await s.started.results : [],
    ...(s.notRun.length > 0 ? { notRun: s.notRun } : {}),
  };
}

export function probeSelf(penv: ProbeEnv): Snapshot['self'] {
  const status = parseProcStatus(readTextOr(penv.fs, '/proc/self/status') ?? '');
  const uidText = status.get('Uid')?.split(/\s+/)[0];
  const uid = uidText && /^\d+$/.test(uidText) ? Number(uidText) : null;
  const users = parsePasswd(readTextOr(penv.fs, '/etc/passwd') ?? '');
  let ns: string | null = null;
  try {
    ns = penv.fs.readlink('/proc/self/ns/pid');
  } catch {
    ns = null;
  }
  return { pid: penv.pid, uid, user: uid === null ? null : (users.get(uid) ?? String(uid)), pidNamespace: ns };
}

/** The environments, never throwing through: a failure there must not lose the library facts. */
function safeDiscover(penv: ProbeEnv) {
  try {
    return discoverEnvironments(penv);
  } catch {
    return [];
  }
}

function safeDiscoverDetailed(penv: ProbeEnv) {
  try {
    return discoverDetailed(penv);
  } catch {
    return [];
  }
}
