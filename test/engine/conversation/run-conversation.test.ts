import { describe, expect, it } from 'vitest';
import { TmuxClient } from '../../../src/engine/tmux/client.js';
import { CaptureTicker } from '../../../src/engine/conversation/capture-ticker.js';
import {
  NotAtPromptError,
  PaneBusyError,
  PaneConversations,
  formatLate,
  type ConversationDeps,
  type ConversationOutcome,
  type OutputStreams,
} from '../../../src/engine/conversation/run-conversation.js';
import type { StreamViewer } from '../../../src/engine/pane-stream/pane-streams.js';
import { Conversation, SCREEN_WAITS, WAITS_FOR_INPUT } from '../../../src/engine/conversation/conversation.js';
import type { TmuxRunner } from '../../../src/engine/tmux/runner.js';
import { ManualTime } from '../../helpers/manual-time.js';
import { scriptedTmux, type FakePane } from '../../helpers/scripted-panes.js';
import { LISTED_RECORDS } from '../../../src/engine/records/tmux-formats.js';
import { realClock } from '../../helpers/real-time.js';

const settings = { quietMs: 800, longQuietMs: 5000, maxDurationMs: 30_000, historyLines: 2000, enterDelayMs: 100, pasteThreshold: 200, heldPollMs: 500 };

function shellPane(): FakePane {
  return { lines: ['earlier', '$'], cursorRow: 1, height: 10 };
}

/** An agent at its input box, with a footer under it: a prompt, but not a line editor. */
function agentPane(): FakePane {
  return { lines: ['Agent v1', '', '╭────────────────────╮', '│ > Type your message │', '╰────────────────────╯', '  ? for shortcuts'], cursorRow: 3, height: 10, command: 'agent' };
}

function setup(
  panes: Record<string, FakePane>,
  overrides: Partial<typeof settings> = {},
  wrap?: (runner: TmuxRunner) => TmuxRunner,
  extra: Pick<ConversationDeps, 'streams'> = {},
) {
  const fake = scriptedTmux(panes);
  const time = new ManualTime();
  const runner = wrap ? wrap(fake.runner) : fake.runner;
  const tmux = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'name', name: 'unit' }, runner, nonce: 'n0nce' });
  const ticker = new CaptureTicker({ tmux, intervalMs: 100, historyLines: 2000, timers: time, clock: time });
  const desk = new PaneConversations({ tmux, ticker, clock: time, timers: time, settings: { ...settings, ...overrides }, ...extra });
  return { fake, time, ticker, desk };
}

/** Puts `lines` on the pane as the program's output, cursor after them (or on the prompt). */
function print(pane: FakePane, lines: string[], prompt = false): void {
  pane.lines.push(...lines);
  if (prompt) pane.lines.push('$');
  pane.cursorRow = prompt ? pane.lines.length - 1 : pane.lines.length;
}

/** The shell echoes the command on its prompt line and moves to the next line. */
function echo(pane: FakePane, command: string): void {
  pane.lines[pane.lines.length - 1] = `$ ${command}`;
  pane.cursorRow = pane.lines.length;
}

function track(promise: Promise<ConversationOutcome>): { outcome: ConversationOutcome | null } {
  const box: { outcome: ConversationOutcome | null } = { outcome: null };
  void promise.then((o) => (box.outcome = o));
  return box;
}

/** Types `./setup`, which asks `name? ` and waits; returns once that answer ended (or a second passed). */
async function askedForName(pane: FakePane, desk: PaneConversations, time: ManualTime) {
  const first = track(desk.converse('%1', './setup'));
  await time.advance(0);
  echo(pane, './setup');
  pane.lines.push('name? ');
  pane.cursorRow = pane.lines.length - 1;
  pane.cursorX = 6;
  pane.command = 'setup';
  const shownAt = time.now();
  for (let i = 0; i < 10 && first.outcome === null; i++) await time.advance(100);
  return { first, shownAt };
}

