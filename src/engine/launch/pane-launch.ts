// Starting and ending panes, the same for the dashboard, the CLI and any other surface: a command
// in a new window (optionally in a new git worktree), and the end of a pane that is still the one
// the person saw. tmux and git run with argv on the pane's host (tmux/client.ts, worktree.ts).

import { posix } from 'node:path';
import { NoServerError, PaneGoneError } from '../tmux/core.js';
import type { TmuxClient } from '../tmux/client.js';
import { sessionNameProblem, windowNameFor, type SessionTarget, type WindowSpec } from '../tmux/launch.js';
import { addWorktree, type Worktree } from './worktree.js';
import type { PaneInfo } from '../types.js';

export { WorktreeError, branchNameProblem, type Worktree } from './worktree.js';
export { windowNameFor, type SessionTarget };

/** What to start and where. */
export interface StartRequest {
  /** A shell command line, as typed (`claude`, `npm run dev`); the pane's shell runs it. */
  readonly command: string;
  /** An absolute folder on the host; null: tmux's default (the session's folder). */
  readonly cwd: string | null;
  /** A new branch: the pane starts in a new worktree `<repo>-<branch>` of the repository `cwd` is in. */
  readonly worktree?: string | null;
  /** The session: by id (`$3`), by name (made when there is none of that name), or null for tmux's current one. */
  readonly session?: SessionTarget;
  /** The window's name; by default the command's program (windowNameFor). */
  readonly name?: string | null;
}

export interface StartedPane {
  readonly paneId: string;
  readonly name: string;
  readonly cwd: string | null;
  readonly worktree: Worktree | null;
  /** True when a session had to be made for it (no server, or no session of that name). */
  readonly newSession: boolean;
}

/** A start refused before anything ran: an empty command, a folder that is not there, a bad name. */
export class StartRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartRefusedError';
  }
}

/** The pane id now belongs to another pane than the one seen (its server restarted). */
export class PaneReplacedError extends Error {
  constructor(readonly paneId: string) {
    super(`${paneId} is now another pane than the one you chose (its tmux server restarted?); nothing was ended`);
    this.name = 'PaneReplacedError';
  }
}

/** Checks what can be checked before anything runs; the folder's existence is asked of the host. */
async function checkRequest(tmux: TmuxClient, request: StartRequest): Promise<void> {
  if (request.command.trim() === '') throw new StartRefusedError('no command to start: type one (an agent, a shell, a build)');
  const session = request.session ?? null;
  if (session !== null && 'name' in session) {
    const problem = sessionNameProblem(session.name);
    if (problem !== null) throw new StartRefusedError(problem);
  }
  if (request.cwd === null) {
    if (request.worktree) throw new StartRefusedError('a worktree needs a folder in a git repository to start from');
    return;
  }
  if (!posix.isAbsolute(request.cwd)) throw new StartRefusedError(`${request.cwd} is not an absolute folder`);
  if ((await tmux.launch.program('test')(['-d', request.cwd])).exitCode !== 0) {
    throw new StartRefusedError(`${request.cwd} is not a folder${tmux.host === 'local' ? '' : ` on ${tmux.host}`}`);
  }
}

/** Starts the command; a named session that does not exist, or a server with none, gets a new one. */
export async function startPane(tmux: TmuxClient, request: StartRequest): Promise<StartedPane> {
  await checkRequest(tmux, request);
  const worktree = request.worktree ? await addWorktree(tmux.launch.program('git'), tmux.launch.program('test'), request.cwd as string, request.worktree) : null;
  const cwd = worktree?.path ?? request.cwd;
  const name = request.name ?? windowNameFor(request.command);
  const spec: WindowSpec = { command: request.command, cwd, name };
  const session = request.session ?? null;
  const started = (paneId: string, newSession: boolean): StartedPane => ({ paneId, name, cwd, worktree, newSession });
  if (session !== null && 'name' in session && !(await tmux.launch.hasSession(session.name))) {
    return started(await tmux.launch.newPane(spec, { newSession: session.name }), true);
  }
  try {
    return started(await tmux.launch.newPane(spec, { session }), false);
  } catch (error) {
    // No server, or a server without sessions: the first session is made for this command.
    const noSession = error instanceof NoServerError || /no current session|no sessions/i.test((error as Error).message);
    if (session !== null || !noSession) throw error;
    return started(await tmux.launch.newPane(spec, { newSession: null }), true);
  }
}

/**
 * Ends the pane, if it is still the one seen: the same id and, when `seenPid` is given, the same
 * process (a restarted server hands ids out again). PaneGoneError when it has closed.
 */
export async function endPane(tmux: TmuxClient, paneId: string, seenPid: number | null): Promise<PaneInfo> {
  const now = await tmux.panes.findPane(paneId);
  if (now === null) throw new PaneGoneError(paneId);
  if (seenPid !== null && now.pid !== seenPid) throw new PaneReplacedError(paneId);
  await tmux.launch.killPane(paneId);
  return now;
}
