// The attach server's session endpoints: the page trades a login code for a session (POST
// /api/sessions), looks at or ends its own (GET/DELETE /api/session); a token holder (corral link)
// makes login links, lists sessions and revokes them (GET/DELETE /api/sessions[/ID]). Also the
// registry of each session's live connections, which are closed the moment the session ends.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readBody } from '../bridge/request.js';
import { decodeComponent, errorBody, sendJson } from '../http-server.js';
import { writeOriginAllowed, type Access } from './auth.js';
import { SESSION_END_WORDS, type BrowserSessions, type SessionEnd, type SessionInfo } from './sessions.js';

const MAX_SESSION_BODY = 4 * 1024;

/** Whether a path is one of the session endpoints. */
export function isSessionPath(path: string): boolean {
  return path === '/api/session' || path === '/api/sessions' || path.startsWith('/api/sessions/') || path === '/api/login-codes';
}

/** A session as the API shows it (snake_case, never the secret). */
export function sessionJson(info: SessionInfo): Record<string, unknown> {
  return {
    id: info.id,
    write: info.write,
    created_at: info.createdAt,
    last_used_at: info.lastUsedAt,
    expires_at: info.expiresAt,
    idle_ends_at: info.idleEndsAt,
    connections: info.connections,
    client: info.client,
  };
}

/** The browser's own words about itself and where it connects from, printable ASCII only. */
function clientOf(req: IncomingMessage): string {
  const agent = (req.headers['user-agent'] ?? 'unknown browser').replace(/[^\x20-\x7e]/g, '?').slice(0, 120);
  return `${agent} from ${req.socket.remoteAddress ?? '?'}`;
}

async function jsonFields(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBody(req, MAX_SESSION_BODY);
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'the body is not valid JSON', 'invalid_request_error', 'bad_json');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new HttpError(400, 'the body must be a JSON object', 'invalid_request_error', 'bad_request');
  return value as Record<string, unknown>;
}

export interface SessionRoutesOptions {
  readonly sessions: BrowserSessions;
  /** Origins besides the page's own that may sign in (the attach server's allowed origins). */
  readonly allowedOrigins: readonly string[];
  /** A new login link for a token holder (POST /api/login-codes). */
  readonly loginLink: (write: boolean, req: IncomingMessage) => { url: string; expiresAt: number; write: boolean };
}

const unauthorized = (res: ServerResponse, message: string) =>
  sendJson(res, 401, errorBody(message, 'invalid_request_error', 'unauthorized'), { 'www-authenticate': 'Bearer' });

function onlyMethods(req: IncomingMessage, res: ServerResponse, methods: readonly string[]): boolean {
  if (methods.includes(req.method ?? 'GET')) return true;
  sendJson(res, 405, errorBody(`only ${methods.join(', ')} here`, 'invalid_request_error', 'method_not_allowed'), {
    allow: methods.join(', '),
  });
  return false;
}

/** POST /api/sessions `{code}`: a login code becomes a session; no other credential needed. */
async function signIn(req: IncomingMessage, res: ServerResponse, options: SessionRoutesOptions): Promise<void> {
  const browserWrite: Access = { write: false, via: 'session', sessionId: null };
  if (!writeOriginAllowed(req, browserWrite, options.allowedOrigins) && req.headers.origin !== undefined)
    return sendJson(res, 403, errorBody('this Origin may not sign in here', 'invalid_request_error', 'bad_origin'));
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
    return sendJson(res, 415, errorBody('send a JSON body (content-type: application/json)', 'invalid_request_error', 'bad_content_type'));
  const fields = await jsonFields(req);
  if (typeof fields.code !== 'string' || fields.code.length > 64)
    return sendJson(res, 400, errorBody('code must be the login code from the link', 'invalid_request_error', 'bad_request'));
  const signedIn = options.sessions.redeem(fields.code, clientOf(req));
  if (!signedIn)
    return sendJson(
      res,
      401,
      errorBody('this link has expired or was used already (a link works once, for 10 minutes)', 'invalid_request_error', 'bad_code'),
    );
  sendJson(res, 201, { session: signedIn.credential, idle_ms: options.sessions.idleMs, ...sessionJson(signedIn.session) });
}

