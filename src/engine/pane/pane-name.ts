// A pane's name for people, the one rule every surface uses (the dashboard's rows, the page's
// cards, `ls`, MCP): its window name, or its title where the title says more. Pure.

import type { PaneView } from '../types.js';

/** A title that says nothing a row does not already show: empty, tmux's default (the host name), the command. */
function meaningfulTitle(view: PaneView, hostName: string | null): string | null {
  const trimmed = view.pane.title.trim();
  if (trimmed === '' || trimmed === hostName || trimmed === view.pane.command) return null;
  return trimmed;
}

/**
 * The pane's name: its window name, or its title where the title says more. tmux names windows
 * after their command unless someone renamed them, so a window called like its command adds
 * nothing and the title (or the command) is shown instead. `build · make all` when both count.
 */
export function paneLabel(view: PaneView, hostName: string | null = null): string {
  const { command, windowName } = view.pane;
  const title = meaningfulTitle(view, hostName);
  const window = windowName.trim() === '' || windowName === command ? null : windowName.trim();
  let name: string;
  if (title === null) name = window ?? command;
  else if (window === null || title.toLowerCase().includes(window.toLowerCase())) name = title;
  else name = `${window} · ${title}`;
  return view.label !== null && !name.startsWith(view.label) ? `${view.label}: ${name}` : name;
}
