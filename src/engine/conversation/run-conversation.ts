// The engine's conversation port: `converse(pane, text)` types a message into a pane and streams
// its answer. The answer's lines come from the pane's own output stream (the control-mode client
// the attach server uses too), through a terminal emulator; one capture per poll tells what only
// the screen can (the prompt is back, a busy line, the alternate screen). Nothing is typed into a
// program that is not at its prompt. The pane stays reserved until its program is back at its
// prompt, even after the answer ended (client gone, maximum duration, a full-screen program's
// snapshot); what it prints meanwhile opens its next answer. An answer that ends on a question
// from the command leaves the pane waiting: the next message is typed as the answer to it.
// Typing is whole or not at all. tmux, streams, time and timers are injected.

import { type Clock, type Timers } from '../types.js';
import type { SendItem } from '../typing/keys.js';
import { PaneGoneError } from '../tmux/core.js';
import type { BatchCapture } from '../tmux/capture-batch.js';
import type { PaneListing } from '../tmux/polling.js';
import type { PaneIo } from '../tmux/pane-io.js';
import type { StreamViewer, Subscription } from '../pane-stream/pane-streams.js';
import { captureLines } from './screen-diff.js';
import { Conversation, endsLikeQuestion, type Classifier, type FinishReason, type PaneCapture } from './conversation.js';
import { classifyScreen } from '../prompt/matcher.js';
import { planFreeText } from '../typing/answer-plan.js';
import { CaptureTicker, type TickEvent } from './capture-ticker.js';
import { StreamLines } from './stream-lines.js';
import { StreamSource } from './line-source.js';
import type { SpillTarget } from './answer-cap.js';
import { formatLate, type LateOutput } from './late-output.js';
import { isShell } from '../pane/shells.js';
import { isKeyName, screenKeys } from './screen-keys.js';
import { pressEnter, sendKeys, tmuxKeysSink, typeLine, type KeysSink } from '../typing/type-into-pane.js';
import { showsLineEditor } from '../typing/line-editor.js';

// A conversation's errors, for the bridge: the pane is busy, or gone (tmux's own error).
export { PaneGoneError, formatLate };

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
  /** Lines an answer holds at most (default 200,000); the rest go to a spill file. */
  readonly maxLines?: number;
  /** How soon streamed output goes to the client after it arrives (default 20 ms). */
  readonly flushMs?: number;
}

export interface PaneWriter {
  readonly panes: Pick<PaneListing, 'captureBatch'>;
  readonly io: Pick<PaneIo, 'send' | 'paste'>;
}

/** The panes' output streams (PaneStreams): answers are read from them. */
export interface OutputStreams {
  subscribe(paneId: string, viewer: StreamViewer): Promise<Subscription>;
  /** Resolves once the output tmux had read before the call has been delivered. */
  sync(paneId: string): Promise<void>;
}

