// Typing into a pane on a person's behalf, only while the pane shows the screen that person saw.
// The screen is captured and hashed the way the poller hashes its content (animation masked: a
// dialog whose bullet blinks is still the dialog that was drawn), right before the keys go out;
// when it differs from the hash that was drawn, nothing is typed. An Enter that follows the text
// goes to the same pane id (tmux never reuses one while its server runs), never to another pane.

import { contentHash } from './screen-content.js';
import { readLines } from './screen-hash.js';
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
  /** The content hash of the screen drawn when the person chose this (PaneView.contentHash); null sends without the check. */
  readonly shownHash: string | null;
}

export interface GuardOptions {
  readonly enterDelayMs?: number;
  /** For the wait before Enter; real ones that keep the process alive by default. */
  readonly timers?: Timers;
}

/** The pane's content hash now: its screen read as a poll reads it, hashed as the poller hashes content. */
export async function currentContentHash(tmux: Pick<TmuxClient, 'screen'>, paneId: string): Promise<string> {
  const { lines, hash } = readLines(await tmux.screen(paneId));
  return contentHash(lines, hash);
}

export async function sendIfUnchanged(
  tmux: TmuxClient,
  request: GuardedSend,
  options: GuardOptions = {},
): Promise<void> {
  const { paneId, items, enter, shownHash } = request;
  if (shownHash !== null && (await currentContentHash(tmux, paneId)) !== shownHash) {
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
