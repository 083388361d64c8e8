// When an answer ends, and that nothing is ever typed into a running command: real panes on a
// private tmux server, the official openai client, and the Vercel AI SDK as a second client.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI, { APIError, ConflictError } from 'openai';
import { streamText } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { TOKEN, auth, raw, startBridge, type BridgeHarness } from '../helpers/bridge-server.js';
import { waitUntil } from '../helpers/wait-until.js';
import { SCREEN_WAITS, WAITS_FOR_INPUT } from '../../src/engine/conversation/conversation.js';

let h: BridgeHarness;
let client: OpenAI;

// A 5 s long quiet (60 s by default) keeps the cases with an unrecognised prompt short.
beforeAll(async () => {
  h = await startBridge({ bridgeLongQuietMs: '5000' });
  client = new OpenAI({ baseURL: h.baseURL, apiKey: TOKEN, maxRetries: 0, timeout: 30_000 });
});
afterAll(async () => {
  await h?.close();
});

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

type Turn = { role: 'user' | 'assistant'; content: string };

async function ask(model: string, content: string, history: Turn[] = []): Promise<{ text: string; finish: string | null }> {
  const stream = await client.chat.completions.create({ model, stream: true, messages: [...history, { role: 'user', content }] });
  let text = '';
  let finish: string | null = null;
  for await (const chunk of stream as AsyncIterable<Chunk>) {
    text += chunk.choices[0]?.delta.content ?? '';
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  return { text, finish };
}

const fenced = (...lines: string[]) => `\`\`\`\n${lines.map((line) => `${line}\n`).join('')}\`\`\`\n`;

async function program(command: string, ready: (screen: string) => boolean): Promise<string> {
  const pane = await h.tmux.spawn(command);
  await h.tmux.waitForScreen(pane, ready, 10_000);
  await h.engine.pollNow();
  return pane;
}

const until = (check: () => boolean | Promise<boolean>, timeoutMs = 10_000) => waitUntil(check, timeoutMs, 'condition', 20);

describe('an answer is the whole answer', () => {
  it('waits through a quiet start', async () => {
    const pane = await h.shell();
    expect(await ask(pane, 'sleep 1.5; echo late')).toEqual({ text: fenced('late'), finish: 'stop' });
  });

  it('waits through a 3 s pause in the middle', async () => {
    const pane = await h.shell();
    expect(await ask(pane, 'echo before; sleep 3; echo after')).toEqual({ text: fenced('before', 'after'), finish: 'stop' });
  });

  it('streams one line a second for 4 s, each line as it comes', async () => {
    const pane = await h.shell();
    const stream = await client.chat.completions.create({
      model: pane,
      stream: true,
      messages: [{ role: 'user', content: 'for i in 1 2 3 4; do echo tick $i; sleep 1; done' }],
    });
    let text = '';
    const arrivals: number[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta.content ?? '';
      if (/tick \d/.test(delta)) arrivals.push(Date.now());
      text += delta;
    }
    expect(text).toBe(fenced('tick 1', 'tick 2', 'tick 3', 'tick 4'));
    // Streamed, not gathered at the end: the first tick arrived seconds before the last.
    expect(arrivals).toHaveLength(4);
    expect(arrivals[3]! - arrivals[0]!).toBeGreaterThan(2000);
  });

  it('waits for a program that takes a while to start', async () => {
    const pane = await h.shell();
    const command = `python3 -c 'import time; time.sleep(1.5); print("started")'`;
    expect(await ask(pane, command)).toEqual({ text: fenced('started'), finish: 'stop' });
  });

  it('waits for a sleep in the Python REPL', async () => {
    const pane = await program('python3 -q', (screen) => screen.trimEnd().endsWith('>>>'));
    expect(await ask(pane, 'import time; time.sleep(2); print("after sleep")')).toEqual({ text: fenced('after sleep'), finish: 'stop' });
  });

  it('runs a REPL block, and the next question works', async () => {
    const pane = await program('python3 -q', (screen) => screen.trimEnd().endsWith('>>>'));
    expect(await ask(pane, 'for i in range(3): print(i * 10)')).toEqual({ text: fenced('0', '10', '20'), finish: 'stop' });
    expect(await ask(pane, 'def double(x):\n    return 2 * x')).toEqual({ text: '(no output)\n', finish: 'stop' });
    expect(await ask(pane, 'print(double(21))')).toEqual({ text: fenced('42'), finish: 'stop' });
    expect(await h.tmux.capture(pane)).not.toContain('SyntaxError');
  });

  it('keeps a REPL opened from the chat working block after block, and a nested shell too', async () => {
    const pane = await h.shell();
    const history: Turn[] = [];
    /** One turn of the conversation: its history sent, as chat clients do. */
    const turn = async (content: string) => {
      const answer = await ask(pane, content, history);
      history.push({ role: 'user', content }, { role: 'assistant', content: answer.text });
      // The REPL's prompt is a prompt of the program the chat started: the next message is for it.
      return answer.text.replace(`\n${WAITS_FOR_INPUT}\n`, '');
    };
    expect(await turn('python3 -q')).toBe(fenced('>>>'));
    expect(await turn('def a():\n    return 1')).toBe(fenced('>>>'));
    expect(await turn('def b():\n    return 2')).toBe(fenced('>>>'));
    expect(await turn('for i in range(2):\n    print(i + a())')).toBe(fenced('1', '2', '>>>'));
    expect(await turn('if b() == 2:\n    print("yes")\nelse:\n    print("no")')).toBe(fenced('yes', '>>>'));
    expect(await turn('class C:\n    x = 5')).toBe(fenced('>>>'));
    expect(await turn('print(a() + b() + C.x)')).toBe(fenced('8', '>>>'));
    expect(await h.tmux.capture(pane)).not.toContain('Error');
    expect(await turn('exit()')).toBe('(no output)\n');
    // A nested shell: its commands answer as the outer one's did.
    await turn("bash --norc --noprofile -c 'PS1=\"inner$ \" exec bash --norc --noprofile -i'");
    expect(await turn('echo from-inner')).toContain('from-inner');
    expect(await turn('echo again-inner')).toContain('again-inner');
  });

  it('refuses text while a command the chat started still runs, says C-c ends it, and C-c from the chat does', async () => {
    const pane = await h.shell();
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: pane, stream: true, messages: [{ role: 'user', content: 'echo started; sleep 60; echo never' }] },
      { signal: controller.signal },
    );
    await (async () => {
      for await (const chunk of stream) if ((chunk.choices[0]?.delta.content ?? '').includes('started')) controller.abort();
    })().catch(() => undefined);
    await until(() => h.bridge.busyPanes().includes(pane));
    const refused = await client.chat.completions.create({ model: pane, messages: [{ role: 'user', content: 'ls' }] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as APIError).message).toContain(
      `pane ${pane} is still running the previous command (sleep): its prompt is not back; wait for it to finish, or send C-c (the key name alone as the message) to interrupt it`,
    );
    const interrupted = await ask(pane, 'C-c');
    expect(interrupted.finish).toBe('stop');
    expect(interrupted.text).toContain('started');
    expect(interrupted.text).not.toContain('never');
    expect(h.bridge.busyPanes()).not.toContain(pane);
    expect(await ask(pane, 'echo after-interrupt')).toEqual({ text: fenced('after-interrupt'), finish: 'stop' });
  });

  it('sends a message to a full-screen program the person opened as keys, and answers with its screen', async () => {
    const pane = await h.shell();
    await h.tmux.tmux('send-keys', '-t', pane, '-l', 'less /etc/services');
    await h.tmux.tmux('send-keys', '-t', pane, 'Enter');
    await h.tmux.waitForScreen(pane, (screen) => screen.includes('tcpmux'), 10_000);
    await h.engine.pollNow();
    const end = await ask(pane, 'G');
    expect(end.text).toMatch(/\(END\)/);
    expect(end.text.endsWith(`\n${SCREEN_WAITS}\n`)).toBe(true);
    expect(await ask(pane, 'q', [{ role: 'user', content: 'G' }, { role: 'assistant', content: end.text }])).toEqual({ text: '(no output)\n', finish: 'stop' });
    expect((await h.tmux.tmux('display', '-p', '-t', pane, '#{pane_current_command}')).trim()).toBe('bash');
  });

  it('keeps the first line of top -n 1, and the pane is free after it', async () => {
    const pane = await h.shell();
    const answer = await ask(pane, 'top -n 1');
    expect(answer.finish).toBe('stop');
    expect(answer.text).toMatch(/^```\ntop - \d\d:\d\d:\d\d up /);
    expect(answer.text).toMatch(/\n\s*PID USER /);
    expect(h.bridge.busyPanes()).not.toContain(pane);
  });

  it('does not take output that pauses after a colon for a question; a read that asks with one still is', async () => {
    const pane = await h.shell();
    expect(await ask(pane, "printf 'ok:'; sleep 2; echo done")).toEqual({ text: fenced('ok:done'), finish: 'stop' });
    const asked = await ask(pane, "read -p 'name: ' n; echo \"hi $n\"");
    expect(asked.text).toBe(`${fenced('name:')}\n${WAITS_FOR_INPUT}\n`);
  });

  it('types tabs in a message as tabs', async () => {
    const pane = await h.shell();
    expect(await ask(pane, "printf '%s' 'a\tb' | od -An -c")).toEqual({ text: fenced('   a  \\t   b'), finish: 'stop' });
  });

  it('ends the stream within two polls once the prompt is back and the screen held still', async () => {
    const pane = await h.shell();
    const stream = await client.chat.completions.create({ model: pane, stream: true, messages: [{ role: 'user', content: 'sleep 0.3; date +%s%3N' }] });
    let text = '';
    let endedAt = 0;
    const startedAt = Date.now();
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.choices[0]?.finish_reason) endedAt = Date.now();
    }
    // The shell prompt comes back right after the date: that is when the screen last changed.
    const printedAt = Number(/(\d{13})/.exec(text)?.[1]);
    // A poll is 100 ms, or longer when this machine is too busy to keep up: use the longest gap
    // between the polls that decided this answer.
    const ticks = h.services.bridgeTicker!.recentTicks.filter((t) => t >= startedAt - 200);
    const gaps = ticks.slice(1).map((t, i) => t - ticks[i]!);
    const poll = Math.max(100, ...gaps);
    expect(endedAt - printedAt).toBeGreaterThanOrEqual(800);
    expect(endedAt - printedAt).toBeLessThanOrEqual(800 + 2 * poll + 50);
  });
});

describe('nothing is typed into a running command', () => {
  it('refuses a second message while the first runs (409, x-should-retry: false)', async () => {
    const pane = await h.shell();
    const first = ask(pane, 'sleep 1.5; echo one');
    await h.tmux.waitForScreen(pane, (screen) => screen.includes('$ sleep 1.5; echo one'));
    const second = client.chat.completions.create({ model: pane, messages: [{ role: 'user', content: 'echo two' }] });
    const refusal = await second.then(() => null, (error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConflictError);
    expect((refusal as APIError).headers?.get('x-should-retry')).toBe('false');
    expect(await first).toEqual({ text: fenced('one'), finish: 'stop' });
    expect(await h.tmux.capture(pane)).not.toContain('echo two');
  });

  it('keeps the pane reserved after the client leaves, shows it busy, and hands the rest of the output to the next answer', async () => {
    const pane = await h.shell();
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: pane, stream: true, messages: [{ role: 'user', content: 'echo early; sleep 2; echo finished late' }] },
      { signal: controller.signal },
    );
    const reading = (async () => {
      for await (const chunk of stream) if ((chunk.choices[0]?.delta.content ?? '').includes('early')) controller.abort();
    })().catch(() => undefined);
    await reading;
    const refused = await raw(h.port, {
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: pane, messages: [{ role: 'user', content: 'echo typed ahead' }] }),
    });
    expect(refused.status).toBe(409);
    expect(refused.headers['x-should-retry']).toBe('false');
    expect(JSON.parse(refused.body).error.message).toMatch(/still running the previous command \(sleep\)/);
    const models = (await client.models.list()).data as unknown as { id: string; corral: { pane: string; busy: boolean } }[];
    expect(models.find((m) => m.corral.pane === pane)?.corral.busy).toBe(true);

    await until(async () => !(await client.models.list()).data.some((m) => (m as unknown as { corral: { pane: string; busy: boolean } }).corral.pane === pane && (m as unknown as { corral: { busy: boolean } }).corral.busy));
    const next = await ask(pane, 'echo next');
    // The client left right after "early": that line opens the next answer again, with all that followed.
    expect(next.text).toBe(`Printed after the previous answer was cut off (from its last lines, which may not have reached you):\n${fenced('early', 'finished late')}\n${fenced('next')}`);
    expect(await h.tmux.capture(pane)).not.toContain('typed ahead');
  });

  it('types a message whole when the client leaves between the text and its Enter', async () => {
    // A prompt corral does not know: text and Enter go in with a pause between them.
    const pane = await program(`while IFS= read -r -p 'ask> ' line; do echo "got [$line]"; done`, (screen) => screen.includes('ask>'));
    const controller = new AbortController();
    const request = client.chat.completions
      .create({ model: pane, stream: true, messages: [{ role: 'user', content: 'rm -rf build/x' }] }, { signal: controller.signal })
      .catch(() => null);
    await until(async () => (await h.tmux.capture(pane)).includes('ask> rm -rf build/x'), 5000);
    controller.abort();
    await request;
    await h.tmux.waitForScreen(pane, (screen) => screen.includes('got [rm -rf build/x]'));
    await until(() => h.bridge.busyPanes().length === 0 || !h.bridge.busyPanes().includes(pane), 10_000);
    const next = await ask(pane, 'ls');
    expect(next.text.endsWith(fenced('got [ls]'))).toBe(true);
    expect(await h.tmux.capture(pane)).not.toContain('build/xls');
  });

  it('answers vim with one settled snapshot, then takes keys from the chat (i, text, Esc, :q!) and answers with each new screen', async () => {
    const pane = await h.shell();
    await h.tmux.tmux('send-keys', '-t', pane, '-l', "printf 'first line\\nsecond line\\n' > /tmp/corral-bridge-vim.txt; clear");
    await h.tmux.tmux('send-keys', '-t', pane, 'Enter');
    await h.tmux.waitForScreen(pane, (screen) => screen.trim() === '$');
    const history: Turn[] = [];
    const turn = async (content: string) => {
      const answer = await ask(pane, content, history);
      history.push({ role: 'user', content }, { role: 'assistant', content: answer.text });
      return answer;
    };
    const answer = await turn('vim -u NONE -N /tmp/corral-bridge-vim.txt');
    expect(answer.finish).toBe('stop');
    // The settled screen, once: the file, vim's filler lines and its status line; then what to send.
    expect(answer.text).toMatch(/^```\nfirst line\nsecond line\n~\n/);
    expect(answer.text.match(/first line/g)).toHaveLength(1);
    expect(answer.text).toMatch(/"\/tmp\/corral-bridge-vim.txt" 2L, 23B\s*\n```\n/);
    expect(answer.text.endsWith(`\n${SCREEN_WAITS}\n`)).toBe(true);
    // Another conversation is refused, and says where the program can be answered.
    const refusal = await client.chat.completions.create({ model: pane, messages: [{ role: 'user', content: ':q' }] }).then(() => null, (error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConflictError);
    expect((refusal as APIError).message).toMatch(/question asked in another conversation.*reply in that conversation/);
    expect((await turn('ihello from the chat')).text).toMatch(/^```\nhello from the chatfirst line\n/);
    expect((await turn('Esc')).text).toMatch(/hello from the chatfirst line/);
    expect(await turn(':q!')).toEqual({ text: '(no output)\n', finish: 'stop' });
    expect(h.bridge.busyPanes()).not.toContain(pane);
    expect(await ask(pane, 'echo after vim')).toEqual({ text: fenced('after vim'), finish: 'stop' });
    expect(await h.tmux.tmux('display', '-p', '-t', pane, '#{pane_current_command}')).toBe('bash\n');
  });

  it('answers less with its screen, and q from the chat ends it', async () => {
    const pane = await h.shell();
    const first = await ask(pane, 'less /etc/services');
    expect(first.text.endsWith(`\n${SCREEN_WAITS}\n`)).toBe(true);
    const history: Turn[] = [
      { role: 'user', content: 'less /etc/services' },
      { role: 'assistant', content: first.text },
    ];
    const moved = await ask(pane, 'G', history);
    expect(moved.text).toMatch(/\(END\)/);
    history.push({ role: 'user', content: 'G' }, { role: 'assistant', content: moved.text });
    expect(await ask(pane, 'q', history)).toEqual({ text: '(no output)\n', finish: 'stop' });
    expect(await ask(pane, 'echo after less')).toEqual({ text: fenced('after less'), finish: 'stop' });
  });
});

describe('a second real client', () => {
  it('streams an answer to the Vercel AI SDK', async () => {
    const pane = await h.shell();
    const provider = createOpenAICompatible({ name: 'corral', baseURL: h.baseURL, apiKey: TOKEN });
    const result = streamText({ model: provider.chatModel(pane), prompt: "printf 'one\\ntwo\\n'", maxRetries: 0 });
    const parts: string[] = [];
    for await (const part of result.textStream) parts.push(part);
    expect(parts.join('')).toBe(fenced('one', 'two'));
    expect(await result.finishReason).toBe('stop');
  });
});
