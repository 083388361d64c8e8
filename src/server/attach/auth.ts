// Who may open the page, the pane list and the WebSockets, and who may type. Programs present the
// long-lived token (Authorization: Bearer, or ?token= on a WebSocket URL). Browsers never see it:
// a short-lived, single-use login code in a link is traded for a session cookie (HttpOnly,
// SameSite=Strict) signed with the token, so it survives a restart of corral and ends when the
// token changes. Browsers must also come from this server's own origin or one the user allowed.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { systemClock, type Clock } from '../../engine/types.js';
import { bearerToken, tokenMatches } from '../http-server.js';

export const SESSION_COOKIE = 'corral_session';

/** What a request may do: read always; `write` when it may type into panes. */
export interface Access {
  readonly write: boolean;
  readonly via: 'token' | 'session';
}

export interface LoginCode {
  readonly code: string;
  readonly expiresAt: number;
  readonly write: boolean;
}

export interface BrowserLoginOptions {
  readonly clock?: Clock;
  /** How long a login code stays valid (unused). */
  readonly codeTtlMs?: number;
  /** How long a browser session lasts. */
  readonly sessionTtlMs?: number;
  /** Unused codes kept at most; the oldest go first. */
  readonly maxCodes?: number;
}

export const LOGIN_CODE_TTL_MS = 10 * 60_000;
export const SESSION_TTL_MS = 30 * 24 * 3_600_000;

function readCookie(req: IncomingMessage, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Login codes (in memory, single use) and the session cookies they are traded for. */
export class BrowserLogins {
  private readonly codes = new Map<string, { expiresAt: number; write: boolean }>();
  private readonly clock: Clock;
  private readonly codeTtlMs: number;
  private readonly sessionTtlMs: number;
  private readonly maxCodes: number;

  constructor(
    private readonly token: string,
    options: BrowserLoginOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.codeTtlMs = options.codeTtlMs ?? LOGIN_CODE_TTL_MS;
    this.sessionTtlMs = options.sessionTtlMs ?? SESSION_TTL_MS;
    this.maxCodes = options.maxCodes ?? 32;
  }

  /** A new login code; it works once, within the code lifetime. */
  issue(write: boolean): LoginCode {
    this.prune();
    while (this.codes.size >= this.maxCodes) this.codes.delete(this.codes.keys().next().value as string);
    const code = randomBytes(18).toString('base64url');
    const expiresAt = this.clock.now() + this.codeTtlMs;
    this.codes.set(code, { expiresAt, write });
    return { code, expiresAt, write };
  }

  /** Trades a code for the access it grants; null when it is unknown, used or expired. */
  redeem(code: string): Access | null {
    const entry = this.codes.get(code);
    if (!entry) return null;
    this.codes.delete(code);
    if (entry.expiresAt <= this.clock.now()) return null;
    return { write: entry.write, via: 'session' };
  }

  /** The Set-Cookie value for a new session with this access. */
  sessionCookie(access: Pick<Access, 'write'>): string {
    const expires = Math.floor((this.clock.now() + this.sessionTtlMs) / 1000);
    const body = `${expires}.${access.write ? 'w' : 'r'}.${randomBytes(9).toString('base64url')}`;
    const value = `${body}.${this.sign(body)}`;
    return `${SESSION_COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${Math.floor(this.sessionTtlMs / 1000)}`;
  }

  /** The access of the request's session cookie; null when there is none or it is not valid. */
  sessionOf(req: IncomingMessage): Access | null {
    const value = readCookie(req, SESSION_COOKIE);
    const match = value === null ? null : /^(\d{1,12})\.([rw])\.([\w-]{1,32})\.([\w-]{43})$/.exec(value);
    if (!match) return null;
    const [, expires, mode, nonce, mac] = match as unknown as [string, string, string, string, string];
    if (!sameText(mac, this.sign(`${expires}.${mode}.${nonce}`))) return null;
    if (Number(expires) * 1000 <= this.clock.now()) return null;
    return { write: mode === 'w', via: 'session' };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.token).update(`corral-session\n${body}`).digest('base64url');
  }

  private prune(): void {
    const now = this.clock.now();
    for (const [code, entry] of this.codes) if (entry.expiresAt <= now) this.codes.delete(code);
  }
}

/**
 * The access a request has: the token (header; on WebSocket URLs also `?token=`, which programs
 * without header support need) gives everything, a browser session what its link granted.
 */
export function requestAccess(
  req: IncomingMessage,
  url: URL,
  token: string,
  logins: BrowserLogins,
  options: { queryToken: boolean },
): Access | null {
  if (tokenMatches(bearerToken(req), token)) return { write: true, via: 'token' };
  if (options.queryToken && tokenMatches(url.searchParams.get('token'), token)) return { write: true, via: 'token' };
  return logins.sessionOf(req);
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
 * holder that sends one at all. Together with the SameSite=Strict cookie, another site cannot
 * make a visitor's browser type into a pane.
 */
export function writeOriginAllowed(req: IncomingMessage, access: Access, allowed: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return access.via === 'token';
  if (req.headers['sec-fetch-site'] !== undefined && req.headers['sec-fetch-site'] !== 'same-origin') {
    return allowed.includes(origin);
  }
  return allowed.includes(origin) || ownOrigin(origin, req);
}