export interface ConversationDeps {
  readonly tmux: PaneWriter;
  readonly ticker: CaptureTicker;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly settings: ConversationSettings;
  readonly classify?: Classifier;
  /** The streams answers are read from; without them, answers come from screen captures alone. */
  readonly streams?: () => Promise<OutputStreams>;
  /** Where an answer past its cap keeps every line (a file). */
  readonly openSpill?: (paneId: string) => SpillTarget;
  /** Whether the pane's foreground program waits for input (null: cannot tell; see input-wait.ts). */
  readonly waitsForInput?: (paneId: string) => boolean | null;
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

/**
 * Why a pane is not free for a new message: typing, answering, its answer has ended but its
 * command still runs, or the command asked a question (then the next message is its answer).
 */
export interface PaneHold {
  readonly paneId: string;
  readonly phase: 'typing' | 'answering' | 'running' | 'question';
  /** When the message was typed (ms). */
  readonly since: number;
  /** The pane's foreground command when last seen. */
  readonly command: string | null;
}

export class PaneBusyError extends Error {
  constructor(
    readonly hold: PaneHold,
    message?: string,
  ) {
    super(
      message ??
        (hold.phase === 'running'
          ? `pane ${hold.paneId} is still running the previous command${hold.command ? ` (${hold.command})` : ''}: its prompt is not back`
          : `pane ${hold.paneId} is already answering another request`),
    );
    this.name = 'PaneBusyError';
  }
}

/** The pane runs a program that is not at a prompt corral knows: nothing was typed. */
export class NotAtPromptError extends PaneBusyError {
  constructor(paneId: string, command: string, since: number) {
    const program = command === '' ? 'a program' : command;
    super(
      { paneId, phase: 'running', since, command: command || null },
      `pane ${paneId} is running ${program}, which is not waiting at a prompt corral recognises; nothing was typed: wait for it to finish, or send C-c (the key name alone as the message) to interrupt it`,
    );
    this.name = 'NotAtPromptError';
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
    ...(capture.cursorX !== undefined ? { cursorX: capture.cursorX } : {}),
  };
}

/** Where an answer's text goes while a request listens; null between answers. */
interface Sink {
  say(text: string): void;
  finish(outcome: ConversationOutcome): void;
}

/** One pane's conversation: possibly several answers (a question, then the reply to it). */
interface Session {
  readonly paneId: string;
  hold: PaneHold;
  /** The tmux server the pane belongs to (`pid:start`). */
  server: string | null;
  conversation: Conversation | null;
  stream: PaneStream | null;
  stop: (() => void) | null;
  sink: Sink | null;
  /** Ticks and flushes are handled one at a time, in order. */
  queue: Promise<void>;
  flushTimer: unknown;
  /** The question's answer kind: a menu key is typed without Enter. */
  answerKind: 'key' | 'line' | 'secret' | 'screen' | null;
}

interface PaneStream {
  readonly source: StreamSource;
  readonly subscription: Subscription;
  readonly streams: OutputStreams;
}

export class PaneConversations implements ConversationPort {
  private readonly sessions = new Map<string, Session>();
  private readonly late = new Map<string, LateOutput & { server: string | null; spill?: SpillTarget | null }>();
  /** Per pane, the prompt alone when its row also shows output printed before it. */
  private readonly prompts = new Map<string, { row: string; prompt: { text: string; cells: number }; server: string | null }>();
  private readonly typing = new Set<Promise<unknown>>();
  private closed = false;

  constructor(private readonly deps: ConversationDeps) {}

  hold(paneId: string): PaneHold | null {
    return this.sessions.get(paneId)?.hold ?? null;
  }

  holds(): PaneHold[] {
    return [...this.sessions.values()].map((session) => session.hold);
  }

  async converse(paneId: string, message: string, options: ConverseOptions = {}): Promise<ConversationOutcome> {
    const held = this.sessions.get(paneId);
    if (held?.hold.phase === 'question' && held.conversation?.waitsForInput && !held.sink) return this.replyTo(held, message, options);
    // A command the chat started still runs: a key name alone (C-c) goes to it; text never does.
    if (held?.hold.phase === 'running' && held.conversation && !held.sink && isKeyName(message)) return this.replyTo(held, message, options, true);
    if (held) {
      if (held.hold.phase !== 'running' || !(await this.fromOldServer(held))) throw new PaneBusyError(held.hold);
      this.release(held);
    }
    if (this.closed || options.signal?.aborted) return { status: 'aborted', answer: '' };
    const session: Session = {
      paneId,
      hold: { paneId, phase: 'typing', since: this.deps.clock.now(), command: null },
      server: null,
      conversation: null,
      stream: null,
      stop: null,
      sink: null,
      queue: Promise.resolve(),
      flushTimer: null,
      answerKind: null,
    };
    this.sessions.set(paneId, session);
    try {
      await this.start(session, message, options);
    } catch (error) {
      this.release(session);
      throw error;
    }
    if (this.closed || options.signal?.aborted) {
      if (session.conversation === null) {
        this.release(session);
        return { status: 'aborted', answer: '' };
      }
    }
    session.hold = { ...session.hold, phase: 'answering', since: this.deps.clock.now() };
    options.onTyped?.();
    return this.answer(session, this.takeLate(session), options);
  }

  /** Stops following one pane (its hold is dropped); typing in progress still finishes. */
  drop(paneId: string): void {
    const session = this.sessions.get(paneId);
    if (session && session.hold.phase !== 'typing') this.release(session);
  }

