// Which watched panes a poll cycle must capture. tmux stamps a window with the time of its last
// output (`window_activity`, whole seconds, updated whether or not anyone watches the window), so a
// pane whose window has been silent since its last capture still shows the screen corral already
// has. Skipping those captures is most of an idle cycle's cost, for corral and for the tmux server.

import type { PaneInfo } from './types.js';

/** Even a silent pane is captured this often, for screen changes that tmux does not stamp. */
export const RECAPTURE_MS = 30_000;

/**
 * Whether `current` must be captured, given the listing at its last capture (`previous`) and when
 * that capture was taken (`capturedAt`, wall-clock ms, like tmux's stamps; null: never).
 */
export function needsCapture(previous: PaneInfo, current: PaneInfo, capturedAt: number | null, now: number): boolean {
  // Also when the wall clock went back: stamps and capture times no longer compare.
  if (capturedAt === null || now < capturedAt || now - capturedAt >= RECAPTURE_MS) return true;
  // No stamp (an old tmux, or a format it left empty): nothing to go by.
  if (current.windowActivity <= 0) return true;
  // The stamp is the start of the second of the last output: any second that ends after the
  // capture may hold output the capture missed.
  if (current.windowActivity + 1000 > capturedAt) return true;
  // Changes that reach the screen without output: a resize reflows it, a respawn replaces it.
  return (
    current.width !== previous.width ||
    current.height !== previous.height ||
    current.pid !== previous.pid ||
    current.dead !== previous.dead ||
    current.alternateOn !== previous.alternateOn
  );
}
