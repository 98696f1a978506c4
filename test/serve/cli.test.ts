// `serve` end to end without a browser: the built CLI, a fake nvidia-smi replaying the H200 capture with real
// processes in its list, plain HTTP requests and event streams from Node.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';
import { killQuietly, spawnOrphan } from '../fix/helpers.js';
import { fakeSmi, get, startServe, until, uuidOf, type Serve } from './helpers.js';

const started: number[] = [];
const servers: Serve[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
  for (const pid of started.splice(0)) killQuietly(pid);
});

function orphan(argv: string[]): number {
  const pid = spawnOrphan(argv);
  started.push(pid);
  return pid;
}

async function serve(args: string[], smiDir: string): Promise<Serve> {
  const s = await startServe(['--check-interval', '0', ...args], { PATH: `${smiDir}:${process.env.PATH}` });
  servers.push(s);
  return s;
}

/** Reads one event stream until `n` state events came, or the time is up. */
function readEvents(
  url: string,
  n: number,
  ms = 8000,
): Promise<{ status: number; events: { now: number; main: string; status: string }[] }> {
  return new Promise((resolve, reject) => {
    const events: { now: number; main: string; status: string }[] = [];
    const req = http.get(url, { agent: false }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return resolve({ status: res.statusCode ?? 0, events });
      }
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        buf += d;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const data = /^data: (.*)$/m.exec(block);
          if (/^event: state$/m.test(block) && data) events.push(JSON.parse(data[1]!));
          if (events.length >= n) {
            req.destroy();
            return resolve({ status: 200, events });
          }
        }
      });
    });
    req.on('error', (e) => (events.length >= n ? undefined : reject(e)));
    setTimeout(() => {
      req.destroy();
      resolve({ status: 200, events });
    }, ms);
  });
}

