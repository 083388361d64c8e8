// The bridge's HTTP surface byte by byte: status codes and exact error bodies, the Host check,
// CORS, and the SSE wire format as the OpenAI API sends it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { TOKEN, auth, raw, startBridge, type BridgeHarness } from '../helpers/bridge-server.js';

let h: BridgeHarness;
let pane: string;

beforeAll(async () => {
  h = await startBridge({ corsOrigins: ['http://chat.example'] });
  pane = await h.shell();
});
afterAll(async () => {
  await h?.close();
});

const json = { ...auth, 'content-type': 'application/json' };
const error = (message: string, code: string, param: string | null = null, type = 'invalid_request_error') => ({ error: { message, type, param, code } });

describe('bridge HTTP errors', () => {
  it('401 without a token or with a wrong one', async () => {
    const missing = await raw(h.port, { path: '/v1/models' });
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expect(JSON.parse(missing.body)).toEqual(
      error('missing API key: send "Authorization: Bearer <token>" (corral serve prints where the token is)', 'missing_api_key'),
    );
    const wrong = await raw(h.port, { path: '/v1/models', headers: { authorization: 'Bearer nope-nope-nope-nope' } });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body)).toEqual(error('incorrect API key provided', 'invalid_api_key'));
  });

  it('403 when the Host header names another host (DNS rebinding)', async () => {
    const res = await raw(h.port, { path: '/v1/models', headers: { ...auth, host: `evil.example:${h.port}` } });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual(error('Host header does not match this server', 'bad_host'));
  });

  it('405 for the wrong method, with Allow', async () => {
    const res = await raw(h.port, { path: '/v1/chat/completions', headers: auth });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(JSON.parse(res.body)).toEqual(error('GET is not allowed here; use POST', 'method_not_allowed'));
    const models = await raw(h.port, { method: 'DELETE', path: '/v1/models', headers: auth });
    expect(models.status).toBe(405);
  });

  it('415 for a body that is not JSON', async () => {
    const res = await raw(h.port, { method: 'POST', path: '/v1/chat/completions', headers: { ...auth, 'content-type': 'text/plain' }, body: 'hi' });
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body)).toEqual(error('send the request body as JSON (Content-Type: application/json)', 'unsupported_media_type'));
  });

  it('answers the last message of a long chat (a history of several MiB), and refuses past 64 MiB saying what to do', async () => {
    const history = Array.from({ length: 6 }, (_, i) => [
      { role: 'user', content: `seq 1 100000 # turn ${i}` },
      { role: 'assistant', content: `\`\`\`\n${'123456\n'.repeat(150_000)}\`\`\`\n` },
    ]).flat();
    const long = JSON.stringify({ model: pane, messages: [...history, { role: 'user', content: 'echo long-chat-ok' }] });
    expect(long.length).toBeGreaterThan(5 * 1024 * 1024);
    const answered = await raw(h.port, { method: 'POST', path: '/v1/chat/completions', headers: json, body: long });
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body).choices[0].message.content).toBe('```\nlong-chat-ok\n```\n');
    const body = JSON.stringify({ model: pane, messages: [{ role: 'user', content: 'x'.repeat(64 * 1024 * 1024) }] });
    const res = await raw(h.port, { method: 'POST', path: '/v1/chat/completions', headers: json, body });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual(
      error('the conversation is larger than 64 MiB, more than the bridge reads: start a new chat (the pane keeps its state; only your last message is ever typed)', 'request_too_large'),
    );
  });

  it('400 for bad JSON and for missing messages', async () => {
    const bad = await raw(h.port, { method: 'POST', path: '/v1/chat/completions', headers: json, body: '{"model":' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json', param: null });
    const none = await raw(h.port, { method: 'POST', path: '/v1/chat/completions', headers: json, body: JSON.stringify({ model: pane, messages: [] }) });
    expect(none.status).toBe(400);
    expect(JSON.parse(none.body)).toEqual(error("'messages' must be a non-empty array", 'missing_messages', 'messages'));
  });

  it('404 for an unknown model and for an unknown path', async () => {
    const res = await raw(h.port, {
      method: 'POST',
      path: '/v1/chat/completions',
      headers: json,
      body: JSON.stringify({ model: 'nobody', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual(
      error('The model `nobody` does not exist: no bridged pane has that id, target or label (GET /v1/models lists them)', 'model_not_found', 'model'),
    );
    expect((await raw(h.port, { path: '/v1/embeddings', headers: auth })).status).toBe(404);
  });

  it('no CORS headers for origins that are not configured; preflight for those that are', async () => {
    const foreign = await raw(h.port, { path: '/v1/models', headers: { ...auth, origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await raw(h.port, { method: 'OPTIONS', path: '/v1/chat/completions', headers: { origin: 'http://chat.example' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://chat.example');
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization, content-type');
    const allowed = await raw(h.port, { path: '/v1/models', headers: { ...auth, origin: 'http://chat.example' } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('http://chat.example');
  });
});

describe('GET /v1/models', () => {
  it('lists the side model and the bridged panes in the OpenAI shape, with their state, and follows the per-pane toggle', async () => {
    const res = await raw(h.port, { path: '/v1/models', headers: auth });
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body) as { object: string; data: { id: string; object: string; created: number; owned_by: string }[] };
    expect(body.object).toBe('list');
    const target = (await h.tmux.tmux('display-message', '-p', '-t', pane, '#{session_name}:#{window_index}.#{pane_index}')).trim();
    expect(body.data[0]).toEqual({
      id: 'corral',
      object: 'model',
      created: expect.any(Number),
      owned_by: 'corral',
      corral: { pane: null, target: null, busy: false, phase: null, command: null, virtual: true },
    });
    expect(body.data).toContainEqual({
      id: target,
      object: 'model',
      created: expect.any(Number),
      owned_by: 'corral',
      corral: { pane, target, busy: false, phase: null, command: 'bash', virtual: false },
    });

    h.bridge.setPaneBridged(pane, false);
    const hidden = JSON.parse((await raw(h.port, { path: '/v1/models', headers: auth })).body) as { data: { id: string }[] };
    expect(hidden.data.map((m) => m.id)).not.toContain(target);
    const refused = await raw(h.port, {
      method: 'POST',
      path: '/v1/chat/completions',
      headers: json,
      body: JSON.stringify({ model: pane, messages: [{ role: 'user', content: 'echo no' }] }),
    });
    expect(refused.status).toBe(404);
    h.bridge.setPaneBridged(pane, true);
  });
});

describe('SSE wire format', () => {
  it('sends chunks exactly as the OpenAI API does', async () => {
    const res = await raw(h.port, {
      method: 'POST',
      path: '/v1/chat/completions',
      headers: json,
      body: JSON.stringify({
        model: pane,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: [{ type: 'text', text: "printf 'one\\ntwo\\n'" }] }],
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const events = res.body.split('\n\n').filter((e) => e !== '' && !e.startsWith(':'));
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => {
      expect(e.startsWith('data: ')).toBe(true);
      return JSON.parse(e.slice(6)) as {
        id: string;
        object: string;
        created: number;
        model: string;
        choices: { index: number; delta: Record<string, unknown>; finish_reason: string | null }[];
        usage?: unknown;
      };
    });
    const first = chunks[0]!;
    expect(first.id).toMatch(/^chatcmpl-/);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ id: first.id, object: 'chat.completion.chunk', created: first.created, model: pane });
    }
    expect(first.choices).toEqual([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]);
    const usage = chunks.at(-1)!;
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number), total_tokens: expect.any(Number) });
    const finish = chunks.at(-2)!;
    expect(finish.choices).toEqual([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]);
    const middle = chunks.slice(1, -2);
    for (const chunk of middle) {
      expect(chunk.usage).toBeNull();
      expect(Object.keys(chunk.choices[0]!.delta)).toEqual(['content']);
      expect(chunk.choices[0]!.finish_reason).toBeNull();
    }
    expect(middle.map((c) => c.choices[0]!.delta.content).join('')).toBe('```\none\ntwo\n```\n');
  });

  it('answers 409 with x-should-retry: false while the pane is busy', async () => {
    const busy = await h.shell();
    const body = (content: string) => JSON.stringify({ model: busy, messages: [{ role: 'user', content }] });
    const first = raw(h.port, { method: 'POST', path: '/v1/chat/completions', headers: json, body: body('for i in 1 2 3; do sleep 0.3; echo $i; done') });
    await h.tmux.waitForScreen(busy, (screen) => screen.includes('for i in'));
    const second = await raw(h.port, { method: 'POST', path: '/v1/chat/completions', headers: json, body: body('echo 2') });
    expect(second.status).toBe(409);
    expect(second.headers['x-should-retry']).toBe('false');
    expect(JSON.parse(second.body).error).toMatchObject({ code: 'pane_busy', param: 'model' });
    expect((await first).status).toBe(200);
  });
});

describe('max_tokens', () => {
  it('cuts the answer at max_tokens (four characters a token) with finish_reason length, streamed or not, and the pane goes on', async () => {
    const client = new OpenAI({ baseURL: h.baseURL, apiKey: TOKEN, maxRetries: 0, timeout: 30_000 });
    const own = await h.shell();
    const whole = await client.chat.completions.create({ model: own, max_tokens: 20, messages: [{ role: 'user', content: 'seq 1 3000' }] });
    expect(whole.choices[0]?.finish_reason).toBe('length');
    expect(whole.choices[0]?.message.content).toBe(`\`\`\`\n${Array.from({ length: 40 }, (_, i) => `${i + 1}\n`).join('')}`.slice(0, 80));
    // The rest of a cut answer opens the pane's next answer: the streamed case gets a pane of its own.
    const other = await h.shell();
    const chunks = await client.chat.completions.create({ model: other, stream: true, max_completion_tokens: 5, messages: [{ role: 'user', content: 'echo abcdefghijklmnopqrstuvwxyz' }] });
    let text = '';
    let finish: string | null = null;
    for await (const chunk of chunks) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect({ text, finish }).toEqual({ text: '```\nabcdefghijklmnop'.slice(0, 20), finish: 'length' });
    // The pane is free again once its prompt is back; what was cut opens the next answer.
    let next = '';
    for (let attempt = 0; attempt < 40 && !next.includes('after-cut'); attempt++) {
      const res = await raw(h.port, { method: 'POST', path: '/v1/chat/completions', headers: json, body: JSON.stringify({ model: other, messages: [{ role: 'user', content: 'echo after-cut' }] }) });
      if (res.status === 200) next = JSON.parse(res.body).choices[0].message.content;
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(next).toContain('after-cut');
    expect(next).toContain('qrstuvwxyz');
  });

  it('400 for a max_tokens that is not a positive whole number', async () => {
    const res = await raw(h.port, { method: 'POST', path: '/v1/chat/completions', headers: json, body: JSON.stringify({ model: pane, max_tokens: 0, messages: [{ role: 'user', content: 'true' }] }) });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual(error("'max_tokens' must be a whole number of tokens, at least 1", 'invalid_max_tokens', 'max_tokens'));
  });
});
