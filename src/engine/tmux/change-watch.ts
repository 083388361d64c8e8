// How tmux tells corral that its listing may have changed, so a poll need not ask while nothing
// did: a format subscription (tmux 3.2+) over every window of every session. tmux evaluates it
// once a second and sends `%subscription-changed` only when its value differs; with the
// notifications for windows added and closed, a quiet server sends nothing at all. The value
// also names the windows that printed, so a poll then lists only those (window-listing.ts).

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
 * The value, over every window of every session. No comma at the loops' top level: after one, a
 * loop takes the rest as the format of the current session or window.
 */
export function watchFormat(): string {
  return '#{S:#{W:#{window_id} #{window_activity} }}';
}

export function watchCommand(): string[] {
  return ['refresh-client', '-B', `${WATCH_SUBSCRIPTION}::${watchFormat()}`];
}

/**
 * A second subscription, on one global option (`stampOption`, the caller's) that every record write
 * also sets (corral's attention records: a look, a snooze or an answer made in another corral
 * process) is told like output, and the next listing reads the records. One value, so tmux's check
 * costs nothing per pane.
 */
export const RECORDS_SUBSCRIPTION = 'corral-records';

export function recordsWatchCommand(stampOption: string): string[] {
  return ['refresh-client', '-B', `${RECORDS_SUBSCRIPTION}::#{${stampOption}}`];
}

/**
 * Notifications that never change what a listing shows: corral's own captures go through paste
 * buffers, and messages say nothing of panes. Every other notification may mean anything changed.
 */
const UNRELATED = new Set(['paste-buffer-changed', 'paste-buffer-deleted', 'message', 'config-error', 'client-detached']);

/** How many changes are remembered by what they touched; a mark older than that reads as "anything". */
const JOURNAL = 256;

/**
 * The subscription's value (`@1 1733250000 @2 1733250004 `) as its words: window ids and stamps
 * by turns, in the server's order of sessions and windows.
 */
export function watchWords(value: string): string[] {
  return value.trim().split(' ');
}

/**
 * The windows whose activity stamp differs between two values of the subscription (as words);
 * null when the windows are not the same ones in the same order (a window came, went or moved),
 * which a listing of some windows cannot show, or when there is no earlier value.
 */
export function changedWindows(before: readonly string[] | null, after: readonly string[]): Set<string> | null {
  if (before === null || before.length !== after.length || after.length % 2 !== 0) return null;
  const changed = new Set<string>();
  for (let i = 0; i < after.length; i += 2) {
    const window = after[i]!;
    if (window !== before[i] || !window.startsWith('@')) return null;
    if (after[i + 1] !== before[i + 1]) changed.add(window);
  }
  return changed;
}

/** The changes one poll connection's tmux tells of, counted, and whom to tell. */
export class ChangeWatch {
  /** `stampOption`: the global option whose every change is told (see recordsWatchCommand). */
  constructor(private readonly stampOption: string) {}

  private listener: (() => void) | null = null;
  private count = 0;
  /** The connection the subscription was made on (a new connection needs its own). */
  private watched: ControlClient | null = null;
  /** The subscription's last value, as words (see watchWords). */
  private words: string[] | null = null;
  /** The latest changes: each one's count and the windows it touched (null: anything). */
  private journal: { readonly count: number; readonly windows: ReadonlySet<string> | null }[] = [];

  /**
   * For the connection: the subscription's value tells which windows printed; a window added or
   * closed, a layout, a mode or a name may mean anything changed; so does a connection that ended.
   */
  readonly handlers: ControlHandlers = {
    onNotification: (name, args) => {
      if (name === 'subscription-changed') this.valueChanged(args);
      else if (!UNRELATED.has(name)) this.changed(null);
    },
    onExit: () => this.changed(null),
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
    const [reply] = await connection.run([watchCommand(), recordsWatchCommand(this.stampOption)]).catch(() => []);
    if (reply?.ok === true && !connection.closed) this.watched = connection;
    // What happened before the subscription went untold: it counts as a change of anything.
    this.words = null;
    this.changed(null);
  }

  /** The count, while `connection` is the one watched and still open; null otherwise. */
  changes(connection: ControlClient | null): number | null {
    return connection !== null && connection === this.watched && !connection.closed ? this.count : null;
  }

  /**
   * The windows every change told after `mark` (a count) touched; null when one of them may have
   * touched anything, or the mark is older than what is remembered.
   */
  windowsSince(mark: number): Set<string> | null {
    const later = this.journal.filter((entry) => entry.count > mark);
    if (later.length < this.count - mark) return null;
    const windows = new Set<string>();
    for (const entry of later) {
      if (entry.windows === null) return null;
      for (const window of entry.windows) windows.add(window);
    }
    return windows;
  }

  private valueChanged(args: string): void {
    // `NAME $SESSION - - - : VALUE` for a subscription to every window of every session.
    if (!args.startsWith(`${WATCH_SUBSCRIPTION} `)) return this.changed(null);
    const split = args.indexOf(' : ');
    const words = split === -1 ? null : watchWords(args.slice(split + 3));
    const windows = words === null ? null : changedWindows(this.words, words);
    this.words = words;
    this.changed(windows);
  }

  private changed(windows: ReadonlySet<string> | null): void {
    this.count += 1;
    this.journal.push({ count: this.count, windows });
    if (this.journal.length > JOURNAL) this.journal.splice(0, this.journal.length - JOURNAL);
    this.listener?.();
  }
}
