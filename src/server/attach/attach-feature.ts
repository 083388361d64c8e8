// The attach server as a feature of corral's HTTP server: the triage page and its assets, the
// pane list (live from the engine store), the page's answers and replies, browser sessions, and
// WebSocket mirrors of panes at /attach/N. It holds no tmux client: panes are looked up in the
// store, streamed and typed into through the pane port the CLI hands it (shared with the bridge).

import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AttachSettings } from '../../engine/config.js';
import type { LiveChunk } from '../../engine/pane-stream/pane-streams.js';
import { AnswerRefusedError, BadPaneKeyError, HostDownError, ScreenChangedError, UnknownHostError, type PanePort } from '../../engine/pane-port.js';
import { systemClock, type Clock, type PaneView } from '../../engine/types.js';
import { HttpError, readBody } from '../bridge/request.js';
import {
  errorBody,
  rejectUpgrade,
  sendJson,
  type HttpFeature,
  type RequestContext,
  type UpgradeContext,
} from '../http-server.js';
import { AttachConnection } from './attach-connection.js';
import { PAGE_PROTOCOL, originAllowed, requestAccess, writeOriginAllowed, type Access } from './auth.js';
import { BrowserSessions } from './sessions.js';
import { SessionConnections, handleSessionRequest, isSessionPath } from './session-routes.js';
import { ActionError, actionPath, answerRefusal, planAction } from './pane-actions.js';
import { listPanes, listShape, type PaneList } from './pane-list.js';
import { CLOSE_CODES, paneKeyFromPath } from './protocol.js';
import { FAVICON_SVG, PAGE_SCRIPT, PAGE_STYLE, pageHtml } from './page.js';

export type { AttachSettings };

export interface AttachFeatureOptions {
  /**
   * The store (the page's pane list and state badges; pollNow after an answer), pane lookups,
   * streams and typing. Shared with other servers: closing the feature does not close it.
   */
  readonly port: PanePort;
  /** The shared token (the same one the chat bridge uses). */
  readonly token: string;
  readonly settings: AttachSettings;
  /** Whether anyone may type at all (default true); viewers still need the token or a writing link. */
  readonly allowWrite?: boolean;
  /** WebSocket heartbeat (ping, then terminate when no pong came back). */
  readonly heartbeatMs?: number;
  readonly clock?: Clock;
  /**
   * The browser sessions and login codes. They outlive the feature (switching the attach server
   * off and on keeps browsers signed in) and end with the process; a private set by default.
   */
  readonly sessions?: BrowserSessions;
  /** Where browsers reach this server (login links); default: the Host of the request. */
  readonly baseUrl?: () => string;
}

export interface LoginLink {
  readonly url: string;
  readonly expiresAt: number;
  readonly write: boolean;
}

export interface AttachFeature extends HttpFeature {
  /** Open WebSocket connections (for tests and diagnostics). */
  readonly connectionCount: number;
  /** A browser link with a new single-use login code (writing when the server allows it). */
  loginLink(options?: { readonly write?: boolean; readonly base?: string }): LoginLink;
}

export const ATTACH_FEATURE = 'attach';

const ASSETS: Record<string, { readonly module: string; readonly type: string }> = {
  '/assets/xterm.js': { module: '@xterm/xterm/lib/xterm.js', type: 'text/javascript; charset=utf-8' },
  '/assets/xterm.css': { module: '@xterm/xterm/css/xterm.css', type: 'text/css; charset=utf-8' },
  '/assets/addon-fit.js': { module: '@xterm/addon-fit/lib/addon-fit.js', type: 'text/javascript; charset=utf-8' },
};

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** The page runs only its own scripts and talks only to this server (xterm.js sets inline styles). */
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const MAX_ACTION_BODY = 16 * 1024;