describe('PaneConversations', () => {
  it('types text and Enter in one tmux command at a shell prompt, streams, and ends 800 ms after the prompt is back', async () => {
    const pane = shellPane();
    const { fake, time, desk } = setup({ '%1': pane });
    const texts: string[] = [];
    const run = track(desk.converse('%1', 'make', { onText: (text) => texts.push(text) }));
    await time.advance(0);
    expect(fake.typed.get('%1')).toEqual(['text:make', 'key:Enter']);
    const sends = fake.calls.filter((chain) => chain.some((c) => c[0] === 'send-keys'));
    expect(sends).toHaveLength(1);

    echo(pane, 'make');
    print(pane, ['compiling a.c']);
    await time.advance(100);
    expect(texts.join('')).toBe('```\ncompiling a.c\n');
    print(pane, ['linking'], true);
    await time.advance(100);
    const promptAt = time.now();
    let endedAt = -1;
    for (let i = 0; i < 20 && run.outcome === null; i++) {
      await time.advance(100);
      endedAt = time.now();
    }
    expect(run.outcome).toEqual({ status: 'finished', finishReason: 'stop', answer: '```\ncompiling a.c\nlinking\n```\n' });
    expect(endedAt - promptAt).toBeGreaterThanOrEqual(800);
    expect(endedAt - promptAt).toBeLessThanOrEqual(1000);
    expect(desk.hold('%1')).toBeNull();
  });

  it('streams output that came before tmux confirmed the Enter (the stream has a connection of its own)', async () => {
    const pane = shellPane();
    let viewer: StreamViewer | null = null;
    const output = (text: string) => viewer!.onOutput({ paneId: '%1', bytes: Buffer.from(text), endOffset: 0, text: '', textEnd: 0 });
    const streams: OutputStreams = {
      subscribe: async (_paneId, v) => {
        viewer = v;
        return { replay: { mode: 'none', bytes: Buffer.from('earlier\r\n$ '), snapshotOffset: 0 }, unsubscribe: () => undefined };
      },
      sync: async () => undefined,
    };
    let confirmEnter: (() => void) | null = null;
    const { time, desk } = setup(
      { '%1': pane },
      {},
      (runner) => async (args, options) => {
        if (!(args.includes('send-keys') && args.at(-1) === 'Enter')) return runner(args, options);
        const result = await runner(args, options);
        // The command runs and prints; the Enter's own reply is still on its way.
        echo(pane, 'make');
        print(pane, ['compiling a.c']);
        output('make\r\ncompiling a.c\r\n');
        await new Promise<void>((resolve) => (confirmEnter = resolve));
        return result;
      },
      { streams: async () => streams },
    );
    // The stream's terminal parses on real time: each step of the manual clock waits for it too.
    const step = async (ms: number) => {
      await time.advance(ms);
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    const texts: string[] = [];
    const run = track(desk.converse('%1', 'make', { onText: (text) => texts.push(text) }));
    for (let i = 0; i < 200 && confirmEnter === null; i++) await time.advance(0);
    expect(confirmEnter).not.toBeNull();
    // The streamed output is parsed, then flushed (20 ms), before the Enter is confirmed.
    for (let i = 0; i < 3; i++) await step(50);
    confirmEnter!();
    await step(100);
    print(pane, ['linking'], true);
    output('linking\r\n$ ');
    for (let i = 0; i < 20 && run.outcome === null; i++) await step(100);
    expect(run.outcome).toEqual({ status: 'finished', finishReason: 'stop', answer: '```\ncompiling a.c\nlinking\n```\n' });
    // What the client was sent is the whole answer, not only its end.
    expect(texts.join('')).toBe('```\ncompiling a.c\nlinking\n```\n');
  });

  it('does not end on a pause: a quiet start, then output after 3 s', async () => {
    const pane = shellPane();
    const { time, desk } = setup({ '%1': pane });
    const run = track(desk.converse('%1', 'sleep 3; echo late'));
    await time.advance(0);
    echo(pane, 'sleep 3; echo late');
    await time.advance(3000);
    expect(run.outcome).toBeNull();
    print(pane, ['late'], true);
    await time.advance(1000);
    expect(run.outcome).toEqual({ status: 'finished', finishReason: 'stop', answer: '```\nlate\n```\n' });
  });

  it('keeps the pane reserved after the long quiet while a command started from the shell runs, and hands its late output to the next answer', async () => {
    const pane = shellPane();
    const { time, desk } = setup({ '%1': pane });
    const first = track(desk.converse('%1', 'sleep 60; echo done'));
    await time.advance(0);
    echo(pane, 'sleep 60; echo done');
    pane.command = 'sleep';
    await time.advance(5100);
    expect(first.outcome).toEqual({ status: 'finished', finishReason: 'stop', answer: '(no output)\n' });
    expect(desk.hold('%1')).toMatchObject({ phase: 'running', command: 'sleep' });
    await expect(desk.converse('%1', 'ls')).rejects.toBeInstanceOf(PaneBusyError);
    await expect(desk.converse('%1', 'ls')).rejects.toThrow(/still running the previous command \(sleep\): its prompt is not back/);

    pane.command = 'bash';
    print(pane, ['done'], true);
    await time.advance(2000);
    expect(desk.hold('%1')).toBeNull();

    const texts: string[] = [];
    const second = track(desk.converse('%1', 'echo next', { onText: (t) => texts.push(t) }));
    await time.advance(0);
    echo(pane, 'echo next');
    print(pane, ['next'], true);
    await time.advance(1000);
    const late = formatLate({ lines: ['done'], dropped: 0 }, true);
    expect(texts[0]).toBe(late);
    expect(second.outcome).toEqual({ status: 'finished', finishReason: 'stop', answer: `${late}\`\`\`\nnext\n\`\`\`\n` });
  });

  it('types nothing into a program that is not at a prompt it knows, and says which program', async () => {
    const pane: FakePane = { lines: ['deploy>'], cursorRow: 0, height: 10, command: 'deploytool' };
    const { fake, desk } = setup({ '%1': pane });
    const refusal = await desk.converse('%1', 'status').then(() => null, (error: unknown) => error);
    expect(refusal).toBeInstanceOf(NotAtPromptError);
    expect((refusal as Error).message).toBe(
      'pane %1 is running deploytool, which is not waiting at a prompt corral recognises; nothing was typed: wait for it to finish, or send C-c (the key name alone as the message) to interrupt it',
    );
    expect(fake.typed.get('%1')).toBeUndefined();
    expect(desk.hold('%1')).toBeNull();
  });

  it("takes a prompt it does not know, under the pane's shell, as back once the same line returns", async () => {
    const pane: FakePane = { lines: ['deploy>'], cursorRow: 0, height: 10, command: 'bash' };
    const { time, desk } = setup({ '%1': pane });
    const run = track(desk.converse('%1', 'status'));
    await time.advance(200);
    pane.lines = ['deploy> status', 'all green', 'deploy>'];
    pane.cursorRow = 2;
    await time.advance(1000);
    expect(run.outcome).toEqual({ status: 'finished', finishReason: 'stop', answer: '```\nall green\n```\n' });
    expect(desk.hold('%1')).toBeNull();
  });

  it('ends on a question from the command within a second, says so, and types the next message as its answer', async () => {
    const pane = shellPane();
    const { fake, time, desk } = setup({ '%1': pane });
    const { first, shownAt } = await askedForName(pane, desk, time);
    expect(time.now() - shownAt).toBeLessThanOrEqual(1000);
    expect(first.outcome).toEqual({ status: 'finished', finishReason: 'stop', answer: `\`\`\`\nname?\n\`\`\`\n\n${WAITS_FOR_INPUT}\n` });
    expect(desk.hold('%1')).toMatchObject({ phase: 'question' });

    const second = track(desk.converse('%1', 'bob'));
    await time.advance(0);
    expect(fake.typed.get('%1')).toEqual(['text:./setup', 'key:Enter', 'text:bob', 'key:Enter']);
    pane.lines[pane.lines.length - 1] = 'name? bob';
    print(pane, ['hello bob'], true);
    delete pane.cursorX;
    pane.command = 'bash';
    await time.advance(1000);
    expect(second.outcome).toEqual({ status: 'finished', finishReason: 'stop', answer: '```\nhello bob\n```\n' });
    expect(desk.hold('%1')).toBeNull();
  });

  it('streams the answer to a reply whole when the pane printed it before tmux confirmed the Enter', async () => {
    const pane = shellPane();
    let confirmEnter: (() => void) | null = null;
    let replied = false;
    const { time, desk } = setup({ '%1': pane }, {}, (runner) => async (args, options) => {
      if (!(replied && args.at(-1) === 'Enter')) return runner(args, options);
      const result = await runner(args, options);
      pane.lines[pane.lines.length - 1] = 'name? bob';
      print(pane, ['hello bob']);
      delete pane.cursorX;
      await new Promise<void>((resolve) => (confirmEnter = resolve));
      return result;
    });
    await askedForName(pane, desk, time);
    expect(desk.hold('%1')).toMatchObject({ phase: 'question' });

    const texts: string[] = [];
    replied = true;
    const second = track(desk.converse('%1', 'bob', { onText: (text) => texts.push(text) }));
    for (let i = 0; i < 50 && confirmEnter === null; i++) await time.advance(10);
    expect(confirmEnter).not.toBeNull();
    // The held pane is looked at (every 500 ms) while the Enter waits for its reply.
    await time.advance(1200);
    confirmEnter!();
    await time.advance(100);
    print(pane, [], true);
    pane.command = 'bash';
    for (let i = 0; i < 20 && second.outcome === null; i++) await time.advance(100);
    expect(second.outcome).toEqual({ status: 'finished', finishReason: 'stop', answer: '```\nhello bob\n```\n' });
    expect(texts.join('')).toBe('```\nhello bob\n```\n');
  });

  it('presses Enter even when the client leaves between text and Enter (an agent gets a pause between them)', async () => {
    const { fake, time, desk } = setup({ '%1': agentPane() });
    const controller = new AbortController();
    const done = desk.converse('%1', 'rm -rf build/x', { signal: controller.signal });
    await time.advance(50);
    expect(fake.typed.get('%1')).toEqual(['text:rm -rf build/x']);
    controller.abort();
    await time.advance(100);
    expect(fake.typed.get('%1')).toEqual(['text:rm -rf build/x', 'key:Enter']);
    expect(await done).toEqual({ status: 'aborted', answer: '' });
    // The pane stays reserved until its program is back.
    expect(desk.hold('%1')).toMatchObject({ phase: 'running' });
  });

  it('erases the text when its Enter cannot be sent', async () => {
    const pane = agentPane();
    let failEnter = true;
    const { fake, time, desk } = setup({ '%1': pane }, {}, (runner) => async (args, options) => {
      if (failEnter && args.includes('send-keys') && args.at(-1) === 'Enter') {
        failEnter = false;
        return { stdout: '', stderr: 'server exited unexpectedly\n', exitCode: 1 };
      }
      return runner(args, options);
    });
    const done = desk.converse('%1', 'ls').catch((error: Error) => error);
    await time.advance(200);
    expect(await done).toBeInstanceOf(Error);
    expect(fake.typed.get('%1')).toEqual(['text:ls', 'key:End', 'key:C-u']);
    expect(desk.hold('%1')).toBeNull();
  });

  it('pastes long or multi-line messages, then presses Enter', async () => {
    const { fake, time, desk } = setup({ '%1': shellPane(), '%2': shellPane() });
    const controller = new AbortController();
    void desk.converse('%1', 'line one\nline two', { signal: controller.signal });
    void desk.converse('%2', 'x'.repeat(201), { signal: controller.signal });
    await time.advance(100);
    expect(fake.typed.get('%1')).toEqual(['paste:line one\nline two', 'key:Enter']);
    expect(fake.typed.get('%2')).toEqual([`paste:${'x'.repeat(201)}`, 'key:Enter']);
    controller.abort();
  });

  it('closes a Python block so that it runs, and leaves its empty continuation line out', async () => {
    const pane: FakePane = { lines: ['>>>'], cursorRow: 0, height: 10, command: 'python3' };
    const { fake, time, desk } = setup({ '%1': pane });
    const run = track(desk.converse('%1', 'for i in range(2): print(i)'));
    await time.advance(0);
    pane.lines = ['>>> for i in range(2): print(i)', '...'];
    pane.cursorRow = 1;
    await time.advance(100);
    expect(fake.typed.get('%1')).toEqual(['text:for i in range(2): print(i)', 'key:Enter', 'key:Enter']);
    pane.lines = ['>>> for i in range(2): print(i)', '...', '0', '1', '>>>'];
    pane.cursorRow = 4;
    await time.advance(1000);
    expect(run.outcome).toEqual({ status: 'finished', finishReason: 'stop', answer: '```\n0\n1\n```\n' });
  });

  it('answers a full-screen program with its settled screen once, and leaves no rows of it behind', async () => {
    const pane = shellPane();
    const { time, desk } = setup({ '%1': pane });
    const texts: string[] = [];
    const run = track(desk.converse('%1', 'top', { onText: (t) => texts.push(t) }));
    await time.advance(0);
    echo(pane, 'top');
    const normal = { lines: [...pane.lines], cursorRow: pane.cursorRow };
    pane.alternate = true;
    pane.command = 'top';
    for (let frame = 0; frame < 5; frame++) {
      pane.lines = [`top - 10:0${frame}`, `load ${frame}`, 'PID USER', `1 root ${frame}%`];
      pane.cursorRow = 0;
      await time.advance(100);
    }
    expect(texts).toEqual([]);
    await time.advance(800);
    expect(run.outcome).toEqual({ status: 'finished', finishReason: 'stop', answer: `\`\`\`\ntop - 10:04\nload 4\nPID USER\n1 root 4%\n\`\`\`\n\n${SCREEN_WAITS}\n` });
    // It waits for keys, moving or not: the next message goes to it.
    await time.advance(1000);
    expect(desk.hold('%1')).toMatchObject({ phase: 'question', command: 'top' });

    // top quits: the normal screen is back as it was, with the prompt under it.
    pane.alternate = false;
    pane.command = 'bash';
    pane.lines = [...normal.lines, '$'];
    pane.cursorRow = pane.lines.length - 1;
    await time.advance(1500);
    expect(desk.hold('%1')).toBeNull();
    const next = track(desk.converse('%1', 'echo after'));
    await time.advance(0);
    echo(pane, 'echo after');
    print(pane, ['after'], true);
    await time.advance(1000);
    expect(next.outcome).toEqual({ status: 'finished', finishReason: 'stop', answer: '```\nafter\n```\n' });
  });

  it('sends the next message to a full-screen program as keys and answers with its new screen; q ends it', async () => {
    const pane = shellPane();
    const { fake, time, desk } = setup({ '%1': pane });
    const run = track(desk.converse('%1', 'less notes'));
    await time.advance(0);
    echo(pane, 'less notes');
    await time.advance(100);
    const normal = [...pane.lines];
    pane.alternate = true;
    pane.command = 'less';
    pane.lines = ['line 1', 'line 2', 'notes (END)'];
    pane.cursorRow = 2;
    await time.advance(1200);
    expect(run.outcome).toMatchObject({ status: 'finished', answer: `\`\`\`\nline 1\nline 2\nnotes (END)\n\`\`\`\n\n${SCREEN_WAITS}\n` });
    const search = track(desk.converse('%1', '/line 2'));
    await time.advance(0);
    expect(fake.typed.get('%1')?.slice(-2)).toEqual(['text:/line 2', 'key:Enter']);
    pane.lines = ['line 2', '~', 'notes (END)'];
    await time.advance(1200);
    expect(search.outcome).toMatchObject({ status: 'finished', answer: `\`\`\`\nline 2\n~\nnotes (END)\n\`\`\`\n\n${SCREEN_WAITS}\n` });
    const quit = track(desk.converse('%1', 'q'));
    await time.advance(0);
    expect(fake.typed.get('%1')?.at(-1)).toBe('text:q');
    pane.alternate = false;
    pane.command = 'bash';
    pane.lines = [...normal, '$'];
    pane.cursorRow = pane.lines.length - 1;
    await time.advance(1200);
    expect(quit.outcome).toEqual({ status: 'finished', finishReason: 'stop', answer: '(no output)\n' });
    expect(desk.hold('%1')).toBeNull();
  });

  it('captures every answering pane in one tmux process per poll, and a held pane less often', async () => {
    const panes = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`%${i + 1}`, shellPane()]));
    const { fake, time, desk } = setup(panes);
    const controller = new AbortController();
    for (const id of Object.keys(panes)) void desk.converse(id, 'sleep 9', { signal: controller.signal });
    await time.advance(100);
    const before = fake.captureCalls();
    await time.advance(1000);
    expect(fake.captureCalls() - before).toBe(10);
    const lastBatch = fake.calls.filter((chain) => chain.some((c) => c[0] === 'capture-pane')).at(-1)!;
    expect(lastBatch.filter((c) => c[0] === 'capture-pane')).toHaveLength(5);
    controller.abort();
    await time.advance(0);
    const held = fake.captureCalls();
    await time.advance(1000);
    expect(fake.captureCalls() - held).toBe(2);
  });

  it('reports a pane that closes mid-answer, with what it had said, and frees it', async () => {
    const pane = shellPane();
    const { fake, time, desk } = setup({ '%1': pane });
    const run = track(desk.converse('%1', 'run'));
    await time.advance(0);
    echo(pane, 'run');
    print(pane, ['partial']);
    await time.advance(100);
    fake.panes.delete('%1');
    await time.advance(100);
    expect(run.outcome).toEqual({ status: 'pane-gone', answer: '```\npartial\n```\n', message: 'pane %1 closed while answering' });
    expect(desk.hold('%1')).toBeNull();
  });

  it('asks later captures for only the history the answer needs', async () => {
    const pane: FakePane = { lines: [...Array.from({ length: 1500 }, (_, i) => `old ${i}`), '$'], cursorRow: 1500, height: 10 };
    const { fake, time, desk } = setup({ '%1': pane });
    const controller = new AbortController();
    void desk.converse('%1', 'build', { signal: controller.signal });
    await time.advance(0);
    echo(pane, 'build');
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

  it('ends with "length" at the maximum duration and keeps the pane until its prompt is back', async () => {
    const pane = shellPane();
    const { time, desk } = setup({ '%1': pane }, { maxDurationMs: 2000 });
    const run = track(desk.converse('%1', 'yes'));
    await time.advance(0);
    echo(pane, 'yes');
    for (let i = 0; i < 30 && run.outcome === null; i++) {
      print(pane, [`y ${i}`]);
      await time.advance(100);
    }
    expect(run.outcome).toMatchObject({ status: 'finished', finishReason: 'length' });
    expect(desk.hold('%1')).toMatchObject({ phase: 'running' });
    print(pane, ['y late'], true);
    await time.advance(2000);
    expect(desk.hold('%1')).toBeNull();
  });

  it('waits for typing in progress before it closes', async () => {
    const { fake, time, desk } = setup({ '%1': agentPane() });
    void desk.converse('%1', 'hello').catch(() => undefined);
    await time.advance(10);
    const closed = desk.close();
    await time.advance(200);
    await closed;
    expect(fake.typed.get('%1')).toEqual(['text:hello', 'key:Enter']);
    expect(desk.holds()).toEqual([]);
  });
});

