// What a cycle captures: from a listing, the watched panes whose screens may differ from the one
// corral holds (capture-gate.ts judges each pane), and for a host far away the panes its next
// round trip brings along. Pure.

import { captureNeededFrom, followedUntil, following, needsCapture } from './capture-gate.js';
import { inScope, type ScopeOptions } from '../pane/scope.js';
import type { PaneInfo } from '../types.js';
import type { PaneEntry } from './poll-step.js';

export interface CapturePlan {
  readonly scope: ScopeOptions;
  /** Panes a person looks at: captured whenever they printed, every poll. */
  readonly focused: ReadonlySet<string>;
  /** How far apart captures of a pane that keeps printing are (see capture-gate.ts). */
  readonly followMs: number;
}

/**
 * The panes of `panes` (activity stamps in this machine's clock) to capture at wall-clock time `at`.
 * With `recaptureBy`, a silent pane whose recapture falls due by then is taken now: the periodic
 * full listing brings forward the recaptures due before the next one, so that an idle server is
 * asked once a period, not once for the listing and again for each pane's own recapture.
 */
export function chooseCaptures(panes: readonly PaneInfo[], entries: ReadonlyMap<string, PaneEntry>, plan: CapturePlan, at: number, recaptureBy = at): string[] {
  const chosen: string[] = [];
  for (const pane of panes) {
    const entry = entries.get(pane.paneId);
    // A pane seen for the first time is captured with its first listing: its state is known from
    // the first frame that lists it.
    const capture = entry === undefined ? inScope(pane, plan.scope) : wantsCapture(entry.captured, pane, plan, at, at, recaptureBy);
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

function wantsCapture(captured: PaneEntry['captured'], pane: PaneInfo, plan: CapturePlan, at: number, followAt: number, recaptureBy = at): boolean {
  const previous = captured?.pane ?? pane;
  return (
    // Needed now, or (a recapture brought forward) by `recaptureBy`.
    (needsCapture(previous, pane, captured?.at ?? null, at) || needsCapture(previous, pane, captured?.at ?? null, recaptureBy)) &&
    // Printing plain output at its last capture, printing still: it cannot be stuck, and unless someone looks
    // at it, it is followed at a steady pace (see FOLLOW_MS).
    (captured === null || plan.focused.has(pane.paneId) || !following(captured, followAt, plan.followMs))
  );
}

/**
 * When a loop that sleeps while the listing stays as it is (activity stamps in this machine's clock)
 * should wake for its next captures: the latest moment a capture falls due within `slack` of the
 * first one (a silent pane's recapture, the end of a printing pane's follow pace), so that captures
 * due close together are taken in one cycle and none is more than `slack` late. -Infinity when one
 * is wanted now; Infinity when none ever is.
 */
export function nextCaptureAt(panes: readonly PaneInfo[], entries: ReadonlyMap<string, PaneEntry>, plan: CapturePlan, slack: number): number {
  const dues: number[] = [];
  for (const pane of panes) {
    const entry = entries.get(pane.paneId);
    if (entry === undefined) {
      if (inScope(pane, plan.scope)) return -Infinity;
    } else dues.push(captureDueAt(entry.captured, pane, plan));
  }
  const first = Math.min(...dues);
  if (!Number.isFinite(first)) return first;
  return Math.max(...dues.filter((due) => due <= first + slack));
}

/**
 * From when on wantsCapture holds for a pane whose listing stays `pane` (from its last capture on;
 * a clock gone back before that capture wants one at once).
 */
export function captureDueAt(captured: PaneEntry['captured'], pane: PaneInfo, plan: CapturePlan): number {
  if (captured === null) return -Infinity;
  const followed = plan.focused.has(pane.paneId) ? -Infinity : followedUntil(captured, plan.followMs);
  return Math.max(captureNeededFrom(captured.pane, pane, captured.at), followed);
}
