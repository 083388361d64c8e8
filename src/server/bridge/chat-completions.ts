// The chat completion route: which pane a request names, what is answered without typing (the
// side model, chat UIs' own requests, a last message that is not a new one, a client's automatic
// retry), and the typing of the person's new message, one answer per pane at a time. The answer is
// kept for retries and for the titles and summaries asked about it later.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConversationOutcome, PanePort } from '../../engine/port/pane-port-api.js';
import type { Clock, PaneView, Timers } from '../../engine/types.js';
import { errorBody, sendJson } from '../http-server.js';
import { HttpError, readBody } from '../http-body.js';
import { checkJsonBody } from './bridge-access.js';
import { NOTHING_TYPED, answerDirectly, answerReplay } from './known-answers.js';
import { PaneMemory, memoryKey } from './memory.js';
import { SIDE_MODEL, modelName, resolveModel } from './models.js';
import { guarded } from './port-errors.js';
import { ReplayDesk, type LiveAnswer, type RequestMark } from './replays.js';
import { messageToType, parseChatRequest, type ChatRequest } from './request.js';
import { sideAnswer } from './side-answers.js';
import { guessSideKind, recogniseSideRequest, type ChatMessage, type SidePrompt } from './side-requests.js';
import { identity, type CompletionIdentity } from './sse-chunks.js';
import { streamAnswer, wholeAnswer, type TypedAnswer } from './typed-answers.js';

export interface ChatCompletionsOptions {
  readonly port: PanePort;
  readonly clock: Clock;
  readonly timers: Timers;
  /** Panes withdrawn as models. */
  readonly disabled: ReadonlySet<string>;
  /** Interval of `: keepalive` comments while a stream waits for output. */
  readonly keepaliveMs: number;
  /** Type side requests like any message (their recognition off). */
  readonly typeSideRequests: boolean;
  readonly log: (line: string) => void;
}

/** One request as read: its response, its raw body (a retry repeats it) and its completion's identity. */
interface Asked {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly body: string;
  readonly chat: ChatRequest;
  readonly ident: CompletionIdentity;
}

/** A new message about to be typed into a pane. */
interface Typed {
  readonly asked: Asked;
  readonly key: string;
  readonly message: string;
  readonly server: string;
  readonly live: LiveAnswer;
}

export class ChatCompletions {
  private readonly active = new Map<string, AbortController>();
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Panes this route typed into: their holds are dropped when the bridge is switched off. */
  private readonly conversed = new Set<string>();
  private readonly memory = new PaneMemory();
  private readonly replays = new ReplayDesk();