/** The token holder's routes: new login links, the list of sessions, revocation. */
async function manage(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  options: SessionRoutesOptions,
): Promise<void> {
  const { sessions } = options;
  if (path === '/api/login-codes') {
    if (!onlyMethods(req, res, ['POST'])) return;
    const fields = await jsonFields(req);
    if (fields.write !== undefined && typeof fields.write !== 'boolean')
      return sendJson(res, 400, errorBody('write must be true or false', 'invalid_request_error', 'bad_request'));
    const link = options.loginLink(fields.write !== false, req);
    return sendJson(res, 200, { url: link.url, expires_at: link.expiresAt, write: link.write });
  }
  if (path === '/api/sessions') {
    if (!onlyMethods(req, res, ['GET', 'HEAD', 'DELETE'])) return;
    if (req.method === 'DELETE') return sendJson(res, 200, { revoked: sessions.endAll('revoked') });
    return sendJson(res, 200, { sessions: sessions.list().map(sessionJson), idle_ms: sessions.idleMs, max_ms: sessions.maxMs });
  }
  if (!onlyMethods(req, res, ['DELETE'])) return;
  const id = decodeComponent(path.slice('/api/sessions/'.length));
  if (id === null || !sessions.end(id, 'revoked'))
    return sendJson(res, 404, errorBody('no such session (corral link --list shows them)', 'invalid_request_error', 'no_such_session'));
  sendJson(res, 200, { revoked: [id] });
}

/** Answers a session endpoint; `access` is what the request's credentials grant (null: none). */
export async function handleSessionRequest(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  access: Access | null,
  options: SessionRoutesOptions,
): Promise<void> {
  try {
    if (path === '/api/sessions' && req.method === 'POST') return await signIn(req, res, options);
    if (path === '/api/session') {
      if (!onlyMethods(req, res, ['GET', 'HEAD', 'DELETE'])) return;
      if (access?.sessionId == null) return unauthorized(res, 'this browser is not signed in (open a link from corral link)');
      if (req.method === 'DELETE') {
        options.sessions.end(access.sessionId, 'signed-out');
        return sendJson(res, 200, { signed_out: access.sessionId });
      }
      const own = options.sessions.list().find((s) => s.id === access.sessionId);
      return own ? sendJson(res, 200, sessionJson(own)) : unauthorized(res, 'this session has ended');
    }
    // Only programs holding the token make links and manage sessions; a browser session cannot.
    if (access?.via !== 'token') return unauthorized(res, 'missing or wrong token (Authorization: Bearer TOKEN)');
    await manage(req, res, path, options);
  } catch (error) {
    if (error instanceof HttpError) return sendJson(res, error.status, errorBody(error.message, error.type, error.code));
    throw error;
  }
}

/** Each session's live connections (WebSockets, event streams), closed the moment it ends. */
export class SessionConnections {
  private readonly closers = new Map<string, Set<(why: string) => void>>();
  private readonly unsubscribe: () => void;

  constructor(private readonly sessions: BrowserSessions) {
    this.unsubscribe = sessions.onEnd((id, why: SessionEnd) => {
      const closers = this.closers.get(id);
      this.closers.delete(id);
      for (const close of closers ?? []) close(SESSION_END_WORDS[why]);
    });
  }

  /** Registers a connection of `access`'s session (nothing for the token); returns its removal. */
  add(access: Access, close: (why: string) => void): () => void {
    const id = access.sessionId;
    if (id === null) return () => undefined;
    const release = this.sessions.connected(id);
    let set = this.closers.get(id);
    if (!set) {
      set = new Set();
      this.closers.set(id, set);
    }
    set.add(close);
    return () => {
      release();
      const current = this.closers.get(id);
      current?.delete(close);
      if (current?.size === 0) this.closers.delete(id);
    };
  }

  close(): void {
    this.unsubscribe();
    this.closers.clear();
  }
}
