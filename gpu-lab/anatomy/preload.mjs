// Loaded with `node --import` before check: a timeline of check's children and of its main thread, written as
// JSON to $ANATOMY_OUT at exit. Children: when spawn() was called and returned, first stdout byte, 'exit' and
// 'close' as node saw them. Main thread: every gap of more than 4 ms between 1 ms ticks (the event loop was busy).
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const require = createRequire(import.meta.url);
const cp = require('node:child_process');
const t = () => Math.round(performance.now() * 10) / 10;
const events = [];
const spawn = cp.spawn;
// Variants (to find what slows a child): ANATOMY_ONLY_SMI=1 runs `false` in place of every other program,
// ANATOMY_ATTACHED=1 keeps children in our process group, ANATOMY_NO_WORKER=1 makes worker threads fail to start.
const onlySmi = process.env.ANATOMY_ONLY_SMI === '1';
const attached = process.env.ANATOMY_ATTACHED === '1';
if (process.env.ANATOMY_NO_WORKER === '1') {
  const wt = require('node:worker_threads');
  wt.Worker = class {
    constructor() {
      throw new Error('no worker (anatomy variant)');
    }
  };
}
cp.spawn = function (cmd, args, opts) {
  const call = t();
  if (onlySmi && cmd !== 'nvidia-smi') [cmd, args] = ['false', []];
  if (attached && opts) opts = { ...opts, detached: false };
  const child = spawn.call(this, cmd, args, opts);
  const rec = { cmd: [cmd, ...(args ?? [])].join(' ').slice(0, 80), call, returned: t() };
  events.push(rec);
  child.stdout?.once('data', () => {
    rec.firstByte = t();
  });
  child.once('exit', () => {
    rec.exit = t();
  });
  child.once('close', () => {
    rec.close = t();
  });
  return child;
};
const gaps = [];
let last = t();
const tick = setInterval(() => {
  const now = t();
  if (now - last > 4) gaps.push([last, now]);
  last = now;
}, 1);
tick.unref();
process.on('exit', () => {
  if (process.env.ANATOMY_OUT)
    writeFileSync(process.env.ANATOMY_OUT, JSON.stringify({ end: t(), children: events, gaps }));
});
