// The dashboard's "start a pane" prompt as plain data: where it starts (the selected pane's host,
// folder and session), the command line typed, and an optional branch for a new git worktree.
// Pure; the reducer (state.ts) holds one while the prompt is open.

import type { StartRequest } from '../engine/launch/pane-launch.js';
import type { PaneView } from '../engine/types.js';
import { LOCAL_HOST } from '../engine/types.js';

export interface StartDraft {
  readonly host: string;
  /** The folder the pane starts in (the selected pane's); null: tmux's default. */
  readonly cwd: string | null;
  /** The session the window goes in (`$3`); null: tmux's current one. */
  readonly sessionId: string | null;
  readonly command: string;
  /** A new branch for a new worktree; empty: no worktree. */
  readonly branch: string;
  /** The field that takes the keys; Tab switches. */
  readonly field: 'command' | 'branch';
}

/** The prompt for the selected pane's place, or this machine's defaults when none is selected. */
export function draftFor(pane: PaneView | null): StartDraft {
  return {
    host: pane?.host ?? LOCAL_HOST,
    cwd: pane === null || pane.pane.cwd === '' ? null : pane.pane.cwd,
    sessionId: pane?.pane.sessionId ?? null,
    command: '',
    branch: '',
    field: 'command',
  };
}

/** What the dashboard asks the pane port for. */
export function startRequestOf(draft: StartDraft): StartRequest {
  const branch = draft.branch.trim();
  return {
    command: draft.command.trim(),
    cwd: draft.cwd,
    worktree: branch === '' ? null : branch,
    session: draft.sessionId === null ? null : { id: draft.sessionId },
  };
}

