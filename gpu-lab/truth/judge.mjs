// The truth table's judge: reads what gpu-lab/truth-table.sh recorded for each scenario (the framework jobs'
// exit codes and output, the JSON of check, check --deep, explain, run, procs, libs) and decides by code
// whether what each command said agrees with what the framework did. Prints one Markdown table.
//   node gpu-lab/truth/judge.mjs WORK_FOLDER > truth-table.md
// Node 20, standard library only (it runs on the GPU machine next to dist/cli.js).
import * as fs from 'node:fs';
import * as path from 'node:path';

// ------------------------------------------------------------------ reading the records
const read = (d, f) => {
  try {
    return fs.readFileSync(path.join(d, f), 'utf8');
  } catch {
    return null;
  }
};
const readJson = (d, f) => {
  const t = read(d, f);
  if (t === null || t.trim() === '') return null;
  try {
    return JSON.parse(t);
  } catch {
    return null;
  }
};
const exitOf = (d, f) => {
  const t = read(d, f);
  return t === null ? null : Number(t.trim());
};
function meta(d) {
  const m = {};
  for (const l of (read(d, 'meta.env') ?? '').split('\n')) {
    const i = l.indexOf('=');
    if (i > 0) m[l.slice(0, i)] = l.slice(i + 1);
  }
  m.causes = !m.causes || m.causes === '-' ? [] : m.causes.split(',');
  return m;
}

/** A job's facts: exit code, the decisive error line, and where JAX ran (it falls back to the CPU silently). */
export function jobFacts(d, name) {
  const out = read(d, `job-${name}.out`);
  const exit = exitOf(d, `job-${name}.exit`);
  if (out === null || exit === null) return null;
  const lines = out.split('\n').filter((l) => l.trim() !== '');
  const okLine = lines.find((l) => l.startsWith('JOB-OK'));
  const ranOn = /platform (\w+)/.exec(okLine ?? '')?.[1] ?? null;
  // The decisive line: a C++ abort's what(), else the last exception line ("RuntimeError: …"), a CUDA error, XLA's.
  const errLine =
    lines.find((l) => /^\s*what\(\):/.test(l)) ??
    [...lines]
      .reverse()
      .find((l) =>
        /^[\w.]*(Error|Exception):|^CUDA error|Error \d{3}|RESOURCE_EXHAUSTED|Falling back to cpu/.test(l),
      ) ??
    (exit !== 0 ? (lines.at(-1) ?? '') : '');
  const memory = (() => {
    const m = /memory (\{.*\})/.exec(okLine ?? '');
    try {
      return m ? JSON.parse(m[1]) : null;
    } catch {
      return null;
    }
  })();
  return { name, exit, ok: exit === 0 && ranOn !== 'cpu', ranOn, errLine: errLine.trim(), memory, out };
}
const failed = (j) => j !== null && !j.ok;

/** `run --report FILE.json` writes the report to a file; older builds took --json and wrote it on stderr. */
export function runJson(d, name) {
  const file = readJson(d, `run-${name}.json`);
  if (file) return file;
  const t = read(d, `run-${name}.stderr`);
  if (!t) return null;
  const at = t.startsWith('{\n') ? 0 : t.lastIndexOf('\n{\n') + 1;
  if (at < 0) return null;
  try {
    return JSON.parse(t.slice(at));
  } catch {
    return null;
  }
}

const findingsOf = (j) => (j && Array.isArray(j.findings) ? j.findings : []);
const problems = (j) =>
  findingsOf(j).filter(
    (f) => f.status === 'fail' || f.status === 'warn' || f.status === 'crash' || f.status === 'unknown',
  );
const topCause = (d) => (d && Array.isArray(d.causes) && d.causes[0] ? d.causes[0] : null);
const causeText = (c) => (c ? `${c.id} ${Math.round((c.confidence ?? 0) * 100)}%` : 'no cause');
const short = (s, n = 150) => {
  const t = String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};
const mark = (f) =>
  f.severity === 'error' && f.status === 'fail' ? '✗' : f.status === 'ok' ? '✓' : f.status === 'unknown' ? '?' : '!';
const says = (fs_) =>
  fs_.length === 0
    ? 'nothing wrong'
    : fs_
        .slice(0, 2)
        .map((f) => `${mark(f)} ${short(f.message, 120)}`)
        .join('; ') + (fs_.length > 2 ? ` (+${fs_.length - 2})` : '');

/** The findings that claim this framework's job fails, for one of these root causes (at a certainty worth saying). */
function claimsFailure(check, fw, causes) {
  return findingsOf(check).filter((f) => {
    const forFw = !f.affects?.framework || f.affects.framework === fw;
    const byConsequence = (f.consequences ?? []).some(
      (q) => (q.framework ?? fw) === fw && q.outcome === 'fails' && q.certainty !== 'possible',
    );
    const byFinding =
      f.severity === 'error' &&
      f.status === 'fail' &&
      causes.includes(f.rootCause) &&
      forFw &&
      !(f.consequences ?? []).some((q) => q.framework === fw && q.outcome === 'runs' && q.certainty === 'verified');
    return byConsequence || byFinding;
  });
}
const deepOf = (d) => readJson(d, 'deep-frameworks.json') ?? readJson(d, 'deep.json');
const deepFor = (deep, fw) =>
  findingsOf(deep).filter(
    (f) => (f.check === 'python.deep-conv' || f.check === 'python.import-failed') && f.affects?.framework === fw,
  );

// ------------------------------------------------------------------ the generic rule
/**
 * One job, one framework, the root causes that explain its failure:
 *  check: a failing job ↔ a problem with one of those causes (or a consequence "fails" for the framework);
 *         a job that ran ↔ no error claiming that framework fails;
 *  deep:  a failing job ↔ the framework's convolution finding fails;
 *  explain, run: on a failure the top cause is one of them; run passes the exit code through.
 */