  /** Stops watching every pane (holds are dropped) once typing in progress has finished. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.typing]);
    for (const session of [...this.sessions.values()]) this.release(session);
  }

  // --- starting an answer --------------------------------------------------------------------

  /** Baseline, the prompt check, the stream, then the typing: whole, never cut by the client. */
  private async start(session: Session, message: string, options: ConverseOptions): Promise<void> {
    const { tmux, settings, clock } = this.deps;
    const paneId = session.paneId;
    const first = await tmux.panes.captureBatch([paneId], { history: settings.historyLines });
    const baseline = first.captures.get(paneId);
    if (!baseline || baseline.dead) throw new PaneGoneError(paneId);
    const capture = toPaneCapture(baseline);
    session.server = baseline.server ?? null;
    session.hold = { ...session.hold, command: baseline.command || null };
    // Not at a prompt: a full-screen program takes the message as keys, any other program only a
    // key name alone (C-c); text is never typed into it.
    const keysOnly = !this.readyForText(capture);
    if (keysOnly && capture.alternate !== true && !isKeyName(message)) throw new NotAtPromptError(paneId, baseline.command, clock.now());
    if (this.closed || options.signal?.aborted) return;
    session.stream = await this.openStream(session, baseline);
    const known = this.prompts.get(paneId);
    const waitsOn = (capture.lines[capture.cursorRow] ?? '').trim();
    session.conversation = new Conversation(capture, message, clock.now(), settings, this.deps.classify, {
      ...(session.stream ? { source: session.stream.source } : {}),
      ...(known && known.row === waitsOn && known.server === session.server ? { prompt: known.prompt } : {}),
      ...(this.deps.openSpill ? { openSpill: () => this.deps.openSpill!(paneId) } : {}),
      ...(keysOnly ? { keys: true } : {}),
    });
    if (keysOnly) await this.sendWhole(paneId, screenKeys(message));
    else await this.typeWhole(paneId, message, showsLineEditor(capture, (screen) => this.classifier(screen)));
  }

  /** Typing that neither the client nor a shutdown cuts short. */
  private async typeWhole(paneId: string, message: string, lineEditor: boolean, enter = true): Promise<void> {
    const { timers, settings } = this.deps;
    const typed = typeLine(this.sinkOf(paneId), message, {
      timers,
      enterDelayMs: settings.enterDelayMs,
      pasteAbove: settings.pasteThreshold,
      lineEditor,
      enter,
      eraseWith: () => this.cursorLine(paneId),
    });
    this.typing.add(typed);
    try {
      await typed;
    } finally {
      this.typing.delete(typed);
    }
  }

  /** Keys for a full-screen program, sent whole like typing. */
  private async sendWhole(paneId: string, items: readonly SendItem[]): Promise<void> {
    const sent = sendKeys(this.sinkOf(paneId), items);
    this.typing.add(sent);
    try {
      await sent;
    } finally {
      this.typing.delete(sent);
    }
  }

  /** A prompt corral recognises, or a shell with nothing of its own in the foreground. */
  private readyForText(capture: PaneCapture): boolean {
    const verdict = this.classifier(capture.lines.slice(Math.max(0, capture.lines.length - capture.height)));
    if (verdict.prompt && !verdict.busy) return true;
    return capture.alternate !== true && isShell(capture.command ?? '');
  }

  private classifier(lines: readonly string[]) {
    return (this.deps.classify ?? ((screen: readonly string[]) => classifyScreen(screen)))(lines);
  }

  /** Whether a held pane's capture now comes from another tmux server (or the pane is gone). */
  private async fromOldServer(session: Session): Promise<boolean> {
    const result = await this.deps.tmux.panes.captureBatch([session.paneId], { history: 0 });
    const capture = result.captures.get(session.paneId);
    if (!capture || capture.dead) return true;
    session.hold = { ...session.hold, command: capture.command || session.hold.command };
    return session.server !== null && capture.server !== undefined && capture.server !== session.server;
  }

  /** The command asked a question: the message is its answer, and a new answer follows. */
  private async replyTo(session: Session, message: string, options: ConverseOptions, keys = false): Promise<ConversationOutcome> {
    const conversation = session.conversation as Conversation;
    session.hold = { ...session.hold, phase: 'typing', since: this.deps.clock.now() };
    conversation.reply(message, this.deps.clock.now());
    try {
      // A menu takes the reply as keys alone, any other question as a line (answer-plan.ts).
      if (keys || session.answerKind === 'screen') await this.sendWhole(session.paneId, screenKeys(message));
      else {
        const line = planFreeText(session.answerKind, message).kind === 'line';
        await this.typeWhole(session.paneId, message, line, line);
      }
    } catch (error) {
      session.hold = { ...session.hold, phase: 'question' };
      throw error;
    }
    session.hold = { ...session.hold, phase: 'answering', since: this.deps.clock.now() };
    options.onTyped?.();
    this.follow(session);
    return this.answer(session, this.takeLate(session), options);
  }

