import { describe, expect, it } from 'vitest';
import {
  SSE_DONE,
  completion,
  contentChunk,
  estimateTokens,
  finishChunk,
  identity,
  roleChunk,
  sseEvent,
  usageChunk,
  usageOf,
  wholeStream,
} from '../../../src/server/bridge/sse-chunks.js';

const ident = { id: 'chatcmpl-abc', created: 1700000000, model: '%3', includeUsage: false };

describe('OpenAI chunk formatting', () => {
  it('opens with the assistant role and an empty content', () => {
    expect(roleChunk(ident)).toEqual({
      id: 'chatcmpl-abc',
      object: 'chat.completion.chunk',
      created: 1700000000,
      model: '%3',
      system_fingerprint: null,
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
    });
  });

  it('carries content deltas, then an empty delta with the finish reason', () => {
    expect(contentChunk(ident, 'hi\n').choices).toEqual([{ index: 0, delta: { content: 'hi\n' }, logprobs: null, finish_reason: null }]);
    expect(finishChunk(ident, 'length').choices).toEqual([{ index: 0, delta: {}, logprobs: null, finish_reason: 'length' }]);
  });

  it('adds usage: null to every chunk and a final usage chunk with no choices when usage is asked for', () => {
    const withUsage = { ...ident, includeUsage: true };
    expect(contentChunk(withUsage, 'x')).toHaveProperty('usage', null);
    expect(contentChunk(ident, 'x')).not.toHaveProperty('usage');
    const usage = usageOf('abcd', 'abcdefgh');
    expect(usageChunk(withUsage, usage)).toMatchObject({ id: 'chatcmpl-abc', choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } });
  });

  it('frames events as SSE data lines', () => {
    expect(sseEvent({ a: 1 })).toBe('data: {"a":1}\n\n');
    expect(SSE_DONE).toBe('data: [DONE]\n\n');
  });

  it('writes a whole stream for an answer known in advance', () => {
    const text = wholeStream({ ...ident, includeUsage: true }, 'Pane alpha', 'stop', usageOf('', 'Pane alpha'));
    const events = text.trimEnd().split('\n\n');
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice('data: '.length)) as { id: string; choices: unknown[] });
    expect(chunks.map((c) => c.id)).toEqual(Array(4).fill('chatcmpl-abc'));
    expect(chunks.map((c) => c.choices.length)).toEqual([1, 1, 1, 0]);
  });

  it('builds a chat.completion object with the whole answer', () => {
    expect(completion(ident, 'out', 'stop', usageOf('m', 'out'))).toEqual({
      id: 'chatcmpl-abc',
      object: 'chat.completion',
      created: 1700000000,
      model: '%3',
      system_fingerprint: null,
      choices: [{ index: 0, message: { role: 'assistant', content: 'out', refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  });

  it('makes fresh ids and second-resolution timestamps', () => {
    const a = identity('m', 1_700_000_000_999);
    const b = identity('m', 1_700_000_000_999);
    expect(a.id).toMatch(/^chatcmpl-[\w-]+$/);
    expect(a.id).not.toBe(b.id);
    expect(a.created).toBe(1_700_000_000);
    expect(estimateTokens('12345')).toBe(2);
  });
});
