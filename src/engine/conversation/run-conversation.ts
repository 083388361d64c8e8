// The engine's conversation port: `converse(pane, text)` types a message into a pane and streams
// its answer; the pane stays reserved until its program is back at its prompt, even after the
// answer ended (client gone, maximum duration, a full-screen program's snapshot). What the pane
// prints in that time is kept and opens its next answer, so nothing is dropped silently.
// Typing is whole or not at all: once begun it is never cut by the client, and a failed Enter
// erases the text. tmux, time and timers are injected.

import { systemClock, type Clock } from '../types.js';
import type { SendItem } from '../keys.js';
import { PaneGoneError, type CaptureBatchResult } from '../tmux/client.js';
import type { BatchCapture } from '../tmux/commands.js';
import { captureLines } from './screen-diff.js';
import { Conversation, type Classifier, type FinishReason, type PaneCapture } from './conversation.js';
import { classifyScreen } from '../prompt/matcher.js';
import { CaptureTicker, type TickEvent } from './capture-ticker.js';
import { systemTimers, type Timers } from '../types.js';

// A conversation's errors, for the bridge: the pane is busy, or gone (tmux's own error).
export { PaneGoneError };

export interface ConversationSettings {
  readonly quietMs: number;
  readonly longQuietMs: number;
  readonly maxDurationMs: number;
  readonly historyLines: number;
  /** Pause between typing the text and pressing Enter, for programs that are not line editors (agents can lose an Enter sent at once). */
  readonly enterDelayMs: number;
  /** Longer messages (or any with a newline) go in as a bracketed paste. */
  readonly pasteThreshold: number;
  readonly fence?: boolean;
  /** How often a pane whose answer has ended is looked at until it is free (default 500 ms). */
  readonly heldPollMs?: number;
  /** Late output kept per pane for its next answer (default 2000 lines). */
  readonly lateLines?: number;
}

export interface PaneWriter {
  captureBatch(paneIds: readonly string[], options: { history: number; historyByPane?: ReadonlyMap<string, number> }): Promise<CaptureBatchResult>;
  send(paneId: string, items: readonly SendItem[]): Promise<void>;
  paste(paneId: string, text: string): Promise<void>;
}

export interface ConversationDeps {
  readonly tmux: PaneWriter;
  readonly ticker: CaptureTicker;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly settings: ConversationSettings;
  readonly classify?: Classifier;
}

export interface ConverseOptions {
  readonly signal?: AbortSignal;
  /** Called once the message is typed and Enter pressed. */
  readonly onTyped?: () => void;
  /** Called with each piece of the answer as it becomes known. */
  readonly onText?: (text: string) => void;
}

export type ConversationOutcome =
  | { readonly status: 'finished'; readonly finishReason: FinishReason; readonly answer: string }
  | { readonly status: 'aborted'; readonly answer: string }
  | { readonly status: 'pane-gone'; readonly answer: string; readonly message: string }
  | { readonly status: 'failed'; readonly answer: string; readonly message: string };

/** Why a pane is not free: typing, answering, or its answer has ended but its command still runs. */
export interface PaneHold {
  readonly paneId: string;
  readonly phase: 'typing' | 'answering' | 'running';
  /** When the message was typed (ms). */
  readonly since: number;
  /** The pane's foreground command when last seen. */
  readonly command: string | null;
}

export class PaneBusyError extends Error {
  constructor(readonly hold: PaneHold) {
    super(
      hold.phase === 'running'
        ? `pane ${hold.paneId} is still running the previous command${hold.command ? ` (${hold.command})` : ''}: its prompt is not back`
        : `pane ${hold.paneId} is already answering another request`,
    );
    this.name = 'PaneBusyError';
  }
}

/** The narrow port a server uses to talk to panes (it never sees tmux). */
export interface ConversationPort {
  converse(paneId: string, message: string, options?: ConverseOptions): Promise<ConversationOutcome>;
  hold(paneId: string): PaneHold | null;
  holds(): PaneHold[];
  close(): Promise<void>;
}

export function toPaneCapture(capture: BatchCapture): PaneCapture {
  return {
    lines: captureLines(capture.text),
    cursorRow: capture.cursorRow,
    height: capture.height,
    alternate: capture.alternate,
    command: capture.command,
  };
}

interface Entry {
  hold: PaneHold;
  stop: (() => void) | null;
}

const LATE_NOTE = 'Printed after the previous answer ended:';

export class PaneConversations implements ConversationPort {
  private readonly entries = new Map<string, Entry>();
  private readonly late = new Map<string, { lines: string[]; dropped: number }>();
  private readonly typing = new Set<Promise<unknown>>();
  private closed = false;

  constructor(private readonly deps: ConversationDeps) {}

  hold(paneId: string): PaneHold | null {
    return this.entries.get(paneId)?.hold ?? null;
  }