function generic(d, m, job, o = {}) {
  const cells = {};
  const agree = {};
  const fw = o.framework ?? m.framework;
  const check = readJson(d, 'check.json');
  if (check) {
    const claims = claimsFailure(check, fw, m.causes);
    const relevant = problems(check).filter(
      (f) => m.causes.includes(f.rootCause) || (f.consequences ?? []).some((q) => (q.framework ?? fw) === fw),
    );
    cells.check = says(relevant.length > 0 ? relevant : claims);
    agree.check = failed(job) ? relevant.length > 0 || claims.length > 0 : claims.length === 0;
  }
  const deep = deepOf(d);
  if (deep) {
    const fs_ = deepFor(deep, fw);
    cells.deep = says(fs_.filter((f) => f.status !== 'skip'));
    const fails = fs_.some((f) => f.status === 'fail');
    agree.deep = fs_.length === 0 ? null : failed(job) === fails;
  }
  const ex = readJson(d, `explain-${job?.name}.json`);
  if (ex) {
    cells.explain = causeText(topCause(ex));
    agree.explain = failed(job) ? m.causes.length === 0 || m.causes.includes(topCause(ex)?.id) : null;
  }
  const run = runJson(d, job?.name);
  const runExit = exitOf(d, `run-${job?.name}.exit`);
  if (runExit !== null) {
    const top = topCause(run?.diagnosis);
    cells.run = `exit ${runExit}${failed(job) ? `, ${causeText(top)}` : ''}`;
    const passed = (runExit === 0) === (job?.exit === 0);
    agree.run = passed && (!failed(job) || job.exit === 0 || m.causes.length === 0 || m.causes.includes(top?.id));
  }
  return { cells, agree };
}

const did = (j) =>
  j === null
    ? 'not run'
    : j.ok
      ? `${j.name}: ran (exit 0${j.ranOn ? `, ${j.ranOn}` : ''})`
      : `${j.name}: exit ${j.exit}${j.ranOn === 'cpu' ? ', ran on the CPU' : ''}: ${short(j.errLine, 140)}`;

// ------------------------------------------------------------------ the scenarios
const RULES = {
  idle(d) {
    const txt = read(d, 'check.txt') ?? '';
    const envLine = txt.split('\n').find((l) => l.startsWith('[✓] Environment variables')) ?? '';
    const okLines = txt.split('\n').filter((l) => l.startsWith('[✓]'));
    const alarming = okLines.filter((l) => /ahead of|shadow|\bfails?\b|broken|mismatch|conflict/i.test(l));
    return {
      did: 'nothing runs (the machine at rest)',
      cells: { check: short(envLine || 'no environment line', 160) },
      agree: { check: alarming.length === 0 },
    };
  },
  baseline(d, m) {
    const t = jobFacts(d, 'torch');
    const j = jobFacts(d, 'jax');
    const g = generic(d, m, t);
    const check = readJson(d, 'check.json');
    g.agree.check =
      (t?.ok ?? false) && (j?.ok ?? false) ? problems(check).every((f) => f.severity !== 'error') : g.agree.check;
    return { did: `${did(t)}; ${did(j)}`, ...g };
  },
  'system-cudnn-torch'(d, m) {
    const conv = jobFacts(d, 'conv');
    const version = jobFacts(d, 'version');
    const g = generic(d, m, version);
    const check = readJson(d, 'check.json');
    const mix = findingsOf(check).find(
      (f) => f.check === 'libs.cudnn-sublibrary-mismatch' && f.affects?.framework === 'torch',
    );
    const qs = mix?.consequences ?? [];
    const sayRuns = qs.some((q) => q.outcome === 'runs');
    const sayFails = qs.some((q) => q.outcome === 'fails' && q.certainty !== 'possible');
    g.cells.check = mix
      ? `${mark(mix)} ${short(mix.message, 110)} → ${qs.map((q) => `${q.outcome} [${q.certainty}]`).join(', ')}`
      : 'no sub-library finding for torch';
    g.agree.check = mix !== undefined && sayRuns === (conv?.ok ?? false) && sayFails === failed(version);
    const deep = deepFor(deepOf(d), 'torch');
    if (deep.length > 0) {
      const raisedAfter = deep.some((f) => f.status === 'fail' && /version\(\) raised|cuDNN/.test(f.message));
      g.agree.deep = raisedAfter === failed(version);
    }
    return { did: `${did(conv)}; ${did(version)}`, ...g };
  },
  'system-cudnn-jax'(d, m) {
    const j = jobFacts(d, 'conv');
    return { did: did(j), ...generic(d, m, j) };
  },
  'compat-libcuda'(d, m) {
    const t = jobFacts(d, 'torch');
    const j = jobFacts(d, 'jax');
    return { did: `${did(t)}; ${did(j)}`, ...generic(d, m, t) };
  },
  'wrong-arch'(d, m) {
    const k = jobFacts(d, 'kernel');
    const g = generic(d, m, k, { framework: 'cuda' });
    // check does not look at the user's own binaries: no claim to compare
    g.agree.check =
      claimsFailure(readJson(d, 'check.json'), 'cuda', ['gpu_arch_unsupported']).length === 0 ? null : false;
    const libs = readJson(d, 'libs-elf.json');
    const trace = read(d, 'ld-debug.txt') ?? '';
    if (libs) {
      const c = (libs.consumers ?? []).find((x) => x.framework === null);
      const claimed = (c?.resolved ?? []).filter((r) => r.how === 'dlopen').map((r) => r.name);
      const seen = [...trace.matchAll(/find library=([^\s;]+)/g)].map((x) => x[1]);
      g.cells.libs = `dlopen claimed: ${claimed.join(', ') || 'none'}; the loader looked up: ${[...new Set(seen)].filter((n) => n.startsWith('libcuda')).join(', ') || 'no libcuda'}`;
      g.agree.libs =
        claimed.every((n) => seen.includes(n)) &&
        (seen.includes('libcuda.so.1') ? claimed.includes('libcuda.so.1') : true);
    }
    return { did: did(k), ...g };
  },
  'elf-plain'(d) {
    const libs = readJson(d, 'libs-elf.json');
    const trace = read(d, 'ld-trace.txt') ?? '';
    const c = (libs?.consumers ?? []).find((x) => x.framework === null);
    const lines = [...trace.matchAll(/^\s+(\S+) => (\S+)/gm)].map((x) => ({ name: x[1], path: x[2] }));
    const mismatches = lines.filter((l) => {
      const r = (c?.resolved ?? []).find((x) => x.name === l.name);
      if (!r) return true;
      if (l.path === 'not') return r.via !== 'not_found';
      try {
        return fs.realpathSync(l.path) !== (r.realPath ?? r.path);
      } catch {
        return true;
      }
    });
    const dl = (c?.resolved ?? []).filter((r) => r.how === 'dlopen');
    return {
      did: `the real loader resolved ${lines.length} libraries (LD_TRACE_LOADED_OBJECTS)`,
      cells: {
        libs: `${(c?.resolved ?? []).length} resolved, ${mismatches.length} differ from the loader${mismatches.length ? ` (${mismatches.map((x) => x.name).join(', ')})` : ''}, dlopen claimed: ${dl.map((r) => r.name).join(', ') || 'none'}`,
      },
      agree: { libs: c !== undefined && lines.length > 0 && mismatches.length === 0 && dl.length === 0 },
    };
  },
  'tf-growth-invalid'(d, m) {
    const staged = read(d, 'not-staged') === null;
    const check = readJson(d, 'check.json');
    const f = findingsOf(check).find(
      (x) => x.check === 'env.allocators' && /TF_FORCE_GPU_ALLOW_GROWTH/.test(x.message),
    );
    const g = {
      cells: { check: f ? `${mark(f)} ${short(f.message, 140)}` : 'nothing' },
      agree: { check: staged ? null : null },
    };
    return {
      did: staged
        ? did(jobFacts(d, 'tf'))
        : "not staged: TensorFlow is not installed here (covered by fakes: test/checks/allocator-settings.test.ts, TensorFlow's GetAllowGrowthValue)",
      ...g,
      note: f ? "check states it as expected from TensorFlow's source" : 'check said nothing',
    };
  },
  'too-big'(d, m) {
    const j = jobFacts(d, 'gib');
    const g = generic(d, m, j);
    g.agree.check = !problems(readJson(d, 'check.json')).some(
      (f) => f.severity === 'error' && f.rootCause === 'memory_held_by_other_process',
    );
    return { did: did(j), ...g };
  },
  'growth-rescue'(d, m) {
    const def = jobFacts(d, 'default');
    const growth = jobFacts(d, 'growth');
    const g = generic(d, m, def);
    const deep = deepFor(deepOf(d), 'jax');
    if (deep.length > 0) {
      const saysRescue = deep.some((f) => /ran with XLA_PYTHON_CLIENT_PREALLOCATE=false/.test(f.message));
      g.agree.deep = saysRescue === (failed(def) && (growth?.ok ?? false));
    }
    return { did: `${did(def)}; with XLA_PYTHON_CLIENT_PREALLOCATE=false ${did(growth)}`, ...g };
  },
};

