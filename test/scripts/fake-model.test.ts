// The scripted model server of the screen recorder, spoken to by real clients: the official openai
// SDK (chat completions and the Responses API) and plain fetch for the Anthropic Messages and
// Gemini streams, as the agent CLIs speak them.

import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide, sampleOf, startFakeModel, type FakeModel } from '../../scripts/agents/fake-model.mjs';

let model: FakeModel;
beforeAll(async () => {
  model = await startFakeModel({ thinkMs: 300, slowMs: 300 });
});
afterAll(async () => {
  await model.close();
});

/** The data lines of a server-sent event stream, parsed. */
async function events(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

const post = (path: string, body: unknown) =>
  fetch(`${model.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('scripted model', () => {
  it('listens on loopback only', () => {
    expect(model.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers chat completions, streamed, with a tool call for RUNCMD (openai SDK)', async () => {
    const client = new OpenAI({ baseURL: `${model.url}/v1`, apiKey: 'scripted' });
    const tools = [{ type: 'function' as const, function: { name: 'run_shell_command', parameters: { type: 'object', properties: {} } } }];
    const stream = await client.chat.completions.create({ model: 'm', stream: true, tools, messages: [{ role: 'user', content: 'RUNCMD touch /tmp/x' }] });
    let name = '';
    let args = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      for (const call of choice?.delta.tool_calls ?? []) {
        name += call.function?.name ?? '';
        args += call.function?.arguments ?? '';
      }
      finish = choice?.finish_reason ?? finish;
    }
    expect(name).toBe('run_shell_command');
    expect(JSON.parse(args)).toMatchObject({ command: 'touch /tmp/x' });
    expect(finish).toBe('tool_calls');
    const plain = await client.chat.completions.create({ model: 'm', tools, messages: [{ role: 'user', content: 'hello' }] });
    expect(plain.choices[0]?.message.content).toMatch(/scripted model/);
    // Without tools, a request is one of an agent's side questions (a title, a topic).
    const side = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'RUNCMD ls' }] });
    expect(side.choices[0]?.message).toMatchObject({ content: 'OK' });
  });

  it('streams the Responses API with an escalated shell call, as Codex asks for one (openai SDK)', async () => {
    const client = new OpenAI({ baseURL: `${model.url}/v1`, apiKey: 'scripted' });
    const stream = await client.responses.create({
      model: 'm',
      stream: true,
      input: [{ role: 'user', content: 'RUNCMD make deploy' }],
      tools: [{ type: 'function', name: 'exec_command', parameters: { type: 'object', properties: {} }, strict: false }],
    });
    const done = [];
    for await (const event of stream) if (event.type === 'response.completed') done.push(event.response);
    const call = done[0]?.output.find((o) => o.type === 'function_call');
    expect(call).toMatchObject({ name: 'exec_command' });
    expect(JSON.parse((call as { arguments: string }).arguments)).toMatchObject({ cmd: 'make deploy', sandbox_permissions: 'require_escalated' });
  });

  it('streams Anthropic messages: text, then the tool call; and the answer after the tool ran', async () => {
    const tools = [{ name: 'Bash', input_schema: { type: 'object' } }];
    const first = await events(await post('/v1/messages', { model: 'c', stream: true, tools, messages: [{ role: 'user', content: 'RUNCMD ls' }] }));
    expect(first[0]).toMatchObject({ type: 'message_start' });
    expect(first.find((e) => e.type === 'content_block_start' && (e.content_block as { type: string }).type === 'tool_use')).toMatchObject({
      content_block: { name: 'Bash' },
    });
    expect(first.find((e) => e.type === 'message_delta')).toMatchObject({ delta: { stop_reason: 'tool_use' } });
    const after = await events(
      await post('/v1/messages', {
        model: 'c',
        stream: true,
        tools,
        messages: [
          { role: 'user', content: 'RUNCMD ls' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
        ],
      }),
    );
    const text = after.filter((e) => e.type === 'content_block_delta').map((e) => (e.delta as { text?: string }).text ?? '').join('');
    expect(text).toBe('Done: the tool finished. Anything else?');
  });

  it('streams Gemini content as SSE, and answers a JSON-schema side request with JSON', async () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'EDITFILE /tmp/notes.txt' }] }], tools: [{ functionDeclarations: [{ name: 'write_file' }] }] };
    const chunks = await events(await post('/v1beta/models/gemini-x:streamGenerateContent?alt=sse', body));
    const parts = chunks.flatMap((c) => ((c.candidates as { content: { parts: Record<string, unknown>[] } }[])[0]?.content.parts ?? []));
    expect(parts.find((p) => p.functionCall)).toMatchObject({ functionCall: { name: 'write_file', args: { file_path: '/tmp/notes.txt' } } });
    const side = await post('/v1beta/models/gemini-x:generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'route me' }] }],
      generationConfig: { responseJsonSchema: { type: 'OBJECT', properties: { score: { type: 'INTEGER' }, why: { type: 'STRING' } } } },
    });
    const json = (await side.json()) as { candidates: { content: { parts: { text: string }[] } }[] };
    expect(JSON.parse(json.candidates[0]!.content.parts[0]!.text)).toEqual({ score: 10, why: 'scripted' });
  });

  it('holds a STALL stream open until the client leaves, and close() ends it', async () => {
    const controller = new AbortController();
    const response = await fetch(`${model.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true, tools: [{ type: 'function', function: { name: 'x' } }], messages: [{ role: 'user', content: 'STALL' }] }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let seen = '';
    // The last piece the model sends before it stalls.
    while (!seen.includes('"First, "')) seen += new TextDecoder().decode((await reader.read()).value);
    // A time, not an event: that the stream stays silent (no next piece for half a second) is what is checked.
    const next = Promise.race([reader.read().then(() => 'data'), new Promise((r) => setTimeout(() => r('quiet'), 500))]);
    expect(await next).toBe('quiet');
    controller.abort();
  });

  it('answers bad input with a status and a JSON error', async () => {
    const bad = await fetch(`${model.url}/v1/messages`, { method: 'POST', body: '{not json' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    expect((await fetch(`${model.url}/nowhere`, { method: 'POST', body: '{}' })).status).toBe(404);
  });
});

