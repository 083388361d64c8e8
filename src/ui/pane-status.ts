// What the dashboard says about one pane: its row status, badge and quiet time. Pure functions.

import type { PaneView } from '../engine/types.js';

/** `stuck`: waits for you; `snoozed`: stuck but already seen; `quiet`/`active`: by recent output. */
export type RowStatus = 'stuck' | 'snoozed' | 'quiet' | 'active';

/** A pane whose screen changed within `activeWindowMs` counts as active. */
export function rowStatus(view: PaneView, now: number, activeWindowMs: number): RowStatus {
  if (view.state === 'stuck') return view.acknowledged ? 'snoozed' : 'stuck';
  if (view.state === 'registered') return 'active';
  return now - view.quietSince >= activeWindowMs ? 'quiet' : 'active';
}

/** `STUCK permission`, `STUCK stopped`, `snoozed`, `quiet`, `active` (short: the first word only). */
export function badgeText(view: PaneView, status: RowStatus, short = false): string {
  if (status === 'stuck') return short || view.reason === null ? 'STUCK' : `STUCK ${view.reason}`;
  return status;
}

export function quietMs(view: PaneView, now: number): number {
  return Math.max(0, now - view.quietSince);
}

/** The title when the program set a useful one, else the running command (tmux's default title is the host name). */
export function paneLabel(view: PaneView, hostName: string | null = null): string {
  const { title, command } = view.pane;
  const trimmed = title.trim();
  if (trimmed === '' || trimmed === hostName || trimmed === command) return command;
  return view.label !== null ? `${view.label}: ${trimmed}` : trimmed;
}

export interface StatusCounts {
  readonly stuck: number;
  readonly snoozed: number;
  readonly quiet: number;
  readonly active: number;
  readonly total: number;
}

export function countStatuses(panes: readonly PaneView[], now: number, activeWindowMs: number): StatusCounts {
  const counts = { stuck: 0, snoozed: 0, quiet: 0, active: 0, total: panes.length };
  for (const view of panes) counts[rowStatus(view, now, activeWindowMs)] += 1;
  return counts;
}

/** Does the pane match the filter text (title, command, cwd, session, target, label)? */
export function matchesFilter(view: PaneView, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (needle === '') return true;
  const { title, command, cwd, sessionName } = view.pane;
  return [title, command, cwd, sessionName, view.target, view.label ?? ''].some((field) =>
    field.toLowerCase().includes(needle),
  );
}
