// The order in which panes are shown, wherever they are listed (the dashboard, the web page):
// stuck panes first (longest stuck first), then snoozed ones, then everything else by quiet time
// (longest quiet first). Pure.

import type { PaneView } from './types.js';

function rank(view: PaneView): number {
  if (view.state !== 'stuck') return 2;
  return view.acknowledged ? 1 : 0;
}

const collator = new Intl.Collator('en', { numeric: true });

export function compareViews(a: PaneView, b: PaneView): number {
  const byRank = rank(a) - rank(b);
  if (byRank !== 0) return byRank;
  if (rank(a) < 2) {
    const byStuck = (a.stuckSince ?? a.quietSince) - (b.stuckSince ?? b.quietSince);
    if (byStuck !== 0) return byStuck;
  }
  const byQuiet = a.quietSince - b.quietSince;
  if (byQuiet !== 0) return byQuiet;
  return collator.compare(a.target, b.target) || collator.compare(a.pane.paneId, b.pane.paneId);
}
