// Typing into a pane on a person's behalf, only while the pane shows the screen that person saw:
// the screen is captured and hashed the way the poller hashes it, right before the keys go out
// (the pane port's guarded send, reply and answer); when it differs from the hash that was drawn,
// nothing is typed.

import { hashScreen } from './screen-hash.js';
import type { TmuxClient } from './tmux/client.js';

export class ScreenChangedError extends Error {
  constructor(readonly target: string) {
    super(`${target} changed since it was drawn; nothing was sent: look again, then answer`);
    this.name = 'ScreenChangedError';
  }
}

/** The pane's screen hash now, read and hashed as the poller reads and hashes it. */
export async function currentScreenHash(tmux: Pick<TmuxClient, 'screen'>, paneId: string): Promise<string> {
  return hashScreen(await tmux.screen(paneId));
}
