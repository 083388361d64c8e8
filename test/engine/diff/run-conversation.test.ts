import { describe, expect, it } from 'vitest';
import { TmuxClient } from '../../../src/engine/tmux/client.js';
import { CaptureTicker } from '../../../src/engine/diff/capture-ticker.js';
import { runConversation, type ConversationOutcome } from '../../../src/engine/diff/run-conversation.js';
import { ManualTime } from '../../helpers/manual-time.js';
import { scriptedTmux, type FakePane } from '../../helpers/scripted-panes.js';

const settings = { quietMs: 800, maxDurationMs: 30_000, historyLines: 2000, enterDelayMs: 100, pasteThreshold: 200 };

function shellPane(): FakePane {
  return { lines: ['earlier', '$'], cursorRow: 1, height: 10 };
}

function setup(panes: Record<string, FakePane>) {
  const fake = scriptedTmux(panes);
  const time = new ManualTime();
  const tmux = new TmuxClient({ socket: { kind: 'name', name: 'unit' }, runner: fake.runner, nonce: 'n0nce' });
  const ticker = new CaptureTicker({ tmux, intervalMs: 100, historyLines: 2000, timers: time, now: () => time.now() });
  const deps = { tmux, ticker, clock: time, timers: time, settings };
  return { fake, time, ticker, deps };
}

/** Puts `lines` on the pane as the program's output, cursor after them (or on the prompt). */
function print(pane: FakePane, lines: string[], prompt = false): void {
  pane.lines.push(...lines);
  if (prompt) pane.lines.push('$');
  pane.cursorRow = prompt ? pane.lines.length - 1 : pane.lines.length;
}