describe('PaneConversations: what a cut answer leaves', () => {
  it('keeps every line printed after a cancel: the newest open the next answer, the older ones go to a file it names', async () => {
    const pane = shellPane();
    const fake = scriptedTmux({ '%1': pane });
    const time = new ManualTime();
    const tmux = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'name', name: 'unit' }, runner: fake.runner, nonce: 'n0nce' });
    const ticker = new CaptureTicker({ tmux, intervalMs: 100, historyLines: 2000, timers: time, clock: time });
    const spilled: string[] = [];
    const openSpill = () => ({ where: '/answers/late.txt', write: (lines: readonly string[]) => void spilled.push(...lines), close: () => undefined });
    const desk = new PaneConversations({ tmux, ticker, clock: time, timers: time, settings: { ...settings, lateLines: 5 }, openSpill });
    const controller = new AbortController();
    const first = track(desk.converse('%1', 'seq 1 30', { signal: controller.signal }));
    await time.advance(0);
    echo(pane, 'seq 1 30');
    print(pane, ['1', '2']);
    await time.advance(100);
    controller.abort();
    await time.advance(0);
    expect(first.outcome).toMatchObject({ status: 'aborted' });
    // The rest comes after the cancel, in two polls' worth.
    print(pane, Array.from({ length: 14 }, (_, i) => String(i + 3)));
    await time.advance(500);
    print(pane, Array.from({ length: 14 }, (_, i) => String(i + 17)), true);
    for (let i = 0; i < 10 && desk.hold('%1') !== null; i++) await time.advance(500);
    expect(desk.hold('%1')).toBeNull();
    const next = track(desk.converse('%1', 'true'));
    await time.advance(0);
    echo(pane, 'true');
    print(pane, [], true);
    for (let i = 0; i < 20 && next.outcome === null; i++) await time.advance(100);
    const answer = next.outcome?.answer ?? '';
    const shown = answer.split('\n').filter((line) => /^\d+$/.test(line));
    // Every line after the ones the client was last given (1 and 2, given again), once: in the file or the answer.
    expect([...spilled, ...shown]).toEqual(Array.from({ length: 30 }, (_, i) => String(i + 1)));
    expect(shown).toEqual(['26', '27', '28', '29', '30']);
    expect(answer).toContain('(25 earlier lines left out; they are in /answers/late.txt)');
  });
});

