// The HTTP side in-process: a reader that stops reading is dropped rather than buffered for, and the
// security rules in isolation.
import * as http from 'node:http';
import * as net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isLoopbackHost, loopbackHostHeader, tokenMatches, tokenOf } from '../../src/act/serve/security.js';
import { startServer, type RunningServer } from '../../src/act/serve/server.js';
import { frame } from '../../src/act/serve/streams.js';
import { get, until } from './helpers.js';

const running: RunningServer[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
});

async function server(eventData: () => string, o: { stuckMs?: number; token?: string } = {}): Promise<RunningServer> {
  const s = await startServer({
    host: '127.0.0.1',
    port: 0,
    token: o.token ?? null,
    loopback: o.token === undefined,
    csp: "default-src 'none'",
    source: { page: () => '<!DOCTYPE html><title>t</title>', json: () => '{}', eventData },
    ...(o.stuckMs !== undefined ? { stuckMs: o.stuckMs } : {}),
  });
  running.push(s);
  return s;
}

describe('event streams', () => {
  it('a reader that stops reading is not buffered for, and is dropped once behind for too long; readers keep getting updates', async () => {
    const big = JSON.stringify({ main: 'x'.repeat(256 * 1024) });
    const s = await server(() => big, { stuckMs: 1000 });
    // the stuck reader: a raw socket that sends the request and never reads
    const stuck = net.connect(s.port, '127.0.0.1');
    stuck.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\n\r\n`);
    stuck.pause();
    // a good reader
    let got = 0;
    const good = http.get(`http://127.0.0.1:${s.port}/events`, { agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (d: string) => (got += (d.match(/^event: state$/gm) ?? []).length));
    });
    await until('both streams open', async () => (s.hub.size === 2 ? true : null));
    // push until the stuck one's kernel buffers are full and it has been behind for a second
    const rss0 = process.memoryUsage().rss;
    for (let i = 0; i < 2000 && s.hub.dropped === 0; i++) {
      s.push();
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(s.hub.dropped).toBe(1);
    // what was pushed meanwhile (hundreds of 256 KiB states) was not kept for it
    expect(process.memoryUsage().rss - rss0).toBeLessThan(64 * 1024 * 1024);
    expect(s.hub.size).toBe(1);
    await until('the good reader got the updates', async () => (got >= 10 ? true : null));
    good.destroy();
    stuck.destroy();
  }, 60000);

  it('a reader that falls behind for a moment is not dropped for it later, and every reader ends with the latest state', async () => {
    let n = 0;
    // states smaller than the socket's high-water mark, and readers that pause now and then: a write then
    // returns true while the data still waits for the kernel, and no 'drain' ever follows
    // (a reader once behind and caught up again must not count as behind since then: stuckMs 1 s here)
    const s = await server(() => JSON.stringify({ n, pad: 'y'.repeat(8 * 1024) }), { stuckMs: 1000 });
    const last: number[] = new Array(20).fill(-1);
    const counts: number[] = new Array(20).fill(0);
    const reqs = last.map((_, i) =>
      http.get(`http://127.0.0.1:${s.port}/events`, { agent: false }, (res) => {
        let buf = '';
        let since = 0;
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          buf += d;
          since += d.length;
          if (since > 200 * 1024) {
            since = 0;
            res.pause();
            setTimeout(() => res.resume(), 150);
          }
          let k;
          while ((k = buf.indexOf('\n\n')) >= 0) {
            const m = /^data: (.*)$/m.exec(buf.slice(0, k));
            buf = buf.slice(k + 2);
            if (m) {
              last[i] = JSON.parse(m[1]!).n;
              counts[i]!++;
            }
          }
        });
      }),
    );
    await until('all streams open', async () => (s.hub.size === 20 ? true : null));
    for (n = 1; n <= 300; n++) {
      s.push();
      await new Promise((r) => setTimeout(r, 10));
    }
    n = 300;
    await until('every reader has the last state', async () => (last.every((x) => x === 300) ? true : null), 10000);
    expect(s.hub.dropped).toBe(0);
    expect(Math.min(...counts)).toBeGreaterThan(1);
    for (const r of reqs) r.destroy();
  }, 30000);

  it('an event is one data line, whatever the text holds', () => {
    expect(frame('state', 'a\nb\rc')).toBe('event: state\ndata: a b c\n\n');
  });
});

describe('who may read', () => {
  it('loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST'])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.5', 'gpu-node-17', '127.0.0.1.nip.io', '128.0.0.1'])
      expect(isLoopbackHost(h), h).toBe(false);
  });

  it('the Host header of a request to the loopback server', () => {
    for (const h of ['127.0.0.1:5810', 'localhost:5810', '[::1]:5810', 'localhost'])
      expect(loopbackHostHeader(h), h).toBe(true);
    for (const h of [
      undefined,
      '',
      'evil.example',
      'evil.example:5810',
      '127.0.0.1.evil.example:5810',
      'localhost.evil.example',
    ])
      expect(loopbackHostHeader(h), String(h)).toBe(false);
  });

  it('the token: in the query or as a bearer, compared whole', () => {
    const u = (q: string) => new URL(`http://x/${q}`);
    expect(tokenOf(u('?token=abc'), {})).toBe('abc');
    expect(tokenOf(u(''), { authorization: 'Bearer abc' })).toBe('abc');
    expect(tokenOf(u(''), { authorization: 'Basic abc' })).toBeNull();
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('ab', 'abc')).toBe(false);
    expect(tokenMatches('abcd', 'abc')).toBe(false);
    expect(tokenMatches(null, 'abc')).toBe(false);
  });

  it('a server with a token refuses a request without it, also on HEAD and unknown paths', async () => {
    const s = await server(() => '{}', { token: 'sixteen-chars-token' });
    for (const p of ['/', '/events', '/state.json', '/nope'])
      expect((await get(`http://127.0.0.1:${s.port}${p}`)).status).toBe(401);
    expect((await get(`http://127.0.0.1:${s.port}/?token=sixteen-chars-token`)).status).toBe(200);
    expect((await get(`http://127.0.0.1:${s.port}/nope?token=sixteen-chars-token`)).status).toBe(404);
  });
});
