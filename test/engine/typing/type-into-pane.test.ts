import { describe, expect, it } from 'vitest';
import type { SendItem } from '../../../src/engine/typing/keys.js';
import { ENTER_DELAY_MS, PASTE_THRESHOLD, sendKeys, typeLine, tmuxKeysSink, type KeysSink } from '../../../src/engine/typing/type-into-pane.js';
import { ManualTime } from '../../helpers/manual-time.js';

/** One call the sink took, with the moment it came (ms after the start). */
interface SinkCall {
  readonly at: number;
  readonly what: string;
}

/**
 * A keys sink that writes down every call ("text:ls key:Enter" for one send, "paste:..." for a
 * paste) and fails the calls `fails` picks, the way a tmux command that did not go through fails.
 */
function scriptedSink(time: ManualTime, fails: (what: string, index: number) => boolean = () => false, paste = true) {
  const start = time.now();
  const calls: SinkCall[] = [];
  const take = async (what: string): Promise<void> => {
    const index = calls.length;
    calls.push({ at: time.now() - start, what });
    if (fails(what, index)) throw new Error('tmux: server exited unexpectedly');
  };
  const itemsText = (items: readonly SendItem[]) => items.map((item) => (item.kind === 'key' ? `key:${item.key}` : `text:${item.text}`)).join(' ');
  const sink: KeysSink = {
    send: (items) => take(itemsText(items)),
    ...(paste ? { paste: (text: string) => take(`paste:${text}`) } : {}),
  };
  return { sink, calls, whats: () => calls.map((call) => call.what) };
}

/** Runs `work` while time moves forward, in steps small enough to see every pause. */
async function run(time: ManualTime, work: Promise<void>, ms = 1000): Promise<unknown> {
  const settled = work.then(
    () => null,
    (error: unknown) => error,
  );
  await time.advance(ms);
  return settled;
}

describe('typeLine', () => {
  it('types the text, waits the pause, then presses Enter in a command of its own', async () => {
    const time = new ManualTime();
    const { sink, calls } = scriptedSink(time);
    const typed = typeLine(sink, 'deploy now', { timers: time });
    await time.advance(ENTER_DELAY_MS - 1);
    expect(calls).toEqual([{ at: 0, what: 'text:deploy now' }]);
    await time.advance(1);
    await typed;
    expect(calls).toEqual([
      { at: 0, what: 'text:deploy now' },
      { at: ENTER_DELAY_MS, what: 'key:Enter' },
    ]);
  });

  it('waits the pause the caller names', async () => {
    const time = new ManualTime();
    const { sink, calls } = scriptedSink(time);
    await run(time, typeLine(sink, 'y', { timers: time, enterDelayMs: 250 }));
    expect(calls).toEqual([
      { at: 0, what: 'text:y' },
      { at: 250, what: 'key:Enter' },
    ]);
  });

  it('sends an empty line as Enter alone, at once', async () => {
    const time = new ManualTime();
    const { sink, calls } = scriptedSink(time);
    await typeLine(sink, '', { timers: time });
    expect(calls).toEqual([{ at: 0, what: 'key:Enter' }]);
  });

  it('gives a line editor the text and its Enter in one command, with no pause', async () => {
    const time = new ManualTime();
    const { sink, calls } = scriptedSink(time);
    await typeLine(sink, 'ls', { timers: time, lineEditor: true, pasteAbove: PASTE_THRESHOLD });
    expect(calls).toEqual([{ at: 0, what: 'text:ls key:Enter' }]);
  });

  it('pastes text past the threshold, or with a newline or a tab, then pauses and presses Enter', async () => {
    const time = new ManualTime();
    const long = 'x'.repeat(PASTE_THRESHOLD + 1);
    for (const text of [long, 'line one\nline two', 'a\tb']) {
      const { sink, calls } = scriptedSink(time);
      await run(time, typeLine(sink, text, { timers: time, lineEditor: true, pasteAbove: PASTE_THRESHOLD }));
      expect(calls).toEqual([
        { at: 0, what: `paste:${text}` },
        { at: ENTER_DELAY_MS, what: 'key:Enter' },
      ]);
    }
    const { sink, whats } = scriptedSink(time);
    await run(time, typeLine(sink, 'x'.repeat(PASTE_THRESHOLD), { timers: time, pasteAbove: PASTE_THRESHOLD }));
    expect(whats()).toEqual([`text:${'x'.repeat(PASTE_THRESHOLD)}`, 'key:Enter']);
  });

  it('never pastes without a threshold: a newline goes in as text', async () => {
    const time = new ManualTime();
    const { sink, whats } = scriptedSink(time, undefined, false);
    await run(time, typeLine(sink, 'one\ntwo', { timers: time }));
    expect(whats()).toEqual(['text:one\ntwo', 'key:Enter']);
  });

  it('types without Enter when asked (a menu key), pasted or not', async () => {
    const time = new ManualTime();
    const short = scriptedSink(time);
    await run(time, typeLine(short.sink, '2', { timers: time, enter: false, lineEditor: true, pasteAbove: PASTE_THRESHOLD }));
    expect(short.calls).toEqual([{ at: 0, what: 'text:2' }]);
    const multi = scriptedSink(time);
    await run(time, typeLine(multi.sink, 'a\nb', { timers: time, enter: false, pasteAbove: PASTE_THRESHOLD }));
    expect(multi.whats()).toEqual(['paste:a\nb']);
  });
});

