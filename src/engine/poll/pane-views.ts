// The views the engine publishes: one PaneView per watched pane, made from its entry and reused
// (the same object) while nothing a reader sees changed, so renderers can compare by identity.

import { hookView, type PaneTrack } from '../pane/pane-machine.js';
import { optInLabel } from '../pane/scope.js';
import { paneTarget } from '../tmux/command-line.js';
import type { HookView, PaneInfo, PaneView } from '../types.js';
import type { PaneEntry } from './poll-step.js';
import { attentionView, sameAttention, type WaitingMode } from '../attention/attention.js';
import type { AttentionRecord } from '../attention/record.js';

interface MadeView {
  readonly view: PaneView;
  /** The track and attention record the view was made from (with the entry's pane and lines, all a view depends on). */
  readonly track: PaneTrack;
  readonly attention: AttentionRecord;
}

export class PaneViews {
  private made = new Map<string, MadeView>();

  constructor(
    private readonly prefix: string,
    private readonly waiting: WaitingMode,
  ) {}

  /** The views of `entries` in their order, and whether any is not the one handed out last time. */
  viewsOf(entries: ReadonlyMap<string, PaneEntry>): { readonly views: PaneView[]; readonly changed: boolean } {
    const made = new Map<string, MadeView>();
    const views: PaneView[] = [];
    let changed = false;
    for (const [paneId, entry] of entries) {
      const last = this.made.get(paneId);
      const view = this.viewOf(entry, last);
      if (view !== last?.view) changed = true;
      made.set(paneId, { view, track: entry.track, attention: entry.attention });
      views.push(view);
    }
    this.made = made;
    return { views, changed };
  }

  /** The last view handed out for a pane. */
  last(paneId: string): PaneView | undefined {
    return this.made.get(paneId)?.view;
  }

  private viewOf(entry: PaneEntry, last: MadeView | undefined): PaneView {
    const { pane, track, lines } = entry;
    const previous = last?.view ?? null;
    // Made from the same objects: the same view, without building one to compare.
    if (previous !== null && last?.track === track && last.attention === entry.attention && previous.pane === pane && previous.lines === lines) return previous;
    const made = attentionView(entry.attention, track, this.waiting);
    const attention = previous !== null && sameAttention(previous.attention, made) ? previous.attention : made;
    const view: PaneView = {
      key: track.key,
      host: track.host,
      online: true,
      pane,
      target: paneTarget(pane),
      label: optInLabel(pane, this.prefix),
      trackingId: track.trackingId,
      state: track.state,
      reason: track.reason,
      message: track.message,
      verdict: track.verdict,
      registeredAt: track.registeredAt,
      quietSince: track.quietSince,
      waitSince: track.wait?.since ?? null,
      stuckSince: track.stuckSince,
      acknowledged: attention.snoozed,
      attention,
      lines,
      screenHash: track.hash ?? '',
      contentHash: track.contentHash,
      hook: sameHook(previous?.hook ?? null, hookView(track.hook)),
    };
    return previous !== null && sameView(previous, view) ? previous : view;
  }
}

function sameView(a: PaneView, b: PaneView): boolean {
  return (
    a.state === b.state &&
    a.reason === b.reason &&
    a.message === b.message &&
    a.quietSince === b.quietSince &&
    a.waitSince === b.waitSince &&
    a.stuckSince === b.stuckSince &&
    a.acknowledged === b.acknowledged &&
    a.attention === b.attention &&
    a.screenHash === b.screenHash &&
    a.contentHash === b.contentHash &&
    a.lines === b.lines &&
    a.label === b.label &&
    a.target === b.target &&
    a.hook === b.hook &&
    samePane(a.pane, b.pane)
  );
}

/** The previous hook view when nothing in it changed, so views keep their identity. */
function sameHook(previous: HookView | null, next: HookView | null): HookView | null {
  if (previous === null || next === null) return next;
  const a = previous.disagreement;
  const b = next.disagreement;
  const sameDisagreement = a === b || (a !== null && b !== null && a.claim === b.claim && a.screen === b.screen && a.since === b.since && a.overruled === b.overruled);
  return previous.agent === next.agent &&
    previous.sessionId === next.sessionId &&
    previous.transcriptPath === next.transcriptPath &&
    previous.claim === next.claim &&
    previous.claimSince === next.claimSince &&
    previous.lastEvent === next.lastEvent &&
    previous.lastEventAt === next.lastEventAt &&
    sameDisagreement
    ? previous
    : next;
}

function samePane(a: PaneInfo, b: PaneInfo): boolean {
  return (
    a.title === b.title &&
    a.cwd === b.cwd &&
    a.command === b.command &&
    a.windowName === b.windowName &&
    a.sessionName === b.sessionName &&
    a.windowIndex === b.windowIndex &&
    a.paneIndex === b.paneIndex &&
    a.width === b.width &&
    a.height === b.height &&
    a.inMode === b.inMode &&
    a.alternateOn === b.alternateOn &&
    a.dead === b.dead
  );
}
