// The chat bridge as a feature of corral's HTTP server: an OpenAI-compatible API where each
// watched pane is a "model". A request types the person's new message into the pane and streams
// the pane's output back until the program is back at its prompt. Chat UIs' own requests
// (titles, summaries, tags) and a client's automatic retries are answered without typing; any
// other request is typed, a repeated command included. The bridge talks to panes only through the
// engine's conversation port.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Clock, type EngineStore, type PaneView } from '../../engine/types.js';
import { systemClock } from '../../engine/time.js';
import { type Timers } from '../../engine/types.js';
import { systemTimers } from '../../engine/time.js';
import { NotAtPromptError, PaneBusyError } from '../../engine/conversation/run-conversation.js';
import { HostDownError, PaneGoneError, UnknownHostError, type ConversationOutcome, type PanePort } from '../../engine/pane-port.js';
import { bearerToken, errorBody, sendJson, tokenMatches, type HttpFeature, type RequestContext } from '../http-server.js';
import { HttpError, readBody } from '../http-body.js';
import { messageToType, parseChatRequest, type ChatRequest } from './request.js';
import { SIDE_MODEL, listModels, modelName, resolveModel } from './models.js';
import { PaneMemory, memoryKey } from './memory.js';
import { ReplayDesk, type LiveAnswer, type Replay, type RequestMark } from './replays.js';
import { guessSideKind, recogniseSideRequest } from './side-requests.js';
import { sideAnswer } from './side-answers.js';
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
  readonly clock?: Clock;
  readonly timers?: Timers;
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
  const clock = options.clock ?? systemClock;
  const timers = options.timers ?? systemTimers;
  const settings = options.settings;
  const port = options.port;
  const store: EngineStore = port;
  const log = options.log ?? (() => undefined);
  const disabled = new Set<string>();
  const active = new Map<string, AbortController>();
  const inFlight = new Set<Promise<unknown>>();
  /** Panes this bridge typed into: their holds are dropped when it is switched off. */
  const conversed = new Set<string>();
  const memory = new PaneMemory();
  const replays = new ReplayDesk();
  const startedAt = clock.now();

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
        sendJson(res, 200, { object: 'list', data: listModels(store, disabled, (key) => port.hold(key), startedAt) });
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
    const body = await readBody(req);
    const chat = parseChatRequest(body);
    const ident = identity(chat.model, clock.now(), chat.stream && chat.includeUsage);
    if (chat.model === SIDE_MODEL) {
      // The side model never types: it answers whatever it is sent as a side request.
      const known = recogniseSideRequest(chat.messages);
      const { kind, shape } = known ?? guessSideKind(chat.messages);
      log(`chat bridge: ${known ? `${known.ui} ${known.kind} request` : `${kind} request`} answered by the ${SIDE_MODEL} model`);
      // An unknown request's last message is the request itself, not part of the conversation.
      const context = sideContext(null, known ? chat : { ...chat, messages: chat.messages.slice(0, -1) });
      answerDirectly(res, chat, ident, sideAnswer(kind, shape, context));
      return;
    }
    let view = resolveModel(store, disabled, chat.model);
    if (!view) {
      // A pane opened since the engine's last poll is not known yet: look again once.
      await port.pollNow().catch(() => undefined);
      view = resolveModel(store, disabled, chat.model);
    }
    if (!view) {
      throw new HttpError(404, `The model \`${chat.model}\` does not exist: no bridged pane has that id, target or label (GET /v1/models lists them)`, 'invalid_request_error', 'model_not_found', 'model');
    }
    const key = view.key;
    const name = modelName(view);

    // Chat UIs' own requests: answered here, never typed.
    const side = settings.typeSideRequests === true ? null : recogniseSideRequest(chat.messages);
    if (side) {
      log(`chat bridge: ${side.ui} ${side.kind} request for pane ${key} (${name}) answered without typing [${side.id}]`);
      answerDirectly(res, chat, ident, sideAnswer(side.kind, side.shape, sideContext(view, chat, await port.identify(key).catch(() => null))));
      return;
    }
    // Only a new message from the person is typed.
    const last = chat.messages.at(-1);
    const message = last?.role === 'user' && last.text !== null ? messageToType(last.text) : '';
    if (message === '') {
      log(`chat bridge: typed nothing into pane ${key} (${name}): the last message is ${last?.role === 'user' ? 'empty' : `from the ${last?.role ?? 'nobody'}, not a new message from the person`}`);
      answerDirectly(res, chat, ident, NOTHING_TYPED);
      return;
    }
    const server = await guarded(key, () => port.identify(key));
    const mark: RequestMark = { pane: key, server, body, retryCount: retryCountOf(req), idempotencyKey: headerValue(req, 'idempotency-key') };
    const replay = replays.find(mark, clock.now());
    if (replay) {
      const id = replay.kind === 'live' ? replay.live.id : replay.recorded.id;
      log(`chat bridge: replayed the answer ${id} of pane ${key} (${name}) to a retry (${replay.why}); nothing typed`);
      await answerReplay(res, chat, ident, replay);
      return;
    }
    // A pane whose command still runs is looked at again by the port, which names the command.
    const hold = port.hold(key);
    if (active.has(key) || hold?.phase === 'typing' || hold?.phase === 'answering') {
      throw new HttpError(409, `pane ${key} is already answering another request; wait for it to finish`, 'invalid_request_error', 'pane_busy', 'model', { 'x-should-retry': 'false' });
    }
    await answerTyped(res, { chat, ident, key, message, server, live: replays.start(mark, ident.id) });
  }

  interface Typed {
    readonly chat: ChatRequest;
    readonly ident: CompletionIdentity;
    readonly key: string;
    readonly message: string;
    readonly server: string;
    readonly live: LiveAnswer;
  }

  /** Types the message and answers with the pane's output; the answer is kept for retries and titles. */
  async function answerTyped(res: ServerResponse, typed: Typed): Promise<void> {
    const { chat, ident, key, message, server, live } = typed;
    const userTurns = chat.messages.filter((m) => m.role === 'user').map((m) => m.text ?? '');
    const controller = new AbortController();
    active.set(key, controller);
    const onClose = () => {
      if (!res.writableEnded) controller.abort();
    };
    res.on('close', onClose);
    let wasTyped = false;
    const hooks = {
      onTyped: () => (wasTyped = true),
      onText: (text: string) => live.push(text),
    };
    const remember = (outcome: ConversationOutcome) => {
      if (!wasTyped) return;
      const finishReason = outcome.status === 'finished' ? outcome.finishReason : 'stop';
      const end = outcome.status === 'finished' ? 'finished' : outcome.status === 'aborted' ? 'cut' : 'failed';
      replays.finish(live, { answer: outcome.answer, finishReason, end, at: clock.now() });
      if (outcome.status === 'pane-gone') memory.forget(memoryKey(server, key));
      else memory.record(memoryKey(server, key), { userTurns, typed: message, answer: outcome.answer, finishReason, at: clock.now() });
    };
    const answering = chat.stream
      ? streamAnswer(res, ident, key, message, controller.signal, remember, hooks)
      : wholeAnswer(res, ident, key, message, controller.signal, remember, hooks);
    conversed.add(key);
    inFlight.add(answering);
    try {
      await answering;
    } finally {
      inFlight.delete(answering);
      res.off('close', onClose);
      active.delete(key);
      // Nothing was typed (a refusal, an error before typing): a retry of it must be typed.
      if (!wasTyped) replays.drop(live);
      // Aborted while the client is still there: the bridge was switched off.
      // (An error before the headers is not that: it is answered with its own status.)
      if (!res.writableEnded && !res.destroyed && (res.headersSent || controller.signal.aborted)) {
        if (res.headersSent) res.end();
        else sendJson(res, 503, errorBody('the chat bridge was switched off', 'server_error', 'bridge_stopped'));
      }
    }
  }

  /** A retry: the first request's answer, live while it still streams, marked as a replay. */
  async function answerReplay(res: ServerResponse, chat: ChatRequest, ident: CompletionIdentity, replay: Replay): Promise<void> {
    if (replay.kind === 'recorded') {
      answerDirectly(res, chat, ident, replay.recorded.answer, replay.recorded.finishReason, { [REPLAY_HEADER]: replay.recorded.id });
      return;
    }
    const { live } = replay;
    if (!chat.stream) {
      const recorded = await live.done;
      answerDirectly(res, chat, ident, recorded.answer, recorded.finishReason, { [REPLAY_HEADER]: live.id });
      return;
    }
    res.writeHead(200, { ...streamHeaders(), [REPLAY_HEADER]: live.id });
    res.write(sseEvent(roleChunk(ident)));
    const write = (text: string) => {
      if (text !== '' && !res.writableEnded && !res.destroyed) res.write(sseEvent(contentChunk(ident, text)));
    };
    write(live.soFar);
    const stop = live.follow(write);
    const gone = new Promise<void>((resolve) => res.once('close', () => resolve()));
    const recorded = await Promise.race([live.done, gone.then(() => null)]);
    stop();
    if (recorded === null || res.writableEnded || res.destroyed) return;
    res.write(sseEvent(finishChunk(ident, recorded.finishReason)));
    if (ident.includeUsage) res.write(sseEvent(usageChunk(ident, usageOf('', recorded.answer))));
    res.end(SSE_DONE);
  }

  /** Runs a port call for a request; the port's errors become HTTP errors. */
  async function guarded<T>(key: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw httpErrorOf(error, key);
    }
  }

  function sideContext(view: PaneView | null, chat: ChatRequest, server: string | null = null) {
    return {
      paneName: view === null ? null : modelName(view),
      command: view?.pane.command ?? null,
      cwd: view?.pane.cwd || null,
      recentTyped: view === null ? [] : memory.recent(memoryKey(server, view.key)).map((exchange) => exchange.typed),
      messages: chat.messages,
    };
  }

  /** An answer corral knows without typing, streamed whole or as one JSON completion. */
  function answerDirectly(res: ServerResponse, chat: ChatRequest, ident: CompletionIdentity, text: string, finishReason: 'stop' | 'length' = 'stop', headers: Record<string, string> = {}): void {
    const usage = usageOf('', text);
    if (chat.stream) {
      res.writeHead(200, { ...streamHeaders(), ...headers });
      res.end(wholeStream(ident, text, finishReason, usage));
    } else {
      sendJson(res, 200, completion(ident, text, finishReason, usage), headers);
    }
  }

  async function converse(
    key: string,
    message: string,
    signal: AbortSignal,
    hooks: { onTyped?: () => void; onText?: (text: string) => void } = {},
  ): Promise<ConversationOutcome> {
    return guarded(key, () => port.converse(key, message, { signal, ...hooks }));
  }

  type Hooks = { onTyped: () => void; onText: (text: string) => void };

  async function wholeAnswer(res: ServerResponse, ident: CompletionIdentity, key: string, message: string, signal: AbortSignal, remember: (o: ConversationOutcome) => void, hooks: Hooks): Promise<void> {
    const outcome = await converse(key, message, signal, hooks);
    remember(outcome);
    if (outcome.status === 'aborted') return;
    if (outcome.status !== 'finished') {
      sendJson(res, 502, errorBody(outcome.message, 'server_error', outcome.status === 'pane-gone' ? 'pane_gone' : 'tmux_failed'));
      return;
    }
    sendJson(res, 200, completion(ident, outcome.answer, outcome.finishReason, usageOf(message, outcome.answer)));
  }

  async function streamAnswer(res: ServerResponse, ident: CompletionIdentity, key: string, message: string, signal: AbortSignal, remember: (o: ConversationOutcome) => void, hooks: Hooks): Promise<void> {
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
      const outcome = await converse(key, message, signal, {
        onTyped: () => {
          hooks.onTyped();
          start();
        },
        onText: (text) => {
          hooks.onText(text);
          start();
          write(sseEvent(contentChunk(ident, text)));
        },
      });
      remember(outcome);
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
    matches: (url) => url.pathname === '/v1' || url.pathname.startsWith('/v1/'),
    handleRequest,
    setPaneBridged(key, on) {
      if (on) disabled.delete(key);
      else disabled.add(key);
    },
    isPaneBridged: (key) => !disabled.has(key),
    busyPanes: () => [...new Set([...active.keys(), ...port.holds().map((hold) => hold.paneId)])],
    async close() {
      // The port is shared: only this bridge's answers end, and the panes it held are let go.
      for (const controller of active.values()) controller.abort();
      await Promise.allSettled([...inFlight]);
      for (const key of conversed) port.release(key);
      conversed.clear();
    },
  };
}

