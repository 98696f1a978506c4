// One table per fact: each question the knowledge answers ("which driver does CUDA 12.4 need?", "what compute
// capability is an RTX 3090?", "what CUDA was torch 2.1.0 built with?") has its answer in exactly one table, so that
// a correction lands once and two parts of the tool never disagree. Every JSON file under src/knowledge says which
// questions it answers, as keys "<question>: <key>"; a key found in two files fails. A new table must be added here
// with its keys (a table of the same facts then collides).
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../src/base/i18n/en.js';
import { zh } from '../src/base/i18n/zh.js';
import { normalizeGpuName } from '../src/judge/compat/gpus.js';
import { fixFor } from '../src/judge/explain/fixes/fixes.js';
import { WEIGHTS } from '../src/judge/explain/priors/weights.js';
import { pickWheel } from '../src/judge/checks/python/cpu-only-build.js';
import { buildFor, installLine } from '../src/judge/fix/rebuild.js';
import { WHEEL_FRAMEWORKS } from '../src/knowledge/python/gpu-wheels.js';

const KNOWLEDGE = path.resolve(__dirname, '..', 'src', 'knowledge');

// biome-ignore lint/suspicious/noExplicitAny: the tables are walked as plain JSON
type Doc = any;
type Keys = (doc: Doc) => string[];

/** "12.4.1" → "12.4" (a release and its series answer the same question) */
const mm = (v: string): string => String(v).split('.').slice(0, 2).join('.');
const major = (v: string): string => String(v).split('.')[0]!;
const rows = (xs: Doc[] | undefined, f: (x: Doc) => string | string[]): string[] => (xs ?? []).flatMap(f);

/** file (relative to src/knowledge) → the keys of the questions it answers */
const QUESTIONS: Record<string, Keys> = {
  'cuda-driver.json': (d) => [
    ...rows(d.toolkits, (r) => `CUDA → driver: ${mm(r.cuda)}`),
    ...rows(d.minorVersionCompat, (m) => `CUDA → driver: ${m.major}.x`),
  ],
  'compute-capability.json': (d) => [
    ...rows(d.toolkits, (t) => `CUDA → compute capabilities it builds for: ${mm(t.cuda)}`),
    ...rows(d.architectures, (a) => `compute capability → architecture and CUDA range: ${a.computeCapability}`),
  ],
  'gpus.json': (d) =>
    rows(d.products, (p) =>
      p.names.map((n: string) => `GPU name → compute capability: ${normalizeGpuName(n).join(' ')}`),
    ),
  'cudnn.json': (d) => [
    ...rows(d.releases, (r) => `cuDNN release → CUDA and GPUs: ${r.from}-${r.to}`),
    ...rows(d.frameworkTolerance, (f) => `framework → cuDNN minor tolerance: ${f.framework}`),
  ],
  'tensorflow.json': (d) =>
    rows(d.builds, (b) => `framework release → CUDA, cuDNN, archs: tensorflow ${b.version} ${b.platform}`),
  'pytorch.json': (d) => rows(d.releases, (r) => `framework release → CUDA, cuDNN, archs: torch ${r.version} linux`),
  'jax.json': (d) => rows(d.releases, (r) => `framework release → CUDA, cuDNN, archs: jax ${r.version} linux`),
  'paddle.json': (d) =>
    rows(d.releases, (r) => `framework release → CUDA, cuDNN, archs: paddle ${r.version} ${r.platform}`),
  'paddle-1x.json': (d) =>
    rows(d.releases, (r) => `framework release → CUDA, cuDNN, archs: paddle ${r.series} ${r.platform}`),
  'onnxruntime.json': (d) =>
    rows(d.releases, (r) => `framework release → CUDA, cuDNN, archs: onnxruntime ${r.version} any`),
  'windows.json': (d) => rows(d.dlls, (x) => `Windows DLL → library and version: ${x.dll.toLowerCase()}`),
  'xid.json': (d) => Object.keys(d.codes).map((c) => `Xid code → meaning: ${c}`),
  'python/gpu-wheels.json': (d) =>
    rows(d, (r) => `GPU wheel for a CUDA major: ${r.framework} ${major(r.minDriverCuda)}`),
  'fix/env-settings.json': (d) => [
    ...rows(d.variables, (v) => `environment variable → effect: ${v.name}`),
    ...rows(d.byRootCause, (r) => `root cause → setting: ${r.rootCause} ${r.framework}`),
  ],
  'libraries/frameworks.json': (d) => Object.keys(d).map((k) => `framework library loading: ${k}`),
  'libraries/cudnn-mix-observations.json': (d) =>
    rows(d.rows, (r) => `mixed cuDNN observed: ${r.framework} ${r.frameworkVersion} ${r.libcudnn}/${r.subLibraries}`),
  'procs/holder-frameworks.json': (d) => rows(d.rows, (r) => `mapped files → framework: ${r.name}`),
  'python/conv-signatures.json': (d) => rows(d, (r) => `convolution failure text → kind: ${r.pattern}`),
  'python/library-families.json': (d) => rows(d, (r) => `package → CUDA library: ${r.library}`),
  'python/relevant-packages.json': (d) => rows(d, (r) => `package → group: ${r.pattern}`),
  'python/smoke-statuses.json': (d) => rows(d.statuses, (s) => `library status → meaning: ${s.name}`),
};

