// What the servers see of a pane: the port's interface, the types it speaks in and the errors it
// throws. A server imports these from here (or pane-port.ts), never from the pane streams, the
// conversation pipeline or the tmux layer behind them (a lint rule holds it to that).

import type { AnswerPlan } from '../typing/answer-plan.js';
import type { ConversationOutcome, ConverseOptions, PaneHold } from '../conversation/run-conversation.js';
import type { StreamViewer, Subscription } from '../pane-stream/pane-streams.js';
import type { SendItem } from '../typing/keys.js';
import type { StartRequest, StartedPane } from '../launch/pane-launch.js';
import type { EngineHandle, PaneView } from '../types.js';

export { HostDownError, refuseIfHostDown } from '../hosts/host-status.js';
export { AnswerRefusedError } from '../typing/answer-plan.js';
export { ScreenChangedError, screenRefusal } from '../typing/guarded-send.js';
export { UnknownKeyError, parseSendItems } from '../typing/keys.js';
export { PaneGoneError } from '../tmux/core.js';
export { PaneReplacedError, StartRefusedError, WorktreeError } from '../launch/pane-launch.js';
export { StreamsClosingError } from '../pane-stream/pane-streams.js';
export { NotAtPromptError, PaneBusyError } from '../conversation/run-conversation.js';
export type { LiveChunk, PaneEnd, Replay } from '../pane-stream/pane-streams.js';
export type { StartRequest, StartedPane, AnswerPlan, SendItem, ConversationOutcome, ConverseOptions, PaneHold, StreamViewer, Subscription };

/** A started pane with its key across hosts. */
export type StartedPaneKey = StartedPane & { readonly key: string };

/** The key names no pane: it is not `%N` or `host/%N`. */
export class BadPaneKeyError extends Error {
  constructor(readonly key: string) {
    super(`${key} is not a pane key (%3, or build-box/%3 for another host)`);
    this.name = 'BadPaneKeyError';
  }
}

/** The key's host is not one corral watches (or not the one this port serves). */
export class UnknownHostError extends Error {
  constructor(
    readonly host: string,
    readonly key: string,
  ) {
    super(`corral watches no host named ${host} (pane ${key})`);
    this.name = 'UnknownHostError';
  }
}

/** A guard for typing: the content hash of the screen the person saw (PaneView.contentHash; see guarded-send). */
export interface SendGuard {
  readonly shownHash: string;
  /** For the message when the screen changed (`main:1.0`); the key by default. */
  readonly target?: string;
  /** Where the answer comes from, kept in the pane's attention record (`dashboard`, `page`, `mcp` ...). */
  readonly surface?: string;
}

export interface PanePort extends EngineHandle {
  /** The pane for a key from the store (no tmux call); null when the store has none. */
  find(key: string): PaneView | null;
  /**
   * Types text into the pane and resolves with its answer once the program is back at its prompt;
   * the answer is streamed through `onText` on the way (what the chat bridge needs).
   */
  converse(key: string, text: string, options?: ConverseOptions): Promise<ConversationOutcome>;
  /** Why a pane is not free for a new message; null when it is. */
  hold(key: string): PaneHold | null;
  /**
   * The tmux server the pane's key belongs to now (`pid:start`): a pane id is unique only within
   * one server, so what is kept per pane is kept per server too.
   */
  identify(key: string): Promise<string>;
  holds(): PaneHold[];
  /** Stops following a pane's conversation and drops its hold (a server that is switched off). */
  release(key: string): void;
  /** A live stream of the pane's output, from a replay (see PaneStreams.subscribe). */
  stream(key: string, viewer: StreamViewer, fromOffset?: number): Promise<Subscription>;
  /** Sends the viewer a fresh repaint of the pane. */
  repaint(key: string, viewer: StreamViewer): Promise<void>;
  /** Keys or text (validated with parseSendItems); with a guard, only while the screen is the one seen. */
  send(key: string, items: readonly SendItem[], guard?: SendGuard): Promise<void>;
  /** The pane's screen now, with `history` lines above it (wrapped lines joined), as tmux holds it. */
  read(key: string, history: number): Promise<string>;
  /** Raw terminal bytes (a viewer's keystrokes). */
  input(key: string, bytes: Buffer): Promise<void>;
  /** A line of text, then Enter a moment later (an empty text sends Enter alone); with a guard, only while the screen is the one seen. */
  reply(key: string, text: string, guard?: SendGuard): Promise<void>;
  /**
   * Gives one of the answers the pane's prompt offers (answer-plan.ts), only while the pane shows
   * the screen the answer was chosen on: `guard`'s, else the one in the store. Resolves to what was
   * typed; AnswerRefusedError when the prompt does not take it, ScreenChangedError when the screen changed.
   */
  answer(key: string, option: string, guard?: SendGuard): Promise<AnswerPlan>;
  resize(key: string, cols: number, rows: number): Promise<void>;
  /** Starts a command in a new window on `host` (pane-launch.ts); resolves with the new pane's key. */
  start(host: string, request: StartRequest): Promise<StartedPaneKey>;
  /** Ends the pane, if it is still the one seen (`seenPid`, its process then); PaneGoneError when it has closed. */
  end(key: string, seenPid: number | null): Promise<void>;
  /** Ends streams and conversations; the engine itself is stopped by its owner. */
  close(): Promise<void>;
}

