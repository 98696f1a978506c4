// Who keeps a connection to `serve`. Connections that are not serving a request (half-open: headers not
// complete; or idle between requests) are cheap to open and cost a slot each, and the token is known only once
// the headers are complete: so a fixed cap on connections lets anyone hold every slot with partial requests.
// Instead, a new connection always gets in, and room is made by closing the oldest connection that serves
// nothing (from the same address first, past a per-address share): a real request, which sends its headers at
// once, is then served; a connection serving a request (a page, an event stream) is never closed for room.
export interface GuardedSocket {
  readonly remoteAddress?: string | undefined;
  destroy(): void;
}

export interface ConnectionGuardOptions {
  /** connections in all; past this the oldest one serving nothing is closed (or the new one when all are busy) */
  maxTotal: number;
  /** connections serving nothing from one address; past this that address's oldest such one is closed */
  maxIdlePerAddress: number;
}

interface State {
  addr: string;
  /** requests in flight on it (an event stream stays in flight) */
  busy: number;
}

export class ConnectionGuard {
  /** in the order they came: the first idle one found is the oldest */
  private readonly socks = new Map<GuardedSocket, State>();
  /** closed to make room, since the start */
  evicted = 0;

  constructor(private readonly o: ConnectionGuardOptions) {}

  get size(): number {
    return this.socks.size;
  }

  /** A new connection: taken in; room made as the rules above say. */
  admit(sock: GuardedSocket): void {
    const addr = sock.remoteAddress ?? '?';
    this.socks.set(sock, { addr, busy: 0 });
    let idleHere = 0;
    for (const st of this.socks.values()) if (st.addr === addr && st.busy === 0) idleHere++;
    if (idleHere > this.o.maxIdlePerAddress) this.evictOldestIdle(addr);
    if (this.socks.size > this.o.maxTotal && !this.evictOldestIdle(null)) this.drop(sock);
  }

  /** A request has begun on the connection. */
  busy(sock: GuardedSocket): void {
    const st = this.socks.get(sock);
    if (st) st.busy++;
  }

  /** A request on the connection has ended (answered, or its client went away). */
  idle(sock: GuardedSocket): void {
    const st = this.socks.get(sock);
    if (st && st.busy > 0) st.busy--;
  }

  /** The connection closed, by either side. */
  closed(sock: GuardedSocket): void {
    this.socks.delete(sock);
  }

  private evictOldestIdle(addr: string | null): boolean {
    for (const [sock, st] of this.socks) {
      if (st.busy === 0 && (addr === null || st.addr === addr)) {
        this.evicted++;
        this.drop(sock);
        return true;
      }
    }
    return false;
  }

  private drop(sock: GuardedSocket): void {
    this.socks.delete(sock);
    sock.destroy();
  }
}
