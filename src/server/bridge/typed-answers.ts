// The answer to a typed message, written as the pane's output comes: streamed as SSE chunks (with
// keepalive comments while the pane is quiet) or sent as one completion once the answer ends.

import type { ServerResponse } from 'node:http';
import type { ConversationOutcome } from '../../engine/port/pane-port-api.js';
import type { Clock, Timers } from '../../engine/types.js';
import { errorBody, sendJson } from '../http-server.js';
import { streamHeaders } from './known-answers.js';
import {
  SSE_DONE,
  SSE_KEEPALIVE,
  completion,
  contentChunk,
  finishChunk,
  roleChunk,
  sseEvent,
  usageChunk,
  usageOf,
  type CompletionIdentity,
} from './sse-chunks.js';

export interface AnswerHooks {
  onTyped(): void;
  onText(text: string): void;
}

export interface TypedAnswer {
  readonly res: ServerResponse;
  readonly ident: CompletionIdentity;
  readonly message: string;
  /** Types the message and follows the answer, telling the hooks as it goes. */
  readonly converse: (hooks: AnswerHooks) => Promise<ConversationOutcome>;
  /** Hears the outcome before anything of it is written. */
  readonly remember: (outcome: ConversationOutcome) => void;
  readonly hooks: AnswerHooks;
  /** The client's `max_tokens`: the answer stops there (null: no limit). */
  readonly maxTokens: number | null;
  /** Stops following the answer (the pane keeps what it prints next for its next answer). */
  readonly cut: () => void;
}

/**
 * The client's `max_tokens`, counted as the usage is (four characters a token): the text past it
 * is not sent, and the answer ends with finish_reason `length`.
 */
class TokenBudget {
  private given = '';
  private full = false;

  constructor(private readonly maxChars: number | null) {}

  /** The part of `text` within the budget. */
  take(text: string): string {
    if (this.maxChars === null) return text;
    if (this.full) return '';
    const room = this.maxChars - this.given.length;
    // Text past the budget: what fits goes, and the answer is full.
    if (text.length > room) this.full = true;
    const piece = this.full ? text.slice(0, room) : text;
    this.given += piece;
    return piece;
  }

  get reached(): boolean {
    return this.full;
  }

  /** The outcome as the client sees it: cut at the budget, `length`. */
  outcome(outcome: ConversationOutcome): ConversationOutcome {
    if (!this.full) return outcome;
    return { status: 'finished', finishReason: 'length', answer: this.given };
  }
}

function budgetOf(maxTokens: number | null): TokenBudget {
  return new TokenBudget(maxTokens === null ? null : maxTokens * 4);
}

export interface StreamPacing {
  readonly clock: Clock;
  readonly timers: Timers;
  /** Interval of `: keepalive` comments while the stream waits for output. */
  readonly keepaliveMs: number;
}

type Failure = Extract<ConversationOutcome, { status: 'pane-gone' | 'failed' }>;

function failureBody(outcome: Failure) {
  return errorBody(outcome.message, 'server_error', outcome.status === 'pane-gone' ? 'pane_gone' : 'tmux_failed');
}

/** The whole answer as one completion, once the program is back at its prompt. */
export async function wholeAnswer({ res, ident, message, converse, remember, hooks, maxTokens, cut }: TypedAnswer): Promise<void> {
  const budget = budgetOf(maxTokens);
  const outcome = budget.outcome(
    await converse({
      onTyped: hooks.onTyped,
      onText: (text) => {
        const piece = budget.take(text);
        if (piece !== '') hooks.onText(piece);
        if (budget.reached) cut();
      },
    }),
  );
  remember(outcome);
  if (outcome.status === 'aborted') return;
  if (outcome.status !== 'finished') {
    sendJson(res, 502, failureBody(outcome));
    return;
  }
  sendJson(res, 200, completion(ident, outcome.answer, outcome.finishReason, usageOf(message, outcome.answer)));
}

/** The answer as SSE chunks while it comes; the headers go out once the message is typed. */
export async function streamAnswer(typed: TypedAnswer, pacing: StreamPacing): Promise<void> {
  const { res, ident, message, hooks } = typed;
  const stream = new AnswerStream(res, ident, pacing.clock);
  const stopKeepalive = keepAlive(stream, pacing);
  const budget = budgetOf(typed.maxTokens);
  try {
    // Headers go out once the message is typed: errors before that get a real status code.
    const outcome = budget.outcome(
      await typed.converse({
        onTyped: () => {
          hooks.onTyped();
          stream.start();
        },
        onText: (text) => {
          const piece = budget.take(text);
          if (piece !== '') {
            hooks.onText(piece);
            stream.start();
            stream.write(sseEvent(contentChunk(ident, piece)));
          }
          if (budget.reached) typed.cut();
        },
      }),
    );
    typed.remember(outcome);
    if (outcome.status === 'aborted') return;
    stream.start();
    if (outcome.status === 'finished') {
      stream.write(sseEvent(finishChunk(ident, outcome.finishReason)));
      if (ident.includeUsage) stream.write(sseEvent(usageChunk(ident, usageOf(message, outcome.answer))));
      stream.write(SSE_DONE);
    } else {
      stream.write(sseEvent(failureBody(outcome)));
    }
    res.end();
  } finally {
    stopKeepalive();
  }
}

/** One streamed answer's response: its headers and role chunk once, then events while it is open. */
class AnswerStream {
  private started = false;
  private lastWrite: number;

  constructor(
    private readonly res: ServerResponse,
    private readonly ident: CompletionIdentity,
    private readonly clock: Clock,
  ) {
    this.lastWrite = clock.now();
  }

  get isStarted(): boolean {
    return this.started;
  }

  /** How long nothing was written. */
  quietMs(): number {
    return this.clock.now() - this.lastWrite;
  }

  write(text: string): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    this.res.write(text);
    this.lastWrite = this.clock.now();
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.res.writeHead(200, streamHeaders());
    this.res.flushHeaders();
    this.write(sseEvent(roleChunk(this.ident)));
  }
}

/** Writes a keepalive comment whenever the started stream was quiet for a period; returns the stop. */
function keepAlive(stream: AnswerStream, { timers, keepaliveMs }: StreamPacing): () => void {
  let keepalive: unknown = null;
  const schedule = () => {
    keepalive = timers.setTimeout(() => {
      if (stream.isStarted && stream.quietMs() >= keepaliveMs - 5) stream.write(SSE_KEEPALIVE);
      schedule();
    }, keepaliveMs);
  };
  schedule();
  return () => {
    if (keepalive !== null) timers.clearTimeout(keepalive);
  };
}
