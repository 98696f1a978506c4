// The import plan of src/: each wing imports only from the wings below it, and no module circle. The wings, lowest
// first: base (errors, formatting, versions, words: pure, importing nothing of ours) < ports (the only I/O, and the
// context that carries the ports) < knowledge (the tables)
// < gather (probes, the Snapshot) < judge (checks, explain, compat, verdicts: pure) < report (one file per format,
// a view per command) < act (run, fix, serve's server) < cli + commands. An import that points up makes the lower
// wing depend on what it serves, so it is listed below with why, and the list is kept exact both ways.
// Written for the layout made by scripts/regroup/regroup.mjs: skipped on a tree that does not have it yet.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { majorMinor, majorMinorOfText } from '../src/base/versions.js';

const SRC = path.resolve(__dirname, '..', 'src');
const RANK: Record<string, number> = {
  base: 0,
  ports: 1,
  knowledge: 2,
  gather: 3,
  judge: 4,
  report: 5,
  act: 6,
  cli: 7,
  commands: 7,
};

/**
 * Imports that point up, by file (relative to src/). Type-only ones are erased from the bundle but still tie the
 * lower wing to the higher one's model; each is the next thing to move, not a rule.
 */
const UPWARD_ALLOWED: ReadonlyArray<readonly [string, string, string]> = [
  [
    'gather/procfs/processes.ts',
    'judge/procs/adoption.ts',
    'the process probe records whether a holder was orphaned: a verdict computed in a probe, to move to judge/',
  ],
  [
    'gather/procfs/processes.ts',
    'judge/procs/verdict.ts',
    "the probe reads CPU use only for holders idle longer than the verdict's threshold",
  ],
];

/**
 * Module circles through static imports (type-only ones too: they tie the files together for a reader, even
 * though the bundle drops them; lazy `import()` is how the registry reaches the commands, and is left out), each
 * by its sorted files, with why it stays.
 */
const CIRCLES_ALLOWED: ReadonlyArray<readonly [string[], string]> = [
  [
    ['judge/diff/facts.ts', 'judge/diff/library-facts.ts', 'judge/diff/python-facts.ts'],
    'facts.ts assembles the fact lists and declares their types, which the lists import back (type only)',
  ],
];

interface Edge {
  from: string;
  to: string;
  kind: 'value' | 'type' | 'lazy';
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const STATIC =
  /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.{1,2}\/[^'"]+)['"]|^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)(\.[A-Z])?/g;

function edgesOf(file: string): Edge[] {
  const text = readFileSync(file, 'utf8');
  const from = path.relative(SRC, file);
  const to = (spec: string) =>
    path.relative(SRC, path.resolve(path.dirname(file), spec.replace(/\?raw$/, '').replace(/\.js$/, '.ts')));
  const out: Edge[] = [];
  for (const m of text.matchAll(STATIC)) {
    const spec = m[4] ?? m[5]!;
    const typeOnly =
      Boolean(m[2]) ||
      (m[3] !== undefined &&
        /^\{[^}]*\}$/.test(m[3]) &&
        m[3]
          .slice(1, -1)
          .split(',')
          .every((s) => s.trim() === '' || /^type\s/.test(s.trim())));
    out.push({ from, to: to(spec), kind: typeOnly ? 'type' : 'value' });
  }
  for (const m of text.matchAll(DYNAMIC)) out.push({ from, to: to(m[1]!), kind: m[2] ? 'type' : 'lazy' });
  return out;
}

function wingOf(rel: string): string {
  const first = rel.split(path.sep)[0]!;
  return rel.includes(path.sep) ? first : 'cli'; // src/cli.ts, the entry
}

/** Strongly connected components of more than one file (Tarjan). */
function circles(nodes: string[], next: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of nodes) if (!idx.has(v)) visit(v);
  return out;
}

const regrouped = existsSync(path.join(SRC, 'judge'));