  constructor(private readonly options: ChatCompletionsOptions) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    checkJsonBody(req);
    const body = await readChatBody(req);
    const chat = parseChatRequest(body);
    const ident = identity(chat.model, this.options.clock.now(), chat.stream && chat.includeUsage);
    const asked: Asked = { req, res, body, chat, ident };
    if (chat.model === SIDE_MODEL) return this.answerSideModel(asked);
    const view = await this.paneNamed(chat.model);
    // Chat UIs' own requests: answered here, never typed.
    const side = this.options.typeSideRequests ? null : recogniseSideRequest(chat.messages);
    if (side) return this.answerSideRequest(asked, view, side);
    // Only a new message from the person is typed.
    const last = chat.messages.at(-1);
    const message = last?.role === 'user' && last.text !== null ? messageToType(last.text) : '';
    if (message === '') return this.answerNothingTyped(asked, view, last);
    await this.answerNewMessage(asked, view, message);
  }

  /** Panes not free for a new message: answering, or their command still runs. */
  busyPanes(): string[] {
    return [...new Set([...this.active.keys(), ...this.options.port.holds().map((hold) => hold.paneId)])];
  }

  /** Ends this route's answers and lets go of the panes it held (the port is shared). */
  async close(): Promise<void> {
    for (const controller of this.active.values()) controller.abort();
    await Promise.allSettled([...this.inFlight]);
    for (const key of this.conversed) this.options.port.release(key);
    this.conversed.clear();
  }

  /** The pane a request's model names; a pane opened since the last poll is looked for once more. */
  private async paneNamed(model: string): Promise<PaneView> {
    const { port, disabled } = this.options;
    let view = resolveModel(port, disabled, model);
    if (!view) {
      await port.pollNow().catch(() => undefined);
      view = resolveModel(port, disabled, model);
    }
    if (!view) {
      throw new HttpError(404, `The model \`${model}\` does not exist: no bridged pane has that id, target or label (GET /v1/models lists them)`, 'invalid_request_error', 'model_not_found', 'model');
    }
    return view;
  }

  /** The side model never types: it answers whatever it is sent as a side request. */
  private answerSideModel({ res, chat, ident }: Asked): void {
    const known = recogniseSideRequest(chat.messages);
    const { kind, shape } = known ?? guessSideKind(chat.messages);
    this.options.log(`chat bridge: ${known ? `${known.ui} ${known.kind} request` : `${kind} request`} answered by the ${SIDE_MODEL} model`);
    // An unknown request's last message is the request itself, not part of the conversation.
    const context = this.sideContext(null, known ? chat : { ...chat, messages: chat.messages.slice(0, -1) });
    answerDirectly(res, chat, ident, sideAnswer(kind, shape, context));
  }

  private async answerSideRequest({ res, chat, ident }: Asked, view: PaneView, side: SidePrompt): Promise<void> {
    this.options.log(`chat bridge: ${side.ui} ${side.kind} request for pane ${view.key} (${modelName(view)}) answered without typing [${side.id}]`);
    const server = await this.options.port.identify(view.key).catch(() => null);
    answerDirectly(res, chat, ident, sideAnswer(side.kind, side.shape, this.sideContext(view, chat, server)));
  }

  private answerNothingTyped({ res, chat, ident }: Asked, view: PaneView, last: ChatMessage | undefined): void {
    const why = last?.role === 'user' ? 'empty' : `from the ${last?.role ?? 'nobody'}, not a new message from the person`;
    this.options.log(`chat bridge: typed nothing into pane ${view.key} (${modelName(view)}): the last message is ${why}`);
    answerDirectly(res, chat, ident, NOTHING_TYPED);
  }

  /** A new message: a client's retry of one being (or just) answered gets that answer; else it is typed. */
  private async answerNewMessage(asked: Asked, view: PaneView, message: string): Promise<void> {
    const { port, clock } = this.options;
    const key = view.key;
    const server = await guarded(key, () => port.identify(key));
    const mark: RequestMark = { pane: key, server, body: asked.body, retryCount: retryCountOf(asked.req), idempotencyKey: headerValue(asked.req, 'idempotency-key') };
    const replay = this.replays.find(mark, clock.now());
    if (replay) {
      const id = replay.kind === 'live' ? replay.live.id : replay.recorded.id;
      this.options.log(`chat bridge: replayed the answer ${id} of pane ${key} (${modelName(view)}) to a retry (${replay.why}); nothing typed`);
      await answerReplay(asked.res, asked.chat, asked.ident, replay);
      return;
    }
    // A pane whose command still runs is looked at again by the port, which names the command.
    const hold = port.hold(key);
    if (hold?.phase === 'question') this.checkSameConversation(asked.chat, key, server);
    if (this.active.has(key) || hold?.phase === 'typing' || hold?.phase === 'answering') {
      throw new HttpError(409, `pane ${key} is already answering another request; wait for it to finish`, 'invalid_request_error', 'pane_busy', 'model', { 'x-should-retry': 'false' });
    }
    await this.answerTyped({ asked, key, message, server, live: this.replays.start(mark, asked.ident.id) });
  }

  /**
   * A question from a command belongs to the conversation it was asked in: a message is its
   * answer only when the request's history holds the answer that asked it. Any other message is
   * refused, nothing typed.
   */
  private checkSameConversation(chat: ChatRequest, key: string, server: string | null): void {
    const asking = this.memory.recent(memoryKey(server, key), 1)[0];
    if (!asking) return;
    const wanted = squeezed(asking.answer);
    if (chat.messages.some((m) => m.role === 'assistant' && m.text !== null && squeezed(m.text) === wanted)) return;
    const question = questionLine(asking.answer);
    throw new HttpError(
      409,
      `pane ${key} waits for the answer to a question asked in another conversation${question ? ` (${JSON.stringify(question)})` : ''}: reply in that conversation to answer it; this message was not typed`,
      'invalid_request_error',
      'pane_busy',
      'model',
      { 'x-should-retry': 'false' },
    );
  }

  /** Types the message and answers with the pane's output; the answer is kept for retries and titles. */
  private async answerTyped(typed: Typed): Promise<void> {
    const { asked, key } = typed;
    const { res } = asked;
    const controller = new AbortController();
    this.active.set(key, controller);
    const onClose = () => {
      if (!res.writableEnded) controller.abort();
    };
    res.on('close', onClose);
    const answer = this.typedAnswer(typed, controller.signal, () => controller.abort());
    const answering = asked.chat.stream ? streamAnswer(answer, this.options) : wholeAnswer(answer);
    this.conversed.add(key);
    this.inFlight.add(answering);
    try {
      await answering;
    } finally {
      this.inFlight.delete(answering);
      res.off('close', onClose);
      this.active.delete(key);
      // Nothing was typed (a refusal, an error before typing): a retry of it must be typed.
      if (!answer.wasTyped()) this.replays.drop(typed.live);
      endCutAnswer(res, controller.signal);
    }
  }

  /** The typed answer's port call and hooks; what came of it is remembered once something was typed. */
  private typedAnswer(typed: Typed, signal: AbortSignal, cut: () => void): TypedAnswer & { wasTyped(): boolean } {
    const { asked, key, message, server, live } = typed;
    const { port, clock } = this.options;
    const userTurns = asked.chat.messages.filter((m) => m.role === 'user').map((m) => m.text ?? '');
    let wasTyped = false;
    const remember = (outcome: ConversationOutcome) => {
      if (!wasTyped) return;
      const finishReason = outcome.status === 'finished' ? outcome.finishReason : 'stop';
      const end = outcome.status === 'finished' ? 'finished' : outcome.status === 'aborted' ? 'cut' : 'failed';
      this.replays.finish(live, { answer: outcome.answer, finishReason, end, at: clock.now() });
      if (outcome.status === 'pane-gone') this.memory.forget(memoryKey(server, key));
      else this.memory.record(memoryKey(server, key), { userTurns, typed: message, answer: outcome.answer, finishReason, at: clock.now() });
    };
    return {
      res: asked.res,
      ident: asked.ident,
      message,
      converse: (hooks) => guarded(key, () => port.converse(key, message, { signal, ...hooks })),
      remember,
      hooks: { onTyped: () => (wasTyped = true), onText: (text: string) => live.push(text) },
      maxTokens: asked.chat.maxTokens,
      cut,
      wasTyped: () => wasTyped,
    };
  }

  private sideContext(view: PaneView | null, chat: ChatRequest, server: string | null = null) {
    return {
      paneName: view === null ? null : modelName(view),
      command: view?.pane.command ?? null,
      cwd: view?.pane.cwd || null,
      recentTyped: view === null ? [] : this.memory.recent(memoryKey(server, view.key)).map((exchange) => exchange.typed),
      messages: chat.messages,
    };
  }
}

