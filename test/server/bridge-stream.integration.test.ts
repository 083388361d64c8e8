// The chat bridge reads answers from the pane's own output stream: real panes on a private tmux
// server, the official openai client and the Vercel AI SDK. Every line a command printed comes back
// once and in order (long, fast, progress lines, wide characters, 30 s of printing); nothing is
// typed into a program away from its prompt; a repeated command runs again and only a client's
// retry is replayed; empty output is an answer; a cut stream loses nothing; a question from the
// command ends the answer within a second; a new tmux server's %0 starts clean.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { APIError, ConflictError } from 'openai';
import { streamText } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { TOKEN, auth, raw, startBridge, type BridgeHarness } from '../helpers/bridge-server.js';
import { waitUntil } from '../helpers/wait-until.js';
import { NO_OUTPUT, WAITS_FOR_INPUT } from '../../src/engine/conversation/conversation.js';
import { REPLAY_HEADER } from '../../src/server/bridge/index.js';
import { sideRequestFixtures } from '../helpers/side-request-fixtures.js';

let h: BridgeHarness;
let client: OpenAI;
const state = mkdtempSync(join(tmpdir(), 'corral-answers-'));
const previousState = process.env.XDG_STATE_HOME;

beforeAll(async () => {
  // Answers past their cap write every line under $XDG_STATE_HOME/corral/answers.
  process.env.XDG_STATE_HOME = state;
  // The 50 MB answer takes 40 s on an idle machine and up to 10 min on a loaded one: its cap on
  // time is raised to the test's own, so what it checks is the cap on lines.
  h = await startBridge({ bridgeLongQuietMs: '5000', bridgeMaxDurationMs: '850000' });
  client = new OpenAI({ baseURL: h.baseURL, apiKey: TOKEN, maxRetries: 0, timeout: 120_000 });
});
afterAll(async () => {
  await h?.close();
  if (previousState === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = previousState;
  rmSync(state, { recursive: true, force: true });
});

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

type Turn = { role: 'user' | 'assistant'; content: string };

async function ask(model: string, content: string, onDelta?: (text: string) => void, history: Turn[] = []): Promise<{ text: string; finish: string | null; finishedAt: number }> {
  const stream = await client.chat.completions.create({ model, stream: true, messages: [...history, { role: 'user', content }] });
  let text = '';
  let finish: string | null = null;
  let finishedAt = 0;
  for await (const chunk of stream as AsyncIterable<Chunk>) {
    const delta = chunk.choices[0]?.delta.content ?? '';
    text += delta;
    if (delta !== '') onDelta?.(delta);
    if (chunk.choices[0]?.finish_reason) {
      finish = chunk.choices[0].finish_reason;
      finishedAt = Date.now();
    }
  }
  return { text, finish, finishedAt };
}

async function askAi(model: string, prompt: string, history: Turn[] = []): Promise<{ text: string; finish: string }> {
  const provider = createOpenAICompatible({ name: 'corral', baseURL: h.baseURL, apiKey: TOKEN });
  const result = streamText({ model: provider.chatModel(model), messages: [...history, { role: 'user', content: prompt }], maxRetries: 0 });
  let text = '';
  for await (const part of result.textStream) text += part;
  return { text, finish: await result.finishReason };
}

const fenced = (...lines: string[]) => `\`\`\`\n${lines.map((line) => `${line}\n`).join('')}\`\`\`\n`;
/** The lines inside the answer's code block(s). */
const body = (text: string) => text.split('\n').filter((line) => line !== '' && !/^`{3,}$/.test(line));

async function typedLines(pane: string, command: string): Promise<number> {
  const screen = await h.tmux.tmux('capture-pane', '-p', '-J', '-S', '-', '-t', pane);
  return screen.split('\n').filter((line) => line === `$ ${command}`).length;
}

describe('every line the command printed', () => {
  it('gives seq 1 100000 at full speed whole, in order, once (openai client)', async () => {
    const pane = await h.shell();
    const { text, finish } = await ask(pane, 'seq 1 100000');
    expect(finish).toBe('stop');
    const lines = body(text);
    expect(lines).toHaveLength(100_000);
    expect(lines.every((line, i) => line === String(i + 1))).toBe(true);
  }, 120_000);

  it('caps yes | head -c 50M, says in one line how many lines were left out and where all of them are', async () => {
    const pane = await h.shell();
    const { text, finish } = await ask(pane, 'yes | head -c 50M');
    expect(finish).toBe('stop');
    const lines = body(text);
    const total = (50 * 1024 * 1024) / 2;
    const notes = lines.filter((line) => line.startsWith('[corral:'));
    expect(notes).toHaveLength(1);
    const note = /^\[corral: ([\d,]+) lines left out here \(an answer holds at most 200,000 lines\); all ([\d,]+) lines are in (\S+)\]$/.exec(notes[0]!);
    expect(note).not.toBeNull();
    const [, leftOut, all, file] = note!;
    expect(Number(all!.replace(/,/g, ''))).toBe(total);
    // Every line of the answer is a 'y' (bar the fences and the note): on a failure, the first odd ones.
    const odd = text.split('\n').slice(0, -1).map((line, i) => ({ i, line })).filter(({ line }) => line !== 'y' && !/^`{3,}$/.test(line) && !line.startsWith('[corral:'));
    expect(odd.slice(0, 8), `${odd.length} odd lines`).toEqual([]);
    expect(lines.filter((line) => line === 'y')).toHaveLength(total - Number(leftOut!.replace(/,/g, '')));
    expect(file!.startsWith(join(state, 'corral', 'answers'))).toBe(true);
    const saved = readFileSync(file!, 'utf8');
    expect(saved.length).toBe(total * 2);
    expect(saved.startsWith('y\ny\n')).toBe(true);
  }, 900_000);

  it('gives a progress bar in its last state only', async () => {
    const pane = await h.shell();
    const command = `for i in $(seq 0 5 100); do printf '\\rcopying [%-20s] %3d%%' "$(printf '#%.0s' $(seq 0 5 $i))" "$i"; sleep 0.03; done; echo; echo copied`;
    const { text } = await ask(pane, command);
    expect(text).toBe(fenced('copying [#####################] 100%', 'copied'));
  });

  it('joins wrapped lines of wide characters, a character that does not fit at the edge included (AI SDK)', async () => {
    const pane = await h.shell();
    const wide = 'あいうえお語'.repeat(20);
    const { text, finish } = await askAi(pane, `echo "x${wide}"; echo '表 ok'`);
    expect(finish).toBe('stop');
    expect(text).toBe(fenced(`x${wide}`, '表 ok'));
  });

  it('streams a command that prints for 30 s, each line as it comes (AI SDK)', async () => {
    const pane = await h.shell();
    const provider = createOpenAICompatible({ name: 'corral', baseURL: h.baseURL, apiKey: TOKEN });
    const result = streamText({ model: provider.chatModel(pane), prompt: 'for i in $(seq 1 30); do echo "tick $i"; sleep 1; done', maxRetries: 0 });
    const arrivals = new Map<number, number>();
    let text = '';
    for await (const part of result.textStream) {
      text += part;
      for (const m of part.matchAll(/tick (\d+)/g)) arrivals.set(Number(m[1]), Date.now());
    }
    expect(text).toBe(fenced(...Array.from({ length: 30 }, (_, i) => `tick ${i + 1}`)));
    expect(arrivals.get(30)! - arrivals.get(1)!).toBeGreaterThan(25_000);
  }, 90_000);
});