describe('scripted failures and long turns', () => {
  it('answers FAILRATE with 429 and FAILSERVER with 500, in each API\'s own error shape (openai SDK, fetch)', async () => {
    const client = new OpenAI({ baseURL: `${model.url}/v1`, apiKey: 'scripted', maxRetries: 0 });
    const tools = [{ type: 'function' as const, function: { name: 'bash', parameters: { type: 'object', properties: {} } } }];
    const rate = await client.chat.completions.create({ model: 'm', tools, messages: [{ role: 'user', content: 'FAILRATE' }] }).catch((e: unknown) => e);
    expect(rate).toBeInstanceOf(OpenAI.RateLimitError);
    const server = await client.chat.completions.create({ model: 'm', tools, messages: [{ role: 'user', content: 'FAILSERVER' }] }).catch((e: unknown) => e);
    expect(server).toBeInstanceOf(OpenAI.InternalServerError);
    const anthropic = await post('/v1/messages', { model: 'm', tools: [{ name: 'Bash' }], messages: [{ role: 'user', content: 'FAILRATE' }] });
    expect(anthropic.status).toBe(429);
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    const gemini = await post('/v1beta/models/g:streamGenerateContent', { contents: [{ role: 'user', parts: [{ text: 'FAILSERVER' }] }], tools: [{ functionDeclarations: [{ name: 'run_shell_command' }] }] });
    expect(gemini.status).toBe(500);
    expect(await gemini.json()).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
  });

  it('asks for the second command of RUNTWICE after the first one ran, then ends the turn', () => {
    const turn = (afterTool: boolean, callsSinceUser: number) => ({ api: 'x', model: 'm', tools: ['bash'], system: '', lastUser: 'RUNTWICE touch a ;; touch b', afterTool, schema: null, callsSinceUser });
    expect(decide(turn(false, 0)).call).toMatchObject({ name: 'bash', args: { command: 'touch a' } });
    expect(decide(turn(true, 1)).call).toMatchObject({ name: 'bash', args: { command: 'touch b' } });
    expect(decide(turn(true, 2)).text).toMatch(/Done: the tool finished/);
  });

  it('counts the calls since the user spoke, in the Anthropic and chat shapes', async () => {
    const seen: number[] = [];
    const counting = await startFakeModel({ onRequest: (e) => seen.push(e.turn?.callsSinceUser ?? -1) });
    try {
      const call = { type: 'tool_use', id: 't1', name: 'Bash', input: {} };
      await fetch(`${counting.url}/v1/messages`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', tools: [{ name: 'Bash' }], messages: [{ role: 'user', content: 'RUNTWICE a ;; b' }, { role: 'assistant', content: [call] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] }] }),
      }).then((r) => r.text());
      await fetch(`${counting.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', tools: [{ type: 'function', function: { name: 'bash' } }], messages: [{ role: 'user', content: 'RUNTWICE a ;; b' }, { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'bash', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c', content: 'ok' }] }),
      }).then((r) => r.text());
    } finally {
      await counting.close();
    }
    expect(seen).toEqual([1, 1]);
  });

  it('writes a long answer, and a long answer before a command for LONGRUN', () => {
    const turn = (lastUser: string) => ({ api: 'x', model: 'm', tools: ['bash'], system: '', lastUser, afterTool: false, schema: null });
    expect(decide(turn('LONGANSWER')).text!.split('\n').length).toBeGreaterThan(50);
    const run = decide(turn('LONGRUN touch c'));
    expect(run.text).toMatch(/^# Release checklist/);
    expect(run.call).toMatchObject({ args: { command: 'touch c' } });
  });
});

describe('decide', () => {
  const turn = (lastUser: string, tools: string[], extra = {}) => ({ api: 'x', model: 'm', tools, system: '', lastUser, afterTool: false, schema: null, ...extra });

  it('picks the tool the request offers, by what the keyword asks for', () => {
    expect(decide(turn('EDITFILE /a.txt', ['Read', 'Write'])).call).toMatchObject({ name: 'Write', args: { file_path: '/a.txt' } });
    expect(decide(turn('ASKBACK', ['ask_user'])).call?.name).toBe('ask_user');
    expect(decide(turn('ASKBACK', ['read_file'])).text).toMatch(/\?$/);
  });

  it('takes the last keyword of a message (an agent may keep an interrupted draft)', () => {
    expect(decide(turn('THINKLONGSTALL', ['x'])).stall).toBe(true);
  });

  it('loads a deferred tool with a tool search first, then calls it', () => {
    const first = decide(turn('PLANNOW', ['ToolSearch', 'Bash'], { deferred: ['ExitPlanMode'] }));
    expect(first.call).toEqual({ name: 'ToolSearch', args: { query: 'select:ExitPlanMode', max_results: 1 } });
    const second = decide(turn('PLANNOW', ['ToolSearch', 'Bash', 'ExitPlanMode'], { afterTool: true, lastCall: 'ToolSearch', deferred: ['ExitPlanMode'] }));
    expect(second.call?.name).toBe('ExitPlanMode');
  });

  it('makes the smallest value that fits a schema', () => {
    expect(sampleOf({ type: 'object', properties: { a: { enum: ['x', 'y'] }, b: { type: 'array', items: { type: 'string' }, minItems: 1 }, c: { type: 'boolean' } } })).toEqual({
      a: 'x',
      b: ['scripted'],
      c: false,
    });
  });
});

describe('waiting on a command that still runs', () => {
  it("asks Codex's write_stdin to wait for a command past its yield time, then ends the turn", () => {
    const turn = (lastResult: string) => ({ api: 'responses', model: 'm', tools: ['exec_command', 'write_stdin'], system: '', lastUser: 'RUNCMD make', afterTool: true, schema: null, lastResult });
    expect(decide(turn('Chunk ID: 1\nProcess running with session ID 42\nOutput:\nstep 9')).call).toEqual({ name: 'write_stdin', args: { session_id: 42, chars: '', yield_time_ms: 30_000 } });
    expect(decide(turn('Process exited with code 0\nOutput:\nstep 60')).text).toMatch(/Done: the tool finished/);
  });
});
