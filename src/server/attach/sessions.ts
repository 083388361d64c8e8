// Browser sessions of the attach page. A login code (single use, 10 minutes) is traded for a
// session credential that the page keeps in its own origin's storage and sends with each call;
// the server keeps only its hash. Sessions live in this process's memory: they end when signed out
// or revoked, after an idle or an absolute limit, or when corral stops. Time comes from the clock.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Clock } from '../../engine/types.js';

export const LOGIN_CODE_TTL_MS = 10 * 60_000;
/** Defaults of the attach settings: ended after 12 hours unused, and 7 days after sign-in at the latest. */
export const SESSION_IDLE_MS = 12 * 3_600_000;
export const SESSION_MAX_MS = 7 * 24 * 3_600_000;

/** Why a session ended (the close reason its live connections get). */
export type SessionEnd = 'signed-out' | 'revoked' | 'expired' | 'idle' | 'evicted';

export const SESSION_END_WORDS: Readonly<Record<SessionEnd, string>> = {
  'signed-out': 'signed out',
  revoked: 'session revoked',
  expired: 'session expired',
  idle: 'session expired after being unused',
  evicted: 'session ended: too many browser sessions',
};

export interface LoginCode {
  readonly code: string;
  readonly expiresAt: number;
  readonly write: boolean;
}

/** What `corral link --list` shows of a session (never its secret). */
export interface SessionInfo {
  readonly id: string;
  readonly write: boolean;
  readonly createdAt: number;
  readonly lastUsedAt: number;
  /** When it ends at the latest (the absolute limit). */
  readonly expiresAt: number;
  /** When it ends unless used before (the idle limit); null while a connection is open. */
  readonly idleEndsAt: number | null;
  /** Open WebSockets and event streams. */
  readonly connections: number;
  /** The browser's own description (User-Agent, shortened) and address, to tell sessions apart. */
  readonly client: string;
}

export interface BrowserSessionsOptions {
  readonly clock: Clock;
  readonly idleMs?: number;
  readonly maxMs?: number;
  readonly codeTtlMs?: number;
  /** Unused codes kept at most; the oldest go first. */
  readonly maxCodes?: number;
  /** Sessions kept at most; the least recently used ends first. */
  readonly maxSessions?: number;
}

interface SessionEntry {
  readonly id: string;
  readonly secretHash: Buffer;
  readonly write: boolean;
  readonly createdAt: number;
  readonly client: string;
  lastUsedAt: number;
  connections: number;
}

/**
 * A session's public id: base64url that never starts with `-`, so `corral link --revoke ID` does
 * not read it as a flag.
 */
