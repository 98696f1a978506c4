// Who may read the live page. The page shows who runs what on the machine (user names, command lines), so:
// - by default it listens on 127.0.0.1 only, and answers only requests whose Host header names the loopback
//   (a web page elsewhere cannot read it through DNS rebinding);
// - on any other address it needs a token on every request and every event stream (`?token=` in the URL the
//   tool prints, or `Authorization: Bearer`), compared in constant time;
// - every response carries a Content-Security-Policy that lets run only the page's own script (by hash) and
//   lets it connect only to its own origin, and headers that keep the page out of frames, caches and referrers.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** 32 random bytes, URL-safe: the token printed at start when --host is not the loopback. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The shortest token accepted from --token-file: guessing it must be out of reach. */
export const MIN_TOKEN_LENGTH = 16;

export function tokenMatches(given: string | null, expected: string): boolean {
  if (given === null) return false;
  // Hash both: equal lengths for timingSafeEqual, and nothing learnt from how long the comparison takes.
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

/** The token a request carries: `?token=` or `Authorization: Bearer …`. */
export function tokenOf(url: URL, headers: IncomingHttpHeaders): string | null {
  const q = url.searchParams.get('token');
  if (q !== null) return q;
  const auth = headers.authorization;
  const m = typeof auth === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
  return m ? m[1]! : null;
}

/** For a server on the loopback: the Host header must name the loopback too (DNS rebinding). */
export function loopbackHostHeader(host: string | undefined): boolean {
  if (host === undefined) return false;
  const m = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(host.trim());
  return m !== null && isLoopbackHost(m[1]!);
}

export interface CspSources {
  scriptHash: string;
  styleHash: string;
}

export function contentSecurityPolicy(s: CspSources): string {
  return [
    "default-src 'none'",
    `script-src '${s.scriptHash}'`,
    `style-src '${s.styleHash}'`,
    'img-src data:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
}
