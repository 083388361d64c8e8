// What the dashboard shows of one pane besides its status (see engine/pane-status.ts): its label,
// and whether it matches the filter. Pure functions.

import type { PaneView } from '../engine/types.js';

/** The title when the program set a useful one, else the running command (tmux's default title is the host name). */
export function paneLabel(view: PaneView, hostName: string | null = null): string {
  const { title, command } = view.pane;
  const trimmed = title.trim();
  if (trimmed === '' || trimmed === hostName || trimmed === command) return command;
  return view.label !== null ? `${view.label}: ${trimmed}` : trimmed;
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