describe('Conversation', () => {
  it('does not end early on an agent that still shows its prompt before it starts answering', () => {
    const box = ['╭────╮', '│ >  │', '╰────╯'];
    const config = { quietMs: 800, longQuietMs: 60_000, maxDurationMs: 600_000 };
    const conversation = new Conversation({ lines: ['banner', ...box], cursorRow: 2, height: 10 }, 'hello', 0, config, () => ({
      prompt: true,
      reason: 'stopped',
      busy: false,
      tool: 'agent',
      rule: 'box',
      line: '>',
      answer: { kind: 'line', options: [] },
    }));
    // The echo shows up, then nothing: no answer yet, so the prompt does not end it.
    const screen = { lines: ['banner', '> hello', ...box], cursorRow: 3, height: 10 };
    expect(conversation.observe(screen, 100).finish).toBeNull();
    expect(conversation.observe(screen, 1500).finish).toBeNull();
    // The agent answers above its box; once the screen holds still, the answer ends.
    const answered = { lines: ['banner', '> hello', '● Hi there', ...box], cursorRow: 4, height: 10 };
    expect(conversation.observe(answered, 1600)).toMatchObject({ text: '```\n● Hi there\n', finish: null });
    expect(conversation.observe(answered, 2500)).toMatchObject({ finish: 'stop', released: true });
  });
});

