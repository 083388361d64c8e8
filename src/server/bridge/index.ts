// The chat bridge as a feature of corral's HTTP server: an OpenAI-compatible API where each
// watched pane is a "model". A request types its last user message into the pane and streams
// the pane's new output back until the pane goes quiet.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { systemClock, type Clock, type EngineStore } from '../../engine/types.js';
import { PaneGoneError } from '../../engine/tmux/client.js';
import { CaptureTicker, systemTimers, type CaptureSource, type Timers } from '../../engine/diff/capture-ticker.js';
import { runConversation, type ConversationOutcome, type PaneWriter } from '../../engine/diff/run-conversation.js';
import type { Classifier } from '../../engine/diff/conversation.js';
import { bearerToken, errorBody, sendJson, tokenMatches, type HttpFeature, type RequestContext } from '../http-server.js';
import { HttpError, messageToType, parseChatRequest, readBody } from './request.js';
import { listModels, modelName, resolveModel } from './models.js';
import {
  SSE_DONE,
  SSE_KEEPALIVE,
  completion,
  contentChunk,
  finishChunk,
  identity,
  roleChunk,
  sseEvent,
  usageChunk,
  usageOf,
  wholeStream,
  type CompletionIdentity,
} from './sse-chunks.js';

export interface BridgeSettings {
  readonly pollMs: number;
  readonly quietMs: number;
  readonly maxDurationMs: number;
  readonly historyLines: number;
  /** Origins allowed to call the API from a browser (CORS); none by default. */
  readonly corsOrigins: readonly string[];
  readonly enterDelayMs?: number;
  readonly pasteThreshold?: number;
  /** Interval of `: keepalive` comments while a stream waits for output. */
  readonly keepaliveMs?: number;
  readonly fence?: boolean;
}

export interface BridgeOptions {
  /** The watched panes; pollNow (when given) refreshes them before a model is declared unknown. */
  readonly engine: EngineStore & { pollNow?(): Promise<void> };
  readonly tmux: CaptureSource & PaneWriter;
  readonly token: string;
  readonly settings: BridgeSettings;
  readonly clock?: Clock;
  readonly timers?: Timers;
  readonly classify?: Classifier;
}

export interface BridgeFeature extends HttpFeature {
  /** Offers (or withdraws) a pane as a model; all watched panes are offered by default. */
  setPaneBridged(paneId: string, on: boolean): void;
  isPaneBridged(paneId: string): boolean;
  /** Panes answering a request right now. */
  busyPanes(): string[];
  readonly ticker: CaptureTicker;
}

export const BRIDGE_FEATURE = 'bridge';