  // --- the stream ----------------------------------------------------------------------------

  /** Subscribes to the pane's output before typing; null when there is no stream (captures then). */
  private async openStream(session: Session, baseline: BatchCapture): Promise<PaneStream | null> {
    if (!this.deps.streams) return null;
    try {
      const streams = await this.deps.streams();
      let source: StreamSource | null = null;
      const early: Buffer[] = [];
      const size = { cols: baseline.width ?? 80, rows: baseline.height };
      const viewer: StreamViewer = {
        text: false,
        onOutput: (chunk) => (source ? this.feed(session, source, chunk.bytes) : early.push(chunk.bytes)),
        onReset: (replay) => source?.restart(new StreamLines({ ...size, screen: replay.bytes }), 'tmux paused the pane while corral fell behind'),
        onEnd: (end) => source?.ended(end.status === 'exited' ? null : 'the connection to tmux was lost'),
      };
      const subscription = await streams.subscribe(session.paneId, viewer);
      source = new StreamSource(new StreamLines({ ...size, screen: subscription.replay.bytes, alternate: baseline.alternate }));
      for (const bytes of early) void source.write(bytes);
      await source.settled();
      return { source, subscription, streams };
    } catch {
      // No stream (the control client could not attach): the screen differ reads the captures.
      return null;
    }
  }

  private feed(session: Session, source: StreamSource, bytes: Buffer): void {
    void source.write(bytes).then(() => this.scheduleFlush(session));
  }

  /** Streamed output goes out shortly after it arrives, without waiting for the next poll. */
  private scheduleFlush(session: Session): void {
    if (session.flushTimer !== null || this.sessions.get(session.paneId) !== session) return;
    session.flushTimer = this.deps.timers.setTimeout(() => {
      session.flushTimer = null;
      this.enqueue(session, () => this.flush(session));
    }, this.deps.settings.flushMs ?? 20);
  }

  /** Runs ticks and flushes one at a time; one that fails ends the answer instead of the queue. */
  private enqueue(session: Session, work: () => void | Promise<void>): void {
    session.queue = session.queue.then(work).catch((error: unknown) => this.broken(session, error as Error));
  }

  private broken(session: Session, error: Error): void {
    if (process.env.CORRAL_DEBUG_BRIDGE) console.error(error);
    const conversation = session.conversation;
    if (!conversation || this.sessions.get(session.paneId) !== session) return;
    if (conversation.phase === 'answering') session.sink?.say(conversation.end('stop'));
    session.sink?.finish({ status: 'failed', answer: conversation.answer, message: `corral could not follow the pane: ${error.message}` });
    this.holdOn(session, false);
  }

  private flush(session: Session): void {
    const conversation = session.conversation;
    if (!conversation || this.sessions.get(session.paneId) !== session) return;
    if (awaitsClient(session, conversation)) return;
    const { text, late } = conversation.pump();
    if (text !== '') session.sink?.say(text);
    if (late.length > 0) this.keepLate(session, late);
  }

  // --- following the answer ------------------------------------------------------------------