describe('gpu-env-doctor serve', () => {
  it('serves the page on 127.0.0.1: GPUs, holders with verdicts, the free GPU and its CUDA_VISIBLE_DEVICES line', async () => {
    const holder = orphan(['sleep', '300']);
    const smi = fakeSmi([{ procs: [{ pid: holder, usedMiB: 120000 }] }, { procs: [] }]);
    const s = await serve(['--interval', '0.5'], smi.dir);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await until('the first sample', async () => {
      const r = await get(s.url);
      return r.body.includes('data-kind="ok"') ? r : null;
    });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(`<tr data-pid="${holder}" data-verdict="orphaned">`);
    expect(page.body).toContain('sleep 300');
    expect(page.body).toContain('Free now: GPU 1 of 2 GPUs');
    expect(page.body).toContain(`export CUDA_VISIBLE_DEVICES=${uuidOf(1)}\npython train.py`);
    expect(page.body).toContain('1 stale process holds GPU memory');
    expect(page.body).toContain('$ gpu-env-doctor fix');
    // complete without scripts: it reloads itself
    expect(page.body).toMatch(/<noscript><meta http-equiv="refresh" content="5;url=\/"><\/noscript>/);
    const json = JSON.parse((await get(`${s.base}/state.json`)).body);
    expect(json.gpus.map((g: { index: number; free: boolean }) => [g.index, g.free])).toEqual([
      [0, false],
      [1, true],
    ]);
    expect(json.gpus[0].procs[0]).toMatchObject({
      pid: holder,
      verdict: 'orphaned',
      stale: true,
      miB: 120000,
      user: 'root',
    });
    // Ctrl-C or SIGTERM: it stops with exit code 0
    servers.splice(servers.indexOf(s), 1);
    expect(await s.stop()).toBe(0);
  });

  it('sends every response with the security headers: a CSP that allows only its own script and origin', async () => {
    const smi = fakeSmi([{ procs: [] }]);
    const s = await serve([], smi.dir);
    const r = await get(s.url);
    const csp = r.headers['content-security-policy'] as string;
    expect(csp).toMatch(
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/,
    );
    expect(csp).not.toContain('unsafe');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.headers['cache-control']).toBe('no-store');
    // read-only: nothing but GET and HEAD
    const post = await new Promise<number>((resolve) => {
      const req = http.request(
        s.url,
        { method: 'POST', agent: false },
        (res) => (res.resume(), resolve(res.statusCode ?? 0)),
      );
      req.end('kill=1');
    });
    expect(post).toBe(405);
    expect((await get(`${s.base}/nope`)).status).toBe(404);
  });

  it('on the loopback, answers only requests that name the loopback (DNS rebinding)', async () => {
    const smi = fakeSmi([{ procs: [] }]);
    const s = await serve([], smi.dir);
    expect((await get(s.url, { Host: 'evil.example:80' })).status).toBe(403);
    expect((await get(s.url, { Host: `localhost:${new URL(s.url).port}` })).status).toBe(200);
  });

  it('with --host 0.0.0.0: a token is made and printed; without it every request and stream is refused, with it served', async () => {
    const smi = fakeSmi([{ procs: [] }]);
    const s = await serve(['--host', '0.0.0.0'], smi.dir);
    const token = /token=([A-Za-z0-9_-]{43})$/.exec(s.url)![1]!;
    // stderr and stdout are two pipes: the token's line on stderr may arrive after the URL on stdout
    await until('the token on stderr', async () => (s.stderr().includes(token) ? true : null));
    for (const p of ['/', '/events', '/state.json']) {
      expect((await get(`${s.base}${p}`)).status).toBe(401);
      expect((await get(`${s.base}${p}?token=wrong${token.slice(5)}`)).status).toBe(401);
    }
    const page = await get(`${s.base}/?token=${token}`);
    expect(page.status).toBe(200);
    // the page's own links and its event stream carry the token
    expect(page.body).toContain(`data-events="/events?token=${token}"`);
    expect(page.body).toContain(`url=/?token=${token}"`);
    expect((await get(`${s.base}/state.json`, { Authorization: `Bearer ${token}` })).status).toBe(200);
    const ev = await readEvents(`${s.base}/events?token=${token}`, 1);
    expect(ev.status).toBe(200);
    expect(ev.events.length).toBe(1);
  });

  it('--token-file: the token read from a file; too short is a usage error', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 't'), 'abcdefghijklmnopqrstuvwxyz012345\n');
    fs.writeFileSync(path.join(dir, 'short'), 'abc\n');
    const smi = fakeSmi([{ procs: [] }]);
    const s = await serve(['--host', '0.0.0.0', '--token-file', path.join(dir, 't')], smi.dir);
    expect(s.url).toMatch(/\?token=abcdefghijklmnopqrstuvwxyz012345$/);
    expect(s.stderr()).not.toContain('abcdefghijklmnopqrstuvwxyz012345'); // not printed again: the user has it
    expect((await get(`${s.base}/?token=abcdefghijklmnopqrstuvwxyz012345`)).status).toBe(200);
    expect((await get(`${s.base}/`)).status).toBe(401);
    const r = runCli(['serve', '--host', '0.0.0.0', '--token-file', path.join(dir, 'short')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^gpu-env-doctor: --token-file .*short: the token must be one word of at least 16 characters\n$/,
    );
  });

  it('shows a change of nvidia-smi on open event streams within two intervals', async () => {
    const a = orphan(['sleep', '301']);
    const smi = fakeSmi([{ procs: [{ pid: a, usedMiB: 100000 }] }]);
    const s = await serve(['--interval', '0.5'], smi.dir);
    await until('the first sample', async () =>
      (await get(`${s.base}/state.json`)).body.includes(`"pid":${a}`) ? true : null,
    );
    const stream = readEvents(`${s.base}/events`, 50, 4000);
    await new Promise((r) => setTimeout(r, 600));
    const changedAt = Date.now();
    smi.set([{ procs: [] }]);
    const { events } = await stream;
    const firstWithout = events.find(
      (e) => e.now >= changedAt && !e.main.includes(`data-pid="${a}"`) && e.main.includes('Free now: GPU 0'),
    );
    expect(firstWithout, 'an event without the holder').toBeDefined();
    expect(firstWithout!.now - changedAt).toBeLessThanOrEqual(1000);
  });

  it('holds 100 event streams at once, all updated; the 101st is refused with 503; the page still answers', async () => {
    const smi = fakeSmi([{ procs: [] }]);
    const s = await serve(['--interval', '0.5'], smi.dir);
    const agent = new http.Agent({ keepAlive: false, maxSockets: 200 });
    const got: number[] = new Array(100).fill(0);
    const reqs: http.ClientRequest[] = [];
    // ten at a time, as clients come: a burst of 100 half-open connections from one address is what the
    // connection guard treats as a flood (more than its per-address share of idle connections)
    const open = (i: number) =>
      new Promise<void>((resolve, reject) => {
        const req = http.get(`${s.base}/events`, { agent }, (res) => {
          expect(res.statusCode).toBe(200);
          res.setEncoding('utf8');
          res.on('data', (d: string) => (got[i]! += (d.match(/^event: state$/gm) ?? []).length));
          resolve();
        });
        req.on('error', (e) => (e.message === 'socket hang up' ? undefined : reject(e)));
        reqs.push(req);
      });
    for (let b = 0; b < got.length; b += 10) await Promise.all(got.slice(b, b + 10).map((_, j) => open(b + j)));
    const extra = await readEvents(`${s.base}/events`, 1, 3000);
    expect(extra.status).toBe(503);
    const state = JSON.parse((await get(`${s.base}/state.json`)).body);
    expect(state.gpus).toHaveLength(1);
    expect(state.server).toMatchObject({ streams: 100, refused: 1, dropped: 0 });
    const page = await get(s.url);
    expect(page.status).toBe(200);
    // every stream got the state on opening, and updates after
    await until('updates on every stream', async () => (got.every((n) => n >= 2) ? true : null), 10000);
    for (const r of reqs) r.destroy();
    agent.destroy();
    // the slots are free again
    await until(
      'a stream after the others closed',
      async () => ((await readEvents(`${s.base}/events`, 1, 2000)).status === 200 ? true : null),
      5000,
      200,
    );
  });

  it('when nvidia-smi hangs the page says so and every request is still answered at once; when it vanishes too', async () => {
    const smi = fakeSmi([{ procs: [] }]);
    const s = await serve(['--interval', '0.5', '--timeout', '30'], smi.dir);
    await until('the first sample', async () => ((await get(s.url)).body.includes('data-kind="ok"') ? true : null));
    smi.hang(true);
    const hung = await until(
      'the hang on the page',
      async () => {
        const t0 = Date.now();
        const r = await get(s.url);
        expect(Date.now() - t0).toBeLessThan(1000);
        return r.body.includes('data-kind="hanging"') ? r.body : null;
      },
      10000,
    );
    expect(hung).toMatch(/nvidia-smi has not answered for <span data-ago="\d+">\d+ s<\/span>: the driver may be hung/);
    expect(hung).toContain('The figures below are from');
    expect(hung).toContain('Which GPUs are free is not known: nvidia-smi is not answering');
    const t0 = Date.now();
    expect((await get(`${s.base}/state.json`)).status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(1000);
    smi.hang(false);
    smi.vanish();
    // the hung nvidia-smi is still there (killed only at --timeout); a fresh server sees the vanished one
    const s2 = await serve(['--interval', '0.5'], smi.dir);
    const gone = await until('the failure on the page', async () => {
      const r = await get(s2.url);
      return r.body.includes('data-kind="failed"') ? r.body : null;
    });
    expect(gone).toContain('nvidia-smi could not answer: nvidia-smi was not found on PATH');
  });

  it('--redact hides user names and command lines', async () => {
    const holder = orphan(['sleep', '302']);
    const smi = fakeSmi([{ procs: [{ pid: holder, usedMiB: 5000 }] }]);
    const s = await serve(['--redact'], smi.dir);
    const body = await until('the holder', async () => {
      const r = await get(s.url);
      return r.body.includes(`data-pid="${holder}"`) ? r.body : null;
    });
    expect(body).not.toContain('sleep 302');
    expect(body).toContain('User names and command lines are hidden (--redact)');
    expect(body).not.toContain('GPU-3860b93c');
    const json = (await get(`${s.base}/state.json`)).body;
    expect(json).not.toContain('sleep 302');
    expect(json).not.toMatch(/GPU-[0-9a-f]{8}-/);
  });

  it('usage errors: one line, exit 2', () => {
    for (const [args, msg] of [
      [['serve', '--port', 'x'], '--port must be a whole number from 0 to 65535, not "x"'],
      [['serve', '--interval', '0.1'], '--interval takes a number of seconds from 0.5 to 86400, not "0.1"'],
      [['serve', '--json'], '--json is not an option of serve: it serves a page (its data as JSON at /state.json)'],
      [
        ['serve', '--from', 'x.json'],
        '--from is not an option of serve: it watches this machine (for saved snapshots: --fleet DIR)',
      ],
      [['serve', 'extra'], 'serve takes no arguments (got "extra"; for many machines: --fleet DIR)'],
      [['serve', '--fleet', '/nonexistent/dir'], '--fleet /nonexistent/dir: no such folder'],
      [
        ['serve', '--check-interval', '2'],
        '--check-interval must be 0 (never) or at least 5 seconds: the checks read the whole machine',
      ],
    ] as const) {
      const r = runCli([...args]);
      expect(r.stderr).toBe(`gpu-env-doctor: ${msg}\n`);
      expect(r.code).toBe(2);
    }
  });

  it('a port in use: one line, exit 2', async () => {
    const blocker = http.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    const r = runCli(['serve', '--port', String(port), '--check-interval', '0']);
    blocker.close();
    expect(r.stderr).toBe(
      `gpu-env-doctor: cannot listen on 127.0.0.1:${port}: the port is in use (choose another with --port)\n`,
    );
    expect(r.code).toBe(2);
  });
});

afterAll(() => undefined);