/** Keys found in more than one file: key → the files. */
function overlaps(tables: Record<string, string[]>): Map<string, string[]> {
  const where = new Map<string, Set<string>>();
  for (const [file, keys] of Object.entries(tables))
    for (const k of keys) where.set(k, (where.get(k) ?? new Set()).add(file));
  const out = new Map<string, string[]>();
  for (const [k, files] of where) if (files.size > 1) out.set(k, [...files].sort());
  return out;
}

function jsonFiles(dir: string, rel = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return jsonFiles(path.join(dir, e.name), r);
    return e.name.endsWith('.json') ? [r] : [];
  });
}

const read = (file: string): Doc => JSON.parse(readFileSync(path.join(KNOWLEDGE, file), 'utf8'));

describe('one table per fact', () => {
  it('every knowledge table says which questions it answers', () => {
    expect(jsonFiles(KNOWLEDGE).sort()).toEqual(Object.keys(QUESTIONS).sort());
    for (const [file, keys] of Object.entries(QUESTIONS)) expect(keys(read(file)).length, file).toBeGreaterThan(0);
  });

  it('no two tables answer the same question for the same key', () => {
    const tables = Object.fromEntries(Object.entries(QUESTIONS).map(([f, keys]) => [f, keys(read(f))]));
    expect(Object.fromEntries(overlaps(tables))).toEqual({});
  });

  it('finds the same fact kept in two tables, as explain once kept torch and GPU rows of its own', () => {
    const gpus = QUESTIONS['gpus.json']!(read('gpus.json'));
    const explainCopy = ['GPU name → compute capability: rtx 3090', 'GPU name → compute capability: quadro fx 5800'];
    expect(gpus).toContain('GPU name → compute capability: rtx 3090');
    expect([...overlaps({ 'gpus.json': gpus, 'explain/gpus.json': explainCopy }).keys()]).toEqual([
      'GPU name → compute capability: rtx 3090',
    ]);
    const torch = QUESTIONS['pytorch.json']!(read('pytorch.json'));
    expect(overlaps({ 'pytorch.json': torch, 'explain/torch.json': [torch[0]!] }).size).toBe(1);
  });
});

