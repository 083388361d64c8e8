// The attach server as a feature of corral's HTTP server: the web page and its assets, the pane
// list for the page (live from the engine store), and WebSocket mirrors of panes at /attach/N.

import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EngineHandle, PaneInfo, TmuxSocket } from '../../engine/types.js';
import type { TmuxClient } from '../../engine/tmux/client.js';
import type { Settings } from '../../engine/config.js';
import { PaneStreams, type LiveChunk } from '../../engine/pane-stream/pane-streams.js';
import {
  errorBody,
  rejectUpgrade,
  sendJson,
  type HttpFeature,
  type RequestContext,
  type UpgradeContext,
} from '../http-server.js';
import { AttachConnection } from './attach-connection.js';
import { originAllowed, requestAuthorized, tokenCookie } from './auth.js';
import { paneIdFromPath } from './protocol.js';
import { PAGE_SCRIPT, pageHtml, unauthorizedHtml } from './page.js';

export type AttachSettings = Pick<
  Settings,
  'attachRingBytes' | 'attachSlowClientBytes' | 'attachAllowedOrigins' | 'attachAllowResize' | 'attachPauseAfter'
>;

export interface AttachFeatureOptions {
  /** The engine's store: the page's pane list and state badges. */
  readonly engine: EngineHandle;
  readonly tmux: TmuxClient;
  readonly socket: TmuxSocket;
  /** The shared token (the same one the chat bridge uses). */
  readonly token: string;
  readonly settings: AttachSettings;
  /** Whether a client holding the token may ask to write (default true). */
  readonly allowWrite?: boolean;
  /** WebSocket heartbeat (ping, then terminate when no pong came back). */
  readonly heartbeatMs?: number;
}

export interface AttachFeature extends HttpFeature {
  /** Open WebSocket connections (for tests and diagnostics). */
  readonly connectionCount: number;
  readonly streams: PaneStreams;
}

const ASSETS: Record<string, { readonly module: string; readonly type: string }> = {
  '/assets/xterm.js': { module: '@xterm/xterm/lib/xterm.js', type: 'text/javascript; charset=utf-8' },
  '/assets/xterm.css': { module: '@xterm/xterm/css/xterm.css', type: 'text/css; charset=utf-8' },
  '/assets/addon-fit.js': { module: '@xterm/addon-fit/lib/addon-fit.js', type: 'text/javascript; charset=utf-8' },
  '/assets/addon-attach.js': {
    module: '@xterm/addon-attach/lib/addon-attach.js',
    type: 'text/javascript; charset=utf-8',
  },
};

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