/** holder-orphaned, holder-stopped, holder-live, jax-prealloc-beside-torch, torch-beside-jax: the holder's verdict and framework. */
function holderRule(d, m) {
  const jobName = fs.existsSync(path.join(d, 'job-gib.out')) ? 'gib' : 'conv';
  const j = jobFacts(d, jobName);
  const g = generic(d, m, j);
  const [pidText, fw, state] = (read(d, 'holders.txt') ?? '').trim().split(/\s+/);
  const pid = Number(pidText);
  const procs = readJson(d, 'procs.json');
  const row = (procs?.processes ?? []).find((p) => p.pid === pid || p.nvidiaSmiPid === pid);
  if (procs) {
    const wantVerdict = state === 'orphaned' ? ['orphaned'] : state === 'stopped' ? ['stopped'] : ['active', 'idle'];
    g.cells.procs = row
      ? `PID ${pid}: ${row.verdict}, ${row.framework ? row.framework.name : 'no framework'}${row.policy ? `: ${short(row.policy.summary, 90)}` : ''}`
      : `PID ${pid} not listed`;
    g.agree.procs =
      row !== undefined && row.framework?.name === fw && (state === undefined || wantVerdict.includes(row.verdict));
  }
  const check = readJson(d, 'check.json');
  if (check && m.id === 'jax-prealloc-beside-torch') {
    const head = findingsOf(check).find((f) => f.check === 'memory.headroom');
    g.cells.check = head ? `${mark(head)} ${short(head.message, 140)}` : g.cells.check;
    g.agree.check =
      head !== undefined && /JAX/.test(`${head.message} ${(head.evidence ?? []).map((e) => e.text).join(' ')}`);
  }
  if (check && state) {
    // What check says about this holder: memory.holders' finding when its GPU has room, else its line in the
    // evidence of memory.headroom (one cause, one finding), which starts "PID N name (user, framework) holds X: verdict, why".
    const holderTexts = [
      ...findingsOf(check)
        .filter((f) => f.check === 'memory.holders' && f.affects?.pid === row?.pid)
        .map((f) => f.message),
      ...findingsOf(check)
        .filter((f) => f.check === 'memory.headroom')
        .flatMap((f) => (f.evidence ?? []).map((e) => e.text))
        .filter((t) => t.startsWith(`PID ${row?.pid ?? pid} `)),
    ];
    const saysStale = holderTexts.some((t) => /orphaned|stopped|has exited|adopted it|leftover/.test(t));
    g.cells.check =
      holderTexts.length > 0
        ? holderTexts.map((t) => short(t, 160)).join('; ')
        : says(problems(check).filter((f) => f.check.startsWith('memory.')));
    g.agree.check = state === 'live' ? !saysStale : saysStale;
  }
  // the arithmetic: "without PID N … this job … fits"
  const ex = readJson(d, `explain-${jobName}.json`);
  if (ex && m.id === 'jax-prealloc-beside-torch' && failed(j)) {
    const all = (ex.causes ?? []).flatMap((c) => [...(c.evidence ?? []).map((e) => e.text), ...(c.why ?? [])]);
    const sum = all.find((t) => /^(even )?without PID/.test(t));
    g.cells.explain = `${g.cells.explain}${sum ? `; ${short(sum, 110)}` : '; no arithmetic'}`;
    g.agree.explain = (g.agree.explain ?? true) && sum !== undefined;
  }
  return {
    did: `${did(j)}${row?.usedMiB ? ` (holder PID ${pid} ${fw}${state ? `, ${state}` : ''}: ${row.usedMiB} MiB)` : ''}`,
    ...g,
  };
}