/** The answer to a request whose last message is not a new one from the person: never empty. */
export const NOTHING_TYPED = '(nothing was typed: the last message is not a new message from you)';
/** Set on a replayed answer: the completion id of the answer it repeats. */
export const REPLAY_HEADER = 'x-corral-replay-of';

function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text.trim() === '' ? null : text.trim();
}

/** The openai SDK's retry counter (0 on a first attempt, or when absent or not a number). */
function retryCountOf(req: IncomingMessage): number {
  const count = Number(headerValue(req, 'x-stainless-retry-count') ?? '0');
  return Number.isInteger(count) && count > 0 ? count : 0;
}

/** What the pane port throws, as the HTTP error a client gets. */
function httpErrorOf(error: unknown, key: string): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof HostDownError) return new HttpError(503, error.message, 'server_error', 'host_unreachable', 'model', { 'retry-after': String(error.retryAfterS) });
  if (error instanceof UnknownHostError) return new HttpError(404, `The model \`${key}\` does not exist: ${error.message}`, 'invalid_request_error', 'model_not_found', 'model');
  if (error instanceof PaneGoneError) return new HttpError(404, `pane ${key} no longer exists`, 'invalid_request_error', 'model_not_found', 'model');
  if (error instanceof NotAtPromptError) return new HttpError(409, error.message, 'invalid_request_error', 'pane_busy', 'model', { 'x-should-retry': 'false' });
  if (error instanceof PaneBusyError) return new HttpError(409, `${error.message}; wait for it to finish`, 'invalid_request_error', 'pane_busy', 'model', { 'x-should-retry': 'false' });
  return new HttpError(502, `could not reach the pane through tmux: ${(error as Error).message}`, 'server_error', 'tmux_failed');
}

function streamHeaders(): Record<string, string> {
  return {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  };
}
