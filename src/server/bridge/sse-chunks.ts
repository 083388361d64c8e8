// OpenAI chat-completion wire formats as plain functions: the streamed chunks (server-sent
// events) and the one-shot `chat.completion` object. Every chunk of one answer carries the same
// id, created and model, as the OpenAI API does.

import { randomBytes } from 'node:crypto';

export interface CompletionIdentity {
  readonly id: string;
  /** Epoch seconds. */
  readonly created: number;
  readonly model: string;
  /** Whether the client asked for usage (stream_options.include_usage). */
  readonly includeUsage: boolean;
}

export interface Usage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

export type FinishReason = 'stop' | 'length';

export function newCompletionId(): string {
  return `chatcmpl-${randomBytes(12).toString('base64url')}`;
}

export function identity(model: string, nowMs: number, includeUsage = false): CompletionIdentity {
  return { id: newCompletionId(), created: Math.floor(nowMs / 1000), model, includeUsage };
}

/** Panes have no tokenizer: four characters to a token, as a rough and documented estimate. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function usageOf(prompt: string, answer: string): Usage {
  const prompt_tokens = estimateTokens(prompt);
  const completion_tokens = estimateTokens(answer);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

interface Delta {
  readonly role?: 'assistant';
  readonly content?: string;
}

/** The fields every chunk of one completion repeats. */
function chunkHead(ident: CompletionIdentity) {
  return {
    id: ident.id,
    object: 'chat.completion.chunk' as const,
    created: ident.created,
    model: ident.model,
    system_fingerprint: null,
  };
}

function chunk(ident: CompletionIdentity, delta: Delta, finishReason: FinishReason | null) {
  return {
    ...chunkHead(ident),
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(ident.includeUsage ? { usage: null } : {}),
  };
}

export function roleChunk(ident: CompletionIdentity) {
  return chunk(ident, { role: 'assistant', content: '' }, null);
}

export function contentChunk(ident: CompletionIdentity, content: string) {
  return chunk(ident, { content }, null);
}

export function finishChunk(ident: CompletionIdentity, reason: FinishReason) {
  return chunk(ident, {}, reason);
}

/** The extra last chunk sent when stream_options.include_usage is set. */
export function usageChunk(ident: CompletionIdentity, usage: Usage) {
  return {
    ...chunkHead(ident),
    choices: [],
    usage,
  };
}

export function completion(ident: CompletionIdentity, content: string, reason: FinishReason, usage: Usage) {
  return {
    id: ident.id,
    object: 'chat.completion' as const,
    created: ident.created,
    model: ident.model,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: { role: 'assistant' as const, content, refusal: null },
        logprobs: null,
        finish_reason: reason,
      },
    ],
    usage,
  };
}

/** One server-sent event carrying JSON. */
export function sseEvent(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

export const SSE_DONE = 'data: [DONE]\n\n';
export const SSE_KEEPALIVE = ': keepalive\n\n';

/** The whole stream for an answer known in advance (titles, empty requests). */
export function wholeStream(ident: CompletionIdentity, content: string, reason: FinishReason, usage: Usage): string {
  let out = sseEvent(roleChunk(ident));
  if (content !== '') out += sseEvent(contentChunk(ident, content));
  out += sseEvent(finishChunk(ident, reason));
  if (ident.includeUsage) out += sseEvent(usageChunk(ident, usage));
  return out + SSE_DONE;
}
