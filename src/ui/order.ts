// Row order for the dashboard, most urgent first: panes that ask for permission, then panes
// stopped at a prompt (each group longest stuck first), then snoozed ones, then everything else by
// quiet time (longest quiet first). The order is only recomputed at moments the caller chooses
// (see state.ts), so rows do not jump while someone moves through them.

import type { PaneView } from '../engine/types.js';

const RANK_REST = 3;

function rank(view: PaneView): number {
  if (view.state !== 'stuck') return RANK_REST;
  if (view.acknowledged) return 2;
  return view.reason === 'permission' ? 0 : 1;
}

const collator = new Intl.Collator('en', { numeric: true });

export function compareViews(a: PaneView, b: PaneView): number {
  const byRank = rank(a) - rank(b);
  if (byRank !== 0) return byRank;
  if (rank(a) < RANK_REST) {
    const byStuck = (a.stuckSince ?? a.quietSince) - (b.stuckSince ?? b.quietSince);
    if (byStuck !== 0) return byStuck;
  }
  const byQuiet = a.quietSince - b.quietSince;
  if (byQuiet !== 0) return byQuiet;
  return collator.compare(a.target, b.target) || collator.compare(a.pane.paneId, b.pane.paneId);
}

/** Pane ids in display order. */
export function sortPaneIds(panes: readonly PaneView[]): string[] {
  return [...panes].sort(compareViews).map((v) => v.pane.paneId);
}

/** Keeps an existing order: drops panes that are gone, appends new ones (sorted among themselves). */
export function keepOrder(order: readonly string[], panes: readonly PaneView[]): string[] {
  const present = new Set(panes.map((v) => v.pane.paneId));
  const kept = order.filter((id) => present.has(id));
  const known = new Set(kept);
  const added = sortPaneIds(panes.filter((v) => !known.has(v.pane.paneId)));
  return [...kept, ...added];
}

/** Identifies the set of panes that wait for you (stuck and not snoozed); a change triggers a re-sort. */
export function stuckSetKey(panes: readonly PaneView[]): string {
  return panes
    .filter((v) => v.state === 'stuck' && !v.acknowledged)
    .map((v) => v.pane.paneId)
    .sort()
    .join(' ');
}

export function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