describe('typeLine when its Enter fails', () => {
  const failEnter = (what: string) => what === 'key:Enter';

  it('clears the line with End and C-u, and stops there when the line editor took it', async () => {
    const time = new ManualTime();
    const { sink, calls } = scriptedSink(time, failEnter);
    const error = await run(time, typeLine(sink, 'ls -l', { timers: time, eraseWith: async () => '$ ' }));
    expect((error as Error).message).toMatch(/server exited/);
    expect(calls).toEqual([
      { at: 0, what: 'text:ls -l' },
      { at: ENTER_DELAY_MS, what: 'key:Enter' },
      { at: ENTER_DELAY_MS, what: 'key:End key:C-u' },
    ]);
  });

  it('deletes character by character when the text is still on the cursor line', async () => {
    const time = new ManualTime();
    const { sink, whats } = scriptedSink(time, failEnter);
    const error = await run(time, typeLine(sink, 'one\ntwo', { timers: time, pasteAbove: PASTE_THRESHOLD, eraseWith: async () => '> one' }));
    expect(error).toBeInstanceOf(Error);
    expect(whats()).toEqual(['paste:one\ntwo', 'key:Enter', 'key:End key:C-u', Array(7).fill('key:BSpace').join(' ')]);
  });

  it('presses BSpace at most 4096 times', async () => {
    const time = new ManualTime();
    const text = 'y'.repeat(5000);
    const { sink, calls } = scriptedSink(time, failEnter);
    await run(time, typeLine(sink, text, { timers: time, pasteAbove: PASTE_THRESHOLD, eraseWith: async () => text }));
    expect(calls.at(-1)?.what.split(' ')).toHaveLength(4096);
  });

  it('throws the Enter failure even when the erase fails too', async () => {
    const time = new ManualTime();
    const { sink, whats } = scriptedSink(time, (what) => what === 'key:Enter' || what === 'key:End key:C-u');
    const error = await run(time, typeLine(sink, 'ls', { timers: time, eraseWith: async () => 'ls' }));
    expect((error as Error).message).toMatch(/server exited/);
    expect(whats()).toEqual(['text:ls', 'key:Enter', 'key:End key:C-u']);
  });

  it('leaves the line as it is without a cursor line reader', async () => {
    const time = new ManualTime();
    const { sink, whats } = scriptedSink(time, failEnter);
    const error = await run(time, typeLine(sink, 'ls', { timers: time }));
    expect(error).toBeInstanceOf(Error);
    expect(whats()).toEqual(['text:ls', 'key:Enter']);
  });

  it('never erases when the text itself did not go in', async () => {
    const time = new ManualTime();
    const { sink, whats } = scriptedSink(time, (what) => what.startsWith('text:'));
    const error = await run(time, typeLine(sink, 'ls', { timers: time, eraseWith: async () => 'ls' }));
    expect(error).toBeInstanceOf(Error);
    expect(whats()).toEqual(['text:ls']);
  });
});

describe('sendKeys', () => {
  it('sends every item in order in one command', async () => {
    const time = new ManualTime();
    const { sink, whats } = scriptedSink(time);
    await sendKeys(sink, [
      { kind: 'text', text: 'git status' },
      { kind: 'key', key: 'Enter' },
      { kind: 'key', key: 'C-c' },
    ]);
    expect(whats()).toEqual(['text:git status key:Enter key:C-c']);
  });
});

describe('tmuxKeysSink', () => {
  it("sends and pastes into the pane it was made for", async () => {
    const seen: string[] = [];
    const sink = tmuxKeysSink(
      {
        send: async (paneId, items) => void seen.push(`${paneId} send ${items.length}`),
        paste: async (paneId, text) => void seen.push(`${paneId} paste ${text}`),
      },
      '%7',
    );
    await sink.send([{ kind: 'key', key: 'Enter' }]);
    await sink.paste?.('hi');
    expect(seen).toEqual(['%7 send 1', '%7 paste hi']);
  });
});
