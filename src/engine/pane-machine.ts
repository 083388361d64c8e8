// The per-pane state machine, as pure functions of (track, observation, now, config).
// registered -> monitoring; monitoring -> stuck when quiet >= threshold at a prompt that is not
// busy; stuck -> monitoring (emitting `unstuck`) on any counted change; any -> ended.

import type { CorralEvent, PaneInfo, PromptVerdict, StuckReason } from './types.js';

export interface MachineConfig {
  readonly quietThresholdMs: number;
}

export interface PaneTrack {
  readonly paneId: string;
  readonly trackingId: string;
  readonly cwd: string;
  readonly registeredAt: number;
  readonly state: 'registered' | 'monitoring' | 'stuck';
  /** Hash of the last normalised screen, null before the first capture. */
  readonly hash: string | null;
  readonly quietSince: number;
  readonly stuckSince: number | null;
  readonly reason: StuckReason | null;
  readonly message: string | null;
  readonly verdict: PromptVerdict | null;
  readonly acknowledged: boolean;
}

export interface Step {
  readonly track: PaneTrack;
  readonly events: CorralEvent[];
}

export interface Observation {
  readonly hash: string;
  readonly verdict: PromptVerdict;
}

/**
 * Starts tracking a pane. Its quiet time starts at its window's last activity when tmux knows it
 * (so a pane idle for an hour before corral started is not reported as fresh), else now.
 */
export function register(pane: PaneInfo, now: number): Step {
  // tmux reports whole seconds: the end of that second is the safe (never early) estimate.
  const activity = pane.windowActivity > 0 ? Math.min(now, pane.windowActivity + 999) : now;
  const track: PaneTrack = {
    paneId: pane.paneId,
    trackingId: `tmux-${pane.paneId}-${now}`,
    cwd: pane.cwd,
    registeredAt: now,
    state: 'registered',
    hash: null,
    quietSince: activity,
    stuckSince: null,
    reason: null,
    message: null,
    verdict: null,
    acknowledged: false,
  };
  return {
    track,
    events: [{ type: 'registered', sessionId: track.trackingId, paneId: pane.paneId, cwd: pane.cwd, transcriptPath: '', timestamp: now }],
  };
}

export function observe(track: PaneTrack, observation: Observation, now: number, config: MachineConfig): Step {
  const events: CorralEvent[] = [];
  const firstCapture = track.hash === null;
  const changed = !firstCapture && observation.hash !== track.hash;
  let next: PaneTrack = { ...track, hash: observation.hash, verdict: observation.verdict };
  if (firstCapture) next = { ...next, state: 'monitoring' };

  if (changed) {
    if (track.state === 'stuck') {
      events.push({ type: 'unstuck', sessionId: track.trackingId, paneId: track.paneId, timestamp: now });
    }
    return {
      track: { ...next, state: 'monitoring', quietSince: now, stuckSince: null, reason: null, message: null, acknowledged: false },
      events,
    };
  }

  const verdict = observation.verdict;
  const quietFor = now - next.quietSince;
  if (next.state === 'monitoring' && quietFor >= config.quietThresholdMs && verdict.prompt && !verdict.busy && verdict.reason) {
    next = { ...next, state: 'stuck', stuckSince: now, reason: verdict.reason, message: verdict.line };
    events.push({
      type: 'stuck',
      sessionId: track.trackingId,
      paneId: track.paneId,
      cwd: track.cwd,
      transcriptPath: '',
      reason: verdict.reason,
      message: verdict.line,
      timestamp: now,
    });
  }
  return { track: next, events };
}

export function end(track: PaneTrack, why: 'closed' | 'out-of-scope' | 'server-gone', now: number): CorralEvent {
  return { type: 'ended', sessionId: track.trackingId, paneId: track.paneId, why, timestamp: now };
}

/** Snoozes a stuck pane until its screen changes (a change clears the flag in observe()). */
export function acknowledge(track: PaneTrack): PaneTrack {
  return track.state === 'stuck' ? { ...track, acknowledged: true } : track;
}
