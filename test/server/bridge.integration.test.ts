// The chat bridge end to end: the official openai client against real panes on a private tmux
// server.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import OpenAI, { APIError, AuthenticationError, ConflictError, NotFoundError } from 'openai';
import { TOKEN, startBridge, type BridgeHarness } from '../helpers/bridge-server.js';
import { waitUntil } from '../helpers/wait-until.js';

const SPINNER = fileURLToPath(new URL('../fixtures/programs/spinner.sh', import.meta.url));

let h: BridgeHarness;
let client: OpenAI;

beforeAll(async () => {
  h = await startBridge();
  client = new OpenAI({ baseURL: h.baseURL, apiKey: TOKEN, maxRetries: 0, timeout: 20_000 });
});
afterAll(async () => {
  await h?.close();
});

async function collect(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>): Promise<{ text: string; finish: string | null }> {
  let text = '';
  let finish: string | null = null;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? '';
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  return { text, finish };
}

describe('chat bridge with the openai client', () => {
  it('streams the output of a command typed into a shell pane, without echo or prompt', async () => {
    const pane = await h.shell();
    const stream = await client.chat.completions.create({
      model: pane,
      stream: true,
      messages: [{ role: 'user', content: "printf 'alpha\\nbeta\\n'" }],
    });
    expect(await collect(stream)).toEqual({ text: '```\nalpha\nbeta\n```\n', finish: 'stop' });
    // The command really ran in the pane.
    expect(await h.tmux.capture(pane)).toContain("$ printf 'alpha\\nbeta\\n'\nalpha\nbeta\n$");
  });

  it('resolves finalChatCompletion() of a helper stream', async () => {
    const pane = await h.shell();
    const completion = await client.chat.completions
      .stream({ model: pane, messages: [{ role: 'user', content: 'echo $((6 * 7))' }] })
      .finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe('```\n42\n```\n');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
  });

  it('answers without streaming, addressed by session:window.pane', async () => {
    const pane = await h.shell();
    const target = (await h.tmux.tmux('display-message', '-p', '-t', pane, '#{session_name}:#{window_index}.#{pane_index}')).trim();
    const completion = await client.chat.completions.create({ model: target, messages: [{ role: 'user', content: 'echo plain' }] });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe(target);
    expect(completion.choices[0]?.message).toMatchObject({ role: 'assistant', content: '```\nplain\n```\n' });
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('finds a pane by its opt-in label and lists it under that name', async () => {
    const pane = await h.shell({ title: '@tb-alpha: build box' });
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain('alpha');
    const completion = await client.chat.completions.create({ model: 'alpha', messages: [{ role: 'user', content: 'echo labelled' }] });
    expect(completion.choices[0]?.message.content).toBe('```\nlabelled\n```\n');
    expect(await h.tmux.capture(pane)).toContain('labelled');
  });

  it('surfaces errors as the client library\'s error classes', async () => {
    const pane = await h.shell();
    const wrongKey = new OpenAI({ baseURL: h.baseURL, apiKey: 'not-the-token-at-all', maxRetries: 0 });
    await expect(wrongKey.models.list()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(client.chat.completions.create({ model: '%99999', messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(NotFoundError);

    const first = client.chat.completions.create({
      model: pane,
      messages: [{ role: 'user', content: 'for i in 1 2 3; do sleep 0.4; echo tick$i; done' }],
    });
    await h.tmux.waitForScreen(pane, (screen) => screen.includes('for i in'));
    const second = client.chat.completions.create({ model: pane, messages: [{ role: 'user', content: 'echo second' }] });
    await expect(second).rejects.toBeInstanceOf(ConflictError);
    expect((await first).choices[0]?.message.content).toBe('```\ntick1\ntick2\ntick3\n```\n');
    expect(await h.tmux.capture(pane)).not.toContain('echo second');
  });

  it('streams different panes at the same time', async () => {
    const [a, b] = [await h.shell(), await h.shell()];
    let mostAtOnce = 0;
    const watch = setInterval(() => (mostAtOnce = Math.max(mostAtOnce, h.bridge.busyPanes().length)), 10);
    const [x, y] = await Promise.all([
      client.chat.completions.create({ model: a, messages: [{ role: 'user', content: 'sleep 0.5; echo from-a' }] }),
      client.chat.completions.create({ model: b, messages: [{ role: 'user', content: 'sleep 0.5; echo from-b' }] }),
    ]);
    clearInterval(watch);
    expect([x.choices[0]?.message.content, y.choices[0]?.message.content]).toEqual(['```\nfrom-a\n```\n', '```\nfrom-b\n```\n']);
    expect(mostAtOnce).toBe(2);
  });

  it('streams "done" and no spinner frames for a program that spins for 3 s first', async () => {
    const pane = await h.shell();
    const stream = await client.chat.completions.create({ model: pane, stream: true, messages: [{ role: 'user', content: `bash ${SPINNER}` }] });
    const { text, finish } = await collect(stream);
    expect(text).toBe('```\ndone\n```\n');
    expect(finish).toBe('stop');
  });

  it('stops streaming when the client aborts, watches the pane slowly until its command ends, then stops polling', async () => {
    const pane = await h.shell();
    const controller = new AbortController();
    // The command runs until the test ends it (C-c), so "still running" never depends on speed.
    const stream = await client.chat.completions.create(
      { model: pane, stream: true, messages: [{ role: 'user', content: 'sleep 600' }] },
      { signal: controller.signal },
    );
    // The client library ends an aborted stream quietly (or with an abort error).
    const reading = collect(stream).catch(() => null);
    await h.tmux.waitForScreen(pane, (screen) => screen.includes('$ sleep 600'));
    expect(h.bridge.busyPanes()).toEqual([pane]);
    controller.abort();
    await reading;
    // Reserved, looked at every 500 ms rather than every poll, until the prompt is back: the gaps
    // between the ticker's own tick times say so, however slow the machine runs them.
    const ticker = h.services.bridgeTicker!;
    const before = ticker.tickCount;
    await waitUntil(() => ticker.tickCount - before >= 4, 20_000, 'four captures of the held pane');
    expect(h.bridge.busyPanes()).toEqual([pane]);
    // The first capture after the abort may still be at the answer's pace: it is left out.
    const held = ticker.recentTicks.slice(-(ticker.tickCount - before - 1));
    const gaps = held.slice(1).map((at, i) => at - held[i]!);
    expect(gaps.length).toBeGreaterThanOrEqual(2);
    // A held pane is due a little early rather than a whole tick late: 500 ms less half a poll.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(400);
    await h.tmux.tmux('send-keys', '-t', pane, 'C-c');
    await waitUntil(() => h.bridge.busyPanes().length === 0, 20_000, 'the pane to be free');
    // Nothing left to capture: the ticker captures only watched panes (its timing is unit-tested
    // with injected time).
    expect(ticker.watchedPanes).toEqual([]);
  });

  it('ends the stream with an error event when the pane dies mid-answer', async () => {
    const pane = await h.shell();
    const stream = await client.chat.completions.create({
      model: pane,
      stream: true,
      messages: [{ role: 'user', content: 'for i in 1 2 3 4 5 6; do echo going $i; sleep 0.3; done; kill -9 $$' }],
    });
    let text = '';
    const failure = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(APIError);
    expect((failure as APIError).message).toMatch(/closed while answering/);
    // What it printed before it died, fenced; how much depends on when the last poll fell.
    expect(text).toMatch(/^```\ngoing 1\n(going \d\n)*```\n$/);
  });

  it('answers a title request without typing into the pane', async () => {
    const pane = await h.shell({ title: '@tb-titled: x' });
    const before = await h.tmux.capture(pane);
    const completion = await client.chat.completions.create({
      model: pane,
      messages: [
        { role: 'user', content: 'ls' },
        {
          role: 'user',
          content:
            'Please generate a concise, 5-word-or-less title for the conversation, using its same language, with no punctuation. Apply title case conventions appropriate for the language. Never directly mention the language name or the word "title"',
        },
      ],
    });
    expect(completion.choices[0]?.message.content).toBe('tmux titled — ls');
    const empty = await client.chat.completions.create({ model: pane, stream: true, messages: [{ role: 'system', content: 'hello' }] });
    expect(await collect(empty)).toEqual({ text: '(nothing was typed: the last message is not a new message from you)', finish: 'stop' });
    expect(await h.tmux.capture(pane)).toBe(before);
  });
});
