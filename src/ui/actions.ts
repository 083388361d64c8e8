// What the dashboard asks the outside world to do. The CLI implements this with the engine's
// TmuxClient; tests pass a recording fake. Components never spawn anything themselves.

import type { PaneView } from '../engine/types.js';
import type { SendItem } from '../engine/keys.js';

export interface JumpResult {
  /** True when the tmux client now shows the pane; false when the user must attach by hand. */
  readonly switched: boolean;
  /** What to tell the user (e.g. `tmux -L work attach -t api:1.0`). */
  readonly message: string;
}

/** What to type into a pane, and on which screen the person chose to. */
export interface TypeRequest {
  /** Keys and text, typed in order. */
  readonly items: readonly SendItem[];
  /** Enter follows, after a short pause (full-screen programs can drop an Enter sent with the text). */
  readonly enter: boolean;
  /**
   * The pane's screen hash as drawn when the person chose this. The keys go out only if the pane
   * still shows that screen at the moment of sending; otherwise nothing is typed and the promise
   * rejects with a message. Null for signals the person confirmed by the pane's name.
   */
  readonly shownHash: string | null;
}

export interface DashboardActions {
  /** Types into the pane (quick answers, replies, confirmed signals). */
  type(pane: PaneView, request: TypeRequest): Promise<void>;
  jumpTo(pane: PaneView): Promise<JumpResult>;
  /** Starts or stops the chat bridge; its state arrives through the services store. */
  toggleBridge(): Promise<void>;
  toggleAttach(): Promise<void>;
  /** Leaves the dashboard (the CLI unmounts, stops the engine and restores the terminal). */
  quit(): void;
}
