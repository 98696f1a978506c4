// nvidia-smi -q -x spawned as check spawns it (own group, stdout/stderr piped), while this process's main thread
// idles, spins, or spins beside N worker threads that spin: does the parent's own work slow the child?
//   node gpu-lab/anatomy/spawn-busy.mjs idle|spin|spin-workers N
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
const [mode, n = '0'] = process.argv.slice(2);
const t0 = performance.now();
const child = spawn('nvidia-smi', ['-q', '-x'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
child.stdout.resume();
const workers = [];
if (mode === 'spin-workers')
  for (let i = 0; i < Number(n); i++)
    workers.push(new Worker('const e=Date.now()+250;while(Date.now()<e);', { eval: true }));
if (mode !== 'idle') {
  const end = performance.now() + 250;
  while (performance.now() < end);
}
child.on('close', () => {
  console.log(`${mode} ${n}: close after ${(performance.now() - t0).toFixed(1)} ms`);
  for (const w of workers) w.terminate();
});
