// A listing of some windows only: when tmux has told that just a few windows printed, their panes
// are listed in full and every other pane is taken from the last listing as it was. The cost of a
// poll then grows with the windows that print, not with every pane on the server.

import type { PaneInfo } from '../types.js';
import type { Framing, TmuxCommand } from './command-line.js';
import { paneFormat, type ListedRecords } from './pane-list.js';

/** One `list-panes` per window, each answered on its own (a window that closed fails its own command). */
export function windowListCommands(framing: Framing, records: ListedRecords, windows: ReadonlySet<string>): TmuxCommand[] {
  return [...windows].map((window) => ['list-panes', '-t', window, '-F', paneFormat(framing, records)]);
}

/**
 * Whether the last listing can take a listing of some of its windows: each window shows in one
 * session only (`list-panes -a` shows a window linked into two sessions once for each, `-t` once).
 */
export function windowsListable(last: readonly PaneInfo[]): boolean {
  const sessionOf = new Map<string, string>();
  for (const pane of last) {
    const seen = sessionOf.get(pane.windowId);
    if (seen !== undefined && seen !== pane.sessionId) return false;
    sessionOf.set(pane.windowId, pane.sessionId);
  }
  return true;
}

/**
 * Whether listing only `windows` costs tmux less than listing every pane. Each command costs about
 * as much as two panes on top of its panes (`npm run bench listing`: 20 windows of one pane cost
 * 1.7 ms where all 50 panes cost 1.4 ms, and 2.4 ms where all 200 cost 6.7 ms).
 */
export function worthListingSome(last: readonly PaneInfo[], windows: ReadonlySet<string>): boolean {
  const listed = last.reduce((count, pane) => count + (windows.has(pane.windowId) ? 1 : 0), 0);
  return listed + 2 * windows.size < last.length;
}

/** Panes by window, in the order given. */
function byWindow(panes: readonly PaneInfo[], windows: ReadonlySet<string>): Map<string, PaneInfo[]> {
  const grouped = new Map<string, PaneInfo[]>();
  for (const pane of panes) {
    if (!windows.has(pane.windowId)) continue;
    const group = grouped.get(pane.windowId);
    if (group) group.push(pane);
    else grouped.set(pane.windowId, [pane]);
  }
  return grouped;
}

/** The same pane in the same place, run by the same process (a respawned pane has a new one). */
const samePlace = (was: PaneInfo | undefined, now: PaneInfo) =>
  was !== undefined && was.paneId === now.paneId && was.sessionId === now.sessionId && was.pid === now.pid;

/**
 * The last listing with the panes of `windows` replaced by what was just listed, in the last
 * listing's order; null unless each listed window holds the very panes it held then (a new, moved,
 * closed or respawned pane shows in a full listing, which the caller asks for instead).
 */
export function mergeWindows(last: readonly PaneInfo[], windows: ReadonlySet<string>, listed: readonly PaneInfo[]): PaneInfo[] | null {
  if (listed.some((pane) => !windows.has(pane.windowId))) return null;
  const fresh = byWindow(listed, windows);
  const kept = byWindow(last, windows);
  for (const window of windows) {
    const was = kept.get(window) ?? [];
    const now = fresh.get(window) ?? [];
    if (was.length === 0 || was.length !== now.length || now.some((pane, i) => !samePlace(was[i], pane))) return null;
  }
  const merged: PaneInfo[] = [];
  const placed = new Set<string>();
  for (const pane of last) {
    if (!windows.has(pane.windowId)) merged.push(pane);
    else if (!placed.has(pane.windowId)) {
      placed.add(pane.windowId);
      merged.push(...fresh.get(pane.windowId)!);
    }
  }
  return merged;
}
