// The WebSocket side of the attach server: /attach/N upgrades, checked (sign-in, Origin, mode,
// write access, the pane exists) before anything about a pane is sent, then one AttachConnection
// per socket. A heartbeat pings every socket and ends those that stopped answering; it also
// sweeps browser sessions past their limits, which closes their sockets.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AttachSettings } from '../../engine/settings/config.js';
import { BadPaneKeyError, HostDownError, UnknownHostError, type LiveChunk, type PanePort } from '../../engine/port/pane-port-api.js';
import type { PaneView, Timers } from '../../engine/types.js';
import { repeatEvery } from '../../engine/time/repeat-every.js';
import { rejectUpgrade, type UpgradeContext } from '../http-server.js';
import { AttachConnection } from './attach-connection.js';
import { PAGE_PROTOCOL, originAllowed, requestAccess, type Access } from './auth.js';
import type { BrowserSessions } from './sessions.js';
import type { SessionConnections } from './session-routes.js';
import { CLOSE_CODES, paneKeyFromPath } from './protocol.js';

export interface AttachSocketsOptions {
  readonly port: PanePort;
  readonly token: string;
  readonly settings: AttachSettings;
  readonly allowWrite: boolean;
  readonly sessions: BrowserSessions;
  /** Open sockets by browser session: a session that ends closes its sockets. */
  readonly live: SessionConnections;
  readonly heartbeatMs: number;
  /** For the heartbeat and the wait before a socket that does not read its close is ended. */
  readonly timers: Timers;
}

/** What an upgrade asked for, once its checks passed. */
interface Viewing {
  readonly access: Access;
  readonly key: string;
  readonly mode: 'json' | 'raw';
  readonly write: boolean;
}

export class AttachSockets {
  // The page asks for two subprotocols, `corral` and one carrying its session: only `corral` is
  // ever echoed back.
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: 1024 * 1024,
    handleProtocols: (offered) => (offered.has(PAGE_PROTOCOL) ? PAGE_PROTOCOL : false),
  });
  private readonly alive = new WeakMap<WebSocket, boolean>();
  private readonly stopHeartbeat: () => void;
  private connections = 0;
  // N viewers of one pane get the same output message: build it once per chunk.
  private lastChunk: LiveChunk | null = null;
  private lastJson = '';

  constructor(private readonly options: AttachSocketsOptions) {
    this.stopHeartbeat = repeatEvery(options.timers, options.heartbeatMs, () => this.beat());
  }

  /** Open WebSocket connections. */
  get count(): number {
    return this.connections;
  }

  handleUpgrade({ req, socket, head, url }: UpgradeContext): void {
    const viewing = this.check(req, socket, url);
    if (viewing === null) return;
    this.lookUp(viewing.key).then(
      (view) => {
        if (socket.destroyed) return;
        if (!view || view.state === 'ended' || view.pane.dead)
          return rejectUpgrade(socket, 404, `no pane ${viewing.key} on this tmux server`, 'no_such_pane');
        this.wss.handleUpgrade(req, socket, head, (ws) => this.open(ws, view, viewing));
      },
      (error: Error) => {
        if (!socket.destroyed) rejectFailedLookUp(socket, error);
      },
    );
  }

  /** Viewers hear that the server stops (1001); the port keeps its streams for the other servers. */
  async close(): Promise<void> {
    this.stopHeartbeat();
    for (const ws of this.wss.clients) ws.close(1001, 'server stopping');
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    for (const ws of this.wss.clients) ws.terminate();
  }

  /** Nothing about a pane is sent before these checks pass; null when the upgrade was refused. */
  private check(req: IncomingMessage, socket: Duplex, url: URL): Viewing | null {
    const { settings, allowWrite } = this.options;
    const access = requestAccess(req, url, this.options.token, this.options.sessions, { queryToken: true });
    const refuse = (status: number, message: string, code: string): null => (
      rejectUpgrade(socket, status, message, code),
      null
    );
    if (!access) return refuse(401, 'missing or wrong token', 'unauthorized');
    if (!originAllowed(req, settings.attachAllowedOrigins))
      return refuse(403, 'this Origin may not open attach connections', 'bad_origin');
    const key = paneKeyFromPath(url.pathname);
    if (key === null)
      return refuse(
        404,
        'attach URLs look like /attach/3 for pane %3, or /attach/build-box/3 for pane %3 on build-box',
        'not_found',
      );
    const mode = url.searchParams.get('mode') ?? 'json';
    if (mode !== 'json' && mode !== 'raw') return refuse(400, 'mode must be json or raw', 'bad_mode');
    const write = url.searchParams.get('write') === '1';
    if (write && !allowWrite) return refuse(403, 'writing is switched off on this server', 'write_disabled');
    if (write && !access.write)
      return refuse(403, 'this browser may only look: open a writing link to type', 'read_only');
    return { access, key, mode, write };
  }

  /** The pane from the store; a pane opened since the engine's last poll after one more poll. */
  private async lookUp(key: string): Promise<PaneView | null> {
    const { port } = this.options;
    const known = port.find(key);
    if (known) return known;
    await port.pollNow();
    return port.find(key);
  }

  private open(ws: WebSocket, view: PaneView, viewing: Viewing): void {
    const { settings } = this.options;
    this.alive.set(ws, true);
    ws.on('pong', () => this.alive.set(ws, true));
    this.connections += 1;
    // A session that ends closes its viewers at once, saying why.
    const forget = this.options.live.add(viewing.access, (why) => ws.close(CLOSE_CODES.unauthorized, why));
    ws.once('close', forget);
    const connection = new AttachConnection({
      ws,
      key: view.key,
      pane: view.pane,
      port: this.options.port,
      mode: viewing.mode,
      write: viewing.write,
      allowResize: settings.attachAllowResize,
      slowClientBytes: settings.attachSlowClientBytes,
      encodeOutput: (chunk) => this.encodeOutput(chunk),
      timers: this.options.timers,
      onClose: () => {
        this.connections -= 1;
      },
    });
    connection.start();
  }

  private encodeOutput(chunk: LiveChunk): string {
    if (chunk !== this.lastChunk) {
      this.lastChunk = chunk;
      this.lastJson = JSON.stringify({ type: 'output', data: chunk.text, offset: chunk.textEnd });
    }
    return this.lastJson;
  }

  private beat(): void {
    // Sessions past their limits end here too, closing their connections.
    this.options.sessions.sweep();
    for (const ws of this.wss.clients) {
      if (this.alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      this.alive.set(ws, false);
      ws.ping();
    }
  }
}

function rejectFailedLookUp(socket: Duplex, error: Error): void {
  if (error instanceof HostDownError) {
    return rejectUpgrade(socket, 503, error.message, 'host_unreachable', {
      type: 'server_error',
      headers: { 'retry-after': String(error.retryAfterS) },
    });
  }
  if (error instanceof UnknownHostError || error instanceof BadPaneKeyError)
    return rejectUpgrade(socket, 404, error.message, 'no_such_pane');
  rejectUpgrade(socket, 503, `tmux is not reachable: ${error.message}`, 'tmux_unavailable');
}
