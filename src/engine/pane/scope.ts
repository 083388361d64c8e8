// Which panes corral watches: all of them but its own, or (opt-in) only those whose pane title or
// window name starts with the prefix. Pure.

import type { PaneInfo } from '../types.js';

export interface ScopeOptions {
  readonly optIn: boolean;
  readonly prefix: string;
  /** corral's own pane, when it runs inside the watched server. */
  readonly selfPaneId: string | null;
}

export function hasPrefix(pane: Pick<PaneInfo, 'title' | 'windowName'>, prefix: string): boolean {
  return prefix !== '' && (pane.title.startsWith(prefix) || pane.windowName.startsWith(prefix));
}

export function inScope(pane: PaneInfo, options: ScopeOptions): boolean {
  if (pane.paneId === options.selfPaneId) return false;
  if (pane.dead) return false;
  return options.optIn ? hasPrefix(pane, options.prefix) : true;
}

/** `alpha` for a pane titled `@tb-alpha: implementing X` (title first, then window name). */
export function optInLabel(pane: Pick<PaneInfo, 'title' | 'windowName'>, prefix: string): string | null {
  for (const text of [pane.title, pane.windowName]) {
    if (prefix === '' || !text.startsWith(prefix)) continue;
    const label = /^[^\s:]+/.exec(text.slice(prefix.length))?.[0] ?? '';
    if (label !== '') return label;
  }
  return null;
}