describe.skipIf(!regrouped)('the import plan of src/', () => {
  const files = regrouped ? sources(SRC) : [];
  const edges = files.flatMap(edgesOf);

  it('has every source file in a known wing', () => {
    const unknown = files.map((f) => path.relative(SRC, f)).filter((f) => RANK[wingOf(f)] === undefined);
    expect(unknown).toEqual([]);
  });

  it('has no import pointing up to a higher wing other than the listed ones, and each listed one still exists', () => {
    const up = edges
      .filter((e) => (RANK[wingOf(e.to)] ?? 0) > (RANK[wingOf(e.from)] ?? 0))
      .map((e) => `${e.from} -> ${e.to}`);
    const allowed = UPWARD_ALLOWED.map(([a, b]) => `${a} -> ${b}`);
    expect([...new Set(up)].filter((e) => !allowed.includes(e)).sort()).toEqual([]);
    expect(allowed.filter((e) => !up.includes(e))).toEqual([]);
  });

  it('has no module circle other than the listed ones', () => {
    const next = new Map<string, string[]>();
    for (const e of edges) if (e.kind !== 'lazy') next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    const found = circles(
      files.map((f) => path.relative(SRC, f)),
      next,
    ).map((c) => c.join(' <-> '));
    const allowed = CIRCLES_ALLOWED.map(([c]) => [...c].sort().join(' <-> '));
    expect(found.filter((c) => !allowed.includes(c))).toEqual([]);
    expect(allowed.filter((c) => !found.includes(c))).toEqual([]);
  });

  it('resolves every relative import to a file that exists', () => {
    const missing = edges.filter((e) => !existsSync(path.join(SRC, e.to))).map((e) => `${e.from} -> ${e.to}`);
    expect(missing).toEqual([]);
  });

  it('finds a circle when there is one (the search itself)', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(circles(['a', 'b', 'c', 'd'], g)).toEqual([['a', 'b', 'c']]);
  });

  it('hands the report layer its words: no module under report/ reads the language or the global t()', () => {
    // the language is chosen once in cli/; a renderer takes the Words it is given (type imports only)
    const i18n = [path.join('base', 'i18n', 'index.ts'), path.join('base', 'i18n', 'words.ts')];
    const reading = edges
      .filter((e) => wingOf(e.from) === 'report' && i18n.includes(e.to) && e.kind !== 'type')
      .map((e) => `${e.from} -> ${e.to}`);
    expect(reading).toEqual([]);
    // the rule sees the renderers that are handed words (a parser that saw nothing would pass the check above)
    const handed = edges.filter((e) => wingOf(e.from) === 'report' && e.to === i18n[1] && e.kind === 'type');
    expect(handed.length).toBeGreaterThan(20);
  });

  it('knows the upward imports it is told about (the parser sees a real one)', () => {
    // guards the test itself: a parser that saw no imports would pass the two checks above
    expect(edges.length).toBeGreaterThan(500);
    expect(edges.some((e) => e.from === path.join('commands', 'check.ts') && e.kind === 'type')).toBe(true);
    expect(edges.some((e) => e.kind === 'lazy')).toBe(true);
  });
});

describe('one versions module', () => {
  it('has one compareVersions over version strings, in base/versions.ts (PEP 440 beside it has its own name)', () => {
    const defs = sources(SRC).flatMap((f) =>
      /function compareVersions\b/.test(readFileSync(f, 'utf8')) ? [path.relative(SRC, f)] : [],
    );
    expect(defs).toEqual(['base/versions.ts']);
  });

  it('has one majorMinor, in base/versions.ts: padded for a series, as written for log text', () => {
    const defs = sources(SRC).flatMap((f) =>
      /function majorMinor\w*\b|\bmajorMinor\w* = \(/.test(readFileSync(f, 'utf8')) ? [path.relative(SRC, f)] : [],
    );
    expect(defs.sort()).toEqual(['base/versions.ts', 'judge/compat/version.ts']);
    expect([majorMinor('12.4.1'), majorMinor('12'), majorMinor('2.1.0+cu121'), majorMinor('10.1 (nvcc)')]).toEqual([
      '12.4',
      '12.0',
      '2.1',
      null,
    ]);
    expect([majorMinorOfText('12.4.1'), majorMinorOfText('11'), majorMinorOfText('2.4.0-gpu')]).toEqual([
      '12.4',
      '11',
      '2.4',
    ]);
    // compat's strict form only adds the usage error
    expect(readFileSync(path.join(SRC, 'judge/compat/version.ts'), 'utf8')).toMatch(
      /majorMinor = \(v: string\): string => seriesOf\(v\) \?\? notAVersion\(v\)/,
    );
  });
});