describe('Conversation: output without a final newline', () => {
  const config = { quietMs: 800, longQuietMs: 60_000, maxDurationMs: 600_000 };
  const baseline = { lines: ['earlier', '$'], cursorRow: 1, height: 10, command: 'bash', cursorX: 2 };

  for (const output of ['hello', 'a b', '{"ok": true}', 'red bold', 'ends with a colon:', '>>>']) {
    it(`answers ${JSON.stringify(output)} with the prompt glued after it, once the prompt has held still`, () => {
      const conversation = new Conversation(baseline, `printf '${output}'`, 0, config);
      const line = `${output}$`;
      const screen = { lines: ['earlier', `$ printf '${output}'`, line], cursorRow: 2, height: 10, command: 'bash', cursorX: line.length + 1 };
      const first = conversation.observe(screen, 100);
      expect(first.finish).toBeNull();
      const last = conversation.observe(screen, 1000);
      expect({ text: first.text + last.text, finish: last.finish, released: last.released }).toEqual({ text: `\`\`\`\n${output}\n\`\`\`\n`, finish: 'stop', released: true });
    });
  }

  it('answers output glued to the prompt when tmux counts its cells otherwise (bytes that are not UTF-8)', () => {
    const conversation = new Conversation(baseline, 'head -c 9 junk', 0, config);
    // tmux drew two cells for bytes the text has no character for: its cursor is two cells further.
    const screen = { lines: ['earlier', '$ head -c 9 junk', 'ab~[$'], cursorRow: 2, height: 10, command: 'bash', cursorX: 8 };
    const first = conversation.observe(screen, 100);
    const last = conversation.observe(screen, 1000);
    expect({ text: first.text + last.text, finish: last.finish }).toEqual({ text: '```\nab~[\n```\n', finish: 'stop' });
  });

  it('does not take text that merely ends like the prompt for it while the cursor is elsewhere', () => {
    const conversation = new Conversation(baseline, 'x', 0, config);
    const screen = { lines: ['earlier', '$ x', 'costs 5$', ''], cursorRow: 3, height: 10, command: 'bash', cursorX: 0 };
    conversation.observe(screen, 100);
    expect(conversation.observe(screen, 1000).finish).toBeNull();
  });
});
