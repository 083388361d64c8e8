// What the dashboard asks the outside world to do. The CLI implements this with the engine's
// TmuxClient; tests pass a recording fake. Components never spawn anything themselves.

import type { PaneView } from '../engine/types.js';
import type { SendItem } from '../engine/tmux/keys.js';

export interface JumpResult {
  /** True when the tmux client now shows the pane; false when the user must attach by hand. */
  readonly switched: boolean;
  /** What to tell the user (e.g. `tmux -L work attach -t api:1.0`). */
  readonly message: string;
}

export interface DashboardActions {
  /** Types keys and text into the pane (quick answers). */
  send(pane: PaneView, items: readonly SendItem[]): Promise<void>;
  /** Types the text, then Enter. */
  reply(pane: PaneView, text: string): Promise<void>;
  jumpTo(pane: PaneView): Promise<JumpResult>;
  /** Starts or stops the chat bridge; its state arrives through the services store. */
  toggleBridge(): Promise<void>;
  toggleAttach(): Promise<void>;
  /** Leaves the dashboard (the CLI unmounts, stops the engine and restores the terminal). */
  quit(): void;
}
