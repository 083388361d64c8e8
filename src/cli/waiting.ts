// Which panes wait for a person, in the dashboard's order, for `corral status` and `corral next`.
// When a corral process already watches the server, its status options (engine/status-options.ts)
// say it in one tmux call; otherwise corral looks itself, once (a listing and a capture of each pane).

import { hostname } from 'node:os';
import type { Settings } from '../engine/config.js';
import { compareViews } from '../engine/pane-order.js';
import { processAlive } from '../engine/process-alive.js';
import { statusWord, waitingInOrder, waits } from '../engine/status-options.js';
import { liveWriters } from '../engine/status-writer.js';
import type { TmuxClient } from '../engine/tmux/client.js';
import { localHost, openTmux } from '../engine/tmux/open.js';
import type { AnswerPlan } from '../engine/answer-plan.js';
import type { PaneView, StuckReason } from '../engine/types.js';
import { remoteHosts, setupEngine, socketFromSettings, type EngineSetup } from './setup.js';

export interface WaitingPane {
  /** Across hosts (`%3`, `build-box/%3`). */
  readonly key: string;
  readonly host: string;
  readonly paneId: string;
  readonly target: string;
  readonly reason: StuckReason;
  /** When it began to wait (epoch ms). */
  readonly since: number;
}

export interface Waiting {
  /** `options`: read from a running corral's status options; `look`: corral looked itself. */
  readonly source: 'options' | 'look';
  /** Most urgent first. */
  readonly panes: readonly WaitingPane[];
  /** How many panes are watched. */
  readonly total: number;
}

/** From the status options, when a live corral keeps them on this server; null otherwise. */
async function fromOptions(tmux: TmuxClient): Promise<Waiting | null> {
  const { panes, globals } = await tmux.statusOptions();
  if (liveWriters(globals, hostname(), processAlive, '').length === 0) return null;
  const watched = panes.filter((p) => p.word !== null);
  const ordered = waitingInOrder(watched);
  const targets = ordered.length > 0 ? new Map((await tmux.listPanes()).map((p) => [p.paneId, `${p.sessionName}:${p.windowIndex}.${p.paneIndex}`])) : new Map<string, string>();
  return {
    source: 'options',
    total: watched.length,
    panes: ordered.map((p) => ({ key: p.paneId, host: 'local', paneId: p.paneId, target: targets.get(p.paneId) ?? p.paneId, reason: p.word as StuckReason, since: p.since ?? 0 })),
  };
}

/**
 * The waiting views of one look, most urgent first. A look that just began cannot tell how long a
 * pane has been stuck, only how long it has been quiet (tmux's activity stamp): that stands for
 * both, and orders the panes as the dashboard would.
 */
function waitingViews(views: readonly PaneView[], now: number): PaneView[] {
  return views
    .filter((v) => v.online && waits(statusWord(v, now)))
    .map((v) => ({ ...v, stuckSince: v.quietSince }))
    .sort(compareViews);
}

/** One look by a short-lived engine: every host's panes, listed and captured; `use` sees them. */
async function look<T>(settings: Settings, env: NodeJS.ProcessEnv, stderr: NodeJS.WritableStream, use: (engine: EngineSetup) => Promise<T>): Promise<T> {
  const setup = await setupEngine(settings, env, stderr);
  try {
    await setup.engine.pollNow(); // lists the panes
    await setup.engine.pollNow(); // captures them
    const snapshot = setup.engine.getSnapshot();
    if (snapshot.hosts.length === 1 && snapshot.status !== 'ok') throw new Error(snapshot.statusMessage ?? snapshot.status);
    return await use(setup);
  } finally {
    await setup.engine.stop();
  }
}

async function byLooking(settings: Settings, env: NodeJS.ProcessEnv, stderr: NodeJS.WritableStream): Promise<Waiting> {
  return look(settings, env, stderr, async ({ engine }) => {
    const views = engine.getSnapshot().panes.filter((v) => v.online);
    const panes = waitingViews(views, Date.now()).map((v) => ({ key: v.key, host: v.host, paneId: v.pane.paneId, target: v.target, reason: v.reason ?? 'stopped', since: v.quietSince }));
    return { source: 'look' as const, panes, total: views.length };
  });
}

/**
 * Answers the most urgent waiting pane with `option`, through the pane port's guarded answer: only
 * an answer its prompt offers, only on the screen this look saw. Resolves to the pane and what was
 * typed, or null when no pane waits.
 */
export async function answerMostUrgent(settings: Settings, env: NodeJS.ProcessEnv, stderr: NodeJS.WritableStream, option: string): Promise<{ view: PaneView; plan: AnswerPlan; others: number } | null> {
  return look(settings, env, stderr, async ({ engine, tmux, hosts }) => {
    const waiting = waitingViews(engine.getSnapshot().panes, Date.now());
    const first = waiting[0];
    if (!first) return null;
    // The servers' modules load only when a pane is answered.
    const { buildPanePorts } = await import('./pane-ports.js');
    const { port } = buildPanePorts({ engine, tmux, remotes: remoteHosts(hosts), settings });
    try {
      return { view: first, plan: await port.answer(first.key, option), others: waiting.length - 1 };
    } finally {
      await port.close();
    }
  });
}

export async function waitingPanes(settings: Settings, env: NodeJS.ProcessEnv, stderr: NodeJS.WritableStream): Promise<Waiting> {
  if (settings.hosts.length === 0) {
    const opened = openTmux(localHost(socketFromSettings(settings, env)), { persistent: false });
    try {
      const read = await fromOptions(opened.client).catch(() => null);
      if (read) return read;
    } finally {
      await opened.close();
    }
  }
  return byLooking(settings, env, stderr);
}
