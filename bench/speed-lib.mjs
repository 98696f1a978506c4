// The core of bench/speed.mjs (and of the CI guard test/bench/speed.test.ts): runs commands interleaved (one of each
// per round, so a slow moment of the machine hits every command alike), and relates each to its floor, the cost
// nothing can go below: Node's own start (`node -e 0`), one `nvidia-smi -q -x`, `grep -E` over the same log, a bare
// JSON.parse of the same files. Figures are wall-clock milliseconds; ratios are medians over medians (and, for the
// CI guard on a busy machine, minimum over minimum, the steadier of the two there).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** @typedef {{ id: string, label: string, argv: string[], env?: Record<string,string>, cwd?: string, bytes?: number, expectCodes?: number[] }} Cmd */
/** @typedef {{ id: string, label: string, floor: string[], target?: { ratio?: number, extraMs?: number, ms?: number, minMbPerS?: number, note?: string }, rate?: boolean }} Row */

/** Runs every command `rounds` times, interleaved; returns per-command samples (ms) and the last result. */
export function measure(cmds, rounds, { warmup = 1, timeoutMs = 600_000 } = {}) {
  const samples = new Map(cmds.map((c) => [c.id, []]));
  const last = new Map();
  for (let r = -warmup; r < rounds; r++) {
    for (const c of cmds) {
      const t0 = performance.now();
      const res = spawnSync(c.argv[0], c.argv.slice(1), {
        env: c.env ?? process.env,
        cwd: c.cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
        maxBuffer: 1 << 30,
        timeout: timeoutMs,
        encoding: 'utf8',
      });
      const ms = performance.now() - t0;
      if (res.error) throw new Error(`${c.label}: ${res.error.message}`);
      const ok = (c.expectCodes ?? [0]).includes(res.status ?? -1);
      if (!ok)
        throw new Error(
          `${c.label}: exit ${res.status}: ${(res.stderr || res.stdout).split('\n').slice(0, 3).join(' | ')}`,
        );
      if (r >= 0) samples.get(c.id).push(ms);
      last.set(c.id, res);
    }
  }
  return { samples, last };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
export const min = (xs) => Math.min(...xs);

/** Rows → figures: each command's median/min, its floor's (the sum of the floor commands'), the ratios, the verdict. */
export function relate(rows, samples, cmds) {
  const stat = (id, f) => f(samples.get(id));
  return rows.map((row) => {
    const med = stat(row.id, median);
    const lo = stat(row.id, min);
    const floorMed = row.floor.reduce((a, id) => a + stat(id, median), 0);
    const floorMin = row.floor.reduce((a, id) => a + stat(id, min), 0);
    const cmd = cmds.find((c) => c.id === row.id);
    const floorCmd = cmds.find((c) => c.id === row.floor[0]);
    // For throughput rows the ratio is of rates (MB/s of the floor over ours): time over time, same bytes.
    const ratio = row.floor.length > 0 ? med / floorMed : null;
    const ratioMin = row.floor.length > 0 ? lo / floorMin : null;
    const t = row.target ?? {};
    let ok = null;
    if (t.ratio !== undefined && ratio !== null) ok = ratio <= t.ratio;
    if (t.extraMs !== undefined) ok = (ok ?? true) && med <= floorMed + t.extraMs;
    if (t.ms !== undefined) ok = (ok ?? true) && med <= t.ms;
    if (t.minMbPerS !== undefined && cmd?.bytes) ok = (ok ?? true) && cmd.bytes / 1e6 / (med / 1000) >= t.minMbPerS;
    return {
      id: row.id,
      label: row.label,
      medianMs: round(med),
      minMs: round(lo),
      floor: row.floor.map((id) => cmds.find((c) => c.id === id)?.label ?? id).join(' + ') || null,
      floorMedianMs: row.floor.length ? round(floorMed) : null,
      ratio: ratio === null ? null : round(ratio, 2),
      ratioMin: ratioMin === null ? null : round(ratioMin, 2),
      mbPerS: cmd?.bytes ? round(cmd.bytes / 1e6 / (med / 1000), 0) : null,
      floorMbPerS: floorCmd?.bytes ? round(floorCmd.bytes / 1e6 / (floorMed / 1000), 0) : null,
      target: describeTarget(t),
      ok,
    };
  });
}

function describeTarget(t) {
  const parts = [];
  if (t.ratio !== undefined) parts.push(`≤ ${t.ratio}× floor`);
  if (t.extraMs !== undefined) parts.push(`≤ floor + ${t.extraMs} ms`);
  if (t.ms !== undefined) parts.push(`≤ ${t.ms} ms`);
  if (t.minMbPerS !== undefined) parts.push(`≥ ${t.minMbPerS} MB/s`);
  if (t.note) parts.push(t.note);
  return parts.join(', ') || null;
}

const round = (x, d = 0) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : null);

