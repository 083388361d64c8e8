// How tmux tells corral that its listing may have changed, so a poll need not ask while nothing
// did: a format subscription (tmux 3.2+) over every window of every session. tmux evaluates it
// once a second and sends `%subscription-changed` only when its value differs; with the
// notifications for windows added and closed, a quiet server sends nothing at all.

import type { ControlClient, ControlHandlers } from './control-client.js';

/**
 * One subscription: every window's activity stamp, which changes each second a window prints.
 * The rest of what a listing shows comes with notifications tmux sends anyway (windows added and
 * closed, layouts and so sizes, copy mode, sessions) or with output (a respawned pane, the
 * alternate screen, an agent's hook record, which its screen follows). Evaluating every pane's
 * whole line each second instead cost a busy tmux server three times the listing's work.
 */
export const WATCH_SUBSCRIPTION = 'corral-activity';

/**
 * tmux checks subscriptions once a second: a change is told up to this long after it happened, so
 * a poll only trusts the silence when its interval is at least this long.
 */
export const WATCH_CHECK_MS = 1_000;

/**
 * The value, over every window of every session. No comma at the loops' top level: after one, a
 * loop takes the rest as the format of the current session or window.
 */
export function watchFormat(): string {
  return '#{S:#{W:#{window_id} #{window_activity} }}';
}

export function watchCommand(): string[] {
  return ['refresh-client', '-B', `${WATCH_SUBSCRIPTION}::${watchFormat()}`];
}

/** The changes one poll connection's tmux tells of, counted, and whom to tell. */
export class ChangeWatch {
  private listener: (() => void) | null = null;
  private count = 0;
  /** The connection the subscription was made on (a new connection needs its own). */
  private watched: ControlClient | null = null;

  /**
   * For the connection: any notification (the subscription's value, a window added or closed, a
   * layout) may mean the listing changed; so does a connection that ended.
   */
  readonly handlers: ControlHandlers = {
    onNotification: () => this.changed(),
    onExit: () => this.changed(),
  };

  /** Whether anyone listens: a new connection then subscribes. */
  get wanted(): boolean {
    return this.listener !== null;
  }

  /** From now on `listener` hears each change; `connection`, when open, subscribes at once. */
  listen(listener: () => void, connection: ControlClient | null): void {
    this.listener = listener;
    if (connection && !connection.closed && this.watched !== connection) void this.subscribe(connection);
  }

  async subscribe(connection: ControlClient): Promise<void> {
    const [reply] = await connection.run([watchCommand()]).catch(() => []);
    if (reply?.ok === true && !connection.closed) this.watched = connection;
    // What happened before the subscription went untold: it counts as a change.
    this.changed();
  }

  /** The count, while `connection` is the one watched and still open; null otherwise. */
  changes(connection: ControlClient | null): number | null {
    return connection !== null && connection === this.watched && !connection.closed ? this.count : null;
  }

  private changed(): void {
    this.count += 1;
    this.listener?.();
  }
}
