// Row order for the dashboard: the engine's pane order (engine/pane/pane-order.ts), recomputed only at
// moments the caller chooses (see state.ts), so rows do not jump while someone moves through them.

import { needsPerson } from '../engine/pane/pane-status.js';
import { compareViews } from '../engine/pane/pane-order.js';
import type { PaneView } from '../engine/types.js';

export { compareViews };

/**
 * Pane keys (see paneKey) in display order. Panes whose host is down come after the others: their
 * last state may no longer be true, and nothing can be sent to them.
 */
export function sortPaneIds(panes: readonly PaneView[]): string[] {
  return [...panes].sort((a, b) => Number(!a.online) - Number(!b.online) || compareViews(a, b)).map((v) => v.key);
}

/** Keeps an existing order: drops panes that are gone, appends new ones (sorted among themselves). */
export function keepOrder(order: readonly string[], panes: readonly PaneView[]): string[] {
  const present = new Set(panes.map((v) => v.key));
  const kept = order.filter((id) => present.has(id));
  const known = new Set(kept);
  const added = sortPaneIds(panes.filter((v) => !known.has(v.key)));
  return [...kept, ...added];
}

/** Identifies the set of panes that wait for you (stuck, not snoozed, host up); a change triggers a re-sort. */
export function stuckSetKey(panes: readonly PaneView[]): string {
  return panes
    .filter(needsPerson)
    .map((v) => v.key)
    .sort()
    .join(' ');
}

export function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