export function createBridgeFeature(options: BridgeOptions): BridgeFeature {
  const clock = options.clock ?? systemClock;
  const timers = options.timers ?? systemTimers;
  const settings = options.settings;
  const disabled = new Set<string>();
  const active = new Map<string, AbortController>();
  const ticker = new CaptureTicker({ tmux: options.tmux, intervalMs: settings.pollMs, historyLines: settings.historyLines, timers, now: () => clock.now() });
  const conversationSettings = {
    quietMs: settings.quietMs,
    maxDurationMs: settings.maxDurationMs,
    historyLines: settings.historyLines,
    enterDelayMs: settings.enterDelayMs ?? 100,
    pasteThreshold: settings.pasteThreshold ?? 200,
    fence: settings.fence ?? true,
  };

  const fail = (res: ServerResponse, error: HttpError) =>
    sendJson(res, error.status, errorBody(error.message, error.type, error.code, error.param), error.headers);

  function corsHeaders(req: IncomingMessage): Record<string, string> {
    const origin = req.headers.origin;
    if (origin === undefined || !settings.corsOrigins.includes(origin)) return {};
    return { 'access-control-allow-origin': origin, vary: 'origin' };
  }

  function checkOrigin(req: IncomingMessage): void {
    const origin = req.headers.origin;
    if (origin === undefined || settings.corsOrigins.includes(origin)) return;
    // Same origin (a page served by this server) is fine; any other site is not.
    if (req.headers.host !== undefined && (origin === `http://${req.headers.host}` || origin === `https://${req.headers.host}`)) return;
    throw new HttpError(403, `requests from origin ${origin} are not allowed (allow it with --cors-origin)`, 'invalid_request_error', 'origin_not_allowed');
  }

  function checkToken(req: IncomingMessage): void {
    const presented = bearerToken(req);
    if (presented === null) {
      throw new HttpError(401, 'missing API key: send "Authorization: Bearer <token>" (corral serve prints where the token is)', 'invalid_request_error', 'missing_api_key', null, { 'www-authenticate': 'Bearer' });
    }
    if (!tokenMatches(presented, options.token)) {
      throw new HttpError(401, 'incorrect API key provided', 'invalid_request_error', 'invalid_api_key', null, { 'www-authenticate': 'Bearer' });
    }
  }

  function onlyMethod(req: IncomingMessage, method: string): void {
    if (req.method !== method) {
      throw new HttpError(405, `${req.method ?? '?'} is not allowed here; use ${method}`, 'invalid_request_error', 'method_not_allowed', null, { allow: method });
    }
  }

  async function handleRequest({ req, res, url }: RequestContext): Promise<void> {
    const cors = corsHeaders(req);
    for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
    try {
      if (req.method === 'OPTIONS' && Object.keys(cors).length > 0) {
        res.writeHead(204, {
          'access-control-allow-methods': 'GET, POST, OPTIONS',
          'access-control-allow-headers': 'authorization, content-type',
          'access-control-max-age': '600',
        });
        res.end();
        return;
      }
      checkOrigin(req);
      checkToken(req);
      const path = url.pathname.replace(/\/+$/, '');
      if (path === '/v1/models') {
        onlyMethod(req, 'GET');
        sendJson(res, 200, { object: 'list', data: listModels(options.engine, disabled) });
        return;
      }
      if (path === '/v1/chat/completions') {
        onlyMethod(req, 'POST');
        await chatCompletions(req, res);
        return;
      }
      throw new HttpError(404, `no such endpoint: ${url.pathname} (the bridge serves /v1/models and /v1/chat/completions)`, 'invalid_request_error', 'unknown_url');
    } catch (error) {
      if (error instanceof HttpError) fail(res, error);
      else throw error;
    }
  }

  async function chatCompletions(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') {
      req.resume();
      throw new HttpError(415, 'send the request body as JSON (Content-Type: application/json)', 'invalid_request_error', 'unsupported_media_type');
    }
    const chat = parseChatRequest(await readBody(req));
    let view = resolveModel(options.engine, disabled, chat.model);
    if (!view && options.engine.pollNow) {
      // A pane opened since the engine's last poll is not known yet: look again once.
      await options.engine.pollNow().catch(() => undefined);
      view = resolveModel(options.engine, disabled, chat.model);
    }
    if (!view) {
      throw new HttpError(404, `The model \`${chat.model}\` does not exist: no bridged pane has that id, target or label (GET /v1/models lists them)`, 'invalid_request_error', 'model_not_found', 'model');
    }
    const model = chat.model;
    const ident = identity(model, clock.now(), chat.stream && chat.includeUsage);

    // Answered here, without typing: title requests and requests with nothing to type.
    const message = chat.userText === null ? '' : messageToType(chat.userText);
    if (chat.titleOnly || message === '') {
      const text = chat.titleOnly ? `Pane ${modelName(view)}` : '';
      const usage = usageOf('', text);
      if (chat.stream) {
        res.writeHead(200, streamHeaders());
        res.end(wholeStream(ident, text, 'stop', usage));
      } else {
        sendJson(res, 200, completion(ident, text, 'stop', usage));
      }
      return;
    }

    const paneId = view.pane.paneId;
    if (active.has(paneId)) {
      throw new HttpError(409, `pane ${paneId} is already answering another request; wait for it to finish`, 'invalid_request_error', 'pane_busy', 'model', { 'x-should-retry': 'false' });
    }
    const controller = new AbortController();
    active.set(paneId, controller);
    const onClose = () => {
      if (!res.writableEnded) controller.abort();
    };
    res.on('close', onClose);
    try {
      if (chat.stream) await streamAnswer(res, ident, paneId, message, controller.signal);
      else await wholeAnswer(res, ident, paneId, message, controller.signal);
    } finally {
      res.off('close', onClose);
      active.delete(paneId);
      // Aborted while the client is still there: the bridge was switched off.
      if (!res.writableEnded && !res.destroyed) {
        if (res.headersSent) res.end();
        else sendJson(res, 503, errorBody('the chat bridge was switched off', 'server_error', 'bridge_stopped'));
      }
    }
  }

  async function converse(
    paneId: string,
    message: string,
    signal: AbortSignal,
    hooks: { onTyped?: () => void; onText?: (text: string) => void } = {},
  ): Promise<ConversationOutcome> {
    try {
      return await runConversation(
        { tmux: options.tmux, ticker, clock, timers, settings: conversationSettings, ...(options.classify ? { classify: options.classify } : {}) },
        { paneId, message, signal, ...hooks },
      );
    } catch (error) {
      if (error instanceof PaneGoneError) throw new HttpError(404, `pane ${paneId} no longer exists`, 'invalid_request_error', 'model_not_found', 'model');
      throw new HttpError(502, `could not reach the pane through tmux: ${(error as Error).message}`, 'server_error', 'tmux_failed');
    }
  }

  async function wholeAnswer(res: ServerResponse, ident: CompletionIdentity, paneId: string, message: string, signal: AbortSignal): Promise<void> {
    const outcome = await converse(paneId, message, signal);
    if (outcome.status === 'aborted') return;
    if (outcome.status !== 'finished') {
      sendJson(res, 502, errorBody(outcome.message, 'server_error', outcome.status === 'pane-gone' ? 'pane_gone' : 'tmux_failed'));
      return;
    }
    sendJson(res, 200, completion(ident, outcome.answer, outcome.finishReason, usageOf(message, outcome.answer)));
  }

  async function streamAnswer(res: ServerResponse, ident: CompletionIdentity, paneId: string, message: string, signal: AbortSignal): Promise<void> {
    let started = false;
    let lastWrite = clock.now();
    const write = (text: string) => {
      if (res.writableEnded || res.destroyed) return;
      res.write(text);
      lastWrite = clock.now();
    };
    const start = () => {
      if (started) return;
      started = true;
      res.writeHead(200, streamHeaders());
      res.flushHeaders();
      write(sseEvent(roleChunk(ident)));
    };
    const keepaliveMs = settings.keepaliveMs ?? 5_000;
    let keepalive: unknown = null;
    const scheduleKeepalive = () => {
      keepalive = timers.setTimeout(() => {
        if (started && clock.now() - lastWrite >= keepaliveMs - 5) write(SSE_KEEPALIVE);
        scheduleKeepalive();
      }, keepaliveMs);
    };
    scheduleKeepalive();
    try {
      // Headers go out once the message is typed: errors before that get a real status code.
      const outcome = await converse(paneId, message, signal, {
        onTyped: start,
        onText: (text) => {
          start();
          write(sseEvent(contentChunk(ident, text)));
        },
      });
      if (outcome.status === 'aborted') return;
      start();
      if (outcome.status === 'finished') {
        write(sseEvent(finishChunk(ident, outcome.finishReason)));
        if (ident.includeUsage) write(sseEvent(usageChunk(ident, usageOf(message, outcome.answer))));
        write(SSE_DONE);
      } else {
        write(sseEvent(errorBody(outcome.message, 'server_error', outcome.status === 'pane-gone' ? 'pane_gone' : 'tmux_failed')));
      }
      res.end();
    } finally {
      if (keepalive !== null) timers.clearTimeout(keepalive);
    }
  }

  return {
    name: BRIDGE_FEATURE,
    ticker,
    matches: (url) => url.pathname === '/v1' || url.pathname.startsWith('/v1/'),
    handleRequest,
    setPaneBridged(paneId, on) {
      if (on) disabled.delete(paneId);
      else disabled.add(paneId);
    },
    isPaneBridged: (paneId) => !disabled.has(paneId),
    busyPanes: () => [...active.keys()],
    close() {
      for (const controller of active.values()) controller.abort();
      ticker.close();
    },
  };
}

function streamHeaders(): Record<string, string> {
  return {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  };
}