  holds(): PaneHold[] {
    return [...this.entries.values()].map((entry) => entry.hold);
  }

  async converse(paneId: string, message: string, options: ConverseOptions = {}): Promise<ConversationOutcome> {
    const { tmux, settings, clock } = this.deps;
    const { signal } = options;
    const busy = this.entries.get(paneId);
    if (busy) throw new PaneBusyError(busy.hold);
    if (this.closed || signal?.aborted) return { status: 'aborted', answer: '' };
    const entry: Entry = { hold: { paneId, phase: 'typing', since: clock.now(), command: null }, stop: null };
    this.entries.set(paneId, entry);

    let conversation: Conversation;
    try {
      const first = await tmux.captureBatch([paneId], { history: settings.historyLines });
      const baseline = first.captures.get(paneId);
      if (!baseline || baseline.dead) throw new PaneGoneError(paneId);
      if (this.closed || signal?.aborted) {
        this.release(paneId, entry);
        return { status: 'aborted', answer: '' };
      }
      const capture = toPaneCapture(baseline);
      conversation = new Conversation(capture, message, clock.now(), settings, this.deps.classify);
      entry.hold = { ...entry.hold, command: baseline.command || null };
      // From here on the message is typed whole: neither the client nor a shutdown cuts it short.
      const typed = this.type(paneId, message, this.lineEditor(capture));
      this.typing.add(typed);
      try {
        await typed;
      } finally {
        this.typing.delete(typed);
      }
    } catch (error) {
      this.release(paneId, entry);
      throw error;
    }
    entry.hold = { ...entry.hold, phase: 'answering', since: clock.now() };
    options.onTyped?.();

    let prefix = '';
    const late = this.late.get(paneId);
    if (late) {
      this.late.delete(paneId);
      prefix = formatLate(late.lines, late.dropped, settings.fence !== false);
      options.onText?.(prefix);
    }

    return await new Promise<ConversationOutcome>((resolve) => {
      let settled = false;
      const answer = () => prefix + conversation.answer;
      const finish = (outcome: ConversationOutcome) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const say = (text: string) => {
        if (text !== '' && !settled) options.onText?.(text);
      };
      // Once the answer has ended, the pane is looked at less often until it is free.
      const follow = (intervalMs?: number) => {
        entry.stop?.();
        entry.stop = this.deps.ticker.watch(paneId, onTick, () => conversation.historyWanted(settings.historyLines), intervalMs);
      };
      const heldPoll = settings.heldPollMs ?? 500;
      const holdOn = () => {
        entry.hold = { ...entry.hold, phase: 'running' };
        follow(heldPoll);
      };
      const onTick = (event: TickEvent) => {
        if (event.kind === 'capture') {
          const capture = toPaneCapture(event.capture);
          entry.hold = { ...entry.hold, command: event.capture.command || entry.hold.command };
          const wasAnswering = conversation.phase === 'answering';
          const step = conversation.observe(capture, clock.now());
          say(step.text);
          if (step.late.length > 0) this.keepLate(paneId, step.late);
          if (step.closeBlock) void this.pressEnter(paneId);
          if (step.finish) finish({ status: 'finished', finishReason: step.finish, answer: answer() });
          if (step.released) this.release(paneId, entry);
          else if (wasAnswering && conversation.phase === 'finishing') holdOn();
        } else if (event.kind === 'gone') {
          say(conversation.end('stop', true));
          this.late.delete(paneId);
          this.release(paneId, entry);
          finish({ status: 'pane-gone', answer: answer(), message: `pane ${paneId} closed while answering` });
        } else if (conversation.phase === 'answering') {
          // tmux failed: the answer ends, the pane stays reserved while corral tries again.
          say(conversation.end('stop'));
          finish({ status: 'failed', answer: answer(), message: event.error.message });
          holdOn();
        }
      };
      const onAbort = () => {
        if (conversation.phase === 'answering') {
          conversation.abandon();
          holdOn();
        }
        finish({ status: 'aborted', answer: answer() });
      };
      follow();
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Stops following one pane (its hold is dropped); typing in progress still finishes. */
  drop(paneId: string): void {
    const entry = this.entries.get(paneId);
    if (entry && entry.hold.phase !== 'typing') this.release(paneId, entry);
  }

  /** Stops watching every pane (holds are dropped) once typing in progress has finished. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.typing]);
    for (const [paneId, entry] of this.entries) this.release(paneId, entry);
  }

  private release(paneId: string, entry: Entry): void {
    entry.stop?.();
    entry.stop = null;
    if (this.entries.get(paneId) === entry) this.entries.delete(paneId);
  }

  private keepLate(paneId: string, lines: readonly string[]): void {
    const limit = this.deps.settings.lateLines ?? 2000;
    const kept = this.late.get(paneId) ?? { lines: [], dropped: 0 };
    kept.lines.push(...lines);
    if (kept.lines.length > limit) {
      kept.dropped += kept.lines.length - limit;
      kept.lines.splice(0, kept.lines.length - limit);
    }
    this.late.set(paneId, kept);
  }

  /** A line editor (shell, REPL) takes text and Enter at once; anything else gets a pause between them. */
  private lineEditor(capture: PaneCapture): boolean {
    if (capture.alternate === true) return false;
    const classify = this.deps.classify ?? ((lines: readonly string[]) => classifyScreen(lines));
    const screen = capture.lines.slice(Math.max(0, capture.lines.length - capture.height));
    const verdict = classify(screen);
    if (!verdict.prompt || verdict.busy) return false;
    let last = screen.length - 1;
    while (last >= 0 && (screen[last] ?? '').trim() === '') last -= 1;
    const line = verdict.line.trim();
    return last >= 0 && (screen[last] ?? '').trim() === line && (capture.lines[capture.cursorRow] ?? '').trim() === line;
  }

  private async type(paneId: string, message: string, lineEditor: boolean): Promise<void> {
    const { tmux, settings } = this.deps;
    const paste = message.includes('\n') || message.length > settings.pasteThreshold;
    if (!paste && lineEditor) {
      // One tmux command: the text and its Enter arrive together or not at all.
      await tmux.send(paneId, [
        { kind: 'text', text: message },
        { kind: 'key', key: 'Enter' },
      ]);
      return;
    }
    if (paste) await tmux.paste(paneId, message);
    else await tmux.send(paneId, [{ kind: 'text', text: message }]);
    await new Promise<void>((resolve) => this.deps.timers.setTimeout(resolve, settings.enterDelayMs));
    try {
      await tmux.send(paneId, [{ kind: 'key', key: 'Enter' }]);
    } catch (error) {
      // The text is on the input line without its Enter: take it back off, so the next message
      // is not appended to it.
      await this.erase(paneId, message).catch(() => undefined);
      throw error;
    }
  }

  private async erase(paneId: string, message: string): Promise<void> {
    const { tmux } = this.deps;
    await tmux.send(paneId, [
      { kind: 'key', key: 'End' },
      { kind: 'key', key: 'C-u' },
    ]);
    const check = await tmux.captureBatch([paneId], { history: 0 });
    const capture = check.captures.get(paneId);
    const first = message.split('\n')[0]?.trim() ?? '';
    const cursorLine = capture ? (captureLines(capture.text)[capture.cursorRow] ?? '') : '';
    if (first !== '' && cursorLine.includes(first)) {
      // Not a readline editor: delete character by character.
      const count = Math.min(message.length, 4096);
      await tmux.send(paneId, Array.from({ length: count }, () => ({ kind: 'key' as const, key: 'BSpace' })));
    }
  }

  private async pressEnter(paneId: string): Promise<void> {
    try {
      await this.deps.tmux.send(paneId, [{ kind: 'key', key: 'Enter' }]);
    } catch {
      // The pane closed: the next poll says so.
    }
  }
}

/** The late output that opens the next answer: a note, then the lines (fenced like an answer). */
export function formatLate(lines: readonly string[], dropped: number, fence: boolean): string {
  const note = dropped > 0 ? `${LATE_NOTE} (${dropped} earlier lines left out)` : LATE_NOTE;
  if (!fence) return `${note}\n${lines.map((line) => `${line}\n`).join('')}\n`;
  const longest = Math.max(2, ...lines.map((line) => /^ {0,3}(`+)\s*$/.exec(line)?.[1]?.length ?? 0));
  const marks = '`'.repeat(longest + 1);
  return `${note}\n${marks}\n${lines.map((line) => `${line}\n`).join('')}${marks}\n\n`;
}

export interface ConversationDeskOptions {
  readonly tmux: PaneWriter;
  readonly settings: ConversationSettings & { readonly pollMs: number };
  readonly classify?: Classifier;
  readonly clock?: Clock;
  readonly timers?: Timers;
}

/** A conversation port over one tmux client: one capture ticker shared by every answering pane. */
export function createConversations(options: ConversationDeskOptions): PaneConversations & { readonly ticker: CaptureTicker } {
  const clock = options.clock ?? systemClock;
  const timers = options.timers ?? systemTimers;
  const ticker = new CaptureTicker({ tmux: options.tmux, intervalMs: options.settings.pollMs, historyLines: options.settings.historyLines, timers, now: () => clock.now() });
  const desk = new PaneConversations({ tmux: options.tmux, ticker, clock, timers, settings: options.settings, ...(options.classify ? { classify: options.classify } : {}) });
  const close = desk.close.bind(desk);
  return Object.assign(desk, {
    ticker,
    async close() {
      await close();
      ticker.close();
    },
  });
}
