// The open event streams (server-sent events) of `serve`, bounded: at most `max` at once (a page each; the
// next one is refused with 503), each message serialised once and written to all.
//
// A reader that is behind is never buffered for: each message is the whole state, so while a stream still
// has unsent data it is skipped, and gets the latest state when it drains (a slow phone sees fewer updates,
// not older ones). A reader that stays behind for `stuckMs`, or whose unsent data passes `maxBufferedBytes`,
// is dropped (a browser reconnects by itself after `retryMs`). The server's memory does not grow with slow or
// stuck readers: at most about one message per stream.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface StreamHubOptions {
  max: number;
  maxBufferedBytes: number;
  /** behind for this long: dropped */
  stuckMs: number;
  /** a comment line this often keeps proxies from closing a quiet stream */
  heartbeatMs: number;
  /** the browser waits this long before reconnecting */
  retryMs: number;
  headers: Record<string, string>;
}

interface Client {
  /** a message is written and not yet handed to the kernel */
  inFlight: boolean;
  /** a newer message came meanwhile: send the latest once the one in flight is out */
  pending: boolean;
  /** performance.now() since when the stream is behind; null when it is not */
  behindSince: number | null;
}

export class StreamHub {
  private readonly clients = new Map<ServerResponse, Client>();
  private readonly timer: ReturnType<typeof setInterval>;
  private latest: string | null = null;
  /** streams dropped for reading too slowly, and refused at the cap, since the start */
  dropped = 0;
  refused = 0;

  constructor(private readonly o: StreamHubOptions) {
    this.timer = setInterval(() => this.heartbeat(), o.heartbeatMs);
    this.timer.unref();
  }

  get size(): number {
    return this.clients.size;
  }

  /** Opens a stream and sends `first` (the current state); false (and a 503) when the hub is full. */
  accept(req: IncomingMessage, res: ServerResponse, first: string | null): boolean {
    if (this.clients.size >= this.o.max) {
      this.refused++;
      res.writeHead(503, { ...this.o.headers, 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '30' });
      res.end(`too many open pages (${this.o.max}): close some and reload\n`);
      return false;
    }
    res.writeHead(200, {
      ...this.o.headers,
      'Content-Type': 'text/event-stream; charset=utf-8',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    // A stream is quiet between updates: no idle timeout on its socket (the heartbeat shows it is alive).
    req.socket.setTimeout(0);
    req.socket.setNoDelay(true);
    const c: Client = { inFlight: false, pending: false, behindSince: null };
    this.clients.set(res, c);
    const gone = () => this.clients.delete(res);
    res.on('close', gone);
    res.on('error', gone);
    this.write(res, c, `retry: ${this.o.retryMs}\n\n${first ?? ''}`);
    return true;
  }

  /** One event to every open stream; `data` is one line of JSON. */
  broadcast(event: string, data: string): void {
    this.latest = frame(event, data);
    for (const [res, c] of this.clients) this.write(res, c, this.latest);
  }

  closeAll(): void {
    clearInterval(this.timer);
    for (const res of this.clients.keys()) res.end();
    this.clients.clear();
  }

  private heartbeat(): void {
    for (const [res, c] of this.clients) {
      if (c.inFlight) this.dropIfStuck(res, c);
      else this.write(res, c, ': ping\n\n');
    }
  }

  private write(res: ServerResponse, c: Client, text: string): void {
    if (this.dropIfStuck(res, c)) return;
    if (c.inFlight) {
      // still sending an older state: the latest replaces it once that is out
      c.pending = true;
      c.behindSince ??= performance.now();
      return;
    }
    c.inFlight = true;
    // The callback runs once the kernel has the data (or the stream failed): then the next state may go.
    res.write(text, (err) => {
      c.inFlight = false;
      c.behindSince = null;
      if (err || !this.clients.has(res)) return;
      if (c.pending && this.latest !== null) {
        c.pending = false;
        this.write(res, c, this.latest);
      }
    });
  }

  private dropIfStuck(res: ServerResponse, c: Client): boolean {
    const stuck = c.behindSince !== null && performance.now() - c.behindSince > this.o.stuckMs;
    if (!stuck && res.writableLength <= this.o.maxBufferedBytes) return false;
    this.dropped++;
    this.clients.delete(res);
    res.destroy();
    return true;
  }
}

/** An SSE message: `data` must not contain a line break (JSON.stringify's output has none). */
export function frame(event: string, data: string): string {
  return `event: ${event}\ndata: ${data.replace(/[\r\n]/g, ' ')}\n\n`;
}
