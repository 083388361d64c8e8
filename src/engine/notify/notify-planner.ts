// Decides which stuck panes to notify about, and when. Pure apart from the state it keeps; time
// comes in as `now`. Rules:
// - only the reasons asked for, only after the minimum quiet time, never in quiet hours;
// - only panes corral has seen do something (a screen change between two non-empty screens, or a
//   hook call): panes that were simply there when corral or a tmux server (re)started, or whose
//   screen came back from an empty capture, are no news;
// - a wait is told once: the same question back after a redraw (the same wait, its moment kept) is
//   no news;
// - stuck panes that arrive together are coalesced: from three on, one summary;
// - at most `maxPerMinute` notifications a minute; what waits goes out later as one summary.

import { needsPerson } from '../pane/pane-status.js';
import type { PaneView, StuckReason } from '../types.js';

export interface NotifyRules {
  readonly reasons: ReadonlySet<StuckReason>;
  readonly minQuietMs: number;
  /** Local minutes of the day [start, end); the span may wrap midnight. */
  readonly quietHours: { readonly start: number; readonly end: number } | null;
  readonly maxPerMinute: number;
  /** How long to wait for other panes that get stuck at about the same time. */
  readonly coalesceMs?: number;
  /** How long a hook's permission may wait for its dialog on screen (for answer buttons). */
  readonly settleMs?: number;
}

export interface NotifyItem {
  readonly view: PaneView;
  readonly reason: StuckReason;
  readonly message: string;
}

export type Notification = { readonly kind: 'single'; readonly item: NotifyItem } | { readonly kind: 'summary'; readonly items: readonly NotifyItem[] };

const COALESCE_MS = 500;
const SETTLE_MS = 3_000;
const SUMMARY_FROM = 3;
const RATE_WINDOW_MS = 60_000;

interface Pending {
  readonly paneId: string;
  readonly trackingId: string;
  readonly reason: StuckReason;
  readonly message: string;
  readonly since: number;
}

/** "22:00-07:00" as minutes of the day; throws a sentence for anything else. */
export function parseQuietHours(text: string): { start: number; end: number } {
  const m = /^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$/.exec(text);
  const minutes = (h: string, mm: string) => {
    const value = Number(h) * 60 + Number(mm);
    if (Number(h) > 24 || Number(mm) > 59 || value > 24 * 60) throw new Error(`quiet hours: ${JSON.stringify(text)} has an impossible time`);
    return value % (24 * 60);
  };
  if (!m) throw new Error(`quiet hours must look like 22:00-07:00, got ${JSON.stringify(text)}`);
  return { start: minutes(m[1]!, m[2]!), end: minutes(m[3]!, m[4]!) };
}

export function inQuietHours(hours: NotifyRules['quietHours'], minuteOfDay: number): boolean {
  if (hours === null || hours.start === hours.end) return false;
  return hours.start < hours.end ? minuteOfDay >= hours.start && minuteOfDay < hours.end : minuteOfDay >= hours.start || minuteOfDay < hours.end;
}

export class NotifyPlanner {
  private readonly seen = new Map<string, { trackingId: string; hash: string; empty: boolean; witnessed: boolean }>();
  private pending: Pending[] = [];
  private windowEnd = 0;
  private sent: number[] = [];
  /** The wait each pane was last told for (its moment, by tracking id). */
  private readonly told = new Map<string, { readonly trackingId: string; readonly since: number }>();
  /** Counts of what was left out and why, for status lines and tests. */
  readonly skipped = { reason: 0, unwitnessed: 0, quietHours: 0, told: 0 };

  constructor(private readonly rules: NotifyRules) {}

  /** Feeds every snapshot: this is how the planner sees panes do something. */
  observe(panes: readonly PaneView[]): void {
    const present = new Set<string>();
    for (const view of panes) {
      present.add(view.pane.paneId);
      const empty = view.lines.length === 0;
      const before = this.seen.get(view.pane.paneId);
      if (!before || before.trackingId !== view.trackingId) {
        this.seen.set(view.pane.paneId, { trackingId: view.trackingId, hash: view.contentHash, empty, witnessed: false });
        continue;
      }
      const hooked = view.hook !== null && view.hook.lastEventAt >= view.registeredAt;
      // A change from or to an empty capture (a restarting server, a cleared screen) is not activity.
      const changed = view.contentHash !== before.hash && !empty && !before.empty && before.hash !== '';
      this.seen.set(view.pane.paneId, { trackingId: view.trackingId, hash: view.contentHash, empty, witnessed: before.witnessed || changed || hooked });
    }
    for (const id of this.seen.keys()) if (!present.has(id)) this.seen.delete(id);
    for (const id of this.told.keys()) if (!present.has(id)) this.told.delete(id);
  }

