// Whether a pane may be typed into for a new line: it shows a prompt corral recognises (not a
// secret, not busy), or it is a shell with nothing running in front of it. Pure.

import { isShell } from '../pane/shells.js';
import type { PaneView } from '../types.js';

/** Null when the pane is ready for a line; otherwise why not, for people. */
export function notReadyForInput(view: PaneView): string | null {
  const verdict = view.verdict;
  if (!view.online) return `${view.target}'s host is down`;
  if (verdict?.busy) return `${view.target} is busy (${view.pane.command} is working)`;
  if (verdict?.prompt) return verdict.answer?.kind === 'secret' ? `${view.target} asks for a secret, which only a person types` : null;
  if (isShell(view.pane.command)) return null;
  return `${view.target} runs ${view.pane.command || 'a program'}, which is not at a prompt corral recognises`;
}
