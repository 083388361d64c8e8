// Who may open the pane list and the WebSockets, and who may type. Programs present the
// long-lived token (Authorization: Bearer, or ?token= on a WebSocket URL). Browsers never see it:
// a single-use login code in a link is traded for a session credential (sessions.ts) that the page
// keeps in its own origin's storage and sends as `Authorization: Bearer` on API calls and as a
// WebSocket subprotocol. Nothing rides in a cookie, so no other server on the same host (another
// port counts as the same site for cookies) ever receives it. Browsers must also come from this
// server's own origin or one the user allowed.

import type { IncomingMessage } from 'node:http';
import { bearerToken, tokenMatches } from '../http-server.js';
import type { BrowserSessions } from './sessions.js';

/** What a request may do: read always; `write` when it may type into panes. */
export interface Access {
  readonly write: boolean;
  readonly via: 'token' | 'session';
  /** The browser session it came with (null for the token). */
  readonly sessionId: string | null;
}

/** The subprotocol the page asks for, and the prefix of the one that carries its session credential. */
export const PAGE_PROTOCOL = 'corral';
export const SESSION_PROTOCOL_PREFIX = 'corral-session.';

/** The session credential among a WebSocket upgrade's subprotocols, if any. */
export function sessionFromProtocols(header: string | undefined): string | null {
  for (const item of (header ?? '').split(',')) {
    const value = item.trim();
    if (value.startsWith(SESSION_PROTOCOL_PREFIX)) return value.slice(SESSION_PROTOCOL_PREFIX.length);
  }
  return null;
}

const TOKEN_ACCESS: Access = { write: true, via: 'token', sessionId: null };

/**
 * The access a request has: the token (header; on WebSocket URLs also `?token=`, which programs
 * without header support need) gives everything, a browser session (header, or on an upgrade its
 * subprotocol) what its link granted.
 */
export function requestAccess(
  req: IncomingMessage,
  url: URL,
  token: string,
  sessions: BrowserSessions,
  options: { queryToken: boolean },
): Access | null {
  const presented = bearerToken(req);
  if (tokenMatches(presented, token)) return TOKEN_ACCESS;
  if (options.queryToken && tokenMatches(url.searchParams.get('token'), token)) return TOKEN_ACCESS;
  const session = sessions.authenticate(presented ?? sessionFromProtocols(req.headers['sec-websocket-protocol']));
  return session ? { write: session.write, via: 'session', sessionId: session.id } : null;
}

/** The origin a browser on this server's own pages sends (scheme and Host header). */
function ownOrigin(origin: string, req: IncomingMessage): boolean {
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

/**
 * Cross-site WebSocket hijacking defence. Browsers always send Origin on WebSocket upgrades;
 * it must be this server's own origin (same host as the Host header, already checked by the
 * server) or one the user allowed. Non-browser clients send none and still need the token.
 */
export function originAllowed(req: IncomingMessage, allowed: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return allowed.includes(origin) || ownOrigin(origin, req);
}

/**
 * Cross-site request forgery defence for the page's own writes (answers, replies): a browser
 * session must send an Origin of this server (browsers always do on POST); so must a token
 * holder that sends one at all. Another site cannot make a visitor's browser type into a pane
 * anyway: it never has the session credential, and a browser sends none by itself.
 */
export function writeOriginAllowed(req: IncomingMessage, access: Access, allowed: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return access.via === 'token';
  if (req.headers['sec-fetch-site'] !== undefined && req.headers['sec-fetch-site'] !== 'same-origin') {
    return allowed.includes(origin);
  }
  return allowed.includes(origin) || ownOrigin(origin, req);
}

/** A browser link that signs in once: the page trades its code for a session. */
export interface LoginLink {
  readonly url: string;
  readonly expiresAt: number;
  readonly write: boolean;
}

/** A link to `base` with a new single-use login code; writing only where the server allows it. */
export function issueLoginLink(sessions: BrowserSessions, base: string, write: boolean): LoginLink {
  const issued = sessions.issueCode(write);
  return { url: `${base.replace(/\/$/, '')}/?code=${issued.code}`, expiresAt: issued.expiresAt, write };
}
