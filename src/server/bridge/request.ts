// Reading and checking a chat-completion request body: what to type, where, and how to answer.
// Pure: the body itself is read by the servers' shared reader (../http-body.ts).

import { HttpError } from '../http-body.js';
import type { ChatMessage } from './side-requests.js';

export interface ChatRequest {
  readonly model: string;
  readonly stream: boolean;
  readonly includeUsage: boolean;
  /** Every message's role and text, in order. */
  readonly messages: readonly ChatMessage[];
  /** `max_tokens` (or `max_completion_tokens`): the answer is cut there, with finish_reason `length`. */
  readonly maxTokens: number | null;
}

interface RawMessage {
  role?: unknown;
  content?: unknown;
}

export function parseChatRequest(body: string): ChatRequest {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (error) {
    throw new HttpError(400, `request body is not valid JSON: ${(error as Error).message}`, 'invalid_request_error', 'invalid_json');
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new HttpError(400, 'request body must be a JSON object', 'invalid_request_error', 'invalid_body');
  }
  const request = data as Record<string, unknown>;
  if (typeof request.model !== 'string' || request.model === '') {
    throw new HttpError(400, 'you must provide a model (a pane id such as %3, session:window.pane, or a label)', 'invalid_request_error', 'missing_model', 'model');
  }
  const messages = request.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new HttpError(400, "'messages' must be a non-empty array", 'invalid_request_error', 'missing_messages', 'messages');
  }
  for (const message of messages) {
    if (typeof message !== 'object' || message === null || typeof (message as RawMessage).role !== 'string') {
      throw new HttpError(400, "every entry of 'messages' needs a 'role'", 'invalid_request_error', 'invalid_messages', 'messages');
    }
  }
  const list = messages as RawMessage[];
  const maxTokens = request.max_completion_tokens ?? request.max_tokens ?? null;
  if (maxTokens !== null && (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)) {
    const param = request.max_completion_tokens !== undefined ? 'max_completion_tokens' : 'max_tokens';
    throw new HttpError(400, `'${param}' must be a whole number of tokens, at least 1`, 'invalid_request_error', 'invalid_max_tokens', param);
  }
  const streamOptions = request.stream_options as { include_usage?: unknown } | undefined;
  return {
    model: request.model,
    stream: request.stream === true,
    includeUsage: typeof streamOptions === 'object' && streamOptions !== null && streamOptions.include_usage === true,
    messages: list.map((m) => ({ role: m.role as string, text: contentText(m.content) })),
    maxTokens: maxTokens as number | null,
  };
}

/** A message's text: a string, or the text parts of an array (images and the like are ignored). */
export function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const texts = content
      .filter((part): part is { type: string; text: string } => typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text' && typeof (part as { text?: unknown }).text === 'string')
      .map((part) => part.text);
    return texts.length > 0 ? texts.join('\n') : null;
  }
  return null;
}

/** What gets typed: line endings normalised, control bytes removed, trailing newlines dropped. */
export function messageToType(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
      .replace(/\s+$/, '')
  );
}
