// Resolves what a user or a client calls a pane (`%3`, `work:1.0`, an opt-in label) to a pane.

import { paneTarget } from '../tmux/command-line.js';
import { isPaneId } from '../tmux/pane-id.js';
import { optInLabel } from './scope.js';
import type { PaneInfo } from '../types.js';

export function findPane(panes: readonly PaneInfo[], name: string, prefix: string): PaneInfo | undefined {
  if (isPaneId(name)) return panes.find((p) => p.paneId === name);
  return panes.find((p) => paneTarget(p) === name) ?? panes.find((p) => optInLabel(p, prefix) === name);
}
