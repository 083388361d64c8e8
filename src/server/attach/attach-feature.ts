// The attach server as a feature of corral's HTTP server: routes each request to its part (the
// page's files, sign-in and browser sessions, the pane list, the page's answers and replies) and
// each upgrade to the WebSocket mirrors of panes at /attach/N. It holds no tmux client: panes are
// looked up in the store, streamed and typed into through the pane port the CLI hands it.

import type { IncomingMessage } from 'node:http';
import type { AttachSettings } from '../../engine/settings/config.js';
import type { PanePort } from '../../engine/port/pane-port-api.js';
import { type Clock, type Timers } from '../../engine/types.js';
import { errorBody, sendJson, type HttpFeature, type RequestContext, type UpgradeContext } from '../http-server.js';
import { handleAction } from './action-route.js';
import { AttachSockets } from './attach-upgrade.js';
import { issueLoginLink, requestAccess, type Access, type LoginLink } from './auth.js';
import { actionPath } from './pane-actions.js';
import { PaneListFeed } from './pane-list-feed.js';
import { PageFiles } from './page-files.js';
import { BrowserSessions } from './sessions.js';
import { SessionConnections, handleSessionRequest, isSessionPath } from './session-routes.js';

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
  readonly clock: Clock;
  /** For the heartbeat, the page lists and their keep-alives. */
  readonly timers: Timers;
  /**
   * The browser sessions and login codes. They outlive the feature (switching the attach server
   * off and on keeps browsers signed in) and end with the process; a private set by default.
   */
  readonly sessions?: BrowserSessions;
  /** Where browsers reach this server (login links); default: the Host of the request. */
  readonly baseUrl?: () => string;
}

export type { LoginLink };

export interface AttachFeature extends HttpFeature {
  /** Open WebSocket connections (for tests and diagnostics). */
  readonly connectionCount: number;
  /** A browser link with a new single-use login code (writing when the server allows it). */
  loginLink(options?: { readonly write?: boolean; readonly base?: string }): LoginLink;
}

export const ATTACH_FEATURE = 'attach';

/** The paths the attach server answers: the page, its files, the API, sign-in and /attach/N. */
function isAttachPath(p: string): boolean {
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
}

export function createAttachFeature(options: AttachFeatureOptions): AttachFeature {
  const { settings, token, port } = options;
  const allowWrite = options.allowWrite ?? true;
  const { clock } = options;
  const sessions = options.sessions ?? new BrowserSessions({ clock });
  const live = new SessionConnections(sessions);
  const mayWrite = (access: Access) => allowWrite && access.write;
  const files = new PageFiles();
  const feed = new PaneListFeed({ store: port, clock, timers: options.timers, mayWrite, allowResize: settings.attachAllowResize, live });
  const sockets = new AttachSockets({
    port,
    token,
    settings,
    allowWrite,
    sessions,
    live,
    heartbeatMs: options.heartbeatMs ?? 30_000,
    timers: options.timers,
  });
  const actions = { port, allowWrite, allowedOrigins: settings.attachAllowedOrigins };

  function loginLink(linkOptions: { readonly write?: boolean; readonly base?: string } = {}): LoginLink {
    const base = linkOptions.base ?? options.baseUrl?.() ?? 'http://127.0.0.1';
    return issueLoginLink(sessions, base, allowWrite && (linkOptions.write ?? true));
  }

  const sessionRoutes = {
    sessions,
    allowedOrigins: settings.attachAllowedOrigins,
    loginLink: (write: boolean, req: IncomingMessage) =>
      loginLink({ write, base: options.baseUrl?.() ?? `http://${req.headers.host ?? '127.0.0.1'}` }),
  };

  async function handleRequest({ req, res, url }: RequestContext): Promise<void> {
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (PageFiles.matches(path, method)) return files.serve(res, path);
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
    if (path === '/') return files.page(res);
    if (!access) {
      return sendJson(
        res,
        401,
        errorBody('missing or wrong token (Authorization: Bearer TOKEN)', 'invalid_request_error', 'unauthorized'),
        {
          'www-authenticate': 'Bearer',
        },
      );
    }
    if (target) return handleAction(req, res, target, access, actions);
    if (path === '/api/panes') return sendJson(res, 200, feed.list(access));
    if (path === '/api/panes/events') return feed.stream(req, res, access);
    return sendJson(res, 404, errorBody(`nothing at ${path}`, 'invalid_request_error', 'not_found'));
  }

  return {
    name: ATTACH_FEATURE,
    get connectionCount() {
      return sockets.count;
    },
    loginLink,
    matches: (url: URL) => isAttachPath(url.pathname),
    handleRequest,
    handleUpgrade: (context: UpgradeContext) => sockets.handleUpgrade(context),
    async close() {
      live.close();
      feed.close();
      // The port keeps its streams for the other servers and for viewers coming back, and is
      // closed by its owner.
      await sockets.close();
    },
  };
}
