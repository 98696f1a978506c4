// The HTTP side of `serve` (node:http, nothing else): three read-only routes, the token or loopback rule on
// every one, the security headers on every answer, bounded connections and streams.
//   GET /            the page (complete without scripts; it reloads itself then)
//   GET /events      server-sent events: the page's changing parts, whenever they change
//   GET /state.json  the page's model, for scripts
// Every answer is built from what the collector already holds: nothing here waits for nvidia-smi.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ConnectionGuard } from './connections.js';
import { loopbackHostHeader, securityHeaders, tokenMatches, tokenOf } from './security.js';
import { StreamHub } from './streams.js';

export interface PageSource {
  /** the whole page; `query` is "" or "?token=…", for the page's own links */
  page(query: string): string;
  /** `server`: the server's own figures (open streams, memory), added to the document */
  json(server: ServerStats): string;
  /** the current state as one SSE `state` event's data (one line of JSON) */
  eventData(): string;
}

export interface ServerStats {
  streams: number;
  /** streams dropped for reading too slowly, and refused at the cap, since the start */
  dropped: number;
  refused: number;
  rssMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  externalMiB: number;
  uptimeS: number;
}

export interface ServerOptions {
  host: string;
  port: number;
  /** null: no token (loopback only) */
  token: string | null;
  /** the server listens on the loopback: check the Host header */
  loopback: boolean;
  csp: string;
  source: PageSource;
  maxStreams?: number;
  maxBufferedBytes?: number;
  /** a stream behind for this long is dropped */
  stuckMs?: number;
  heartbeatMs?: number;
}

export interface RunningServer {
  /** the URL to open (with the token when there is one) */
  url: string;
  port: number;
  hub: StreamHub;
  /** tells every open page that something changed */
  push(): void;
  close(): Promise<void>;
}

export const MAX_STREAMS = 100;
/** a request must send its headers within this (a slow client on a bad link still does) */
export const HEADERS_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 10_000;
const CHECK_EVERY_MS = 1_000;
/** connections serving nothing from one client address */
export const MAX_IDLE_PER_ADDRESS = 32;

export async function startServer(o: ServerOptions): Promise<RunningServer> {
  const headers = securityHeaders(o.csp);
  const hub = new StreamHub({
    max: o.maxStreams ?? MAX_STREAMS,
    maxBufferedBytes: o.maxBufferedBytes ?? 1024 * 1024,
    stuckMs: o.stuckMs ?? 30_000,
    heartbeatMs: o.heartbeatMs ?? 15_000,
    retryMs: 3000,
    headers,
  });
  const query = o.token === null ? '' : `?token=${encodeURIComponent(o.token)}`;
  const started = performance.now();
  const stats = (): ServerStats => {
    const m = process.memoryUsage();
    const mib = (b: number) => Math.round((b / 1048576) * 10) / 10;
    return {
      streams: hub.size,
      dropped: hub.dropped,
      refused: hub.refused,
      rssMiB: mib(m.rss),
      heapUsedMiB: mib(m.heapUsed),
      heapTotalMiB: mib(m.heapTotal),
      externalMiB: mib(m.external),
      uptimeS: Math.round((performance.now() - started) / 1000),
    };
  };

  const plain = (res: ServerResponse, code: number, text: string, extra: Record<string, string> = {}) => {
    res.writeHead(code, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', ...extra });
    res.end(`${text}\n`);
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://serve.invalid');
    } catch {
      return plain(res, 400, 'bad request');
    }
    if (o.loopback && !loopbackHostHeader(req.headers.host))
      return plain(res, 403, 'this page answers only to localhost (the Host header names another name)');
    if (o.token !== null && !tokenMatches(tokenOf(url, req.headers), o.token)) {
      return plain(res, 401, 'a token is needed: open the URL gpu-env-doctor serve printed when it started', {
        'WWW-Authenticate': 'Bearer',
      });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return plain(res, 405, 'this page only reads (GET)', { Allow: 'GET, HEAD' });
    const send = (type: string, body: string) => {
      res.writeHead(200, { ...headers, 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)) });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    switch (url.pathname) {
      case '/':
        return send('text/html; charset=utf-8', o.source.page(query));
      case '/state.json':
        return send('application/json; charset=utf-8', o.source.json(stats()));
      case '/events':
        if (req.method === 'HEAD') return send('text/event-stream; charset=utf-8', '');
        hub.accept(req, res, `event: state\ndata: ${o.source.eventData()}\n\n`);
        return;
      default:
        return plain(res, 404, 'not found');
    }
  };

  // Room is made for real requests by closing connections that serve nothing (./connections.ts); a request
  // must bring its headers within HEADERS_TIMEOUT_MS, checked every CHECK_EVERY_MS (Node's default is 30 s).
  const guard = new ConnectionGuard({
    maxTotal: (o.maxStreams ?? MAX_STREAMS) + 64,
    maxIdlePerAddress: MAX_IDLE_PER_ADDRESS,
  });
  const server: Server = createServer(
    {
      requestTimeout: REQUEST_TIMEOUT_MS,
      headersTimeout: HEADERS_TIMEOUT_MS,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: CHECK_EVERY_MS,
    },
    (req, res) => {
      const sock = req.socket;
      guard.busy(sock);
      res.once('close', () => guard.idle(sock));
      try {
        handle(req, res);
      } catch (err) {
        // A bug in rendering must cost one answer, not the server.
        if (!res.headersSent) plain(res, 500, 'internal error');
        else res.destroy();
        process.emitWarning(`gpu-env-doctor serve: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
  );
  // No fixed maxConnections: past it Node refuses every new connection, the ones that carry the token too.
  server.on('connection', (sock: Socket) => {
    sock.once('close', () => guard.closed(sock));
    guard.admit(sock);
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${shownHost}:${port}/${query}`,
    port,
    hub,
    push() {
      if (hub.size > 0) hub.broadcast('state', o.source.eventData());
    },
    close() {
      hub.closeAll();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