/** PYTORCH_CUDA_ALLOC_CONF: when torch fails (import / first CUDA call / not at all) against what check says. */
function allocRule(d, m) {
  const j = jobFacts(d, 'alloc');
  const phase =
    j === null
      ? null
      : j.exit === 0
        ? 'ok'
        : j.exit === 134 || /terminate called|INTERNAL ASSERT/.test(j.out)
          ? 'import'
          : 'first CUDA call';
  const check = readJson(d, 'check.json');
  const f = findingsOf(check).find(
    (x) => x.check === 'env.allocators' && /PYTORCH_(CUDA_)?ALLOC_CONF/.test(x.message) && x.status !== 'ok',
  );
  const predicted = !f
    ? 'ok'
    : /aborts at import/.test(f.message)
      ? 'import'
      : /first CUDA call/.test(f.message)
        ? 'first CUDA call'
        : 'other';
  const g = generic(d, m, j);
  g.cells.check = f ? `${mark(f)} ${short(f.message, 140)}` : 'nothing wrong';
  g.agree.check = phase === predicted;
  // explain has no signature for allocator-setting errors: "no cause" is not a wrong statement, only no help.
  g.agree.explain = null;
  // run: the exit code passed through, and on a failure the machine's findings name the setting.
  const run = runJson(d, 'alloc');
  const runExit = exitOf(d, 'run-alloc.exit');
  if (runExit !== null && j !== null) {
    const named = findingsOf(run).some((x) => x.check === 'env.allocators' && x.severity === 'error');
    g.cells.run = `exit ${runExit}${failed(j) ? `, ${named ? 'the setting named in its findings' : 'the setting not named'}` : ''}`;
    g.agree.run = (runExit === 0) === (j.exit === 0) && (!failed(j) || named);
  }
  return { did: `${did(j)} (fails at: ${phase ?? '?'})`, ...g };
}

/** CUDA_VISIBLE_DEVICES: torch sees no GPU, JAX falls back to the CPU; a valid UUID prefix works. */
function cvdRule(d, m) {
  const t = jobFacts(d, 'torch');
  const j = jobFacts(d, 'jax');
  const g = generic(d, m, t);
  return { did: `${did(t)}; ${did(j)}`, ...g };
}

/** JAX's variables: the job runs on the GPU or falls back to the CPU; check says which. */
function jaxSettingRule(d, m) {
  const j = jobFacts(d, 'conv');
  const check = readJson(d, 'check.json');
  const f = findingsOf(check).find((x) => x.check === 'env.allocators' && x.status !== 'ok');
  const saysCpu = f !== undefined && /runs on the CPU/.test(f.message);
  const saysPrealloc = f !== undefined && /keeps preallocation on/.test(f.message);
  let agree = j !== null && saysCpu === (j.ranOn === 'cpu');
  const mem = j?.memory;
  const pool = mem ? (mem.pool_bytes ?? mem.bytes_reserved ?? null) : null;
  if (agree && saysPrealloc && pool !== null && mem?.bytes_limit) agree = pool >= 0.5 * mem.bytes_limit;
  return {
    did: `${did(j)}${pool !== null ? ` (JAX pool ${Math.round(pool / 2 ** 30)} GiB of a ${Math.round((mem.bytes_limit ?? 0) / 2 ** 30)} GiB limit)` : ''}`,
    cells: { check: f ? `${mark(f)} ${short(f.message, 140)}` : 'nothing wrong' },
    agree: { check: agree },
  };
}

// ------------------------------------------------------------------ the rows of issue 27
const allText = (x) => JSON.stringify(x ?? '');
const pidIn = (x, pid) => Number.isFinite(pid) && pid > 0 && new RegExp(`\\b${pid}\\b`).test(allText(x));
const holderPid = (d) => Number((read(d, 'holders.txt') ?? '').trim().split(/\s+/)[0]);
const realOf = (p) => {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
};
/** The worst status of a check's findings (fail > warn > unknown > ok > skip), or 'absent' when this build has no such check. */
export function statusOf(check, id) {
  const fs_ = findingsOf(check).filter((f) => f.check === id);
  if (fs_.length === 0) return 'absent';
  for (const s of ['fail', 'crash', 'warn', 'unknown', 'ok'])
    if (fs_.some((f) => f.status === s)) return s === 'crash' ? 'fail' : s;
  return 'skip';
}

