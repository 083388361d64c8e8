// Typing into a pane on a person's behalf, only while the pane shows the screen that person saw.
// The screen is captured and hashed the way the poller hashes its content (animation masked: a
// dialog whose bullet blinks is still the dialog that was drawn), right before the keys go out (the
// pane port's guarded send, reply and answer); when it differs from the hash that was drawn,
// nothing is typed.

import { contentHash } from '../pane/screen-content.js';
import { readLines } from '../pane/screen-hash.js';
import type { PaneIo } from '../tmux/pane-io.js';

export class ScreenChangedError extends Error {
  constructor(readonly target: string) {
    super(`${target} changed since it was drawn; nothing was sent: look again, then answer`);
    this.name = 'ScreenChangedError';
  }
}

/**
 * The one screen guard: the refusal when what was typed was chosen on the screen `shownHash` and the
 * pane now shows `currentHash` (both content hashes, PaneView.contentHash), null when they agree
 * or nothing was shown. Every surface words and decides it this way.
 */
export function screenRefusal(target: string, shownHash: string | null, currentHash: string): ScreenChangedError | null {
  return shownHash !== null && shownHash !== currentHash ? new ScreenChangedError(target) : null;
}

/** The pane's content hash now: its screen read as a poll reads it, hashed as the poller hashes content. */
export async function currentContentHash(tmux: Pick<PaneIo, 'screen'>, paneId: string): Promise<string> {
  const { lines, hash } = readLines(await tmux.screen(paneId));
  return contentHash(lines, hash);
}

/** Reads the pane again right before keys go out; throws the screen guard's refusal when it is not the screen shown. */
export async function guardScreen(tmux: Pick<PaneIo, 'screen'>, paneId: string, target: string, shownHash: string): Promise<void> {
  const refusal = screenRefusal(target, shownHash, await currentContentHash(tmux, paneId));
  if (refusal) throw refusal;
}
