// A conversation that goes over ssh: from the chat, ssh into a throwaway sshd on 127.0.0.1, run
// shell commands there, then a Python REPL with block after block, then leave both. Each answer
// is what the terminal showed, and the pane is never left inside an open block (the next command
// would be typed into it). Real tmux on a private socket, the official openai client.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { TOKEN, startBridge, type BridgeHarness } from '../helpers/bridge-server.js';
import { startTestSshd, type TestSshd } from '../helpers/sshd.js';
import { WAITS_FOR_INPUT } from '../../src/engine/conversation/conversation.js';

let h: BridgeHarness;
let sshd: TestSshd;
let client: OpenAI;

beforeAll(async () => {
  // startTestSshd fails loudly when sshd or ssh-keygen is missing.
  sshd = await startTestSshd();
  h = await startBridge({ bridgeLongQuietMs: '5000' });
  client = new OpenAI({ baseURL: h.baseURL, apiKey: TOKEN, maxRetries: 0, timeout: 30_000 });
}, 60_000);
afterAll(async () => {
  await h?.close();
  await sshd?.dispose();
});

type Turn = { role: 'user' | 'assistant'; content: string };

const fenced = (...lines: string[]) => `\`\`\`\n${lines.map((line) => `${line}\n`).join('')}\`\`\`\n`;

/** The line the cursor waits on, as tmux shows it. */
async function cursorLine(pane: string): Promise<string> {
  const [row] = (await h.tmux.tmux('display', '-p', '-t', pane, '#{cursor_y}')).trim().split(' ');
  return ((await h.tmux.capture(pane)).split('\n')[Number(row)] ?? '').trim();
}

describe('a REPL in a shell over ssh, opened from the chat', () => {
  it('answers every block with what the terminal showed and never leaves a block open', { timeout: 120_000 }, async () => {
    const pane = await h.shell();
    const history: Turn[] = [];
    let stream = false;
    /** One turn, its history sent as chat clients do; streamed and whole answers take turns. */
    const turn = async (content: string) => {
      stream = !stream;
      let text = '';
      if (stream) {
        const chunks = await client.chat.completions.create({ model: pane, stream: true, messages: [...history, { role: 'user', content }] });
        for await (const chunk of chunks) text += chunk.choices[0]?.delta.content ?? '';
      } else {
        const answer = await client.chat.completions.create({ model: pane, messages: [...history, { role: 'user', content }] });
        text = answer.choices[0]?.message.content ?? '';
      }
      history.push({ role: 'user', content }, { role: 'assistant', content: text });
      // The prompt of a program the chat started ends the answer as a question: the next message is for it.
      return text.replace(`\n${WAITS_FOR_INPUT}\n`, '');
    };
    // A login shell on the far side, with the machine's own profile and prompt (`user@host:~#`).
    const login = await turn(`ssh -F ${sshd.configFile} ${sshd.alias}`);
    const remote = login.split('\n').at(-3) ?? '';
    expect(remote).toMatch(/[#$]$/);
    expect(await turn('echo over-ssh')).toBe(fenced('over-ssh', remote));
    expect(await turn('printf "%s\\n" one two')).toBe(fenced('one', 'two', remote));
    // A shell inside the remote one: its prompt looks the same.
    expect(await turn('bash')).toBe(fenced(remote));
    expect(await turn('echo nested')).toBe(fenced('nested', remote));
    expect(await turn('python3 -q')).toBe(fenced('>>>'));
    const blocks: [string, string[]][] = [
      ['def a():\n    return 1', []],
      ['for i in range(2):\n    print(i + a())', ['1', '2']],
      ['if a() == 1:\n    print("yes")\nelse:\n    print("no")', ['yes']],
      ['class C:\n    x = 5\n    def twice(self):\n        return 2 * self.x', []],
      ['print(a() + C().twice())', ['11']],
      // Enough output to scroll the screen, in a block.
      ['for i in range(40):\n    print("row", i)', Array.from({ length: 40 }, (_, i) => `row ${i}`)],
      ['def b():\n    return 2', []],
      ['print(b())', ['2']],
    ];
    for (const [block, printed] of blocks) {
      expect(await turn(block), block).toBe(fenced(...printed, '>>>'));
      // Never inside an open block: the REPL waits at its first prompt.
      expect(await cursorLine(pane), block).toBe('>>>');
    }
    expect(await h.tmux.capture(pane)).not.toContain('Error');
    expect(await turn('exit()')).toBe(fenced(remote));
    expect(await turn('echo back-in-shell')).toBe(fenced('back-in-shell', remote));
    // Out of the nested shell (bash says `exit`), then out of ssh, back to the local shell.
    expect(await turn('exit')).toBe(fenced('exit', remote));
    expect(await turn('exit')).toMatch(/^```\nlogout\nConnection to [\d.]+ closed\.\n```\n$/);
    expect(await turn('echo local')).toBe(fenced('local'));
  });
});
