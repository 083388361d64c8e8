// The words corral uses for a pane's state, wherever a person reads them: the dashboard, `ls`,
// `watch`, the web page and the README all take them from here. Pure.

import type { PaneView, StuckReason } from '../types.js';

/**
 * - `stuck`: it needs you (attention/attention.ts): a question held for the threshold, or a pane
 *   that stopped after working and that you have not looked at since;
 * - `snoozed`: stuck, and you said you have seen it (until what it waits for changes);
 * - `answered`: you answered it, from any surface; until its screen changes;
 * - `idle`: at its prompt for the threshold, and needing nobody (you have seen it);
 * - `active`: its screen changed within the last few seconds;
 * - `quiet`: no change for a while, and not at a prompt corral knows.
 */
export type PaneStatus = 'stuck' | 'snoozed' | 'answered' | 'idle' | 'active' | 'quiet';

/** A pane whose screen changed this recently counts as active. */
export const ACTIVE_WINDOW_MS = 5_000;

/** What each status means, for help texts and the README. */
export const STATUS_MEANINGS: Readonly<Record<PaneStatus, string>> = {
  stuck: 'it has shown the same prompt for the threshold (animation aside): it waits for you',
  snoozed: 'stuck, but snoozed until it shows another prompt or new output',
  answered: 'you answered it (from the dashboard, the page, a link, `next` or MCP, in any corral process); shown until its screen changes (animation aside)',
  idle: 'at its prompt for the threshold, and you have seen it since it got there (or it was already idle when corral first looked at it): listed, not counted',
  active: `its screen changed within the last ${ACTIVE_WINDOW_MS / 1000} s (animation included)`,
  quiet: 'no change for a while, and not waiting for you',
};


/**
 * The mark for a pane whose host is down: its row shows the last screen seen, greyed, and says
 * `offline` instead of a status that may no longer be true.
 */
export const OFFLINE_BADGE = 'offline';

/** What each stuck reason means. */
export const REASON_MEANINGS: Readonly<Record<StuckReason, string>> = {
  permission: 'it asks you something: to approve a command or an edit, a question, or a secret',
  stopped: 'it stopped at its prompt after working (an agent that finished, a command that returned), and you have not looked at it since',
};

export function paneStatus(view: PaneView, now: number, activeWindowMs: number = ACTIVE_WINDOW_MS): PaneStatus {
  if (view.attention.answered !== null) return 'answered';
  if (view.state === 'stuck') return view.attention.snoozed ? 'snoozed' : view.attention.need !== null ? 'stuck' : 'idle';
  if (view.state === 'registered') return 'active';
  return now - view.quietSince >= activeWindowMs ? 'quiet' : 'active';
}

/** Whether the pane needs the person now: what every count, order, notification and `next` goes by. */
export function needsPerson(view: PaneView): boolean {
  return view.online && view.attention.need !== null && view.attention.answered === null;
}

/** `STUCK permission`, `STUCK stopped`, `snoozed`, `quiet`, `active` (short: `STUCK` alone). */
export function statusBadge(status: PaneStatus, reason: StuckReason | null, short = false): string {
  if (status === 'stuck') return short || reason === null ? 'STUCK' : `STUCK ${reason}`;
  return status;
}

export function quietMs(view: PaneView, now: number): number {
  return Math.max(0, now - view.quietSince);
}

export interface StatusCounts {
  readonly stuck: number;
  readonly snoozed: number;
  readonly answered: number;
  readonly idle: number;
  readonly quiet: number;
  readonly active: number;
  readonly total: number;
}

export function countStatuses(panes: readonly PaneView[], now: number, activeWindowMs: number = ACTIVE_WINDOW_MS): StatusCounts {
  const counts = { stuck: 0, snoozed: 0, answered: 0, idle: 0, quiet: 0, active: 0, total: panes.length };
  for (const view of panes) counts[paneStatus(view, now, activeWindowMs)] += 1;
  return counts;
}

/** The README's table of states, generated from the words above (npm run docs). */
export function statesMarkdown(): string {
  const rows = ['| state | what it means |', '|---|---|'];
  for (const reason of ['permission', 'stopped'] as const) {
    rows.push(`| \`${statusBadge('stuck', reason)}\` | ${REASON_MEANINGS[reason]}; ${STATUS_MEANINGS.stuck} |`);
  }
  for (const status of ['snoozed', 'answered', 'idle', 'quiet', 'active'] as const) rows.push(`| \`${statusBadge(status, null)}\` | ${STATUS_MEANINGS[status]} |`);
  return rows.join('\n');
}
