// Notifications that reach a person away from the terminal: the planner decides what and when,
// the channels (--on-stuck command, desktop, ntfy push) deliver. Runs beside the dashboard,
// `corral serve` and `corral watch`. A failing channel says so once on the log and keeps trying.

import { ConfigError, type NotifySettings } from '../engine/settings/config.js';
import { NotifyPlanner, parseQuietHours, type Notification, type NotifyRules } from '../engine/notify/notify-planner.js';
import type { Clock, CorralEvent, EngineStore, PaneView, StuckReason, Timers } from '../engine/types.js';
import { describeNotification } from './channels.js';
import { runOnStuck } from './command-channel.js';
import { DesktopUnavailableError, sendDesktop } from './desktop-channel.js';
import { ntfyRequest, sendNtfy, validateTopicUrl, type NtfyAction, type NtfyRequest } from './ntfy-channel.js';
import { stuckMessage } from '../engine/pane/pane-machine.js';

const TICK_MS = 100;

export interface NotifierOptions {
  readonly engine: EngineStore & { onEvent(listener: (event: CorralEvent) => void): () => void };
  readonly settings: NotifySettings;
  /** Answer buttons for a pane, when corral's server can take answers. */
  readonly actionsFor?: (view: PaneView) => NtfyAction[];
  /** One line for the person (stderr, or nowhere under the dashboard). */
  readonly log: (line: string) => void;
  readonly clock: Clock;
  /** For the planner's tick while notifications wait (a coalescing window, the rate limit). */
  readonly timers: Timers;
  /** The local minute of the day, for quiet hours; the clock's by default. */
  readonly minuteOfDay?: () => number;
  /** Called as each ntfy request leaves (for the benchmark). */
  readonly onPush?: (request: NtfyRequest, notification: Notification) => void;
}

export interface Notifier {
  readonly planner: NotifyPlanner;
  /** Resolves when every delivery started so far has finished. */
  idle(): Promise<void>;
  close(): void;
}

/** Whether any channel is configured. */
export function notificationsWanted(settings: NotifySettings): boolean {
  return settings.onStuck !== null || settings.notifyDesktop || settings.ntfyUrl !== null;
}

/** The planner's rules from settings; bad values are configuration errors that name the setting. */
export function notifyRules(settings: NotifySettings): NotifyRules {
  const reasons = new Set<StuckReason>();
  for (const reason of settings.notifyReasons) {
    if (reason !== 'permission' && reason !== 'stopped') throw new ConfigError(`--notify-reason: must be permission or stopped, got ${JSON.stringify(reason)}`);
    reasons.add(reason);
  }
  let quietHours: NotifyRules['quietHours'] = null;
  if (settings.quietHours) {
    try {
      quietHours = parseQuietHours(settings.quietHours);
    } catch (error) {
      throw new ConfigError(`--quiet-hours: ${(error as Error).message}`);
    }
  }
  if (settings.ntfyUrl) {
    try {
      validateTopicUrl(settings.ntfyUrl);
    } catch (error) {
      throw new ConfigError((error as Error).message);
    }
  }
  return { reasons, minQuietMs: settings.notifyMinQuietMs, quietHours, maxPerMinute: settings.notifyMaxPerMinute };
}

const localMinute = (at: number) => {
  const d = new Date(at);
  return d.getHours() * 60 + d.getMinutes();
};

/**
 * At corral's first look: tells the planner of every pane stuck already (once, as at start), and
 * returns the moments of the waits on screen that had not held their threshold yet (tmux stamps
 * whole seconds: a question up for 1.5 s may be younger than a second to corral), by pane. Such a
 * wait, when it comes of age, is one already up at the start too, not a restored pane.
 */
function tellAtFirstLook(panes: readonly PaneView[], planner: NotifyPlanner, at: number): Map<string, number> {
  const young = new Map<string, number>();
  for (const view of panes) {
    if (view.state !== 'stuck' && view.waitSince !== null) young.set(view.pane.paneId, view.waitSince);
    if (view.state !== 'stuck' || view.reason === null || view.verdict === null) continue;
    planner.stuck(view, view.reason, stuckMessage(view.verdict), at, true);
  }
  return young;
}

export function createNotifier(options: NotifierOptions): Notifier {
  const { engine, settings, log } = options;
  const { clock, timers } = options;
  const now = () => clock.now();
  const minuteOfDay = options.minuteOfDay ?? (() => localMinute(now()));
  const planner = new NotifyPlanner(notifyRules(settings));
  const deliveries = new Set<Promise<void>>();
  const failing = new Set<string>();
  let timer: unknown = null;

  const track = (channel: string, work: Promise<unknown>) => {
    const done = work.then(
      () => {
        if (failing.delete(channel)) log(`corral: ${channel} notifications work again`);
      },
      (error: Error) => {
        if (failing.has(channel)) return;
        failing.add(channel);
        log(`corral: ${channel} notification failed: ${error.message}${error instanceof DesktopUnavailableError ? '' : ' (retrying with the next one)'}`);
      },
    );
    deliveries.add(done);
    void done.finally(() => deliveries.delete(done));
  };

  const deliver = (notification: Notification) => {
    const text = describeNotification(notification);
    if (settings.onStuck) track('--on-stuck', runOnStuck(settings.onStuck, text, timers));
    if (settings.notifyDesktop) track('desktop', sendDesktop(text));
    if (settings.ntfyUrl) {
      const actions = notification.kind === 'single' && options.actionsFor ? options.actionsFor(notification.item.view) : [];
      const request = ntfyRequest(settings.ntfyUrl, text, actions, settings.ntfyAuth);
      options.onPush?.(request, notification);
      track('ntfy', sendNtfy(request));
    }
  };

  const tick = () => {
    timer = null;
    for (const notification of planner.due(engine.getSnapshot().panes, now(), minuteOfDay())) deliver(notification);
    if (planner.waiting > 0) timer = timers.setTimeout(tick, TICK_MS);
  };

  // The panes already waiting at corral's first look (their stuck events may come before this
  // listens) are told once, like a prompt that appears later; see tellAtFirstLook.
  let upAtStart: Map<string, number> | null = null;
  const tellWaitingAtStart = () => {
    const snapshot = engine.getSnapshot();
    if (upAtStart !== null || snapshot.status === 'starting') return;
    upAtStart = tellAtFirstLook(snapshot.panes, planner, now());
    if (planner.waiting > 0 && timer === null) timer = timers.setTimeout(tick, TICK_MS);
  };
  const unsubscribeStore = engine.subscribe(() => {
    planner.observe(engine.getSnapshot().panes);
    tellWaitingAtStart();
  });
  planner.observe(engine.getSnapshot().panes);
  tellWaitingAtStart();
  const unsubscribeEvents = engine.onEvent((event) => {
    if (event.type !== 'stuck') return;
    const at = now();
    // Events come just before the snapshot that shows them is published.
    queueMicrotask(() => {
      const view = engine.getSnapshot().panes.find((v) => v.pane.paneId === event.paneId);
      if (!view) return;
      const atStart = upAtStart?.get(view.pane.paneId) === view.waitSince;
      upAtStart?.delete(view.pane.paneId);
      planner.stuck(view, event.reason, event.message, at, atStart);
      if (planner.waiting > 0 && timer === null) timer = timers.setTimeout(tick, TICK_MS);
    });
  });

  return {
    planner,
    async idle() {
      while (deliveries.size > 0) await Promise.all([...deliveries]);
    },
    close() {
      unsubscribeStore();
      unsubscribeEvents();
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}