/** The table bench/speed.mjs prints. */
export function formatTable(results, floors) {
  const lines = [];
  const pad = (s, n, right = false) => (right ? String(s ?? '-').padStart(n) : String(s ?? '-').padEnd(n));
  lines.push(`${pad('floor', 44)} ${pad('median', 8, true)} ${pad('min', 8, true)}`);
  for (const f of floors)
    lines.push(
      `${pad(f.label, 44)} ${pad(f.medianMs, 8, true)} ${pad(f.minMs, 8, true)}${f.mbPerS ? `   ${f.mbPerS} MB/s` : ''}`,
    );
  lines.push('');
  lines.push(
    `${pad('command', 34)} ${pad('median', 8, true)} ${pad('min', 8, true)}  ${pad('floor', 44)} ${pad('floor med', 9, true)} ${pad('ratio', 6, true)} ${pad('(min)', 6, true)}  ${pad('target', 34)} ok`,
  );
  for (const r of results) {
    lines.push(
      `${pad(r.label, 34)} ${pad(r.medianMs, 8, true)} ${pad(r.minMs, 8, true)}  ${pad(r.floor, 44)} ${pad(r.floorMedianMs, 9, true)} ${pad(r.ratio === null ? null : `${r.ratio}×`, 6, true)} ${pad(r.ratioMin === null ? null : `${r.ratioMin}×`, 6, true)}  ${pad(r.target, 34)} ${r.ok === null ? '-' : r.ok ? 'yes' : 'NO'}${r.mbPerS ? `  (${r.mbPerS} MB/s vs ${r.floorMbPerS} MB/s)` : ''}`,
    );
  }
  return lines.join('\n');
}

/** explain's prefilter words as one `grep -E` pattern, so that grep does the same first pass (the floor). */
export function prefilterPattern(repo) {
  // explain's own prefilter words (STEMS in src/judge/explain/read/vocabulary.ts, as bench/explain-throughput.mjs reads
  // them), so grep does the same first pass. (This read a PREFILTER regex that no longer exists and fell back to
  // six words, a cheaper search than explain's.)
  const src = fs.readFileSync(path.join(repo, 'src/judge/explain/read/vocabulary.ts'), 'utf8');
  const m = /export const STEMS[^=]*=\s*\[([\s\S]*?)\];/.exec(src);
  if (!m) throw new Error('STEMS not found in src/judge/explain/read/vocabulary.ts');
  const body = m[1].replace(/\/\/.*$/gm, '');
  const words = [...body.matchAll(/'([^']*)'/g)].map((x) => x[1].replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return words.join('|');
}

/**
 * A training log of about `bytes` (steps, INFO and WARNING lines), ending with the short log's error. `varied`: no
 * line twice (each warning names its step and another figure), the worst case for skipping repeated lines.
 */
export function writeTrainingLog(file, bytes, shortLog, { varied = false } = {}) {
  const fd = fs.openSync(file, 'w');
  let written = 0;
  for (let i = 0; written < bytes; i++) {
    const lines = [];
    for (let k = 0; k < 50; k++) {
      const step = i * 50 + k;
      lines.push(
        `[rank${k % 4}]: Epoch ${Math.floor(step / 1000)} step ${step} loss=${(1 / (1 + step)).toFixed(6)} lr=3.0e-4 grad_norm=${(k * 0.37).toFixed(3)} tokens/s=${41000 + k}`,
      );
      if (k % 10 === 0)
        lines.push(
          `\x1b[32mINFO\x1b[0m 2026-12-02T10:00:${String(k).padStart(2, '0')}Z checkpoint manager: nothing to save at step ${step}`,
        );
      if (k === 7)
        lines.push(
          varied
            ? `(pid=${1000 + (i % 8)}) WARNING: data loader worker ${k} slow at step ${step}: batch took ${(k * 1.3).toFixed(1)}s (process memory ${(3 + (i % 1000) / 1000).toFixed(3)} GiB)`
            : `(pid=${1000 + (i % 8)}) WARNING: data loader worker ${k} slow: batch took ${(k * 1.3).toFixed(1)}s (process memory 3.2 GiB)`,
        );
    }
    const b = Buffer.from(`${lines.join('\n')}\n`);
    fs.writeSync(fd, b);
    written += b.length;
  }
  fs.writeSync(fd, fs.readFileSync(shortLog));
  fs.closeSync(fd);
}

/**
 * A stand-in nvidia-smi in `bin` that answers like the H200's: the captured `-q -x` after `smiMs`, the captured
 * --query-gpu after `queryMs`, anything else exit 2.
 */
export function writeStandInSmi(bin, repo, smiMs, queryMs) {
  const xml = path.join(repo, 'test/fixtures/h200/idle/nvidia-smi-q.xml');
  const csv = path.join(repo, 'test/fixtures/h200/idle/query-gpu.csv');
  const s = (ms) => (ms / 1000).toFixed(3);
  fs.writeFileSync(
    path.join(bin, 'nvidia-smi'),
    `#!/bin/sh\ncase "$1" in\n  -q) sleep ${s(smiMs)}; cat '${xml}' ;;\n  --query-gpu=*) sleep ${s(queryMs)}; cat '${csv}' ;;\n` +
      '  *) exit 2 ;;\nesac\n',
    { mode: 0o755 },
  );
}