describe('nothing is typed into a program that is not at its prompt', () => {
  it('refuses a pane running a program the person started, at once, naming it, and types nothing', async () => {
    const pane = await h.shell();
    await h.tmux.tmux('send-keys', '-t', pane, 'sleep 3600', 'Enter');
    await h.tmux.waitForScreen(pane, (screen) => screen.includes('$ sleep 3600'));
    await h.tmux.waitForScreen(pane, () => true);
    // tmux names the foreground command once the shell has started it.
    const command = async () => (await h.tmux.tmux('display-message', '-p', '-t', pane, '#{pane_current_command}')).trim();
    await waitUntil(async () => (await command()) === 'sleep', 10_000, 'tmux to name sleep as the foreground command');
    const started = Date.now();
    const refusal = await client.chat.completions.create({ model: pane, messages: [{ role: 'user', content: 'echo typed under sleep' }] }).then(() => null, (error: unknown) => error);
    // At once: not after the 5 s without output that would end an answer (nothing is awaited).
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(refusal).toBeInstanceOf(ConflictError);
    expect((refusal as APIError).message).toContain(`pane ${pane} is running sleep, which is not waiting at a prompt corral recognises; nothing was typed`);
    expect((refusal as APIError).headers?.get('x-should-retry')).toBe('false');
    expect(await h.tmux.capture(pane)).not.toContain('typed under sleep');
    // What the refusal says ends it can be done from the chat: C-c alone goes in as that key.
    expect((await ask(pane, 'C-c')).finish).toBe('stop');
    expect(await command()).toBe('bash');
    expect((await ask(pane, 'echo after-sleep')).text).toBe(fenced('after-sleep'));
  });
});

