// Typing into a pane on a person's behalf, only while the pane shows the screen that person saw.
// The screen is captured and hashed the way the poller hashes it, right before the keys go out;
// when it differs from the hash that was drawn, nothing is typed. An Enter that follows the text
// goes to the same pane id (tmux never reuses one while its server runs), never to another pane.

import { hashScreen } from './screen-hash.js';
import type { TmuxClient } from './tmux/client.js';
import type { SendItem } from './keys.js';
import { heldTimers, type Timers } from './types.js';

export class ScreenChangedError extends Error {
  constructor(readonly target: string) {
    super(`${target} changed since it was drawn; nothing was sent: look again, then answer`);
    this.name = 'ScreenChangedError';
  }
}

export interface GuardedSend {
  readonly paneId: string;
  /** For messages: `main:1.0`. */
  readonly target: string;
  readonly items: readonly SendItem[];
  /** Enter after the items, `enterDelayMs` later (full-screen programs can drop an Enter sent with the text). */
  readonly enter: boolean;
  /** The screen hash that was drawn when the person chose this; null sends without the check. */
  readonly shownHash: string | null;
}

export interface GuardOptions {
  readonly enterDelayMs?: number;
  /** For the wait before Enter; real ones that keep the process alive by default. */
  readonly timers?: Timers;
}

/** The pane's screen hash now, read and hashed as the poller reads and hashes it. */
export async function currentScreenHash(tmux: Pick<TmuxClient, 'screen'>, paneId: string): Promise<string> {
  return hashScreen(await tmux.screen(paneId));
}

export async function sendIfUnchanged(
  tmux: TmuxClient,
  request: GuardedSend,
  options: GuardOptions = {},
): Promise<void> {
  const { paneId, items, enter, shownHash } = request;
  if (shownHash !== null && (await currentScreenHash(tmux, paneId)) !== shownHash) {
    throw new ScreenChangedError(request.target);
  }
  if (items.length > 0) await tmux.send(paneId, items);
  if (!enter) return;
  if (items.length > 0) {
    const timers = options.timers ?? heldTimers;
    await new Promise<void>((resolve) => timers.setTimeout(resolve, options.enterDelayMs ?? 100));
  }
  await tmux.send(paneId, [{ kind: 'key', key: 'Enter' }]);
}
