// Output that moves the cursor up into the screen the command found (`tput cup 0 0`, `\e[5;1H`)
// and writes over old rows, without a clear: its answer is the rows it wrote, and no later answer
// holds the old rows left under the prompt. Real panes on a private tmux server, the openai client.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { TOKEN, startBridge, type BridgeHarness } from '../helpers/bridge-server.js';

let h: BridgeHarness;
let client: OpenAI;

beforeAll(async () => {
  h = await startBridge({ bridgeLongQuietMs: '5000' });
  client = new OpenAI({ baseURL: h.baseURL, apiKey: TOKEN, maxRetries: 0, timeout: 30_000 });
});
afterAll(async () => {
  await h?.close();
});

async function ask(model: string, content: string, stream: boolean): Promise<string> {
  if (!stream) {
    const answer = await client.chat.completions.create({ model, messages: [{ role: 'user', content }] });
    expect(answer.choices[0]?.finish_reason).toBe('stop');
    return answer.choices[0]?.message.content ?? '';
  }
  const chunks = await client.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content }] });
  let text = '';
  for await (const chunk of chunks) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}

const fenced = (...lines: string[]) => `\`\`\`\n${lines.map((line) => `${line}\n`).join('')}\`\`\`\n`;

describe('a cursor moved up without a clear', () => {
  for (const stream of [true, false]) {
    it(`answers with the rows written up there, and later answers hold no old rows (${stream ? 'streamed' : 'whole'})`, async () => {
      const pane = await h.shell();
      expect(await ask(pane, 'seq 1 20', stream)).toBe(fenced(...Array.from({ length: 20 }, (_, i) => String(i + 1))));
      // `X` lands on the first row, over `$ seq 1 20`: the terminal shows the rest of that row.
      expect(await ask(pane, 'tput cup 0 0; echo X', stream)).toBe(fenced('X seq 1 20'));
      expect(await ask(pane, 'echo after', stream)).toBe(fenced('after'));
      expect(await ask(pane, 'echo after', stream)).toBe(fenced('after'));
      expect(await ask(pane, "printf '\\e[5;1H'; echo jumped", stream)).toBe(fenced('jumped'));
      expect(await ask(pane, 'echo later', stream)).toBe(fenced('later'));
      expect(await ask(pane, 'clear; echo clean', stream)).toBe(fenced('clean'));
    });
  }
});
