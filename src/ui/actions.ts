// What the dashboard asks the outside world to do. The CLI implements this with the engine's pane
// port (the one every server types through) and this machine's tmux client for jumps; tests pass
// a recording fake. Components never spawn anything themselves.

import type { AnswerPlan } from '../engine/typing/answer-plan.js';
import type { StartRequest, StartedPane } from '../engine/launch/pane-launch.js';
import type { PaneView } from '../engine/types.js';
import type { SendItem } from '../engine/typing/keys.js';

export interface JumpResult {
  /** True when the tmux client now shows the pane; false when the user must attach by hand. */
  readonly switched: boolean;
  /** What to tell the user (e.g. `tmux -L work attach -t api:1.0`). */
  readonly message: string;
}

/**
 * Typing into panes. `shownHash` is the pane's screen hash as drawn when the person chose: the
 * keys go out only if the pane still shows that screen at the moment of sending; otherwise nothing
 * is typed and the promise rejects with a message. Null only for signals the person confirmed by
 * the pane's name.
 */
export interface DashboardActions {
  /** One of the answers the pane's prompt offers (the engine's answer plan decides what it types). */
  answer(pane: PaneView, option: string, shownHash: string): Promise<AnswerPlan>;
  /** Keys as they are: a menu move, a confirmed signal. */
  send(pane: PaneView, items: readonly SendItem[], shownHash: string | null): Promise<void>;
  /** A line of text, then Enter a moment later (an empty text sends Enter alone). */
  reply(pane: PaneView, text: string, shownHash: string): Promise<void>;
  jumpTo(pane: PaneView): Promise<JumpResult>;
  /** Starts a command in a new window on `host`; resolves with the new pane and its key. */
  start(host: string, request: StartRequest): Promise<StartedPane & { readonly key: string }>;
  /** Ends the pane if it still runs the process `pid` the person saw; rejects with why not. */
  end(pane: PaneView, pid: number): Promise<void>;
  /** Starts or stops the chat bridge; its state arrives through the services store. */
  toggleBridge(): Promise<void>;
  toggleAttach(): Promise<void>;
  /** Leaves the dashboard (the CLI unmounts, stops the engine and restores the terminal). */
  quit(): void;
}
