// Which watched panes a poll cycle must capture. tmux stamps a window with the time of its last
// output (`window_activity`, whole seconds, updated whether or not anyone watches the window), so a
// pane whose window has been silent since its last capture still shows the screen corral already
// has. Skipping those captures is most of an idle cycle's cost, for corral and for the tmux server.

import type { PaneInfo } from '../types.js';

/** Even a silent pane is captured this often, for screen changes that tmux does not stamp. */
export const RECAPTURE_MS = 30_000;

/**
 * Whether `current` must be captured, given the listing at its last capture (`previous`) and when
 * that capture was taken (`capturedAt`, wall-clock ms, like tmux's stamps; null: never).
 */
export function needsCapture(previous: PaneInfo, current: PaneInfo, capturedAt: number | null, now: number): boolean {
  // Also when the wall clock went back: stamps and capture times no longer compare.
  return capturedAt === null || now < capturedAt || now >= captureNeededFrom(previous, current, capturedAt);
}

/**
 * From when on (wall-clock ms) a pane listed as `current` needs a capture while its listing stays
 * as it is, given the listing at its last capture and when that capture was taken.
 */
export function captureNeededFrom(previous: PaneInfo, current: PaneInfo, capturedAt: number): number {
  // No stamp (an old tmux, or a format it left empty): nothing to go by. The stamp is the start of
  // the second of the last output: any second that ends after the capture may hold output the
  // capture missed.
  const unseen = current.windowActivity <= 0 || current.windowActivity + 1000 > capturedAt || changedWithoutOutput(previous, current);
  return unseen ? capturedAt : capturedAt + RECAPTURE_MS;
}

/** Whether the pane's size changed between two listings. */
export function resized(previous: PaneInfo, current: PaneInfo): boolean {
  return current.width !== previous.width || current.height !== previous.height;
}

/** Changes that reach the screen without output: a resize reflows it, a respawn replaces it. */
export function changedWithoutOutput(previous: PaneInfo, current: PaneInfo): boolean {
  return (
    resized(previous, current) ||
    current.pid !== previous.pid ||
    current.dead !== previous.dead ||
    current.alternateOn !== previous.alternateOn
  );
}

/**
 * A pane that printed at its last two captures and prints still, nobody sees but for the selected pane's
 * preview: it is followed at a steady pace, captured again at most this long after (or every other
 * poll, when polls are further apart than half of it; see paceEnd). Its quiet time does not wait
 * for that capture (see outputEndedBy). A pane whose last capture showed a prompt or a busy program
 * is not followed so: a wait can animate (it prints and still waits), and a working agent can put
 * up a dialog at any moment; each is captured at every poll it printed in, so a wait is seen one
 * poll after it is drawn.
 */
export const FOLLOW_MS = 2_000;

/** How far apart captures of a pane that keeps printing are, at a poll interval. */
export function followInterval(pollIntervalMs: number): number {
  return Math.max(FOLLOW_MS, 2 * pollIntervalMs);
}

/**
 * When a follow pace that starts at `from` (wall-clock ms) ends: at the last multiple of the pace on
 * the wall clock by a pace after `from`, so at most a pace later (a pane captured a cycle after a
 * multiple, as the loop wakes, gets nearly a whole pace). Every followed pane's pace then ends at
 * the same moments: the panes that keep printing are captured together, once a pace, and the
 * cycles in between need not ask tmux (see toldOnlyFollowed in poll-plan.ts). Paces counted from
 * each pane's own capture fall into as many phases as the poll has intervals in a pace, and each
 * phase asks tmux for a listing of its own.
 */
export function paceEnd(from: number, followMs: number): number {
  return Math.floor((from + followMs) / followMs) * followMs;
}

/** What the follow pace needs to know of a pane's last capture. */
export interface LastCapture {
  /** Wall-clock time of the capture. */
  readonly at: number;
  /**
   * Its screen had changed since the capture before, as far as the last capture that could tell
   * says: a capture that finds the screen as it was while the listing shows no later second of
   * output tells nothing (a recapture for the sake of the second a capture fell in) and keeps what
   * the capture before it said (see carriesCapture).
   */
  readonly changed: boolean;
  /**
   * Its screen had changed at the capture before too, shortly before: the pane keeps printing (see
   * printedBefore). One change after a quiet spell (a command typed, its first line) is not
   * followed at a pace: the next output may be the prompt coming back, which must be seen at the
   * next poll.
   */
  readonly printing?: boolean;
  /** Wall-clock time of the last capture that found the screen changed (absent: `at`); the follow pace counts from it. */
  readonly changedAt?: number;
  /** It showed a prompt or a busy program (see FOLLOW_MS); plain output when false or absent. */
  readonly mayWait?: boolean;
}