describe('a repeated command runs again; only a retry is replayed', () => {
  it('runs the same single message again 3 s later, and in a new conversation', async () => {
    const pane = await h.shell();
    const first = await ask(pane, 'date +%T.%N');
    // A pause the check needs, not a wait for a result: a message repeated this much later is a new
    // command, not a retry (a sleep is only ever longer on a slow machine).
    await new Promise((r) => setTimeout(r, 3000));
    const second = await ask(pane, 'date +%T.%N');
    expect(second.text).not.toBe(first.text);
    expect(await typedLines(pane, 'date +%T.%N')).toBe(2);
  });

  it("replays the answer to the openai client's own retry and to a known Idempotency-Key, says so, and types nothing", async () => {
    const pane = await h.shell();
    const body = JSON.stringify({ model: pane, messages: [{ role: 'user', content: 'echo $RANDOM' }] });
    const post = (headers: Record<string, string>) =>
      raw(h.port, { method: 'POST', path: '/v1/chat/completions', headers: { ...auth, 'content-type': 'application/json', ...headers }, body });
    const first = await post({ 'x-stainless-retry-count': '0', 'idempotency-key': 'key-one' });
    const firstId = JSON.parse(first.body).id as string;
    const retry = await post({ 'x-stainless-retry-count': '1' });
    expect(retry.headers[REPLAY_HEADER]).toBe(firstId);
    expect(JSON.parse(retry.body).choices[0].message.content).toBe(JSON.parse(first.body).choices[0].message.content);
    const keyed = await post({ 'idempotency-key': 'key-one' });
    expect(keyed.headers[REPLAY_HEADER]).toBe(firstId);
    expect(await typedLines(pane, 'echo $RANDOM')).toBe(1);
    // Without either, the same body is a new request: typed.
    const again = await post({});
    expect(again.headers[REPLAY_HEADER]).toBeUndefined();
    expect(await typedLines(pane, 'echo $RANDOM')).toBe(2);
  });

  it('follows the first answer live for a retry while it still streams; the same words without the retry header are not a retry', async () => {
    const pane = await h.shell();
    const content = 'for i in 1 2 3; do echo step $i; sleep 0.4; done';
    const first = ask(pane, content);
    await h.tmux.waitForScreen(pane, (screen) => screen.includes('step 1'));
    const body = JSON.stringify({ model: pane, stream: true, messages: [{ role: 'user', content }] });
    const resent = await raw(h.port, { method: 'POST', path: '/v1/chat/completions', headers: { ...auth, 'content-type': 'application/json' }, body });
    expect(resent.status).toBe(409);
    const second = await raw(h.port, {
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { ...auth, 'content-type': 'application/json', 'x-stainless-retry-count': '1' },
      body,
    });
    expect(second.headers[REPLAY_HEADER]).toMatch(/^chatcmpl-/);
    const replayed = [...second.body.matchAll(/"content":"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string).join('');
    expect(replayed).toBe((await first).text);
    expect(await typedLines(pane, content)).toBe(1);
  });
});

describe('a retry after a client timeout', () => {
  it('replays the cut answer marked incomplete with finish_reason length, never as a whole one, and types the command once', async () => {
    const pane = await h.shell();
    // The openai client gives up after 2 s and retries (x-stainless-retry-count) twice.
    const impatient = new OpenAI({ baseURL: h.baseURL, apiKey: TOKEN, maxRetries: 2, timeout: 2_000 });
    const content = 'echo start-$((6000 + 6603)); sleep 5; echo done';
    const answer = await impatient.chat.completions.create({ model: pane, messages: [{ role: 'user', content }] });
    expect(answer.choices[0]?.finish_reason).toBe('length');
    expect(answer.choices[0]?.message.content).toBe(
      '```\nstart-12603\n```\n\n(incomplete: still running when the first answer was cut off; what it printed after that opens the next answer of this pane)\n',
    );
    expect(await typedLines(pane, content)).toBe(1);
    // What came after the cut opens the next answer, once the command is done.
    await h.tmux.waitForScreen(pane, (screen) => /^done$/m.test(screen), 10_000);
    let next = '';
    for (let attempt = 0; attempt < 40 && next === ''; attempt++) {
      next = await client.chat.completions
        .create({ model: pane, messages: [{ role: 'user', content: 'echo next' }] })
        .then((r) => r.choices[0]?.message.content ?? '')
        .catch(async () => {
          await new Promise((resolve) => setTimeout(resolve, 250));
          return '';
        });
    }
    expect(next).toContain('done');
    expect(next).toContain('next');
  });
});

describe('empty output is an answer', () => {
  it('answers (no output) for true, cd and a Python def, with both clients', async () => {
    const pane = await h.shell();
    expect((await ask(pane, 'true')).text).toBe(`${NO_OUTPUT}\n`);
    expect((await askAi(pane, 'cd ..')).text).toBe(`${NO_OUTPUT}\n`);
    const python = await h.tmux.spawn('python3 -q');
    await h.tmux.waitForScreen(python, (screen) => screen.trimEnd().endsWith('>>>'), 10_000);
    await h.engine.pollNow();
    expect((await ask(python, 'def f(x):\n    return x')).text).toBe(`${NO_OUTPUT}\n`);
  });
});

describe('a cut stream loses nothing', () => {
  it('gives every line printed after the client left in the next answer', async () => {
    const pane = await h.shell();
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: pane, stream: true, messages: [{ role: 'user', content: 'for i in $(seq 1 12); do echo tick-$i; sleep 0.25; done' }] },
      { signal: controller.signal },
    );
    let seen = '';
    await (async () => {
      for await (const chunk of stream) {
        seen += chunk.choices[0]?.delta.content ?? '';
        if (seen.includes('tick-6')) controller.abort();
      }
    })().catch(() => undefined);
    await h.tmux.waitForScreen(pane, (screen) => /tick-12\n\$\s*$/.test(screen.trimEnd() + '\n') || screen.trimEnd().endsWith('$'), 10_000);
    await waitUntil(() => !h.bridge.busyPanes().includes(pane), 20_000, 'the pane to be free');
    const next = await ask(pane, 'echo next');
    const late = next.text.slice(0, next.text.indexOf('```\nnext'));
    const ticks = (text: string) => [...text.matchAll(/tick-(\d+)/g)].map((m) => Number(m[1]));
    const given = ticks(seen);
    const after = ticks(late);
    // Together, in order, with nothing missing: the client's lines, then the late block (which
    // may start with the last line the client was given).
    const joined = [...given, ...after.filter((n) => n > Math.max(...given))];
    expect(joined).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(after.at(-1)).toBe(12);
    expect(next.text.endsWith(fenced('next'))).toBe(true);
  });
});