/** A nearly full GPU: every job fails; check errors on headroom; --deep names the allocation failure; explain and run name the holder. */
function nearlyFullRule(d, m) {
  const jobs = ['torch', 'jax', 'cupy'].map((n) => jobFacts(d, n));
  const pid = holderPid(d);
  const allFailed = jobs.every((j) => failed(j));
  const cells = {};
  const agree = {};
  const check = readJson(d, 'check.json');
  if (check) {
    const head = findingsOf(check).filter((f) => f.check === 'memory.headroom');
    const err = head.find((f) => f.severity === 'error' && f.status === 'fail');
    cells.check = head.length ? says(head) : 'no memory.headroom finding';
    agree.check = allFailed ? err !== undefined : err === undefined;
  }
  const deep = readJson(d, 'deep.json');
  if (deep) {
    const named = findingsOf(deep).filter(
      (f) =>
        (f.status === 'fail' || f.status === 'crash') &&
        /cudaErrorMemoryAllocation|CUDA_ERROR_OUT_OF_MEMORY|out of memory/i.test(allText([f.message, f.evidence])),
    );
    cells.deep = named.length
      ? says(named)
      : says(problems(deep).filter((f) => f.check.startsWith('libs.cudnn-smoke') || f.check.startsWith('python.')));
    agree.deep = named.length > 0 === failed(jobs[0]);
  }
  const ex = readJson(d, 'explain-torch.json');
  if (ex) {
    const top = topCause(ex);
    cells.explain = `${causeText(top)}${pidIn(ex, pid) ? `, names PID ${pid}` : `, PID ${pid} not named`}`;
    agree.explain = failed(jobs[0]) ? top?.id === 'memory_held_by_other_process' && pidIn(ex, pid) : null;
  }
  const runExit = exitOf(d, 'run-torch.exit');
  if (runExit !== null) {
    const run = runJson(d, 'torch');
    const top = topCause(run?.diagnosis);
    cells.run = `exit ${runExit}, ${causeText(top)}${pidIn(run?.diagnosis ?? run, pid) ? `, names PID ${pid}` : `, PID ${pid} not named`}`;
    agree.run =
      (runExit === 0) === (jobs[0]?.exit === 0) &&
      (!failed(jobs[0]) || (top?.id === 'memory_held_by_other_process' && pidIn(run?.diagnosis ?? run, pid)));
  }
  const procs = readJson(d, 'procs.json');
  if (procs) {
    const row = (procs.processes ?? []).find((p) => p.pid === pid || p.nvidiaSmiPid === pid);
    cells.procs = row ? `PID ${pid}: ${row.verdict}, ${row.usedMiB ?? '?'} MiB` : `PID ${pid} not listed`;
    agree.procs = row !== undefined;
  }
  const mem = (read(d, 'gpu-memory.csv') ?? '').trim().split('\n').at(-1) ?? '';
  return { did: `${jobs.map(did).join('; ')}${mem ? ` (used, free, total: ${short(mem, 60)})` : ''}`, cells, agree };
}

/** JAX's preallocation, then PyTorch in the same process: explain and run name framework_preallocation; preallocation off rescues it. */
function twoFrameworksRule(d, m) {
  const both = jobFacts(d, 'both');
  const fixed = jobFacts(d, 'fixed');
  const cells = {};
  const agree = {};
  const ex = readJson(d, 'explain-both.json');
  if (ex) {
    cells.explain = causeText(topCause(ex));
    agree.explain = failed(both) ? topCause(ex)?.id === 'framework_preallocation' : null;
  }
  const runExit = exitOf(d, 'run-both.exit');
  if (runExit !== null) {
    const top = topCause(runJson(d, 'both')?.diagnosis);
    cells.run = `exit ${runExit}${failed(both) ? `, ${causeText(top)}` : ''}`;
    agree.run = (runExit === 0) === (both?.exit === 0) && (!failed(both) || top?.id === 'framework_preallocation');
  }
  if (fixed) {
    cells.rerun = `XLA_PYTHON_CLIENT_PREALLOCATE=false: ${did(fixed)}`;
    agree.rerun = failed(both) ? fixed.ok : null;
  }
  const jaxLine = (both?.out ?? '').split('\n').find((l) => l.startsWith('JAX ready')) ?? '';
  return { did: `${did(both)}${jaxLine ? ` (${short(jaxLine, 120)})` : ''}`, cells, agree };
}

/** Another user's holder: procs says "other user", fix --yes leaves it alive, check names the user. */
function otherUserRule(d, m) {
  const pid = holderPid(d);
  const user = (read(d, 'holder-user.txt') ?? '').trim();
  const switched = !/^not switched/m.test(read(d, 'notes.txt') ?? '');
  const cells = {};
  const agree = {};
  const procs = readJson(d, 'procs.json');
  if (procs) {
    const row = (procs.processes ?? []).find((p) => p.pid === pid || p.nvidiaSmiPid === pid);
    cells.procs = row ? `PID ${pid}: ${row.verdict} (user ${row.user ?? row.uid ?? '?'})` : `PID ${pid} not listed`;
    agree.procs = switched ? row?.verdict === 'other user' : null;
  }
  const check = readJson(d, 'check.json');
  if (check) {
    const texts = findingsOf(check)
      .filter((f) => f.check.startsWith('memory.'))
      .flatMap((f) => [f.message, ...(f.evidence ?? []).map((e) => e.text)])
      .filter((t) => new RegExp(`\\b${pid}\\b`).test(t ?? ''));
    cells.check = texts.length ? texts.map((t) => short(t, 140)).join('; ') : `PID ${pid} not in memory findings`;
    agree.check = switched ? user !== '' && texts.some((t) => t.includes(user)) : null;
  }
  const after = (read(d, 'after-fix.txt') ?? '').trim();
  const fixExit = exitOf(d, 'fix.exit');
  if (after) {
    cells.fix = `exit ${fixExit}; PID ${pid} ${after === 'alive' ? 'still alive afterwards' : 'ended'}`;
    agree.fix = after === 'alive';
  }
  return {
    did: `holder PID ${pid} runs as ${user || '?'}${switched ? '' : ' (not switched: dry mode or not root)'}: ${short((read(d, 'holder.out') ?? '').trim().split('\n').at(-1), 80)}`,
    cells,
    agree,
  };
}

