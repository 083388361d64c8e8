// What a cycle captures: from a listing, the watched panes whose screens may differ from the one
// corral holds (capture-gate.ts judges each pane), and for a host far away the panes its next
// round trip brings along. Pure.

import { following, needsCapture } from '../capture-gate.js';
import { inScope, type ScopeOptions } from '../scope.js';
import type { PaneInfo } from '../types.js';
import type { PaneEntry } from './poll-step.js';

export interface CapturePlan {
  readonly scope: ScopeOptions;
  /** Panes a person looks at: captured whenever they printed, every poll. */
  readonly focused: ReadonlySet<string>;
  /** How far apart captures of a pane that keeps printing are (see capture-gate.ts). */
  readonly followMs: number;
}

/** The panes of `panes` (activity stamps in this machine's clock) to capture at wall-clock time `at`. */
export function chooseCaptures(panes: readonly PaneInfo[], entries: ReadonlyMap<string, PaneEntry>, plan: CapturePlan, at: number): string[] {
  const chosen: string[] = [];
  for (const pane of panes) {
    const entry = entries.get(pane.paneId);
    // A pane seen for the first time is captured with its first listing: its state is known from
    // the first frame that lists it.
    const capture = entry === undefined ? inScope(pane, plan.scope) : wantsCapture(entry.captured, pane, plan, at, at);
    if (capture) chosen.push(pane.paneId);
  }
  return chosen;
}

/**
 * For a host whose cycle is one round trip: the watched panes the next one captures, judged from
 * this cycle's listing at the time of the next poll (`at` plus one interval).
 */
export function capturesAhead(entries: ReadonlyMap<string, PaneEntry>, plan: CapturePlan, at: number, pollIntervalMs: number): string[] {
  const ahead: string[] = [];
  for (const { captured, pane } of entries.values()) {
    if (captured === null || wantsCapture(captured, pane, plan, at, at + pollIntervalMs)) ahead.push(pane.paneId);
  }
  return ahead;
}

function wantsCapture(captured: PaneEntry['captured'], pane: PaneInfo, plan: CapturePlan, at: number, followAt: number): boolean {
  return (
    needsCapture(captured?.pane ?? pane, pane, captured?.at ?? null, at) &&
    // Printing plain output at its last capture, printing still: it cannot be stuck, and unless someone looks
    // at it, it is followed at a steady pace (see FOLLOW_MS).
    (captured === null || plan.focused.has(pane.paneId) || !following(captured, followAt, plan.followMs))
  );
}