describe('a question from the command', () => {
  /**
   * When the question first shows in the pane (a 20 ms capture loop beside the request): sampling
   * for a time stamp, not a wait for a result.
   */
  async function shownAt(pane: string, question: RegExp): Promise<number> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (question.test(await h.tmux.capture(pane))) return Date.now();
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`the question ${question} never showed`);
  }

  it('ends the answer once read -p asks, says it waits, and types the next message as the reply', async () => {
    const pane = await h.shell();
    const watching = shownAt(pane, /^name\?\s*$/m);
    const first = await ask(pane, 'read -p "name? " n; echo "hello $n"');
    // Ended by the question (half a second of stillness), not by the 5 s without output that ends
    // an answer at an unknown prompt. How fast is the bridge benchmark's business, not this test's.
    expect(first.finishedAt - (await watching)).toBeLessThan(5_000);
    expect(first.text).toBe(`${fenced('name?')}\n${WAITS_FOR_INPUT}\n`);
    const models = (await client.models.list()).data as unknown as { corral: { pane: string; phase: string | null } }[];
    expect(models.find((m) => m.corral.pane === pane)?.corral.phase).toBe('question');
    const asked: Turn[] = [
      { role: 'user', content: 'read -p "name? " n; echo "hello $n"' },
      { role: 'assistant', content: first.text },
    ];
    expect((await ask(pane, 'bob', undefined, asked)).text).toBe(fenced('hello bob'));
    expect(await h.tmux.capture(pane)).toContain('name? bob');
  });

  it('refuses a message from another conversation while a question waits, and takes the reply from its own', async () => {
    const pane = await h.shell();
    const command = "read -p 'delete all? [y/N] ' a; echo \"answered $a\"";
    const first = await ask(pane, command);
    expect(first.text).toBe(`${fenced('delete all? [y/N]')}\n${WAITS_FOR_INPUT}\n`);
    // A new chat, and a chat with another history: neither is the conversation that was asked.
    for (const history of [[], [{ role: 'user', content: 'ls' } as Turn, { role: 'assistant', content: fenced('a.txt') } as Turn]]) {
      const refused = await client.chat.completions.create({ model: pane, messages: [...history, { role: 'user', content: 'echo from-other-chat' }] }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ConflictError);
      expect((refused as APIError).message).toContain(`pane ${pane} waits for the answer to a question asked in another conversation ("delete all? [y/N]"): reply in that conversation to answer it; this message was not typed`);
    }
    expect(await h.tmux.capture(pane)).not.toContain('from-other-chat');
    // The asking conversation, its answer re-wrapped as a chat UI may send it back.
    const asked: Turn[] = [
      { role: 'user', content: command },
      { role: 'assistant', content: ` ${first.text.trim()}  ` },
    ];
    expect((await ask(pane, 'y', undefined, asked)).text).toBe(fenced('answered y'));
  });

  it('does the same for a [y/N] question and a password prompt', async () => {
    const pane = await h.shell();
    const proceed = await ask(pane, 'read -p "Proceed? [y/N] " a; echo "got $a"');
    expect(proceed.text).toBe(`${fenced('Proceed? [y/N]')}\n${WAITS_FOR_INPUT}\n`);
    const proceedAsked: Turn[] = [
      { role: 'user', content: 'read -p "Proceed? [y/N] " a; echo "got $a"' },
      { role: 'assistant', content: proceed.text },
    ];
    expect((await askAi(pane, 'y', proceedAsked)).text).toBe(fenced('got y'));
    const secretCommand = 'read -s -p "Password: " p; echo; echo "length ${#p}"';
    const secret = await ask(pane, secretCommand);
    expect(secret.text).toBe(`${fenced('Password:')}\n${WAITS_FOR_INPUT}\n`);
    const secretAsked: Turn[] = [
      { role: 'user', content: secretCommand },
      { role: 'assistant', content: secret.text },
    ];
    expect((await ask(pane, 'hunter2', undefined, secretAsked)).text).toBe(fenced('length 7'));
  });
});

