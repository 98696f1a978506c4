// Half-open connections cannot keep `serve` down: the oldest connection serving nothing is closed to make room,
// a per-address share, and a short header timeout.
import * as net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionGuard, type GuardedSocket } from '../../src/act/serve/connections.js';
import { get, startServe, type Serve } from './helpers.js';
import { fakeSmi } from './helpers.js';

class FakeSock implements GuardedSocket {
  destroyed = false;
  constructor(
    readonly remoteAddress: string,
    readonly name: string,
  ) {}
  destroy(): void {
    this.destroyed = true;
  }
}

describe('the connection guard', () => {
  it('past the total, the oldest connection serving nothing is closed; busy ones never; all busy: the new one', () => {
    const g = new ConnectionGuard({ maxTotal: 3, maxIdlePerAddress: 10 });
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((n) => new FakeSock('10.0.0.1', n)) as [
      FakeSock,
      FakeSock,
      FakeSock,
      FakeSock,
      FakeSock,
    ];
    g.admit(a);
    g.admit(b);
    g.busy(a); // a stream
    g.admit(c);
    g.admit(d); // 4 > 3: b (the oldest idle) goes, not a
    expect([a, b, c, d].map((s) => s.destroyed)).toEqual([false, true, false, false]);
    g.busy(c);
    g.busy(d);
    g.admit(e); // every other one is busy: the new one goes
    expect(e.destroyed).toBe(true);
    expect(g.size).toBe(3);
    g.idle(d);
    g.closed(a);
    expect(g.evicted).toBe(2);
  });

  it('one address holds at most its share of idle connections; another address keeps its own', () => {
    const g = new ConnectionGuard({ maxTotal: 100, maxIdlePerAddress: 2 });
    const x = [1, 2, 3].map((i) => new FakeSock('10.0.0.9', `x${i}`));
    const y = new FakeSock('10.0.0.2', 'y');
    g.admit(y);
    for (const s of x) g.admit(s);
    expect(x.map((s) => s.destroyed)).toEqual([true, false, false]);
    expect(y.destroyed).toBe(false);
  });
});

const servers: Serve[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) await s.stop();
});

/** Opens a connection that sends a partial request and then nothing (the audit's attacker). */
function partial(port: number): Promise<net.Socket> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.write('GET / HTTP/1.1\r\nHost: localhost\r\n');
      resolve(s);
    });
    s.on('error', () => resolve(s));
    // a SYN the kernel drops while the accept queue is full is retried for minutes: give up after a second
    setTimeout(() => {
      if (s.connecting) s.destroy();
      resolve(s);
    }, 1000);
    sockets.push(s);
  });
}

describe('serve under half-open connections', () => {
  it('200 partial requests held (reopened when closed) from loopback: the page still answers; they time out', async () => {
    const smi = fakeSmi([{ procs: [] }]);
    const s = await startServe(['--interval', '0.5'], { PATH: `${smi.dir}:${process.env.PATH ?? '/usr/bin:/bin'}` });
    servers.push(s);
    const port = Number(new URL(s.url).port);
    let reopened = 0;
    let closedByServer = 0;
    const end = Date.now() + 4000; // the attacker stops by itself
    const hold = async (): Promise<void> => {
      while (Date.now() < end) {
        const sock = await partial(port);
        await new Promise<void>((r) => {
          sock.once('close', () => r());
          setTimeout(r, Math.max(0, end - Date.now()));
        });
        if (sock.destroyed && Date.now() < end) closedByServer++, reopened++;
      }
    };
    const attackers = Array.from({ length: 200 }, () => hold());
    await new Promise((r) => setTimeout(r, 1000));
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = Date.now();
      answers.push((await get(`${s.base}/state.json`)).status);
      expect(Date.now() - t0).toBeLessThan(5000);
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(answers).toEqual([200, 200, 200, 200, 200]);
    for (const sock of sockets) sock.destroy();
    await Promise.all(attackers);
    expect(closedByServer).toBeGreaterThan(0); // room was made by closing half-open ones
  }, 90000);

  it('with a token (--host 0.0.0.0): 200 partial requests without it do not keep out a request that carries it', async () => {
    const smi = fakeSmi([{ procs: [] }]);
    const s = await startServe(['--interval', '0.5', '--host', '0.0.0.0'], {
      PATH: `${smi.dir}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    });
    servers.push(s);
    const token = /token=([A-Za-z0-9_-]{43})$/.exec(s.url)![1]!;
    const port = Number(new URL(s.url).port);
    await Promise.all(Array.from({ length: 200 }, () => partial(port)));
    const answers: number[] = [];
    for (let i = 0; i < 3; i++) {
      answers.push((await get(`${s.base}/state.json?token=${token}`)).status);
      await Promise.all(Array.from({ length: 50 }, () => partial(port))); // more keep coming
    }
    expect(answers).toEqual([200, 200, 200]);
    expect((await get(`${s.base}/state.json`)).status).toBe(401);
  }, 90000);

  it('a partial request is closed once the header timeout passes (about 5 s, checked every second)', async () => {
    const smi = fakeSmi([{ procs: [] }]);
    const s = await startServe(['--interval', '0.5'], { PATH: `${smi.dir}:${process.env.PATH ?? '/usr/bin:/bin'}` });
    servers.push(s);
    const sock = await partial(Number(new URL(s.url).port));
    const t0 = Date.now();
    await new Promise((r) => sock.once('close', r));
    const took = Date.now() - t0;
    expect(took).toBeGreaterThan(4000);
    expect(took).toBeLessThan(8000);
  }, 20000);
});
