// The open event streams (server-sent events) of `serve`, bounded: at most `max` at once (a page each; the
// next one is refused with 503), each message serialised once and written to all, and a client that does not
// read (its unsent data passes `maxBufferedBytes`) is dropped instead of being buffered for: the server's
// memory does not grow with a slow or stuck reader.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface StreamHubOptions {
  max: number;
  maxBufferedBytes: number;
  /** a comment line this often keeps proxies from closing a quiet stream */
  heartbeatMs: number;
  /** the browser waits this long before reconnecting */
  retryMs: number;
  headers: Record<string, string>;
}

export class StreamHub {
  private readonly clients = new Set<ServerResponse>();
  private readonly timer: ReturnType<typeof setInterval>;
  /** clients dropped for reading too slowly, since the start */
  dropped = 0;
  refused = 0;

  constructor(private readonly o: StreamHubOptions) {
    this.timer = setInterval(() => this.send(': ping\n\n'), o.heartbeatMs);
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
    res.writeHead(200, { ...this.o.headers, 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    // A stream is quiet between updates: no idle timeout on its socket (the heartbeat shows it is alive).
    req.socket.setTimeout(0);
    req.socket.setNoDelay(true);
    this.clients.add(res);
    const gone = () => this.clients.delete(res);
    res.on('close', gone);
    res.on('error', gone);
    this.write(res, `retry: ${this.o.retryMs}\n\n`);
    if (first !== null) this.write(res, first);
    return true;
  }

  /** One event to every open stream; `data` is one line of JSON. */
  broadcast(event: string, data: string): void {
    this.send(frame(event, data));
  }

  closeAll(): void {
    clearInterval(this.timer);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }

  private send(text: string): void {
    for (const res of this.clients) this.write(res, text);
  }

  private write(res: ServerResponse, text: string): void {
    if (res.writableLength > this.o.maxBufferedBytes) {
      this.dropped++;
      this.clients.delete(res);
      res.destroy();
      return;
    }
    res.write(text);
  }
}

/** An SSE message: `data` must not contain a line break (JSON.stringify's output has none). */
export function frame(event: string, data: string): string {
  return `event: ${event}\ndata: ${data.replace(/[\r\n]/g, ' ')}\n\n`;
}