  private answer(session: Session, prefix: string, options: ConverseOptions): Promise<ConversationOutcome> {
    const conversation = session.conversation as Conversation;
    const { signal } = options;
    if (prefix !== '') options.onText?.(prefix);
    return new Promise<ConversationOutcome>((resolve) => {
      let settled = false;
      const onAbort = () => {
        if (conversation.phase === 'answering') {
          // What the client was last given may not have reached it: it opens the next answer again.
          this.keepLate(session, conversation.abandon(), true);
          this.holdOn(session, false);
        }
        session.sink?.finish({ status: 'aborted', answer: conversation.answer });
      };
      session.sink = {
        say: (text) => {
          if (text !== '' && !settled) options.onText?.(text);
        },
        finish: (outcome) => {
          if (settled) return;
          settled = true;
          session.sink = null;
          signal?.removeEventListener('abort', onAbort);
          resolve({ ...outcome, answer: prefix + outcome.answer });
        },
      };
      if (session.stop === null) this.follow(session);
      this.enqueue(session, () => this.flush(session));
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Watches the pane at every poll while it answers, less often once the answer has ended. */
  private follow(session: Session, intervalMs?: number): void {
    session.stop?.();
    const conversation = session.conversation as Conversation;
    session.stop = this.deps.ticker.watch(
      session.paneId,
      (event) => {
        // The stream catches up with the capture first (outside the queue, so streamed text keeps
        // flowing meanwhile); then the tick takes its turn.
        const caughtUp = this.catchUp(session, event);
        this.enqueue(session, async () => {
          await caughtUp;
          this.onTick(session, event);
        });
      },
      () => conversation.historyWanted(this.deps.settings.historyLines),
      intervalMs,
    );
  }

  private holdOn(session: Session, question: boolean): void {
    session.hold = { ...session.hold, phase: question ? 'question' : 'running' };
    this.follow(session, this.deps.settings.heldPollMs ?? 500);
  }

  /** Every byte tmux had read when it captured the pane is in the stream before the screen is judged. */
  private async catchUp(session: Session, event: TickEvent): Promise<void> {
    const stream = session.stream;
    if (!stream || event.kind !== 'capture') return;
    await stream.streams.sync(session.paneId);
    await stream.source.settled();
  }

  private onTick(session: Session, event: TickEvent): void {
    if (this.sessions.get(session.paneId) !== session) return;
    const conversation = session.conversation as Conversation;
    if (event.kind === 'capture' && session.server !== null && event.capture.server !== undefined && event.capture.server !== session.server) {
      return this.paneGone(session, 'the tmux server was restarted');
    }
    if (event.kind === 'gone') return this.paneGone(session, 'closed');
    if (event.kind === 'error') {
      if (conversation.phase !== 'answering') return;
      // tmux failed: the answer ends, the pane stays reserved while corral tries again.
      session.sink?.say(conversation.end('stop'));
      session.sink?.finish({ status: 'failed', answer: conversation.answer, message: event.error.message });
      return this.holdOn(session, false);
    }
    if (awaitsClient(session, conversation)) return;
    this.observe(session, conversation, event.capture);
  }

  private observe(session: Session, conversation: Conversation, capture: BatchCapture): void {
    session.hold = { ...session.hold, command: capture.command || session.hold.command };
    const before = conversation.phase;
    const seen = toPaneCapture(capture);
    // The kernel is asked only when the screen could show a question.
    const waits = endsLikeQuestion(seen) ? (this.deps.waitsForInput?.(session.paneId) ?? null) : null;
    const step = conversation.observe(waits === null ? seen : { ...seen, waitsForInput: waits }, this.deps.clock.now());
    session.sink?.say(step.text);
    if (step.late.length > 0) this.keepLate(session, step.late);
    if (step.closeBlock) void this.closeBlock(session.paneId);
    if (step.question) session.answerKind = step.screen ? 'screen' : (this.classifier(toPaneCapture(capture).lines.slice(-capture.height)).answer?.kind ?? 'line');
    if (step.finish) session.sink?.finish({ status: 'finished', finishReason: step.finish, answer: conversation.answer });
    if (step.released) {
      const left = conversation.promptLeft();
      if (left) this.prompts.set(session.paneId, { ...left, server: session.server });
      else this.prompts.delete(session.paneId);
      this.release(session);
    }
    else if (before === 'answering' && conversation.phase === 'finishing') this.holdOn(session, step.question === true);
    else if (session.hold.phase === 'question' && !conversation.waitsForInput) session.hold = { ...session.hold, phase: 'running' };
  }

  private paneGone(session: Session, why: string): void {
    const conversation = session.conversation as Conversation;
    session.sink?.say(conversation.end('stop', true));
    this.late.get(session.paneId)?.spill?.close();
    this.late.delete(session.paneId);
    this.release(session);
    session.sink?.finish({ status: 'pane-gone', answer: conversation.answer, message: `pane ${session.paneId} ${why} while answering` });
  }

  private release(session: Session): void {
    session.stop?.();
    session.stop = null;
    if (session.flushTimer !== null) this.deps.timers.clearTimeout(session.flushTimer);
    session.flushTimer = null;
    session.stream?.subscription.unsubscribe();
    session.stream?.source.dispose();
    session.stream = null;
    if (this.sessions.get(session.paneId) === session) this.sessions.delete(session.paneId);
  }

  // --- late output ---------------------------------------------------------------------------

  private keepLate(session: Session, lines: readonly string[], cut = false): void {
    const limit = this.deps.settings.lateLines ?? 2000;
    const kept = this.late.get(session.paneId) ?? { lines: [], dropped: 0, cut: false, server: session.server };
    if (cut) kept.cut = true;
    const all = kept.lines.concat(lines);
    if (all.length > limit) {
      // The oldest lines leave the block, never the record: they go to a file, as an answer's past its cap do.
      this.spillLate(session.paneId, kept, all.slice(0, all.length - limit));
      kept.dropped += all.length - limit;
      kept.lines = all.slice(-limit);
    } else kept.lines = all;
    this.late.set(session.paneId, kept);
  }

  private spillLate(paneId: string, kept: LateOutput & { spill?: SpillTarget | null }, lines: readonly string[]): void {
    if (kept.spill === undefined) {
      kept.spill = null;
      try {
        if (this.deps.openSpill) {
          kept.spill = this.deps.openSpill(paneId);
          kept.where = { path: kept.spill.where };
        } else kept.where = { error: 'no place to save them' };
      } catch (error) {
        kept.where = { error: (error as Error).message };
      }
    }
    kept.spill?.write(lines);
  }

  /** The late output that opens the next answer (never another tmux server's). */
  private takeLate(session: Session): string {
    const late = this.late.get(session.paneId);
    this.late.delete(session.paneId);
    late?.spill?.close();
    if (!late || late.lines.length === 0 || late.server !== session.server) return '';
    return formatLate(late, this.deps.settings.fence !== false);
  }

  // --- typing --------------------------------------------------------------------------------

  private sinkOf(paneId: string): KeysSink {
    return tmuxKeysSink(this.deps.tmux.io, paneId);
  }

  /** The pane's cursor line now, which an erase reads to see whether the line editor cleared it. */
  private async cursorLine(paneId: string): Promise<string> {
    const check = await this.deps.tmux.panes.captureBatch([paneId], { history: 0 });
    const capture = check.captures.get(paneId);
    return capture ? (captureLines(capture.text)[capture.cursorRow] ?? '') : '';
  }

  /** The message opened a REPL block: Enter once more, so that it runs. */
  private async closeBlock(paneId: string): Promise<void> {
    try {
      await pressEnter(this.sinkOf(paneId));
    } catch {
      // The pane closed: the next poll says so.
    }
  }
}

export interface ConversationDeskOptions {
  readonly tmux: PaneWriter;
  readonly settings: ConversationSettings & { readonly pollMs: number };
  readonly classify?: Classifier;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly streams?: () => Promise<OutputStreams>;
  readonly openSpill?: (paneId: string) => SpillTarget;
  readonly waitsForInput?: (paneId: string) => boolean | null;
}

/** A conversation port over one tmux client: one capture ticker shared by every answering pane. */
export function createConversations(options: ConversationDeskOptions): PaneConversations & { readonly ticker: CaptureTicker } {
  const { clock, timers } = options;
  const ticker = new CaptureTicker({ tmux: options.tmux, intervalMs: options.settings.pollMs, historyLines: options.settings.historyLines, timers, clock });
  const desk = new PaneConversations({
    tmux: options.tmux,
    ticker,
    clock,
    timers,
    settings: options.settings,
    ...(options.classify ? { classify: options.classify } : {}),
    ...(options.streams ? { streams: options.streams } : {}),
    ...(options.openSpill ? { openSpill: options.openSpill } : {}),
    ...(options.waitsForInput ? { waitsForInput: options.waitsForInput } : {}),
  });
  const close = desk.close.bind(desk);
  return Object.assign(desk, {
    ticker,
    async close() {
      await close();
      ticker.close();
    },
  });
}

/**
 * An answer typed but not yet handed to its client (tmux has not confirmed the Enter; the stream has
 * its own connection, so output can come first): what it has waits in the stream, and answer()
 * flushes it once the client is there.
 */
function awaitsClient(session: Session, conversation: Conversation): boolean {
  return conversation.phase === 'answering' && session.sink === null;
}