/**
 * Whether a capture that found the screen unchanged tells nothing new: the listing shows the same
 * second of last output as at the capture before, so the pane printed nothing since but within
 * that second, which changed nothing. Such a capture keeps whether the pane was printing and when
 * its screen last changed: a pane that prints every second is often captured twice within one of
 * its seconds, and the second capture is no sign of a quiet spell.
 */
export function carriesCapture(previous: { readonly pane: PaneInfo } | null, current: PaneInfo, changed: boolean): boolean {
  return previous !== null && !changed && current.windowActivity > 0 && current.windowActivity === previous.pane.windowActivity && !changedWithoutOutput(previous.pane, current);
}

/**
 * Whether a capture at `at` that found the screen changed finds a pane that keeps printing: the
 * capture before found it changed too, at most a follow pace and half of one before (a pane
 * followed at its pace is captured when the pace ends, at the first poll after it, and polls are
 * at most half a pace apart). A change long after the last one is a pane that was quiet meanwhile.
 */
export function printedBefore(previous: LastCapture | null, at: number, followMs: number): boolean {
  return previous !== null && previous.changed && at - (previous.changedAt ?? previous.at) <= followMs * 1.5;
}

/**
 * Whether a pane whose window printed since its last capture can wait: that capture and the one
 * before showed a changed screen, the last of plain output (it was printing then), and it is less
 * than `followMs` old. A clock that went back waits for nothing.
 */
export function following(captured: LastCapture, now: number, followMs: number): boolean {
  return now >= captured.at && now < followedUntil(captured, followMs);
}

/**
 * Whether the pane was printing at its last capture itself: that capture found the screen changed,
 * and the one before too. A capture that told nothing new (see carriesCapture) keeps `printing` for
 * the follow pace, but found the pane still: its next output is news, as it was before the pane
 * printed.
 */
export function printingAtCapture(captured: LastCapture): boolean {
  return captured.printing === true && (captured.changedAt ?? captured.at) === captured.at;
}

/**
 * Whether a pane keeps printing plain output as of `now`: it was printing at its last capture (see
 * `printing`), which showed plain output, and its follow pace from when its screen last changed
 * ended less than a pace ago. More output from it is no news: it is captured when its pace ends, at
 * the first cycle after (at most an interval later), and wakes no cycle of its own. Beyond that the
 * pane has been still long enough that its next output may be a question.
 */
export function keepsPrinting(captured: LastCapture, now: number, followMs: number): boolean {
  return now >= captured.at && now < followedUntil(captured, followMs) + followMs;
}

/** Until when (wall-clock ms) a pane is followed at a steady pace since its last capture (see following and paceEnd). */
export function followedUntil(captured: LastCapture, followMs: number): number {
  return captured.printing === true && captured.mayWait !== true ? paceEnd(captured.changedAt ?? captured.at, followMs) : -Infinity;
}

/**
 * Whether a pane's window has printed nothing since a capture taken at `capturedAt` (wall-clock
 * ms), by tmux's stamp: a screen that changed anyway changed without output (a resize reflowed it,
 * history was cleared), which is no activity. False when tmux gave no stamp.
 */
export function silentSince(capturedAt: number, current: PaneInfo): boolean {
  return current.windowActivity > 0 && current.windowActivity + 1000 <= capturedAt;
}

/**
 * When the screen of a pane that changed between two captures changed last, at the latest, as a
 * wall-clock time: the end of the second its window last printed in (tmux's stamp), no earlier than
 * the capture before and no later than `now`. Null when the change may come from something other
 * than output (a resize, a respawn) or tmux gave no stamp: then only `now` is safe.
 */
export function outputEndedBy(previous: { readonly pane: PaneInfo; readonly at: number }, current: PaneInfo, now: number): number | null {
  if (current.windowActivity <= 0 || changedWithoutOutput(previous.pane, current)) return null;
  return Math.max(previous.at, Math.min(now, current.windowActivity + 999));
}