/** The raw node facts of nvidia-smi -q -x, df and dmesg, and the status each node check should have from them. */
export function nodeExpectations(xml, dfText, dmesgExit, dmesgText) {
  const exp = {};
  const gpus = String(xml ?? '')
    .split(/<gpu id=/)
    .slice(1);
  const tag = (g, t) => new RegExp(`<${t}>([^<]*)</${t}>`).exec(g)?.[1]?.trim() ?? null;
  const num = (s) => (s === null ? null : Number.parseInt(s, 10));
  if (gpus.length > 0) {
    const pm = gpus.map((g) => tag(g, 'persistence_mode'));
    exp['node.persistence'] = {
      raw: `persistence_mode ${pm.join(', ')}`,
      want: pm.includes('Disabled') ? ['warn'] : ['ok'],
    };
    const cm = gpus.map((g) => tag(g, 'compute_mode'));
    exp['node.compute-mode'] = {
      raw: `compute_mode ${cm.join(', ')}`,
      want: cm.includes('Prohibited') ? ['fail'] : cm.includes('Exclusive_Process') ? ['ok', 'fail'] : ['ok'],
    };
    const SLOWING = [
      'sw_power_cap',
      'sw_thermal_slowdown',
      'hw_slowdown',
      'hw_thermal_slowdown',
      'hw_power_brake_slowdown',
    ];
    const active = gpus.map((g) =>
      [...g.matchAll(/<clocks_(?:event|throttle)_reason_(\w+)>Active</g)].map((x) => x[1]),
    );
    exp['node.clocks'] = {
      raw: `reasons Active: ${active.map((a) => a.join('+') || 'none').join(', ')}`,
      want: active.some((a) => a.some((r) => SLOWING.includes(r))) ? ['warn'] : ['ok'],
    };
    const links = gpus.map((g, i) => {
      const gen = [num(tag(g, 'current_link_gen')), num(tag(g, 'max_link_gen'))];
      const width = [num(tag(g, 'current_link_width')), num(tag(g, 'max_link_width'))];
      const idle = active[i].includes('gpu_idle');
      const slow =
        (width[0] !== null && width[1] !== null && width[0] < width[1]) ||
        (gen[0] !== null && gen[1] !== null && gen[0] < gen[1] && !idle);
      return { text: `gen ${gen[0]}/${gen[1]} x${width[0]}/x${width[1]}${idle ? ' idle' : ''}`, slow };
    });
    exp['node.pcie-link'] = {
      raw: links.map((l) => l.text).join(', '),
      want: links.some((l) => l.slow) ? ['warn'] : ['ok'],
    };
  }
  const size = Number(/^\s*(\d+)\s+\/dev\/shm/m.exec(String(dfText ?? ''))?.[1] ?? NaN);
  if (Number.isFinite(size))
    exp['node.shm'] = { raw: `/dev/shm ${Math.round(size / 2 ** 20)} MiB`, want: size < 2 ** 30 ? ['warn'] : ['ok'] };
  if (dmesgExit !== null && dmesgExit !== undefined) {
    const xid = (String(dmesgText ?? '').match(/NVRM: Xid/g) ?? []).length;
    exp['node.kernel-log'] = {
      raw: dmesgExit === 0 ? `dmesg readable, ${xid} Xid line(s)` : `dmesg exit ${dmesgExit}`,
      want: dmesgExit !== 0 ? ['unknown'] : xid > 0 ? ['warn', 'fail'] : ['ok'],
    };
  }
  return exp;
}

function nodeRule(d) {
  const exp = nodeExpectations(
    read(d, 'nvidia-smi-q.xml'),
    read(d, 'shm-df.txt'),
    exitOf(d, 'dmesg.exit'),
    read(d, 'dmesg.txt'),
  );
  const check = readJson(d, 'check.json');
  const cells = {};
  const agree = {};
  for (const [id, e] of Object.entries(exp)) {
    const got = statusOf(check, id);
    cells[id] = `${e.raw} → ${got}`;
    // a check this build does not have, or one that did not apply: nothing said, nothing to judge
    agree[id] = got === 'absent' || got === 'skip' ? null : e.want.includes(got);
  }
  return {
    did: `raw: ${
      Object.values(exp)
        .map((e) => e.raw)
        .join('; ') || 'nothing read'
    }`,
    cells,
    agree,
    note: Object.values(agree).some((v) => v === null) ? 'a node check this build lacks is n/a' : undefined,
  };
}

/** /dev/shm of 64 MiB: PyTorch's DataLoader dies (bus error) ↔ node.shm warns. */
function nodeShmRule(d) {
  const j = jobFacts(d, 'dataloader');
  const check = readJson(d, 'check.json');
  const exp = nodeExpectations(null, read(d, 'shm-df.txt'), null, null)['node.shm'];
  const got = statusOf(check, 'node.shm');
  const f = findingsOf(check).find((x) => x.check === 'node.shm');
  return {
    did: `${did(j)}${exp ? ` (${exp.raw})` : ''}`,
    cells: { check: f ? `${mark(f)} ${short(f.message, 140)}` : `node.shm ${got}` },
    agree: { check: got === 'absent' ? null : j === null ? null : failed(j) === (got === 'warn') },
  };
}

const cudnnOf = (libs, fw) => {
  const sec = libs?.libraries ?? libs;
  const c = (sec?.consumers ?? []).find((x) => x.framework === fw);
  return c ? (c.resolved ?? []).filter((r) => /^libcudnn/.test(r.name ?? '')) : null;
};
const sonameOf = (p) => path.basename(p).replace(/(\.so\.\d+).*$/, '$1');
/** The cuDNN files a job's process had: its /proc/self/maps, else (it died first) the libraries ld.so initialised. */
export function mappedCudnn(d, fw) {
  const maps = (read(d, `maps-${fw}.txt`) ?? '').split('\n').filter(Boolean);
  if (maps.length) return { from: '/proc/self/maps', files: maps.map(realOf) };
  const ld = read(d, `lddebug-${fw}-cudnn.txt`) ?? '';
  return { from: 'LD_DEBUG', files: [...new Set([...ld.matchAll(/calling init: (\S+)/g)].map((x) => realOf(x[1])))] };
}