function sessionId(): string {
  for (;;) {
    const id = randomBytes(6).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/** A credential is `<id>.<secret>`: base64url only, so it fits a header and a WebSocket subprotocol. */
const CREDENTIAL = /^([\w-]{8})\.([\w-]{43})$/;

function hashOf(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

export class BrowserSessions {
  private readonly codes = new Map<string, { expiresAt: number; write: boolean }>();
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly listeners = new Set<(id: string, why: SessionEnd) => void>();
  private readonly clock: Clock;
  readonly idleMs: number;
  readonly maxMs: number;
  private readonly codeTtlMs: number;
  private readonly maxCodes: number;
  private readonly maxSessions: number;

  constructor(options: BrowserSessionsOptions) {
    this.clock = options.clock;
    this.idleMs = options.idleMs ?? SESSION_IDLE_MS;
    this.maxMs = options.maxMs ?? SESSION_MAX_MS;
    this.codeTtlMs = options.codeTtlMs ?? LOGIN_CODE_TTL_MS;
    this.maxCodes = options.maxCodes ?? 32;
    this.maxSessions = options.maxSessions ?? 64;
  }

  /** A new login code; it works once, within the code lifetime. */
  issueCode(write: boolean): LoginCode {
    const now = this.clock.now();
    for (const [code, entry] of this.codes) if (entry.expiresAt <= now) this.codes.delete(code);
    while (this.codes.size >= this.maxCodes) this.codes.delete(this.codes.keys().next().value as string);
    const code = randomBytes(18).toString('base64url');
    const expiresAt = now + this.codeTtlMs;
    this.codes.set(code, { expiresAt, write });
    return { code, expiresAt, write };
  }

  /** Trades a code for a new session and its credential; null when the code is unknown, used or expired. */
  redeem(code: string, client: string): { readonly credential: string; readonly session: SessionInfo } | null {
    const entry = this.codes.get(code);
    if (!entry) return null;
    this.codes.delete(code);
    const now = this.clock.now();
    if (entry.expiresAt <= now) return null;
    this.sweep();
    while (this.sessions.size >= this.maxSessions) {
      const oldest = [...this.sessions.values()].sort((a, b) => a.lastUsedAt - b.lastUsedAt)[0] as SessionEntry;
      this.finish(oldest.id, 'evicted');
    }
    let id = sessionId();
    while (this.sessions.has(id)) id = sessionId();
    const secret = randomBytes(32).toString('base64url');
    const session: SessionEntry = {
      id,
      secretHash: hashOf(secret),
      write: entry.write,
      createdAt: now,
      client: client.slice(0, 160),
      lastUsedAt: now,
      connections: 0,
    };
    this.sessions.set(id, session);
    return { credential: `${id}.${secret}`, session: this.info(session) };
  }

  /** The session a credential belongs to, when it is valid now; marks it used. */
  authenticate(credential: string | null | undefined): SessionInfo | null {
    const match = credential ? CREDENTIAL.exec(credential) : null;
    if (!match) return null;
    const entry = this.sessions.get(match[1] as string);
    if (!entry || !timingSafeEqual(entry.secretHash, hashOf(match[2] as string))) return null;
    const ended = this.endReason(entry, this.clock.now());
    if (ended) {
      this.finish(entry.id, ended);
      return null;
    }
    entry.lastUsedAt = this.clock.now();
    return this.info(entry);
  }

  /**
   * A live connection (a WebSocket, an event stream) of the session: while one is open the session
   * is in use and never idle. Returns the release, which counts as a last use.
   */
  connected(id: string): () => void {
    const entry = this.sessions.get(id);
    if (!entry) return () => undefined;
    entry.connections += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      entry.connections -= 1;
      entry.lastUsedAt = Math.max(entry.lastUsedAt, this.clock.now());
    };
  }

  list(): SessionInfo[] {
    this.sweep();
    return [...this.sessions.values()].sort((a, b) => a.createdAt - b.createdAt).map((entry) => this.info(entry));
  }

  /** Ends one session (signed out or revoked); false when there is no such session. */
  end(id: string, why: SessionEnd): boolean {
    if (!this.sessions.has(id)) return false;
    this.finish(id, why);
    return true;
  }

  /** Ends every session; returns their ids. */
  endAll(why: SessionEnd): string[] {
    const ids = [...this.sessions.keys()];
    for (const id of ids) this.finish(id, why);
    return ids;
  }

  /** Called for each session that ends, whatever the reason, so its connections close at once. */
  onEnd(listener: (id: string, why: SessionEnd) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Ends the sessions past their idle or absolute limit (run on a timer and before listings). */
  sweep(): void {
    const now = this.clock.now();
    for (const entry of [...this.sessions.values()]) {
      const ended = this.endReason(entry, now);
      if (ended) this.finish(entry.id, ended);
    }
  }

  private endReason(entry: SessionEntry, now: number): SessionEnd | null {
    if (now >= entry.createdAt + this.maxMs) return 'expired';
    if (entry.connections === 0 && now >= entry.lastUsedAt + this.idleMs) return 'idle';
    return null;
  }

  private finish(id: string, why: SessionEnd): void {
    if (!this.sessions.delete(id)) return;
    for (const listener of [...this.listeners]) listener(id, why);
  }

  private info(entry: SessionEntry): SessionInfo {
    return {
      id: entry.id,
      write: entry.write,
      createdAt: entry.createdAt,
      lastUsedAt: entry.lastUsedAt,
      expiresAt: entry.createdAt + this.maxMs,
      idleEndsAt: entry.connections > 0 ? null : Math.min(entry.lastUsedAt + this.idleMs, entry.createdAt + this.maxMs),
      connections: entry.connections,
      client: entry.client,
    };
  }
}
