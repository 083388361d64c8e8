import { describe, expect, it } from 'vitest';
import { HttpError, contentText, isTitlePrompt, messageToType, parseChatRequest } from '../../../src/server/bridge/request.js';

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
  it('takes the last user message, stream flags and usage option', () => {
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
    expect(request).toEqual({ model: '%3', stream: true, includeUsage: true, userText: 'ls\n-la', titleOnly: false });
  });

  it('has no user text when only system messages came', () => {
    expect(parseChatRequest('{"model":"a","messages":[{"role":"system","content":"x"}]}').userText).toBeNull();
  });

  it('rejects bad JSON, a missing model and missing or empty messages with 400', () => {
    expect(errorOf('{nope')).toEqual({ status: 400, code: 'invalid_json' });
    expect(errorOf('[]')).toEqual({ status: 400, code: 'invalid_body' });
    expect(errorOf('{"messages":[{"role":"user","content":"x"}]}')).toEqual({ status: 400, code: 'missing_model' });
    expect(errorOf('{"model":"a"}')).toEqual({ status: 400, code: 'missing_messages' });
    expect(errorOf('{"model":"a","messages":[]}')).toEqual({ status: 400, code: 'missing_messages' });
    expect(errorOf('{"model":"a","messages":["hi"]}')).toEqual({ status: 400, code: 'invalid_messages' });
  });

  it('recognises title prompts from chat front ends', () => {
    expect(isTitlePrompt('Please generate a concise, 5-word-or-less title for the conversation, using its same language')).toBe(true);
    expect(isTitlePrompt('Provide a concise, 5-word-or-less title for the conversation, using title case conventions.')).toBe(true);
    expect(isTitlePrompt('Analyze this conversation and provide: ... 2. A concise title in the detected language of the conversation')).toBe(true);
    expect(isTitlePrompt('git log --oneline | head')).toBe(false);
    expect(isTitlePrompt('rename the title field in the form')).toBe(false);
    const request = parseChatRequest(
      JSON.stringify({ model: 'a', messages: [{ role: 'user', content: 'Please generate a concise, 5-word-or-less title for the conversation' }] }),
    );
    expect(request.titleOnly).toBe(true);
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