/**
 * Ends a response the answer left open because it was aborted while the client is still there:
 * the bridge was switched off. (An error before the headers is not that: it is answered with its
 * own status.)
 */
function endCutAnswer(res: ServerResponse, signal: AbortSignal): void {
  if (res.writableEnded || res.destroyed || !(res.headersSent || signal.aborted)) return;
  if (res.headersSent) res.end();
  else sendJson(res, 503, errorBody('the chat bridge was switched off', 'server_error', 'bridge_stopped'));
}

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

/**
 * A chat client sends the whole conversation every time, and only its last message is typed: a
 * long history is no reason to refuse, up to a bound that keeps a request's memory in check.
 */
export const MAX_CHAT_BODY_BYTES = 64 * 1024 * 1024;

async function readChatBody(req: IncomingMessage): Promise<string> {
  try {
    return await readBody(req, MAX_CHAT_BODY_BYTES);
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 413) throw error;
    throw new HttpError(
      413,
      `the conversation is larger than ${MAX_CHAT_BODY_BYTES / 1024 / 1024} MiB, more than the bridge reads: start a new chat (the pane keeps its state; only your last message is ever typed)`,
      error.type,
      error.code,
    );
  }
}

/** Text compared without its spacing: chat UIs trim and re-wrap what they show and send back. */
function squeezed(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The question an answer ended on: its last line of output (inside the fence). */
function questionLine(answer: string): string | null {
  const lines = answer.split('\n').filter((line) => line.trim() !== '' && !/^`{3,}$/.test(line.trim()));
  return lines.at(-2) ?? null;
}