export function createAttachFeature(options: AttachFeatureOptions): AttachFeature {
  const { settings, token } = options;
  const allowWrite = options.allowWrite ?? true;
  const require = createRequire(import.meta.url);
  const assetCache = new Map<string, Buffer>();
  const streams = new PaneStreams({
    socket: options.socket,
    ringBytes: settings.attachRingBytes,
    pauseAfterSeconds: settings.attachPauseAfter,
    runner: options.tmux.runner,
    sessionOf: async (paneId) => (await findPane(paneId))?.sessionId ?? null,
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const alive = new WeakMap<WebSocket, boolean>();
  let connections = 0;

  const heartbeat = setInterval(() => {
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

  async function findPane(paneId: string): Promise<PaneInfo | null> {
    const panes = await options.tmux.listPanes();
    return panes.find((p) => p.paneId === paneId) ?? null;
  }

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

  function paneList() {
    const snapshot = options.engine.getSnapshot();
    return {
      server: snapshot.server,
      status: snapshot.status,
      write: allowWrite,
      resize: allowWrite && settings.attachAllowResize,
      panes: snapshot.panes.map((view) => ({
        id: view.pane.paneId,
        target: view.target,
        label: view.label,
        title: view.pane.title,
        command: view.pane.command,
        state: view.state,
        reason: view.reason,
        quiet_since: view.quietSince,
        cols: view.pane.width,
        rows: view.pane.height,
      })),
    };
  }

  function streamPaneList(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      ...SECURITY_HEADERS,
    });
    let last = '';
    let timer: NodeJS.Timeout | null = null;
    const push = () => {
      timer = null;
      const body = JSON.stringify(paneList());
      if (body === last) return;
      last = body;
      res.write(`data: ${body}\n\n`);
    };
    push();
    // Snapshots can come many times a second; the page needs at most a few updates per second.
    const unsubscribe = options.engine.subscribe(() => {
      if (timer === null) timer = setTimeout(push, 200);
    });
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    const stop = () => {
      unsubscribe();
      clearInterval(keepAlive);
      if (timer) clearTimeout(timer);
    };
    req.on('close', stop);
    res.on('close', stop);
  }

  async function handleRequest({ req, res, url }: RequestContext): Promise<void> {
    const path = url.pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendJson(
        res,
        405,
        errorBody('only GET is supported here', 'invalid_request_error', 'method_not_allowed'),
        { allow: 'GET' },
      );
    }
    if (path.startsWith('/assets/')) {
      if (path === '/assets/attach-page.js') return sendText(res, 200, 'text/javascript; charset=utf-8', PAGE_SCRIPT);
      return serveAsset(res, path);
    }
    if (path === '/') {
      const presented = url.searchParams.get('token');
      if (presented !== null) {
        if (!requestAuthorized(req, url, token))
          return sendText(
            res,
            401,
            'text/html; charset=utf-8',
            unauthorizedHtml('That token is not the one this server uses.'),
          );
        // Move the token from the URL into an HttpOnly cookie, then show a clean URL.
        return sendText(res, 302, 'text/plain; charset=utf-8', 'redirecting', {
          location: '/',
          'set-cookie': tokenCookie(token),
        });
      }
      if (!requestAuthorized(req, url, token))
        return sendText(
          res,
          401,
          'text/html; charset=utf-8',
          unauthorizedHtml('Open the address corral printed when it started (it ends in ?token=...).'),
        );
      return sendText(res, 200, 'text/html; charset=utf-8', pageHtml());
    }
    if (!requestAuthorized(req, url, token)) {
      return sendJson(
        res,
        401,
        errorBody('missing or wrong token (Authorization: Bearer TOKEN)', 'invalid_request_error', 'unauthorized'),
        {
          'www-authenticate': 'Bearer',
        },
      );
    }
    if (path === '/api/panes') return sendJson(res, 200, paneList());
    if (path === '/api/panes/events') return streamPaneList(req, res);
    return sendJson(res, 404, errorBody(`nothing at ${path}`, 'invalid_request_error', 'not_found'));
  }

  function handleUpgrade({ req, socket, head, url }: UpgradeContext): void {
    // Nothing about a pane is sent before these checks pass.
    if (!requestAuthorized(req, url, token))
      return rejectUpgrade(socket, 401, 'missing or wrong token', 'unauthorized');
    if (!originAllowed(req, settings.attachAllowedOrigins))
      return rejectUpgrade(socket, 403, 'this Origin may not open attach connections', 'bad_origin');
    const paneId = paneIdFromPath(url.pathname);
    if (paneId === null) return rejectUpgrade(socket, 404, 'attach URLs look like /attach/3 for pane %3', 'not_found');
    const mode = url.searchParams.get('mode') ?? 'json';
    if (mode !== 'json' && mode !== 'raw') return rejectUpgrade(socket, 400, 'mode must be json or raw', 'bad_mode');
    const wantsWrite = url.searchParams.get('write') === '1';
    if (wantsWrite && !allowWrite)
      return rejectUpgrade(socket, 403, 'writing is switched off on this server', 'write_disabled');
    findPane(paneId).then(
      (pane) => {
        if (socket.destroyed) return;
        if (!pane) return rejectUpgrade(socket, 404, `no pane ${paneId} on this tmux server`, 'no_such_pane');
        wss.handleUpgrade(req, socket, head, (ws) => {
          alive.set(ws, true);
          ws.on('pong', () => alive.set(ws, true));
          connections += 1;
          const connection = new AttachConnection({
            ws,
            pane,
            streams,
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
      (error: Error) => rejectUpgrade(socket, 503, `tmux is not reachable: ${error.message}`, 'tmux_unavailable'),
    );
  }

  return {
    name: 'attach',
    streams,
    get connectionCount() {
      return connections;
    },
    matches(url: URL): boolean {
      const p = url.pathname;
      return (
        p === '/' ||
        p.startsWith('/assets/') ||
        p === '/api/panes' ||
        p === '/api/panes/events' ||
        p.startsWith('/attach/')
      );
    },
    handleRequest,
    handleUpgrade,
    async close() {
      clearInterval(heartbeat);
      await streams.close();
      for (const ws of wss.clients) ws.close(1001, 'server stopping');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const ws of wss.clients) ws.terminate();
    },
  };
}
