// The client half of gpu-lab/serve.sh (issue 18), plain Node (no browser on the GPU machine): waits until the
// page shows the holder and the running job, saves the page HTML and state.json, records the event stream
// while the holder is ended, and measures when the page first shows it gone. Everything under --out.
//   node gpu-lab/serve-probe.mjs --base http://127.0.0.1:PORT --out DIR --holder PID --job PID --interval-ms N
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const arg = (n) => {
  const i = process.argv.indexOf(`--${n}`);
  return i === -1 ? undefined : process.argv[i + 1];
};
const base = arg('base');
const out = arg('out');
const holder = Number(arg('holder'));
const job = Number(arg('job'));
const intervalMs = Number(arg('interval-ms') ?? '1000');
const lines = [];
let fails = 0;
const say = (s) => {
  lines.push(s);
  console.log(s);
};
const check = (name, ok) => {
  say(`${ok ? 'PASS' : 'FAIL'} ${name}`);
  if (!ok) fails++;
};

function get(p) {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const req = http.get(`${base}${p}`, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, body, ms: Date.now() - t0, headers: res.headers }));
    });
    req.on('error', reject);
    req.setTimeout(10000, () => req.destroy(new Error(`GET ${p} timed out`)));
  });
}

const pidsOf = (state) => new Set(state.gpus.flatMap((g) => g.procs.map((p) => p.pid)));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// 1. the page shows both
let state = null;
for (let i = 0; i < 120; i++) {
  const r = await get('/state.json');
  state = JSON.parse(r.body);
  const pids = pidsOf(state);
  if (state.status.kind === 'ok' && pids.has(holder) && pids.has(job)) break;
  await sleep(500);
}
fs.writeFileSync(path.join(out, 'state-before.json'), JSON.stringify(state, null, 2));
const before = await get('/');
fs.writeFileSync(path.join(out, 'page-before.html'), before.body);
const procs = state.gpus.flatMap((g) => g.procs.map((p) => ({ gpu: g.index, ...p })));
for (const p of procs)
  say(
    `GPU ${p.gpu}: PID ${p.pid} ${p.user} ${p.miB} MiB ${p.framework?.name ?? '-'} ${p.verdict} (${p.reason}) ${p.age}: ${p.command}`,
  );
const h = procs.find((p) => p.pid === holder);
const j = procs.find((p) => p.pid === job);
check(`the page lists the holder (PID ${holder})`, h !== undefined);
check(`the page lists the running job (PID ${job})`, j !== undefined);
check(`the holder is stale (${h?.verdict})`, h?.stale === true);
check(`the job is not stale (${j?.verdict})`, j !== undefined && j.stale === false);
check(`the page answered in ${before.ms} ms`, before.status === 200 && before.ms < 1000);
check('the page carries the CSP', /script-src 'sha256-/.test(before.headers['content-security-policy'] ?? ''));
say(
  `page ${before.body.length} bytes; GPUs: ${state.gpus.map((g) => `${g.index} ${g.usedMiB}/${g.totalMiB} MiB free=${g.free}`).join('; ')}`,
);
for (const g of state.gpus)
  for (const p of g.policies) say(`policy on GPU ${g.index}: PID ${p.pid} (${p.framework}): ${p.summary}`);

// 2. the event stream while the holder ends
const sse = fs.createWriteStream(path.join(out, 'sse.txt'));
const events = [];
let killedAt = null;
let seenGoneAt = null;
await new Promise((resolve, reject) => {
  const req = http.get(`${base}/events`, { agent: false }, (res) => {
    let buf = '';
    res.setEncoding('utf8');
    res.on('data', (d) => {
      sse.write(d.replace(/\n\n/g, `\n: received ${new Date().toISOString()}\n\n`));
      buf += d;
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const m = /^data: (.*)$/m.exec(block);
        if (!/^event: state$/m.test(block) || !m) continue;
        const e = JSON.parse(m[1]);
        events.push({
          receivedAt: Date.now(),
          serverNow: e.now,
          hasHolder: e.main.includes(`data-pid="${holder}"`),
          hasJob: e.main.includes(`data-pid="${job}"`),
        });
        if (events.length === 3 && killedAt === null) {
          killedAt = Date.now();
          try {
            process.kill(holder, 'SIGKILL');
          } catch (err) {
            say(`could not end the holder: ${err.message}`);
          }
        }
        if (killedAt !== null && seenGoneAt === null && !events[events.length - 1].hasHolder) seenGoneAt = Date.now();
        if (seenGoneAt !== null && events.length >= 3 && Date.now() - seenGoneAt > 2 * intervalMs) {
          req.destroy();
          resolve();
        }
      }
    });
  });
  req.on('error', (e) => (seenGoneAt !== null ? resolve() : reject(e)));
  setTimeout(() => {
    req.destroy();
    resolve();
  }, 60000);
});
sse.end();
const delta = seenGoneAt !== null && killedAt !== null ? seenGoneAt - killedAt : null;
fs.writeFileSync(
  path.join(out, 'live-change.json'),
  JSON.stringify({ intervalMs, holder, job, killedAt, seenGoneAt, deltaMs: delta, events }, null, 2),
);
say(
  `events: ${events.length}; holder ended at +0 ms, gone from the page after ${delta} ms (interval ${intervalMs} ms)`,
);
check(
  'the page showed the holder gone, live, within two intervals (plus the GPU releasing its memory)',
  delta !== null && delta <= 2 * intervalMs + 3000,
);
check('the running job stayed on the page', events.length > 0 && events[events.length - 1].hasJob);

// 3. after
await sleep(intervalMs);
const after = await get('/');
fs.writeFileSync(path.join(out, 'page-after.html'), after.body);
const stateAfter = JSON.parse((await get('/state.json')).body);
fs.writeFileSync(path.join(out, 'state-after.json'), JSON.stringify(stateAfter, null, 2));
check('state.json after: the holder is gone', !pidsOf(stateAfter).has(holder));
fs.writeFileSync(path.join(out, 'probe-summary.txt'), `${lines.join('\n')}\n`);
process.exit(fails > 0 ? 1 : 0);
