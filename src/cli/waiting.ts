// Which panes wait for a person, in the dashboard's order, for `corral status` and `corral next`.
// When a corral process already watches the server, its status options (engine/records/status-options.ts)
// say it in one tmux call; otherwise corral looks itself, once (a listing and a capture of each pane).

import { hostname } from 'node:os';
import type { Settings } from '../engine/settings/config.js';
import { compareViews } from '../engine/pane/pane-order.js';
import { processAlive } from '../engine/tmux/process-alive.js';
import { OPTION_PANES_FORMAT, parseOptionPanes, statusWord, waitedSince, waitingInOrder, waits } from '../engine/records/status-options.js';
import { attentionCommands, liveWriters } from '../engine/records/status-writer.js';
import type { TmuxClient } from '../engine/tmux/client.js';
import { localHost, openTmux } from '../engine/tmux/open.js';
import type { AnswerPlan } from '../engine/typing/answer-plan.js';
import type { PaneView, StuckReason } from '../engine/types.js';
import { remoteHosts, setupEngine, socketFromSettings, type EngineSetup } from './setup.js';
import { TMUX_FORMATS } from '../engine/records/tmux-formats.js';
import { clock, controlTimers } from './time.js';

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
  const { listing, globals } = await tmux.options.paneOptions(OPTION_PANES_FORMAT);
  const panes = parseOptionPanes(listing);
  if (liveWriters(globals, hostname(), processAlive, '').length === 0) return null;
  const watched = panes.filter((p) => p.word !== null);
  const ordered = waitingInOrder(watched);
  const targets = ordered.length > 0 ? new Map((await tmux.panes.listPanes()).map((p) => [p.paneId, `${p.sessionName}:${p.windowIndex}.${p.paneIndex}`])) : new Map<string, string>();
  return {
    source: 'options',
    total: watched.length,
    panes: ordered.map((p) => ({ key: p.paneId, host: 'local', paneId: p.paneId, target: targets.get(p.paneId) ?? p.paneId, reason: p.word as StuckReason, since: p.since ?? 0 })),
  };
}

/** The waiting views of one look, most urgent first, as the dashboard orders them. */
function waitingViews(views: readonly PaneView[], now: number): PaneView[] {
  return views.filter((v) => v.online && waits(statusWord(v, now))).sort(compareViews);
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
    const panes = waitingViews(views, clock.now()).map((v) => ({ key: v.key, host: v.host, paneId: v.pane.paneId, target: v.target, reason: v.reason ?? 'stopped', since: waitedSince(v) }));
    return { source: 'look' as const, panes, total: views.length };
  });
}

/** Which waiting pane `next --answer` may answer: the one whose screen token is given, or (unsafe) the most urgent. */
export interface AnswerChoice {
  /** A screen token (`screen` of `ls --json`, or what a dry run printed): the pane showing that screen. */
  readonly screen: string | null;
  /** Answer the most urgent pane without naming its screen. */
  readonly yes: boolean;
}

export type NextAnswer =
  | { readonly kind: 'answered'; readonly view: PaneView; readonly plan: AnswerPlan; readonly others: number }
  /** Nothing typed: the pane it would answer, and the token that names its screen. */
  | { readonly kind: 'would'; readonly view: PaneView; readonly token: string }
  /** Nothing typed: another pane was answered this way a moment ago (a double tap). */
  | { readonly kind: 'burst'; readonly view: PaneView; readonly last: string }
  | { readonly kind: 'no-screen'; readonly token: string }
  | null;

/** A second `next --answer --yes` this soon after one to another pane is a double tap, not a decision. */
export const ANSWER_BURST_MS = 5_000;
/** Global option: the last pane `next --answer` typed into, and when (`<ms>.<paneId>`). */
const LAST_ANSWER_OPTION = '@corral_next_answered';

/** The shortest prefix of a screen token that names a screen. */
const MIN_TOKEN = 12;

function byToken(views: readonly PaneView[], token: string): PaneView | undefined {
  const wanted = token.trim().toLowerCase();
  return wanted.length < MIN_TOKEN ? undefined : views.find((v) => v.contentHash.toLowerCase().startsWith(wanted));
}

/** The last `next --answer` on this server, when it was within the burst and to another pane. */
async function recentAnswerTo(tmux: TmuxClient, paneId: string, now: number): Promise<string | null> {
  const shown = await tmux.options.globalOptions().catch(() => '');
  const line = shown.split('\n').find((l) => l.startsWith(`${LAST_ANSWER_OPTION} `));
  const match = /^(\d+)\.(%\d+)$/.exec(line?.slice(LAST_ANSWER_OPTION.length + 1).replace(/"/g, '') ?? '');
  if (!match) return null;
  return now - Number(match[1]) < ANSWER_BURST_MS && match[2] !== paneId ? match[2]! : null;
}

/**
 * Answers a waiting pane with `option`, through the pane port's guarded answer: only an answer its
 * prompt offers, only on the screen this look saw, and only the pane the caller named by its screen
 * token (or, with `yes`, the most urgent one, unless another was answered so a moment ago). Without
 * either, nothing is typed: it says which pane it would answer and the token that names it. The
 * answer is kept in the pane's attention record, so no other surface answers that screen again.
 */
export async function answerWaiting(settings: Settings, env: NodeJS.ProcessEnv, stderr: NodeJS.WritableStream, option: string, choice: AnswerChoice): Promise<NextAnswer> {
  return look(settings, env, stderr, async ({ engine, tmux, hosts }) => {
    const now = clock.now();
    const waiting = waitingViews(engine.getSnapshot().panes, now);
    const chosen = choice.screen !== null ? byToken(waiting, choice.screen) : waiting[0];
    if (chosen === undefined) return choice.screen !== null ? { kind: 'no-screen' as const, token: choice.screen } : null;
    if (choice.screen === null && !choice.yes) return { kind: 'would' as const, view: chosen, token: chosen.contentHash.slice(0, 16) };
    const last = choice.screen === null ? await recentAnswerTo(tmux, chosen.pane.paneId, now) : null;
    if (last !== null) return { kind: 'burst' as const, view: chosen, last };
    // The servers' modules load only when a pane is answered.
    const { buildPanePorts } = await import('./pane-ports.js');
    const { port } = buildPanePorts({ engine, tmux, remotes: remoteHosts(hosts), settings });
    try {
      const plan = await port.answer(chosen.key, option, { shownHash: chosen.contentHash, target: chosen.target, surface: 'next' });
      const views = engine.getSnapshot().panes.filter((v) => v.host === chosen.host);
      await tmux.options.runEach([...attentionCommands(views, new Map(), clock.now()), ['set-option', '-q', '-g', LAST_ANSWER_OPTION, `${clock.now()}.${chosen.pane.paneId}`]]).catch(() => 0);
      return { kind: 'answered' as const, view: chosen, plan, others: waiting.length - 1 };
    } finally {
      await port.close();
    }
  });
}

export async function waitingPanes(settings: Settings, env: NodeJS.ProcessEnv, stderr: NodeJS.WritableStream): Promise<Waiting> {
  if (settings.hosts.length === 0) {
    const opened = openTmux(localHost(socketFromSettings(settings, env)), { formats: TMUX_FORMATS, persistent: false, clock, timers: controlTimers });
    try {
      const read = await fromOptions(opened.client).catch(() => null);
      if (read) return read;
    } finally {
      await opened.close();
    }
  }
  return byLooking(settings, env, stderr);
}
