import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/server/http-body.js';
import { contentText, messageToType, parseChatRequest } from '../../../src/server/bridge/request.js';

function errorOf(body: string): { status: number; code: string | null } {
  try {
    parseChatRequest(body);
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, code: error.code };
    throw error;
  }
  throw new Error('expected an error');
}

describe('parseChatRequest', () => {
  it('keeps every message with its role and text, the stream flags and usage option', () => {
    const request = parseChatRequest(
      JSON.stringify({
        model: '%3',
        stream: true,
        stream_options: { include_usage: true },
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'ok' },
          { role: 'user', content: [{ type: 'text', text: 'ls' }, { type: 'image_url', image_url: { url: 'x' } }, { type: 'text', text: '-la' }] },
        ],
      }),
    );
    expect(request).toEqual({
      model: '%3',
      stream: true,
      includeUsage: true,
      messages: [
        { role: 'system', text: 'be brief' },
        { role: 'user', text: 'first' },
        { role: 'assistant', text: 'ok' },
        { role: 'user', text: 'ls\n-la' },
      ],
      maxTokens: null,
    });
  });

  it('reads max_tokens, or max_completion_tokens first, and refuses one that is not a positive whole number', () => {
    const body = (extra: string) => `{"model":"a","messages":[{"role":"user","content":"x"}]${extra}}`;
    expect(parseChatRequest(body(',"max_tokens":20')).maxTokens).toBe(20);
    expect(parseChatRequest(body(',"max_tokens":20,"max_completion_tokens":7')).maxTokens).toBe(7);
    expect(errorOf(body(',"max_tokens":1.5'))).toEqual({ status: 400, code: 'invalid_max_tokens' });
    expect(errorOf(body(',"max_completion_tokens":"9"'))).toEqual({ status: 400, code: 'invalid_max_tokens' });
  });

  it('has no text for a message without text parts', () => {
    expect(parseChatRequest('{"model":"a","messages":[{"role":"user","content":[{"type":"image_url"}]}]}').messages).toEqual([{ role: 'user', text: null }]);
  });

  it('rejects bad JSON, a missing model and missing or empty messages with 400', () => {
    expect(errorOf('{nope')).toEqual({ status: 400, code: 'invalid_json' });
    expect(errorOf('[]')).toEqual({ status: 400, code: 'invalid_body' });
    expect(errorOf('{"messages":[{"role":"user","content":"x"}]}')).toEqual({ status: 400, code: 'missing_model' });
    expect(errorOf('{"model":"a"}')).toEqual({ status: 400, code: 'missing_messages' });
    expect(errorOf('{"model":"a","messages":[]}')).toEqual({ status: 400, code: 'missing_messages' });
    expect(errorOf('{"model":"a","messages":["hi"]}')).toEqual({ status: 400, code: 'invalid_messages' });
  });
});

describe('contentText and messageToType', () => {
  it('reads strings and text parts only', () => {
    expect(contentText('x')).toBe('x');
    expect(contentText([{ type: 'image_url' }])).toBeNull();
    expect(contentText(42)).toBeNull();
  });

  it('normalises line endings and removes control bytes and trailing newlines', () => {
    expect(messageToType('a\r\nb\u001b[31m\u0003\n\n')).toBe('a\nb[31m');
  });
});