  /**
   * A pane became stuck. `atStart`: it already waited when corral started (its first look), which
   * is told once; a pane that turns up already waiting later (a restored session) is not.
   */
  stuck(view: PaneView, reason: StuckReason, message: string, now: number, atStart = false): void {
    if (!this.rules.reasons.has(reason)) {
      this.skipped.reason += 1;
      return;
    }
    const seen = this.seen.get(view.pane.paneId);
    const hooked = view.hook !== null && view.hook.lastEventAt >= view.registeredAt;
    if (!atStart && !hooked && !(seen?.trackingId === view.trackingId && seen.witnessed)) {
      this.skipped.unwitnessed += 1;
      return;
    }
    const told = this.told.get(view.pane.paneId);
    if (told !== undefined && view.waitSince !== null && told.trackingId === view.trackingId && told.since === view.waitSince) {
      this.skipped.told += 1;
      return;
    }
    this.pending = this.pending.filter((p) => p.paneId !== view.pane.paneId);
    if (this.pending.length === 0) this.windowEnd = now + (this.rules.coalesceMs ?? COALESCE_MS);
    this.pending.push({ paneId: view.pane.paneId, trackingId: view.trackingId, reason, message, since: now });
  }

  get waiting(): number {
    return this.pending.length;
  }

  /**
   * What to send now. `minuteOfDay` is local time, for quiet hours. Panes no longer stuck (or
   * snoozed, or gone) are dropped; a hook's permission waits up to settleMs for its dialog.
   */
  due(panes: readonly PaneView[], now: number, minuteOfDay: number): Notification[] {
    if (this.pending.length === 0 || now < this.windowEnd) return [];
    const byId = new Map(panes.map((v) => [v.pane.paneId, v]));
    const ready: NotifyItem[] = [];
    const later: Pending[] = [];
    for (const p of this.pending) {
      const view = byId.get(p.paneId);
      if (!view || view.trackingId !== p.trackingId || !needsPerson(view)) continue;
      // Quiet, or holding its wait while it animates (a blinking dialog prints every second).
      const quietEnough = now - Math.min(view.quietSince, view.waitSince ?? view.quietSince) >= this.rules.minQuietMs;
      const onScreen = view.verdict?.prompt === true || now - p.since >= (this.rules.settleMs ?? SETTLE_MS);
      if (quietEnough && onScreen) ready.push({ view, reason: view.reason ?? p.reason, message: view.reason === 'permission' && view.message ? view.message : p.message });
      else later.push(p);
    }
    if (inQuietHours(this.rules.quietHours, minuteOfDay)) {
      this.skipped.quietHours += ready.length;
      this.pending = later;
      return [];
    }
    this.sent = this.sent.filter((t) => now - t < RATE_WINDOW_MS);
    if (ready.length > 0 && this.sent.length >= this.rules.maxPerMinute) {
      // Over the limit: everything ready waits and goes out together when a slot frees.
      this.pending = [...later, ...this.pending.filter((p) => ready.some((r) => r.view.pane.paneId === p.paneId))];
      this.windowEnd = (this.sent[0] ?? now) + RATE_WINDOW_MS;
      return [];
    }
    this.pending = later;
    if (later.length > 0) this.windowEnd = now;
    if (ready.length === 0) return [];
    for (const { view } of ready) if (view.waitSince !== null) this.told.set(view.pane.paneId, { trackingId: view.trackingId, since: view.waitSince });
    this.sent.push(now);
    if (ready.length >= SUMMARY_FROM) return [{ kind: 'summary', items: ready }];
    const out: Notification[] = ready.map((item) => ({ kind: 'single', item }));
    // The second of two counts against the limit too.
    for (let i = 1; i < out.length; i++) this.sent.push(now);
    return out;
  }
}
