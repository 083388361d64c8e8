// The order in which panes are shown, wherever they are listed (the dashboard, the web page), most
// urgent first: panes that ask for permission, then panes stopped at a prompt (each group longest
// stuck first), then snoozed ones, then everything else by quiet time (longest quiet first). Pure.

import type { PaneView } from '../types.js';

const RANK_REST = 3;

function rank(view: PaneView): number {
  const { need, snoozed } = view.attention;
  if (need !== null) return need === 'asks' ? 0 : 1;
  return view.state === 'stuck' && snoozed ? 2 : RANK_REST;
}

const collator = new Intl.Collator('en', { numeric: true });

export function compareViews(a: PaneView, b: PaneView): number {
  const byRank = rank(a) - rank(b);
  if (byRank !== 0) return byRank;
  if (rank(a) < RANK_REST) {
    const byStuck = (a.waitSince ?? a.stuckSince ?? a.quietSince) - (b.waitSince ?? b.stuckSince ?? b.quietSince);
    if (byStuck !== 0) return byStuck;
  }
  const byQuiet = a.quietSince - b.quietSince;
  if (byQuiet !== 0) return byQuiet;
  return collator.compare(a.target, b.target) || collator.compare(a.pane.paneId, b.pane.paneId);
}
