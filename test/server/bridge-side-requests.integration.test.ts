// Only a person's new message is typed: chat UIs' side requests (recorded fixtures), retries and
// requests whose last message is not the person's are answered without touching the pane. Real
// panes on a private tmux server and the official openai client.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { TOKEN, startBridge, type BridgeHarness } from '../helpers/bridge-server.js';
import { sideRequestFixtures } from '../helpers/side-request-fixtures.js';
import { SIDE_PROMPTS } from '../../src/server/bridge/side-requests.js';
import { NOTHING_TYPED } from '../../src/server/bridge/index.js';

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

let h: BridgeHarness;
let client: OpenAI;
const logged: string[] = [];

beforeAll(async () => {
  h = await startBridge({}, { log: (line) => logged.push(line) });
  client = new OpenAI({ baseURL: h.baseURL, apiKey: TOKEN, maxRetries: 0, timeout: 20_000 });
});
afterAll(async () => {
  await h?.close();
});

const fenced = (...lines: string[]) => `\`\`\`\n${lines.map((line) => `${line}\n`).join('')}\`\`\`\n`;

async function answer(model: string, messages: Message[], stream = false): Promise<string> {
  if (!stream) return (await client.chat.completions.create({ model, messages })).choices[0]?.message.content ?? '';
  let text = '';
  for await (const chunk of await client.chat.completions.create({ model, messages, stream: true })) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}

/** The commands the shell has run: its `$ ...` lines. */
async function commandLines(pane: string): Promise<string[]> {
  return (await h.tmux.capture(pane)).split('\n').filter((line) => line.startsWith('$ '));
}

const hello: Message[] = [{ role: 'user', content: 'echo hello' }];

describe('side requests of chat UIs', () => {
  const fixtures = sideRequestFixtures();

  it('answers every recorded side request without typing, and the next real message in the conversation is typed', async () => {
    const pane = await h.shell();
    expect(await answer(pane, hello)).toBe(fenced('hello'));
    const before = await commandLines(pane);
    expect(before).toEqual(['$ echo hello']);
    const target = (await h.tmux.tmux('display-message', '-p', '-t', pane, '#{session_name}:#{window_index}.#{pane_index}')).trim();

    for (const fixture of fixtures) {
      const prompt = SIDE_PROMPTS.find((p) => p.id === fixture.id)!;
      const text = await answer(pane, fixture.request.messages, fixture.request.stream);
      expect(await commandLines(pane), fixture.id).toEqual(before);
      const title = `tmux ${target} — echo hello`;
      switch (prompt.shape) {
        case 'text':
          if (prompt.kind === 'title') expect(text, fixture.id).toBe(title);
          else expect(text, fixture.id).toContain('`echo hello`');
          break;
        case 'json-title':
          expect(JSON.parse(text), fixture.id).toEqual({ title });
          break;
        case 'json-language-title':
          expect(JSON.parse(text), fixture.id).toEqual({ language: 'English', title });
          break;
        case 'json-tags':
          expect(JSON.parse(text), fixture.id).toEqual({ tags: ['Technology', 'tmux', 'bash'] });
          break;
        case 'json-follow-ups':
          expect(JSON.parse(text), fixture.id).toEqual({ follow_ups: [] });
          break;
        case 'json-text':
          expect(JSON.parse(text), fixture.id).toEqual({ text: '' });
          break;
        case 'json-queries':
          expect(JSON.parse(text), fixture.id).toEqual({ queries: [] });
          break;
      }
      expect(logged.at(-1), fixture.id).toContain(`[${fixture.id}]`);
    }

    const followUp: Message[] = [...hello, { role: 'assistant', content: fenced('hello') }, { role: 'user', content: 'echo follow-up' }];
    expect(await answer(pane, followUp, true)).toBe(fenced('follow-up'));
    expect(await commandLines(pane)).toEqual(['$ echo hello', '$ echo follow-up']);
  });

  it('types a side request like any message when recognition is switched off', async () => {
    const typing = await startBridge({ bridgeTypeSideRequests: 'true' });
    try {
      const pane = await typing.shell();
      const other = new OpenAI({ baseURL: typing.baseURL, apiKey: TOKEN, maxRetries: 0, timeout: 20_000 });
      const nextchat = fixtures.find((f) => f.id === 'nextchat/title')!;
      const text = (await other.chat.completions.create({ model: pane, messages: nextchat.request.messages })).choices[0]?.message.content;
      expect(text).toContain('Please: command not found');
    } finally {
      await typing.close();
    }
  });
});

describe('only a new message from the person is typed', () => {
  it('types the same conversation sent again: a repeated command runs again', async () => {
    const pane = await h.shell();
    const conversation: Message[] = [{ role: 'user', content: 'echo once' }];
    expect(await answer(pane, conversation, true)).toBe(fenced('once'));
    expect(await answer(pane, conversation)).toBe(fenced('once'));
    expect(await commandLines(pane)).toEqual(['$ echo once', '$ echo once']);
    expect(logged.some((line) => line.includes('replayed'))).toBe(false);
    // The same words as a new turn of the conversation run again too.
    const again: Message[] = [...conversation, { role: 'assistant', content: fenced('once') }, { role: 'user', content: 'echo once' }];
    expect(await answer(pane, again)).toBe(fenced('once'));
    expect(await commandLines(pane)).toEqual(['$ echo once', '$ echo once', '$ echo once']);
  });

  it('types nothing when the last message is not the person\'s', async () => {
    const pane = await h.shell();
    expect(await answer(pane, [{ role: 'user', content: 'echo first' }])).toBe(fenced('first'));
    const history: Message[] = [
      { role: 'user', content: 'echo first' },
      { role: 'assistant', content: fenced('first') },
    ];
    expect(await answer(pane, history)).toBe(NOTHING_TYPED);
    expect(await answer(pane, [...history, { role: 'system', content: 'Condense the conversation above.' }], true)).toBe(NOTHING_TYPED);
    expect(await commandLines(pane)).toEqual(['$ echo first']);
    expect(logged.at(-1)).toMatch(/typed nothing into pane .*the last message is from the system/);
  });
});

describe('the side model', () => {
  it('is listed, never types, and answers titles and summaries', async () => {
    const pane = await h.shell();
    const models = await client.models.list();
    expect(models.data[0]?.id).toBe('corral');
    const nextchat = sideRequestFixtures().find((f) => f.id === 'nextchat/title')!;
    expect(await answer('corral', nextchat.request.messages)).toBe('tmux — echo hello');
    expect(await answer('corral', [{ role: 'user', content: 'ls -la' }, { role: 'user', content: 'Summarize this chat' }])).toBe(
      'A tmux pane, driven through the corral chat bridge. Commands typed, oldest first: `ls -la`.',
    );
    expect(await commandLines(pane)).toEqual([]);
    expect(logged.at(-1)).toMatch(/answered by the corral model/);
  });
});
