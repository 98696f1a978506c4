// What bench/libs-cpu.mjs measures in a fresh process (bundled by it): the library scan (ld cache, inventory,
// loader emulation: scanLibraries) on a --root tree, as the collector runs it (a session of the file port, the
// environments found before), with process.cpuUsage around it. Prints one JSON line: the CPU ms and a digest of
// what the scan found (copies, consumers), so that two builds can be shown to give the same answers.
import { createHash } from 'node:crypto';
import { createFileSystem } from '../src/ports/fs.js';
import { realRunner } from '../src/ports/runner.js';
import { DEFAULT_PROBE_OPTIONS, type ProbeEnv } from '../src/gather/probe-env.js';
import { discoverEnvironments } from '../src/gather/python/discover.js';
import { scanLibraries } from '../src/gather/libraries/probe.js';

export { buildMachine } from './machine.js';

export async function scanOnce(root: string, env: Record<string, string>): Promise<Record<string, unknown>> {
  const fs = createFileSystem(root);
  const penv: ProbeEnv = {
    fs: fs.session?.() ?? fs,
    runner: realRunner,
    env,
    now: () => Date.now(),
    pid: process.pid,
    options: DEFAULT_PROBE_OPTIONS,
  };
  const environments = discoverEnvironments(penv);
  const c = process.cpuUsage();
  const t0 = performance.now();
  const scan = await scanLibraries(penv, environments);
  const d = process.cpuUsage(c);
  const wallMs = performance.now() - t0;
  const answers = JSON.stringify({ copies: scan.inventory.copies, consumers: scan.consumers });
  return {
    cpuMs: (d.user + d.system) / 1000,
    userMs: d.user / 1000,
    sysMs: d.system / 1000,
    wallMs,
    copies: scan.inventory.copies.length,
    consumers: scan.consumers.length,
    digest: createHash('sha256').update(answers).digest('hex').slice(0, 16),
  };
}

// run as a script: node entry.mjs scan ROOT ENV_JSON
if (process.argv[2] === 'scan') {
  const r = await scanOnce(process.argv[3]!, JSON.parse(process.argv[4]!) as Record<string, string>);
  console.log(JSON.stringify(r));
}
