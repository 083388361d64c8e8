// The typing folder owns typing into a pane: a line (the text, pasted past a length, the pause
// before Enter, Enter), keys at once, taking a line back off when its Enter fails, and the check
// for a line editor (line-editor.ts). This file types, through a narrow keys sink, so a tmux
// client and a control connection's sender can both be behind it. Time comes from the caller.

import type { SendItem } from './keys.js';
import type { Timers } from '../types.js';

/** Full-screen agents can drop an Enter that arrives with the text; a short pause avoids it. */
export const ENTER_DELAY_MS = 100;

/** Longer messages go in as a bracketed paste, where the caller pastes at all. */
export const PASTE_THRESHOLD = 200;

/** The most BSpace presses an erase sends. */
const MAX_ERASE = 4096;

const ENTER: SendItem = { kind: 'key', key: 'Enter' };

/** Where keys go for one pane. */
export interface KeysSink {
  /** Types keys and literal text in order, in one tmux command; no items, no command. */
  send(items: readonly SendItem[]): Promise<void>;
  /** Bracketed paste of the text; only a sink that can paste has it. */
  paste?(text: string): Promise<void>;
}

/** A tmux client's pane I/O as a keys sink: one tmux command per send, pastes through a buffer. */
export function tmuxKeysSink(
  tmux: { send(paneId: string, items: readonly SendItem[]): Promise<void>; paste(paneId: string, text: string): Promise<void> },
  paneId: string,
): KeysSink {
  return {
    send: (items) => tmux.send(paneId, items),
    paste: (text) => tmux.paste(paneId, text),
  };
}

export interface LineOptions {
  readonly timers: Timers;
  /** Pause between the text and Enter (default ENTER_DELAY_MS). */
  readonly enterDelayMs?: number;
  /** Text longer than this, or with a newline or a tab, is pasted; without it, text is always typed. */
  readonly pasteAbove?: number;
  /** The pane shows a line editor (showsLineEditor): text and Enter go in one command, with no pause. */
  readonly lineEditor?: boolean;
  /** Press Enter after the text (default true). */
  readonly enter?: boolean;
  /** Reads the pane's cursor line; given, a line whose Enter failed is taken back off (eraseLine). */
  readonly eraseWith?: () => Promise<string>;
}

/** Keys and text at once, in one command (a sink sends nothing for no items). */
export async function sendKeys(sink: KeysSink, items: readonly SendItem[]): Promise<void> {
  await sink.send(items);
}

/** Enter alone. */
export async function pressEnter(sink: KeysSink): Promise<void> {
  await sink.send([ENTER]);
}

/**
 * A line: the text (pasted past `pasteAbove`), a pause, then Enter; a line editor takes text and
 * Enter in one command. An empty line is Enter alone.
 */
export async function typeLine(sink: KeysSink, text: string, options: LineOptions): Promise<void> {
  const enter = options.enter ?? true;
  if (text === '') {
    if (enter) await pressEnter(sink);
    return;
  }
  const paste = pastes(text, options.pasteAbove);
  if (!paste && options.lineEditor === true && enter) {
    // One tmux command: the text and its Enter arrive together or not at all.
    await sink.send([{ kind: 'text', text }, ENTER]);
    return;
  }
  if (paste) await pasteInto(sink, text);
  else await sink.send([{ kind: 'text', text }]);
  if (!enter) return;
  await new Promise<void>((resolve) => options.timers.setTimeout(resolve, options.enterDelayMs ?? ENTER_DELAY_MS));
  try {
    await pressEnter(sink);
  } catch (error) {
    // The text is on the input line without its Enter: take it back off, so the next line is not
    // appended to it.
    if (options.eraseWith) await eraseLine(sink, text, options.eraseWith).catch(() => undefined);
    throw error;
  }
}

/** A tab typed into a line editor completes instead of going in: text with tabs is pasted too. */
function pastes(text: string, pasteAbove: number | undefined): boolean {
  if (pasteAbove === undefined) return false;
  return text.includes('\n') || text.includes('\t') || text.length > pasteAbove;
}

async function pasteInto(sink: KeysSink, text: string): Promise<void> {
  if (!sink.paste) throw new Error('this pane cannot take a paste here; the text was not typed');
  await sink.paste(text);
}

/**
 * Takes typed text back off the input line: End and C-u (a readline editor clears the line), then,
 * when the cursor line still shows the text's first line, one BSpace per character.
 */
export async function eraseLine(sink: KeysSink, text: string, cursorLine: () => Promise<string>): Promise<void> {
  await sink.send([
    { kind: 'key', key: 'End' },
    { kind: 'key', key: 'C-u' },
  ]);
  const line = await cursorLine();
  const first = text.split('\n')[0]?.trim() ?? '';
  if (first !== '' && line.includes(first)) {
    // Not a readline editor: delete character by character.
    const count = Math.min(text.length, MAX_ERASE);
    await sink.send(Array.from({ length: count }, () => ({ kind: 'key' as const, key: 'BSpace' })));
  }
}