describe('one GPU wheel per framework and driver', () => {
  it('the fix plan and the CPU-only-build check name the same wheel: both ask python/gpu-wheels.json', () => {
    const asked: string[] = [];
    for (const fw of WHEEL_FRAMEWORKS)
      for (const cuda of ['11.4', '11.8', '12.0', '12.1', '12.2', '12.4', '12.6', '12.8', '12.9', '13.0', '13.1']) {
        const [maj, min] = cuda.split('.').map(Number) as [number, number];
        const wheel = pickWheel(fw, [maj, min]);
        expect(buildFor(fw, cuda), `${fw} on a CUDA ${cuda} driver`).toBe(wheel ? installLine(wheel) : null);
        asked.push(`${fw} ${cuda}: ${wheel?.tag ?? '-'}`);
      }
    expect(asked).toContain('torch 12.4: cu121');
    expect(asked).toContain('jax 12.0: cuda12');
    expect(asked).toContain('tensorflow 11.4: -');
    expect(buildFor('torch', '12.4')).toBe(
      "pip install 'torch==2.5.*' --index-url https://download.pytorch.org/whl/cu121",
    );
    expect(buildFor('jax', '13.0')).toBe("pip install -U 'jax[cuda13]'");
    expect(buildFor('tensorflow', '11.8')).toBe("pip install 'tensorflow[and-cuda]==2.14.*'");
  });
});

describe('tuned numbers and fix rules are data', () => {
  const explain = path.resolve(__dirname, '..', 'src', 'judge', 'explain');
  const fixes = JSON.parse(readFileSync(path.join(explain, 'fixes', 'fixes.json'), 'utf8'));

  it('diagnose.ts reads its weights from priors/weights.json, not from literals of its own', () => {
    const code = readFileSync(path.join(explain, 'diagnose.ts'), 'utf8');
    const names = [
      'KIND_WEIGHT',
      'STATED_SHARE',
      'LATER_SYMPTOM',
      'AMBIGUOUS_RATIO',
      'AMBIGUOUS_BELOW',
      'MIN_CONFIDENCE',
    ];
    for (const n of names) expect(code, n).toMatch(new RegExp(`const ${n} = WEIGHTS\\.\\w+;`));
    expect(WEIGHTS.kindWeight.evidence).toBeGreaterThan(WEIGHTS.kindWeight.symptom);
    expect(
      Object.keys(JSON.parse(readFileSync(path.join(explain, 'priors', 'weights.json'), 'utf8')).why).sort(),
    ).toEqual(
      Object.keys(WEIGHTS)
        .filter((k) => !k.startsWith('$') && k !== 'why')
        .sort(),
    );
  });

  it('every message key of fixes.json is in both catalogs', () => {
    const keys: string[] = [];
    const rows = [
      ...Object.values(fixes.byCause),
      ...Object.values(fixes.byFamily).flatMap((f) => Object.values(f as object)),
    ];
    for (const r of rows as Array<{ text: string; manual?: string[] }>) keys.push(r.text, ...(r.manual ?? []));
    for (const s of Object.values(fixes.settings) as Array<{ what: string }>) keys.push(s.what);
    expect(keys.length).toBeGreaterThan(15);
    for (const k of keys) {
      expect(en, k).toHaveProperty([k]);
      expect(zh, k).toHaveProperty([k]);
    }
    for (const [cause, byFamily] of Object.entries(fixes.byFamily)) expect(byFamily, cause).toHaveProperty('other');
  });

  it('fixFor gives the rows of fixes.json, the log’s CUDA major in their commands', () => {
    const c = { framework: undefined, hints: {}, cudnnSymptoms: false };
    expect(fixFor('library_conflict', c).commands).toEqual(fixes.byCause.library_conflict.commands);
    expect(fixFor('hardware_or_driver_fault', c).manual).toHaveLength(2);
    const jax = { ...c, framework: 'jax' as const, lines: ['jax_plugins/xla_cuda13/xla_cuda_plugin.so'] };
    expect(fixFor('framework_bug', jax).commands).toEqual(['pip install -U "jax[cuda13]"']);
    expect(fixFor('framework_bug', { ...c, framework: 'paddle' as const }).commands).toEqual(
      fixes.byFamily.framework_bug.paddle.commands,
    );
    // a framework with no row of its own gets the neutral one
    expect(fixFor('framework_bug', { ...c, framework: 'caffe' as const }).commands).toEqual(
      fixes.byFamily.framework_bug.other.commands,
    );
    expect(fixFor('configuration_invalid', { ...c, hints: { setting: ['toString'] } }).text).toContain('toString');
  });
});
