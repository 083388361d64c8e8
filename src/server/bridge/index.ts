// The chat bridge as a feature of corral's HTTP server: an OpenAI-compatible API where each
// watched pane is a "model". A request types the person's new message into the pane and streams
// the pane's output back until the program is back at its prompt. Chat UIs' own requests
// (titles, summaries, tags) and a client's automatic retries are answered without typing; any
// other request is typed, a repeated command included. The bridge talks to panes only through the
// engine's conversation port. Here the routes; who may call is in bridge-access.ts, the chat
// completion route in chat-completions.ts.

import { type Clock, type Timers } from '../../engine/types.js';
import type { PanePort } from '../../engine/port/pane-port-api.js';
import { errorBody, sendJson, type HttpFeature, type RequestContext } from '../http-server.js';
import { HttpError } from '../http-body.js';
import { answerPreflight, checkOrigin, checkToken, corsHeaders, onlyMethod } from './bridge-access.js';
import { ChatCompletions } from './chat-completions.js';
import { listModels } from './models.js';

export { NOTHING_TYPED, REPLAY_HEADER } from './known-answers.js';

export interface BridgeSettings {
  /** Origins allowed to call the API from a browser (CORS); none by default. */
  readonly corsOrigins: readonly string[];
  /** Interval of `: keepalive` comments while a stream waits for output. */
  readonly keepaliveMs?: number;
  /** Type side requests like any message (their recognition off). */
  readonly typeSideRequests?: boolean;
}

export interface BridgeOptions {
  /**
   * The watched panes (pollNow refreshes them before a model is declared unknown), typing into
   * them and reading their answers. Shared with other servers: closing the bridge does not close it.
   */
  readonly port: PanePort;
  readonly token: string;
  readonly settings: BridgeSettings;
  readonly clock: Clock;
  /** For the answers' keepalives and waits. */
  readonly timers: Timers;
  /** One line per notable decision (a side request answered, a retry replayed, nothing typed). */
  readonly log?: (line: string) => void;
}

export interface BridgeFeature extends HttpFeature {
  /** Offers (or withdraws) a pane as a model; all watched panes are offered by default. */
  setPaneBridged(key: string, on: boolean): void;
  isPaneBridged(key: string): boolean;
  /** Panes not free for a new message: answering, or their command still runs. */
  busyPanes(): string[];
}

export const BRIDGE_FEATURE = 'bridge';

export function createBridgeFeature(options: BridgeOptions): BridgeFeature {
  const { settings, port, clock } = options;
  const disabled = new Set<string>();
  const chat = new ChatCompletions({
    port,
    clock,
    timers: options.timers,
    disabled,
    keepaliveMs: settings.keepaliveMs ?? 5_000,
    typeSideRequests: settings.typeSideRequests === true,
    log: options.log ?? (() => undefined),
  });
  const startedAt = clock.now();

  async function handleRequest({ req, res, url }: RequestContext): Promise<void> {
    const cors = corsHeaders(req, settings.corsOrigins);
    for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
    try {
      if (req.method === 'OPTIONS' && Object.keys(cors).length > 0) return answerPreflight(res);
      checkOrigin(req, settings.corsOrigins);
      checkToken(req, options.token);
      const path = url.pathname.replace(/\/+$/, '');
      if (path === '/v1/models') {
        onlyMethod(req, 'GET');
        sendJson(res, 200, { object: 'list', data: listModels(port, disabled, (key) => port.hold(key), startedAt) });
        return;
      }
      if (path === '/v1/chat/completions') {
        onlyMethod(req, 'POST');
        await chat.handle(req, res);
        return;
      }
      throw new HttpError(404, `no such endpoint: ${url.pathname} (the bridge serves /v1/models and /v1/chat/completions)`, 'invalid_request_error', 'unknown_url');
    } catch (error) {
      if (error instanceof HttpError) sendJson(res, error.status, errorBody(error.message, error.type, error.code, error.param), error.headers);
      else throw error;
    }
  }

  return {
    name: BRIDGE_FEATURE,
    matches: (url) => url.pathname === '/v1' || url.pathname.startsWith('/v1/'),
    handleRequest,
    setPaneBridged(key, on) {
      if (on) disabled.delete(key);
      else disabled.add(key);
    },
    isPaneBridged: (key) => !disabled.has(key),
    busyPanes: () => chat.busyPanes(),
    // The port is shared: only this bridge's answers end, and the panes it held are let go.
    close: () => chat.close(),
  };
}