/** LD_PRELOAD of the system cuDNN: libs names the preloaded file, and each sub-library as the process mapped it. */
function preloadRule(d, m) {
  const fw = m.framework;
  const j = jobFacts(d, fw);
  const g = generic(d, m, j);
  const winner = (read(d, 'preload-real.txt') ?? '').trim();
  const mapped = mappedCudnn(d, fw);
  const libs = readJson(d, 'libs.json');
  if (libs) {
    const rs = cudnnOf(libs, fw) ?? [];
    const main = rs.find((r) => r.name === 'libcudnn.so.9');
    const mainReal = main ? realOf(main.realPath ?? main.path ?? '') : null;
    const subs = mapped.files.filter((f) => sonameOf(f) !== 'libcudnn.so.9');
    const differ = subs.filter((f) => {
      const r = rs.find((x) => x.name === sonameOf(f));
      return r !== undefined && realOf(r.realPath ?? r.path ?? '') !== f;
    });
    g.cells['libs --json'] =
      `libcudnn.so.9 → ${mainReal ?? 'not resolved'} (${main?.via ?? '-'}); ${mapped.from}: ${mapped.files.map((f) => path.basename(f)).join(', ') || 'nothing'}${differ.length ? `; differ: ${differ.map((f) => path.basename(f)).join(', ')}` : ''}`;
    g.agree['libs --json'] =
      main !== undefined && mainReal === winner && mapped.files.includes(winner) && differ.length === 0;
  }
  // --deep here is the cuDNN smoke test: which cuDNN ran, against the file ld.so preloaded
  delete g.cells.deep;
  delete g.agree.deep;
  const deep = readJson(d, 'deep.json');
  const smoke = findingsOf(deep).find((f) => f.check === 'libs.cudnn-smoke' && f.status !== 'skip');
  if (smoke) {
    const said = /cuDNN (\d+\.\d+\.\d+)/.exec(smoke.message ?? '')?.[1] ?? null;
    const want = /\.so\.(\d+\.\d+\.\d+)$/.exec(winner)?.[1] ?? null;
    g.cells.deep = `${mark(smoke)} ${short(smoke.message, 120)}`;
    g.agree.deep = want === null ? null : said === want;
  }
  return {
    did: `${did(j)} (${mapped.from}: ${mapped.files.map((f) => path.basename(f)).join(', ') || 'nothing'})`,
    ...g,
  };
}

/** A truncated libcudnn_graph.so.9 first on LD_LIBRARY_PATH: the jobs die ↔ libs.unloadable errors for each; libs says where ld.so looked. */
function truncatedRule(d, m) {
  const shadow = (read(d, 'shadow.txt') ?? '').trim().split(' ')[0];
  const cells = {};
  const agree = {};
  const dids = [];
  const check = readJson(d, 'check.json');
  const libs = readJson(d, 'libs.json');
  const LABEL = { torch: 'PyTorch', jax: 'JAX' };
  for (const fw of ['torch', 'jax']) {
    const j = jobFacts(d, fw);
    if (j === null) continue;
    dids.push(`${did(j)}${j.exit === 135 ? ' (SIGBUS)' : ''}`);
    if (check) {
      const errs = findingsOf(check).filter(
        (f) =>
          f.check === 'libs.unloadable' &&
          f.severity === 'error' &&
          (f.affects?.framework === fw || (f.message ?? '').startsWith(`${LABEL[fw]}:`)) &&
          (f.message ?? '').includes(shadow),
      );
      cells[`check ${fw}`] = errs.length
        ? `${mark(errs[0])} ${short(errs[0].message, 120)}`
        : 'no libs.unloadable error';
      agree[`check ${fw}`] = failed(j) === errs.length > 0;
    }
    if (libs) {
      const r = (cudnnOf(libs, fw) ?? []).find((x) => x.name === 'libcudnn_graph.so.9');
      const ld = read(d, `lddebug-${fw}-cudnn.txt`) ?? '';
      const ldTried = ld.includes(shadow);
      const libsSays = r !== undefined && (r.path === shadow || r.realPath === shadow);
      cells[`libs ${fw}`] =
        `libcudnn_graph.so.9 → ${r ? `${r.path ?? r.realPath} (${r.via}${r.error ? `, ${short(r.error, 60)}` : ''})` : 'not resolved'}; ld.so ${ldTried ? 'opened the cut file' : 'did not reach the cut file'}`;
      agree[`libs ${fw}`] = ldTried === libsSays && (!libsSays || Boolean(r.error));
    }
  }
  const deep = readJson(d, 'deep.json');
  const smoke = findingsOf(deep).find((f) => f.check === 'libs.cudnn-smoke' && f.status !== 'skip');
  if (smoke) {
    cells.deep = `${mark(smoke)} ${short(smoke.message, 120)}`;
    agree.deep = (smoke.status === 'fail' || smoke.status === 'crash') === failed(jobFacts(d, 'torch'));
  }
  return { did: dids.join('; ') || 'not run', cells, agree };
}

/** Over every procs output: no row that is not a holder staged here (the tool's own nvidia-smi calls were listed once). */
export function procsSelfRow(dirs) {
  const bad = [];
  let n = 0;
  for (const d of dirs) {
    const procs = readJson(d, 'procs.json');
    if (!procs) continue;
    n++;
    const staged = new Set(
      (read(d, 'holders.txt') ?? '')
        .split('\n')
        .map((l) => Number(l.trim().split(/\s+/)[0]))
        .filter((x) => x > 0),
    );
    for (const p of procs.processes ?? [])
      if (!staged.has(p.pid) && !staged.has(p.nvidiaSmiPid))
        bad.push(`${path.basename(d)}: PID ${p.pid} ${p.name ?? '?'} (${p.verdict})`);
  }
  return n === 0
    ? null
    : {
        title:
          'procs lists only the holders staged here, never a process of the tool itself (over every procs output above)',
        did: `${n} procs outputs`,
        said: bad.length === 0 ? 'no other row' : bad.slice(0, 5).join('; '),
        row: bad.length === 0 ? 'yes' : 'NO',
      };
}