describe('a new tmux server', () => {
  it("gives the new server's %0 a clean start: no reservation, no late output, no memory of the old one", async () => {
    const own = await startBridge({ bridgeLongQuietMs: '5000' });
    try {
      const ownClient = new OpenAI({ baseURL: own.baseURL, apiKey: TOKEN, maxRetries: 0, timeout: 30_000 });
      const controller = new AbortController();
      const stream = await ownClient.chat.completions.create(
        { model: '%0', stream: true, messages: [{ role: 'user', content: 'echo old-server; sleep 30' }] },
        { signal: controller.signal },
      );
      await (async () => {
        for await (const chunk of stream) if ((chunk.choices[0]?.delta.content ?? '').includes('old-server')) controller.abort();
      })().catch(() => undefined);
      expect(own.bridge.busyPanes()).toEqual(['%0']);
      await own.tmux.kill();
      const pane = await own.tmux.spawn();
      expect(pane).toBe('%0');
      await own.tmux.waitForScreen(pane, (screen) => /\$\s*$/.test(screen.trimEnd()));
      const watched = async () => {
        await own.engine.pollNow().catch(() => undefined);
        return own.engine.getSnapshot().panes.some((p) => p.key === '%0' && !p.pane.dead);
      };
      await waitUntil(watched, 20_000, "the new server's %0 in the engine", 50);
      const answer = await ownClient.chat.completions.create({ model: '%0', messages: [{ role: 'user', content: 'echo new-server' }] });
      expect(answer.choices[0]?.message.content).toBe(fenced('new-server'));
      // A chat UI's summary lists the commands typed into the pane: only the new server's.
      const summary = sideRequestFixtures().find((f) => f.id === 'nextchat/summary')!;
      const answered = await ownClient.chat.completions.create({ model: '%0', messages: summary.request.messages.slice(-1) });
      expect(answered.choices[0]?.message.content).toContain('`echo new-server`');
      expect(answered.choices[0]?.message.content).not.toContain('old-server');
    } finally {
      await own.close();
    }
  }, 60_000);
});