export function createAttachFeature(options: AttachFeatureOptions): AttachFeature {
  const { settings, token, port } = options;
  const allowWrite = options.allowWrite ?? true;
  const clock = options.clock ?? systemClock;
  const sessions = options.sessions ?? new BrowserSessions({ clock });
  const live = new SessionConnections(sessions);
  const require = createRequire(import.meta.url);
  const assetCache = new Map<string, Buffer>();
  // The page asks for two subprotocols, `corral` and one carrying its session: only `corral` is
  // ever echoed back.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 1024 * 1024,
    handleProtocols: (offered) => (offered.has(PAGE_PROTOCOL) ? PAGE_PROTOCOL : false),
  });
  const alive = new WeakMap<WebSocket, boolean>();
  let connections = 0;

  const heartbeat = setInterval(() => {
    // Sessions past their limits end here too, closing their connections.
    sessions.sweep();
    for (const ws of wss.clients) {
      if (alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, options.heartbeatMs ?? 30_000);
  heartbeat.unref();

  // N viewers of one pane get the same output message: build it once per chunk.
  let lastChunk: LiveChunk | null = null;
  let lastJson = '';
  const encodeOutput = (chunk: LiveChunk): string => {
    if (chunk !== lastChunk) {
      lastChunk = chunk;
      lastJson = JSON.stringify({ type: 'output', data: chunk.text, offset: chunk.textEnd });
    }
    return lastJson;
  };

  const mayWrite = (access: Access) => allowWrite && access.write;

  function paneList(access: Access): PaneList {
    return listPanes(port.getSnapshot(), clock.now(), {
      write: mayWrite(access),
      resize: mayWrite(access) && settings.attachAllowResize,
    });
  }

  function viewOf(key: string): PaneView | null {
    try {
      return port.find(key);
    } catch (error) {
      if (error instanceof UnknownHostError || error instanceof BadPaneKeyError) return null;
      throw error;
    }
  }

  /** The pane from the store; a pane opened since the engine's last poll after one more poll. */
  async function lookUp(key: string): Promise<PaneView | null> {
    const known = port.find(key);
    if (known) return known;
    await port.pollNow();
    return port.find(key);
  }

  function baseOf(req: IncomingMessage): string {
    return options.baseUrl?.() ?? `http://${req.headers.host ?? '127.0.0.1'}`;
  }

  function loginLink(linkOptions: { readonly write?: boolean; readonly base?: string } = {}): LoginLink {
    const write = allowWrite && (linkOptions.write ?? true);
    const issued = sessions.issueCode(write);
    const base = linkOptions.base ?? options.baseUrl?.() ?? 'http://127.0.0.1';
    return { url: `${base.replace(/\/$/, '')}/?code=${issued.code}`, expiresAt: issued.expiresAt, write };
  }

  const sessionRoutes = {
    sessions,
    allowedOrigins: settings.attachAllowedOrigins,
    loginLink: (write: boolean, req: IncomingMessage) => loginLink({ write, base: baseOf(req) }),
  };

  async function serveAsset(res: ServerResponse, path: string): Promise<void> {
    const asset = ASSETS[path];
    if (!asset) return sendJson(res, 404, errorBody(`nothing at ${path}`, 'invalid_request_error', 'not_found'));
    let body = assetCache.get(path);
    if (!body) {
      body = await readFile(require.resolve(asset.module));
      assetCache.set(path, body);
    }
    res.writeHead(200, {
      'content-type': asset.type,
      'content-length': body.length,
      'cache-control': 'max-age=3600',
      ...SECURITY_HEADERS,
    });
    res.end(body);
  }

  function sendText(
    res: ServerResponse,
    status: number,
    type: string,
    body: string,
    headers: Record<string, string> = {},
  ): void {
    res.writeHead(status, {
      'content-type': type,
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      ...SECURITY_HEADERS,
      ...headers,
    });
    res.end(body);
  }

  // One list per second (or on a snapshot change) for every open page: states such as "active"
  // turn into "quiet" with time alone. A page is sent a list only when something besides the
  // quiet times changed, or every 30 s so its timers stay honest.
  const listeners = new Set<(lists: Map<boolean, PaneList>) => void>();
  let listTimer: NodeJS.Timeout | null = null;
  let unsubscribeEngine: (() => void) | null = null;
  let pendingPush: NodeJS.Timeout | null = null;
  const broadcast = () => {
    pendingPush = null;
    const lists = new Map<boolean, PaneList>();
    for (const write of [false, true]) lists.set(write, paneList({ write, via: 'session', sessionId: null }));
    for (const listener of [...listeners]) listener(lists);
  };
  function listen(listener: (lists: Map<boolean, PaneList>) => void): () => void {
    listeners.add(listener);
    if (listeners.size === 1) {
      listTimer = setInterval(broadcast, 1000);
      listTimer.unref();
      // Snapshots can come many times a second; the page needs at most a few updates per second.
      unsubscribeEngine = port.subscribe(() => {
        pendingPush ??= setTimeout(broadcast, 150);
      });
    }
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) {
        if (listTimer) clearInterval(listTimer);
        if (pendingPush) clearTimeout(pendingPush);
        listTimer = null;
        pendingPush = null;
        unsubscribeEngine?.();
        unsubscribeEngine = null;
      }
    };
  }

  function streamPaneList(req: IncomingMessage, res: ServerResponse, access: Access): void {
    // A session that ends (signed out, revoked, expired) ends its stream at once.
    const forget = live.add(access, () => res.end());
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      ...SECURITY_HEADERS,
    });
    // HEAD asks for the head alone: there is no stream to keep open.
    if (req.method === 'HEAD') {
      forget();
      return void res.end();
    }
    let lastShape = '';
    let lastSent = 0;
    const push = (list: PaneList) => {
      const shape = listShape(list);
      const now = clock.now();
      if (shape === lastShape && now - lastSent < 30_000) return;
      lastShape = shape;
      lastSent = now;
      res.write(`data: ${JSON.stringify(list)}\n\n`);
    };
    push(paneList(access));
    const stop = listen((lists) => push(lists.get(mayWrite(access)) as PaneList));
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    keepAlive.unref();
    const end = () => {
      stop();
      forget();
      clearInterval(keepAlive);
    };
    req.on('close', end);
    res.on('close', end);
  }

  async function handleAction(
    req: IncomingMessage,
    res: ServerResponse,
    target: NonNullable<ReturnType<typeof actionPath>>,
    access: Access,
  ): Promise<void> {
    if (!writeOriginAllowed(req, access, settings.attachAllowedOrigins))
      return sendJson(res, 403, errorBody('this Origin may not type into panes', 'invalid_request_error', 'bad_origin'));
    if (!allowWrite)
      return sendJson(res, 403, errorBody('writing is switched off on this server', 'invalid_request_error', 'write_disabled'));
    if (!access.write)
      return sendJson(
        res,
        403,
        errorBody('this browser may only look: open a writing link to answer', 'invalid_request_error', 'read_only'),
      );
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
      return sendJson(res, 415, errorBody('send a JSON body (content-type: application/json)', 'invalid_request_error', 'bad_content_type'));
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req, MAX_ACTION_BODY));
    } catch (error) {
      if (error instanceof HttpError) return sendJson(res, error.status, errorBody(error.message, error.type, error.code));
      return sendJson(res, 400, errorBody('the body is not valid JSON', 'invalid_request_error', 'bad_json'));
    }
    let view: PaneView | null;
    try {
      view = viewOf(target.paneId);
    } catch (error) {
      if (!(error instanceof HostDownError)) throw error;
      return sendJson(res, 503, errorBody(error.message, 'server_error', 'host_unreachable'), {
        'retry-after': String(error.retryAfterS),
      });
    }
    if (!view)
      return sendJson(
        res,
        404,
        errorBody(`corral does not watch a pane ${target.paneId}`, 'invalid_request_error', 'no_such_pane'),
      );
    let plan;
    try {
      plan = planAction(target.action, view, body);
    } catch (error) {
      if (error instanceof ActionError)
        return sendJson(res, error.status, errorBody(error.message, 'invalid_request_error', error.code));
      throw error;
    }
    try {
      const guard = plan.shownHash === null ? undefined : { shownHash: plan.shownHash, target: view.target };
      if (plan.kind === 'answer') await port.answer(target.paneId, plan.option, guard);
      else if (plan.kind === 'line') await port.reply(target.paneId, plan.text, guard);
      else await port.send(target.paneId, plan.items, guard);
    } catch (error) {
      if (error instanceof ScreenChangedError)
        return sendJson(res, 409, errorBody(error.message, 'invalid_request_error', 'screen_changed'));
      if (error instanceof AnswerRefusedError) {
        const refusal = answerRefusal(error);
        return sendJson(res, refusal.status, errorBody(refusal.message, 'invalid_request_error', refusal.code));
      }
      if (error instanceof HostDownError)
        return sendJson(res, 503, errorBody(error.message, 'server_error', 'host_unreachable'), {
          'retry-after': String(error.retryAfterS),
        });
      return sendJson(
        res,
        502,
        errorBody(`tmux did not take it: ${(error as Error).message}`, 'server_error', 'tmux_error'),
      );
    }
    void port.pollNow().catch(() => undefined);
    sendJson(res, 200, { ok: true, pane: target.paneId, sent: plan.label });
  }

  async function handleRequest({ req, res, url }: RequestContext): Promise<void> {
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (path === '/favicon.ico' || path === '/favicon.svg') {
      return sendText(res, 200, 'image/svg+xml', FAVICON_SVG, { 'cache-control': 'max-age=86400' });
    }
    if (path.startsWith('/assets/') && (method === 'GET' || method === 'HEAD')) {
      if (path === '/assets/attach-page.js') return sendText(res, 200, 'text/javascript; charset=utf-8', PAGE_SCRIPT);
      if (path === '/assets/attach-page.css') return sendText(res, 200, 'text/css; charset=utf-8', PAGE_STYLE);
      return serveAsset(res, path);
    }
    const access = requestAccess(req, url, token, sessions, { queryToken: false });
    if (isSessionPath(path)) return handleSessionRequest(req, res, path, access, sessionRoutes);
    const target = actionPath(path);
    const allowed = target !== null ? 'POST' : 'GET';
    if (method !== allowed && !(allowed === 'GET' && method === 'HEAD')) {
      return sendJson(
        res,
        405,
        errorBody(`only ${allowed} is supported here`, 'invalid_request_error', 'method_not_allowed'),
        { allow: allowed },
      );
    }
    if (path === '/') {
      // The page holds no pane data: it signs in with the code from its address (or the session
      // its origin's storage keeps) and asks the API. A code in the address is never redeemed
      // here, so a prefetch or a preview of the link cannot use it up.
      return sendText(res, 200, 'text/html; charset=utf-8', pageHtml(), { 'content-security-policy': PAGE_CSP });
    }
    if (!access) {
      return sendJson(
        res,
        401,
        errorBody('missing or wrong token (Authorization: Bearer TOKEN)', 'invalid_request_error', 'unauthorized'),
        { 'www-authenticate': 'Bearer' },
      );
    }
    if (target) return handleAction(req, res, target, access);
    if (path === '/api/panes') return sendJson(res, 200, paneList(access));
    if (path === '/api/panes/events') return streamPaneList(req, res, access);
    return sendJson(res, 404, errorBody(`nothing at ${path}`, 'invalid_request_error', 'not_found'));
  }

  function handleUpgrade({ req, socket, head, url }: UpgradeContext): void {
    // Nothing about a pane is sent before these checks pass.
    const access = requestAccess(req, url, token, sessions, { queryToken: true });
    if (!access) return rejectUpgrade(socket, 401, 'missing or wrong token', 'unauthorized');
    if (!originAllowed(req, settings.attachAllowedOrigins))
      return rejectUpgrade(socket, 403, 'this Origin may not open attach connections', 'bad_origin');
    const paneId = paneKeyFromPath(url.pathname);
    if (paneId === null) return rejectUpgrade(socket, 404, 'attach URLs look like /attach/3 for pane %3, or /attach/build-box/3 for pane %3 on build-box', 'not_found');
    const mode = url.searchParams.get('mode') ?? 'json';
    if (mode !== 'json' && mode !== 'raw') return rejectUpgrade(socket, 400, 'mode must be json or raw', 'bad_mode');
    const wantsWrite = url.searchParams.get('write') === '1';
    if (wantsWrite && !allowWrite)
      return rejectUpgrade(socket, 403, 'writing is switched off on this server', 'write_disabled');
    if (wantsWrite && !access.write)
      return rejectUpgrade(socket, 403, 'this browser may only look: open a writing link to type', 'read_only');
    lookUp(paneId).then(
      (view) => {
        if (socket.destroyed) return;
        if (!view || view.state === 'ended' || view.pane.dead)
          return rejectUpgrade(socket, 404, `no pane ${paneId} on this tmux server`, 'no_such_pane');
        const { pane } = view;
        wss.handleUpgrade(req, socket, head, (ws) => {
          alive.set(ws, true);
          ws.on('pong', () => alive.set(ws, true));
          connections += 1;
          // A session that ends closes its viewers at once, saying why.
          const forget = live.add(access, (why) => ws.close(CLOSE_CODES.unauthorized, why));
          ws.once('close', forget);
          const connection = new AttachConnection({
            ws,
            key: view.key,
            pane,
            port,
            mode,
            write: wantsWrite,
            allowResize: settings.attachAllowResize,
            slowClientBytes: settings.attachSlowClientBytes,
            encodeOutput,
            onClose: () => {
              connections -= 1;
            },
          });
          connection.start();
        });
      },
      (error: Error) => {
        if (socket.destroyed) return;
        if (error instanceof HostDownError)
          return rejectUpgrade(socket, 503, error.message, 'host_unreachable', {
            type: 'server_error',
            headers: { 'retry-after': String(error.retryAfterS) },
          });
        if (error instanceof UnknownHostError || error instanceof BadPaneKeyError)
          return rejectUpgrade(socket, 404, error.message, 'no_such_pane');
        rejectUpgrade(socket, 503, `tmux is not reachable: ${error.message}`, 'tmux_unavailable');
      },
    );
  }

  return {
    name: ATTACH_FEATURE,
    get connectionCount() {
      return connections;
    },
    loginLink,
    matches(url: URL): boolean {
      const p = url.pathname;
      return (
        p === '/' ||
        p === '/favicon.ico' ||
        p === '/favicon.svg' ||
        p.startsWith('/assets/') ||
        p === '/api/panes' ||
        p.startsWith('/api/panes/') ||
        isSessionPath(p) ||
        p.startsWith('/attach/')
      );
    },
    handleRequest,
    handleUpgrade,
    async close() {
      clearInterval(heartbeat);
      live.close();
      for (const listener of [...listeners]) listeners.delete(listener);
      if (listTimer) clearInterval(listTimer);
      if (pendingPush) clearTimeout(pendingPush);
      unsubscribeEngine?.();
      // Viewers hear that the server stops (1001); the port keeps its streams for the other
      // servers and for viewers coming back, and is closed by its owner.
      for (const ws of wss.clients) ws.close(1001, 'server stopping');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const ws of wss.clients) ws.terminate();
    },
  };
}