// ------------------------------------------------------------------ points 4 (no repeated items) across everything
function repeatedItem(text) {
  for (const segment of String(text).split(/[;:()—]|\. /)) {
    const items = segment
      .split(/, | and /)
      .map((x) => x.trim())
      .filter((x) => x.length > 2);
    const seen = new Set();
    for (const i of items) {
      if (seen.has(i)) return i;
      seen.add(i);
    }
  }
  return null;
}
function repeatsEverywhere(dirs) {
  const bad = [];
  for (const d of dirs) {
    for (const f of ['check.json', 'deep.json', 'deep-frameworks.json']) {
      for (const x of findingsOf(readJson(d, f))) {
        const texts = [x.message, x.fix?.text ?? ''];
        for (const t of texts) {
          const r = repeatedItem(t);
          if (r) bad.push(`${path.basename(d)}/${f}: "${short(r, 60)}" twice in "${short(t, 80)}"`);
        }
        const cmds = x.fix?.commands ?? [];
        if (new Set(cmds).size !== cmds.length) bad.push(`${path.basename(d)}/${f}: a fix command twice`);
      }
    }
  }
  return bad;
}

// ------------------------------------------------------------------ the table
export function judgeScenario(d) {
  const m = meta(d);
  if (read(d, 'not-staged') !== null && m.id !== 'tf-growth-invalid')
    return { m, did: `not staged: ${short(read(d, 'not-staged'), 160)}`, cells: {}, agree: {} };
  let r;
  if (RULES[m.id]) r = RULES[m.id](d, m);
  else if (m.id.startsWith('allocconf-')) r = allocRule(d, m);
  else if (m.id.startsWith('cvd-')) r = cvdRule(d, m);
  else if (m.id.startsWith('jax-setting-')) r = jaxSettingRule(d, m);
  else if (m.id.startsWith('holder-') || m.id === 'jax-prealloc-beside-torch' || m.id === 'torch-beside-jax')
    r = holderRule(d, m);
  else if (m.id === 'nearly-full') r = nearlyFullRule(d, m);
  else if (m.id === 'two-frameworks') r = twoFrameworksRule(d, m);
  else if (m.id === 'other-user') r = otherUserRule(d, m);
  else if (m.id === 'node-facts' || m.id === 'node-kernel-log-nobody') r = nodeRule(d, m);
  else if (m.id === 'node-shm-small') r = nodeShmRule(d, m);
  else if (m.id.startsWith('preload-')) r = preloadRule(d, m);
  else if (m.id === 'truncated-graph') r = truncatedRule(d, m);
  else r = { did: '?', cells: {}, agree: {} };
  return { m, ...r };
}

const COLS = [
  ['check', 'check'],
  ['deep', 'check --deep'],
  ['explain', 'explain (job output)'],
  ['run', 'run -- job'],
  ['procs', 'procs'],
  ['libs', 'libs --elf'],
  ['fix', 'fix --yes'],
  ['rerun', 'the same job with the fix'],
];
const esc = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderTable(results, extra) {
  const out = [];
  out.push('| scenario | what the framework did | what each command said | agree? |', '|---|---|---|---|');
  let agreeN = 0;
  let disagreeN = 0;
  for (const r of results) {
    // the known commands first, then any other cell by its own name (a node check id, "check torch")
    const keys = [
      ...COLS.filter(([k]) => r.cells[k] !== undefined),
      ...Object.keys(r.cells)
        .filter((k) => !COLS.some(([c]) => c === k))
        .map((k) => [k, k]),
    ];
    const said = keys.map(
      ([k, label]) => `**${label}**: ${r.cells[k]}${r.agree[k] === false ? ' ✗' : r.agree[k] === true ? ' ✓' : ''}`,
    );
    const verdicts = Object.values(r.agree).filter((v) => v !== null && v !== undefined);
    const row = verdicts.length === 0 ? 'n/a' : verdicts.every(Boolean) ? 'yes' : 'NO';
    if (row === 'yes') agreeN++;
    if (row === 'NO') disagreeN++;
    out.push(
      `| ${esc(r.m.title ?? r.m.id)} | ${esc(r.did)} | ${esc(said.join('<br>') || '-')}${r.note ? ` (${esc(r.note)})` : ''} | ${row} |`,
    );
  }
  for (const e of extra) {
    if (e.row === 'yes') agreeN++;
    if (e.row === 'NO') disagreeN++;
    out.push(`| ${esc(e.title)} | ${esc(e.did)} | ${esc(e.said)} | ${e.row} |`);
  }
  out.push(
    '',
    `${agreeN} agree, ${disagreeN} disagree, ${results.length + extra.length - agreeN - disagreeN} not applicable or not staged.`,
  );
  return out.join('\n');
}

function main() {
  const W = process.argv[2];
  if (!W) {
    process.stderr.write('usage: node judge.mjs WORK_FOLDER\n');
    process.exit(2);
  }
  const root = path.join(W, 's');
  const dirs = fs
    .readdirSync(root)
    .map((n) => path.join(root, n))
    .filter((d) => fs.existsSync(path.join(d, 'meta.env')))
    .sort((a, b) => fs.statSync(a).birthtimeMs - fs.statSync(b).birthtimeMs || a.localeCompare(b));
  const results = dirs.map(judgeScenario);
  const bad = repeatsEverywhere(dirs);
  const extra = [
    {
      title: 'no fix text or list repeats an item (point 4), over every check output above',
      did: '-',
      said: bad.length === 0 ? 'no repeated item' : bad.slice(0, 5).join('; '),
      row: bad.length === 0 ? 'yes' : 'NO',
    },
  ];
  const self = procsSelfRow(dirs);
  if (self) extra.push(self);
  const notStaged = read(root, 'not-staged/list.txt');
  if (notStaged)
    extra.push({
      title: 'not staged (time budget)',
      did: notStaged.trim().split('\n').join(', '),
      said: '-',
      row: 'n/a',
    });
  const machine = (read(W, 'machine.txt') ?? '').trim().split('\n').join('; ');
  process.stdout.write(
    `# Truth table: what gpu-env-doctor says against what the frameworks did\n\nMachine: ${esc(machine)}\n\nEach job ran from a fresh process; "agree" is decided by gpu-lab/truth/judge.mjs from the recorded exit codes, outputs and JSON (✓/✗ after each command's answer).\n\n${renderTable(results, extra)}\n`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) main();
