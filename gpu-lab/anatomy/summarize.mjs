// Reads check-anatomy.sh's rounds: per round, nvidia-smi's real run (shim) against node's view of it, and the
// main thread's busy stretches while nvidia-smi ran. Times in ms from the check process's start.
import { readFileSync, existsSync } from 'node:fs';
const dir = process.argv[2];
for (let i = 1; existsSync(`${dir}/anatomy-${i}.json`); i++) {
  const a = JSON.parse(readFileSync(`${dir}/anatomy-${i}.json`, 'utf8'));
  const [w0, w1] = readFileSync(`${dir}/wall-${i}.txt`, 'utf8').trim().split(' ').map(Number);
  const wall = (w1 - w0) / 1e6;
  // node's clock starts at its own start; the shell's t0 is a little earlier: align by wall end ≈ a.end + exit cost
  const offset = w0; // ns
  const shim = readFileSync(`${dir}/shim-${i}.txt`, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [s, e, arg] = l.split(' ');
      return { arg, start: (Number(s) - offset) / 1e6, end: (Number(e) - offset) / 1e6 };
    });
  console.log(`round ${i}: wall ${wall.toFixed(0)} ms (shell clock), node's end ${a.end} ms (node clock)`);
  for (const c of a.children)
    console.log(
      `  child ${c.cmd.slice(0, 50)}: call ${c.call} returned ${c.returned} first byte ${c.firstByte ?? '-'} exit ${c.exit ?? '-'} close ${c.close ?? '-'}`,
    );
  for (const s of shim)
    console.log(
      `  shim nvidia-smi ${s.arg}: ran ${s.start.toFixed(1)}–${s.end.toFixed(1)} (${(s.end - s.start).toFixed(1)} ms, shell clock)`,
    );
  console.log(`  main thread busy > 4 ms: ${a.gaps.map(([x, y]) => `${x.toFixed(0)}–${y.toFixed(0)}`).join(', ')}`);
  try {
    const j = JSON.parse(readFileSync(`${dir}/check-${i}.json`, 'utf8'));
    const probes = (j.snapshot?.probes ?? j.probes ?? []).map((p) => `${p.id} ${p.durationMs}`).join(', ');
    console.log(`  probes: ${probes}`);
  } catch {
    console.log('  (no check json)');
  }
}
