// Who may open the page and the WebSockets: the shared token (header, query or the page's
// cookie) and, for browsers, an Origin that is this server's own or explicitly allowed.

import type { IncomingMessage } from 'node:http';
import { bearerToken, tokenMatches } from '../http-server.js';

export const TOKEN_COOKIE = 'corral_token';

export function cookieToken(req: IncomingMessage): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === TOKEN_COOKIE) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** True when the request carries the token in any of the accepted places. */
export function requestAuthorized(req: IncomingMessage, url: URL, token: string): boolean {
  return (
    tokenMatches(bearerToken(req), token) ||
    tokenMatches(url.searchParams.get('token'), token) ||
    tokenMatches(cookieToken(req), token)
  );
}

/**
 * Cross-site WebSocket hijacking defence. Browsers always send Origin on WebSocket upgrades;
 * it must be this server's own origin (same host as the Host header, already checked by the
 * server) or one the user allowed. Non-browser clients send none and still need the token.
 */
export function originAllowed(req: IncomingMessage, allowed: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  if (allowed.includes(origin)) return true;
  try {
    const parsed = new URL(origin);
    return (
      (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
      parsed.host === (req.headers.host ?? '').toLowerCase()
    );
  } catch {
    return false;
  }
}

export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`;
}
