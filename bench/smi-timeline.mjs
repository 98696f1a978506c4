#!/usr/bin/env node
// check's timeline around nvidia-smi, per build, in interleaved rounds: when `nvidia-smi -q -x` was spawned, when
// it exited, when check ended (ms after Node's time origin, the process's start), and what ran after the answer:
// its wall time and the main thread's own CPU time (/proc/thread-self/schedstat, which the load of other
// processes does not inflate). Each run is preloaded with this file (--import), which only watches.
//   node bench/smi-timeline.mjs [--runs 15] [--smi-ms 120] [--root DIR] [--real] CLI [CLI…]
// Without --real, nvidia-smi is a stand-in that answers the H200's XML after --smi-ms (test/fixtures/h200/idle);
// with --real, the nvidia-smi on PATH. `--root` is passed to check (without it check looks at this machine).
// NODE: the node to run (default this one). Prints one table; --json for the raw runs.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeStandInSmi } from './speed-lib.mjs';

const self = fileURLToPath(import.meta.url);

if (process.env.GED_SMI_TIMELINE_OUT) {
  // the preload: in the measured process
  watch(process.env.GED_SMI_TIMELINE_OUT);
} else {
  await main();
}

function threadCpuMs() {
  try {
    return Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

function watch(out) {
  const cp = createRequire(import.meta.url)('node:child_process');
  const spawn = cp.spawn;
  const marks = { spawnAt: null, spawnedAt: null, exitAt: null, cpuAtExit: null };
  cp.spawn = function (command, args, ...rest) {
    const xml = String(command).endsWith('nvidia-smi') && Array.isArray(args) && args[0] === '-q';
    if (xml && marks.spawnAt === null) marks.spawnAt = performance.now();
    const child = spawn.call(this, command, args, ...rest);
    if (xml && marks.spawnedAt === null) {
      marks.spawnedAt = performance.now();
      child.once('exit', () => {
        marks.exitAt = performance.now();
        marks.cpuAtExit = threadCpuMs();
      });
    }
    return child;
  };
  process.once('exit', () => {
    fs.writeFileSync(out, JSON.stringify({ ...marks, endAt: performance.now(), cpuAtEnd: threadCpuMs() }));
  });
}

async function main() {
  const { parseArgs } = await import('node:util');
  const { values: opt, positionals: clis } = parseArgs({
    options: {
      runs: { type: 'string', default: '15' },
      'smi-ms': { type: 'string', default: '120' },
      root: { type: 'string' },
      real: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
  if (clis.length === 0) {
    console.error('usage: node bench/smi-timeline.mjs [--runs N] [--smi-ms MS] [--root DIR] [--real] CLI [CLI…]');
    process.exit(2);
  }
  const repo = path.resolve(path.dirname(self), '..');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-smi-timeline-'));
  let PATH = process.env.PATH ?? '/usr/bin:/bin';
  if (!opt.real) {
    const bin = path.join(work, 'bin');
    fs.mkdirSync(bin);
    writeStandInSmi(bin, repo, Number(opt['smi-ms']), 35);
    PATH = `${bin}:${PATH}`;
  }
  const node = process.env.NODE ?? process.execPath;
  const args = ['check', '--json', ...(opt.root ? ['--root', opt.root] : [])];
  const runs = Object.fromEntries(clis.map((c) => [c, []]));
  const marksFile = path.join(work, 'marks.json');
  // each build keeps the scan's answer in a cache folder of its own: one shared file would be rewritten by every
  // other build's run (it is keyed by the build), so no run would find its answer
  const envOf = (cli) => ({ ...process.env, PATH, XDG_CACHE_HOME: path.join(work, `cache-${clis.indexOf(cli)}`) });
  // one warm-up each (Node's compile cache filled, the scan's answer kept), then interleaved rounds
  for (const cli of clis) spawnSync(node, [cli, ...args], { env: envOf(cli), stdio: 'ignore' });
  for (let r = 0; r < Number(opt.runs); r++) {
    for (const cli of clis) {
      fs.rmSync(marksFile, { force: true });
      const t0 = process.hrtime.bigint();
      const p = spawnSync(node, ['--import', pathToFileURL(self).href, cli, ...args], {
        env: { ...envOf(cli), GED_SMI_TIMELINE_OUT: marksFile },
        encoding: 'utf8',
      });
      const wall = Number(process.hrtime.bigint() - t0) / 1e6;
      if (p.status !== 0 && p.status !== 1) throw new Error(`${cli} exited with ${p.status}: ${p.stderr}`);
      const m = JSON.parse(fs.readFileSync(marksFile, 'utf8'));
      runs[cli].push({
        wall,
        spawnAt: m.spawnAt,
        spawnMs: m.spawnedAt - m.spawnAt,
        exitAt: m.exitAt,
        endAt: m.endAt,
        afterMs: m.endAt - m.exitAt,
        afterCpuMs: m.cpuAtEnd - m.cpuAtExit,
      });
    }
  }
  fs.rmSync(work, { recursive: true, force: true });
  if (opt.json) {
    console.log(JSON.stringify(runs, null, 2));
    return;
  }
  const med = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const cols = ['wall', 'spawnAt', 'spawnMs', 'exitAt', 'endAt', 'afterMs', 'afterCpuMs'];
  console.log(
    `node ${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()}, ${opt.runs} interleaved rounds, ` +
      `load ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}; medians [min], ms after the process's start`,
  );
  console.log(['build', ...cols].join('\t'));
  for (const cli of clis) {
    const cells = cols.map((c) => {
      const xs = runs[cli].map((x) => x[c]);
      return `${med(xs).toFixed(1)} [${Math.min(...xs).toFixed(1)}]`;
    });
    console.log([cli, ...cells].join('\t'));
  }
}