describe('runConversation', () => {
  it('types the text, presses Enter 100 ms later, streams the output and ends 800 ms after the last line', async () => {
    const pane = shellPane();
    const { fake, time, deps } = setup({ '%1': pane });
    const texts: string[] = [];
    let outcome: ConversationOutcome | null = null;
    let typedAt = -1;
    void runConversation(deps, {
      paneId: '%1',
      message: 'make',
      onTyped: () => (typedAt = time.now()),
      onText: (text) => texts.push(text),
    }).then((o) => (outcome = o));
    const start = time.now();
    await time.advance(50);
    expect(fake.typed.get('%1')).toEqual(['text:make']);
    await time.advance(50);
    expect(fake.typed.get('%1')).toEqual(['text:make', 'key:Enter']);
    expect(typedAt - start).toBe(100);

    pane.lines[1] = '$ make';
    print(pane, ['compiling a.c']);
    await time.advance(100);
    expect(texts.join('')).toBe('```\ncompiling a.c\n');
    print(pane, ['linking']);
    await time.advance(100);
    const lastOutput = time.now();
    // No prompt comes back (the build waits on something): quiet time decides.
    let endedAt = -1;
    for (let i = 0; i < 20 && outcome === null; i++) {
      await time.advance(100);
      endedAt = time.now();
    }
    expect(outcome).toEqual({ status: 'finished', finishReason: 'stop', answer: '```\ncompiling a.c\nlinking\n```\n' });
    expect(endedAt - lastOutput).toBeGreaterThanOrEqual(800);
    expect(endedAt - lastOutput).toBeLessThanOrEqual(1000);
  });

  it('ends at once when the shell prompt is back and the screen holds still', async () => {
    const pane = shellPane();
    const { time, deps } = setup({ '%1': pane });
    let outcome: ConversationOutcome | null = null;
    void runConversation(deps, { paneId: '%1', message: 'echo hi' }).then((o) => (outcome = o));
    await time.advance(100);
    pane.lines[1] = '$ echo hi';
    print(pane, ['hi'], true);
    await time.advance(100);
    expect(outcome).toBeNull();
    await time.advance(100);
    expect(outcome).toEqual({ status: 'finished', finishReason: 'stop', answer: '```\nhi\n```\n' });
  });

  it('pastes long or multi-line messages', async () => {
    const { fake, time, deps } = setup({ '%1': shellPane(), '%2': shellPane() });
    const controller = new AbortController();
    void runConversation(deps, { paneId: '%1', message: 'line one\nline two', signal: controller.signal });
    void runConversation(deps, { paneId: '%2', message: 'x'.repeat(201), signal: controller.signal });
    await time.advance(100);
    expect(fake.typed.get('%1')).toEqual(['paste:line one\nline two', 'key:Enter']);
    expect(fake.typed.get('%2')).toEqual([`paste:${'x'.repeat(201)}`, 'key:Enter']);
    controller.abort();
  });

  it('captures every pane with a conversation in one tmux process per poll', async () => {
    const panes = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`%${i + 1}`, shellPane()]));
    const { fake, time, deps } = setup(panes);
    const controller = new AbortController();
    const patient = { ...deps, settings: { ...settings, quietMs: 60_000 } };
    for (const id of Object.keys(panes)) void runConversation(patient, { paneId: id, message: 'sleep 9', signal: controller.signal });
    await time.advance(100);
    const before = fake.captureCalls();
    await time.advance(1000);
    expect(fake.captureCalls() - before).toBe(10);
    const lastBatch = fake.calls.filter((chain) => chain.some((c) => c[0] === 'capture-pane')).at(-1)!;
    expect(lastBatch.filter((c) => c[0] === 'capture-pane')).toHaveLength(5);
    controller.abort();
  });

  it('stops polling at once when aborted, and types nothing more', async () => {
    const pane = shellPane();
    const { fake, time, ticker, deps } = setup({ '%1': pane });
    const controller = new AbortController();
    let outcome: ConversationOutcome | null = null;
    void runConversation(deps, { paneId: '%1', message: 'sleep 9', signal: controller.signal }).then((o) => (outcome = o));
    await time.advance(300);
    controller.abort();
    await time.advance(0);
    expect(outcome).toMatchObject({ status: 'aborted' });
    expect(ticker.watchedPanes).toEqual([]);
    const calls = fake.calls.length;
    await time.advance(1000);
    expect(fake.calls.length).toBe(calls);
  });

  it('does not press Enter when aborted while waiting to', async () => {
    const { fake, time, deps } = setup({ '%1': shellPane() });
    const controller = new AbortController();
    const done = runConversation(deps, { paneId: '%1', message: 'rm -rf build', signal: controller.signal });
    await time.advance(50);
    controller.abort();
    await time.advance(500);
    expect(await done).toEqual({ status: 'aborted', answer: '' });
    expect(fake.typed.get('%1')).toEqual(['text:rm -rf build']);
  });

  it('reports a pane that closes mid-answer, with what it had said', async () => {
    const pane = shellPane();
    const { fake, time, deps } = setup({ '%1': pane, '%2': shellPane() });
    let outcome: ConversationOutcome | null = null;
    const other = new AbortController();
    void runConversation(deps, { paneId: '%2', message: 'sleep 9', signal: other.signal });
    void runConversation(deps, { paneId: '%1', message: 'run' }).then((o) => (outcome = o));
    await time.advance(100);
    pane.lines[1] = '$ run';
    print(pane, ['partial']);
    await time.advance(100);
    fake.panes.delete('%1');
    await time.advance(100);
    expect(outcome).toEqual({ status: 'pane-gone', answer: '```\npartial\n```\n', message: 'pane %1 closed while answering' });
    other.abort();
  });

  it('asks later captures for only the history the answer needs', async () => {
    const pane: FakePane = { lines: [...Array.from({ length: 1500 }, (_, i) => `old ${i}`), '$'], cursorRow: 1500, height: 10 };
    const { fake, time, deps } = setup({ '%1': pane });
    const controller = new AbortController();
    void runConversation(deps, { paneId: '%1', message: 'build', signal: controller.signal });
    await time.advance(100);
    pane.lines[1500] = '$ build';
    print(pane, ['step 1']);
    await time.advance(200);
    const historyArgs = fake.calls
      .flat()
      .filter((c) => c[0] === 'capture-pane')
      .map((c) => Number(c[c.indexOf('-S') + 1]));
    // Baseline and first poll: the whole history; then the anchor plus a margin.
    expect(historyArgs.slice(0, 2)).toEqual([-2000, -2000]);
    expect(historyArgs.at(-1)).toBe(-(2 + 300 - 10));
    controller.abort();
  });

  it('ends with "length" at the maximum duration', async () => {
    const pane = shellPane();
    const { time, deps } = setup({ '%1': pane });
    let outcome: ConversationOutcome | null = null;
    void runConversation({ ...deps, settings: { ...settings, maxDurationMs: 2000 } }, { paneId: '%1', message: 'yes' }).then((o) => (outcome = o));
    for (let i = 0; i < 30 && outcome === null; i++) {
      print(pane, [`y ${i}`]);
      await time.advance(100);
    }
    expect(outcome).toMatchObject({ status: 'finished', finishReason: 'length' });
  });
});

describe('Conversation', () => {
  it('does not end early on an agent that still shows its prompt before it starts answering', async () => {
    const { Conversation } = await import('../../../src/engine/diff/conversation.js');
    const box = ['╭────╮', '│ >  │', '╰────╯'];
    const conversation = new Conversation({ lines: ['banner', ...box], cursorRow: 2 }, 'hello', 0, { quietMs: 800, maxDurationMs: 60_000 }, () => ({
      prompt: true,
      reason: 'stopped',
      busy: false,
      tool: 'agent',
      rule: 'box',
      line: '│ >  │',
      answer: { kind: 'line', options: [] },
    }));
    // The echo shows up, then nothing for a while: no answer yet, so only the quiet time can end it.
    const screen = { lines: ['banner', '> hello', ...box], cursorRow: 3, height: 10 };
    expect(conversation.observe(screen, 100).finish).toBeNull();
    expect(conversation.observe(screen, 200).finish).toBeNull();
    expect(conversation.observe(screen, 800).finish).toBeNull();
    expect(conversation.observe(screen, 900)).toEqual({ text: '', finish: 'stop' });
  });
});
