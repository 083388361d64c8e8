// The per-pane state machine, as pure functions of (track, observation, now, config).
// registered -> monitoring; monitoring -> stuck when quiet >= threshold at a prompt that is not
// busy; stuck -> monitoring (emitting `unstuck`) on any counted change; any -> ended.
//
// An observation is a screen (hash + prompt verdict) or an agent hook event. Hooks make claims
// (permission, a turn is working, the agent waits for its next prompt) that the screen can
// overrule: a claim the screen contradicts for `hookGraceMs` no longer counts.

import {
  LOCAL_HOST,
  paneKey,
  type CorralEvent,
  type EndReason,
  type HookClaim,
  type HookDisagreement,
  type HookEvent,
  type HookView,
  type PaneInfo,
  type PromptVerdict,
  type StuckReason,
  type StuckSource,
} from './types.js';

export interface MachineConfig {
  readonly quietThresholdMs: number;
  /** How long the screen may contradict a hook's claim before the screen wins. */
  readonly hookGraceMs?: number;
  /** A permission claim that the screen never confirms lapses after this long (a rejection fires no hook). */
  readonly hookPermissionTtlMs?: number;
}

export const DEFAULT_HOOK_GRACE_MS = 10_000;
export const DEFAULT_HOOK_PERMISSION_TTL_MS = 600_000;

/** What the pane's agent hooks have said, as the machine keeps it. */
export interface HookTrack {
  readonly agent: HookEvent['agent'];
  readonly sessionId: string;
  readonly transcriptPath: string;
  readonly claim: HookClaim | null;
  readonly claimSince: number;
  readonly message: string | null;
  readonly lastEvent: string;
  readonly lastEventAt: number;
  /** When the screen began to contradict the claim, and what it showed (null: it does not). */
  readonly contradiction: { readonly since: number; readonly screen: string } | null;
  /** Permission: the claim, or the last screen that showed a permission prompt. */
  readonly confirmedAt: number;
  /** The last claim the screen overruled (cleared by the next hook event). */
  readonly overruled: { readonly claim: HookClaim; readonly screen: string; readonly at: number } | null;
}

export interface PaneTrack {
  readonly host: string;
  /** The pane's key across hosts (see paneKey). */
  readonly key: string;
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
  readonly hook: HookTrack | null;
}

export interface Step {
  readonly track: PaneTrack;
  readonly events: CorralEvent[];
}

export interface ScreenObservation {
  readonly kind?: 'screen';
  readonly hash: string;
  readonly verdict: PromptVerdict;
  /** When a changed screen changed last, at the latest (its output's end); `now` when not given. */
  readonly changedAt?: number;
}

export interface HookObservation {
  readonly kind: 'hook';
  readonly hook: HookEvent;
  /**
   * When the hook fired (a hook read from its pane record fired before it was read); `now` when
   * not given. Claims, quiet time and a permission's stuck time count from it.
   */
  readonly at?: number;
}

export type Observation = ScreenObservation | HookObservation;

/**
 * Starts tracking a pane. Its quiet time starts at its window's last activity when tmux knows it
 * (so a pane idle for an hour before corral started is not reported as fresh), else now.
 */
export function register(pane: PaneInfo, now: number, host: string = LOCAL_HOST): Step {
  // tmux reports whole seconds: the end of that second is the safe (never early) estimate.
  const activity = pane.windowActivity > 0 ? Math.min(now, pane.windowActivity + 999) : now;
  const key = paneKey(host, pane.paneId);
  const track: PaneTrack = {
    host,
    key,
    paneId: pane.paneId,
    trackingId: host === LOCAL_HOST ? `tmux-${pane.paneId}-${now}` : `tmux-${host}-${pane.paneId}-${now}`,
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
    hook: null,
  };
  return {
    track,
    events: [{ type: 'registered', host, key, sessionId: track.trackingId, paneId: pane.paneId, cwd: pane.cwd, transcriptPath: '', timestamp: now }],
  };
}

export function observe(track: PaneTrack, observation: Observation, now: number, config: MachineConfig): Step {
  if (observation.kind !== 'hook') return observeScreen(track, observation, now, config);
  const at = Math.min(now, observation.at ?? now);
  // A hook older than the last one this pane heard of changes nothing (records are read late).
  if (track.hook !== null && at < track.hook.lastEventAt) return { track, events: [] };
  return observeHook(track, observation.hook, at);
}

function stuckEvent(track: PaneTrack, reason: StuckReason, message: string, now: number, source: StuckSource): CorralEvent {
  return {
    type: 'stuck',
    host: track.host,
    key: track.key,
    sessionId: track.trackingId,
    paneId: track.paneId,
    cwd: track.cwd,
    transcriptPath: track.hook?.transcriptPath ?? '',
    reason,
    message,
    source,
    timestamp: now,
  };
}

function unstuckEvent(track: PaneTrack, now: number): CorralEvent {
  return { type: 'unstuck', host: track.host, key: track.key, sessionId: track.trackingId, paneId: track.paneId, timestamp: now };
}

const CLAIMS: Readonly<Record<HookEvent['signal'], HookClaim | null>> = {
  prompt: 'working',
  tool: 'working',
  permission: 'permission',
  stop: 'waiting',
  end: null,
};

function observeHook(track: PaneTrack, hook: HookEvent, now: number): Step {
  const claim = CLAIMS[hook.signal];
  const hookTrack: HookTrack = {
    agent: hook.agent,
    sessionId: hook.sessionId,
    transcriptPath: hook.transcriptPath || track.hook?.transcriptPath || '',
    claim,
    claimSince: now,
    message: hook.message,
    lastEvent: hook.event,
    lastEventAt: now,
    contradiction: null,
    confirmedAt: now,
    overruled: null,
  };
  const next: PaneTrack = { ...track, hook: hookTrack };
  if (claim === 'permission') {
    const message = hook.message ?? 'permission requested';
    if (track.state === 'stuck' && track.reason === 'permission') return { track: { ...next, message }, events: [] };
    const events: CorralEvent[] = track.state === 'stuck' ? [unstuckEvent(track, now)] : [];
    events.push(stuckEvent(next, 'permission', message, now, 'hook'));
    return {
      track: { ...next, state: 'stuck', stuckSince: now, reason: 'permission', message, acknowledged: false },
      events,
    };
  }
  // Anything else the agent did is activity: a stuck pane is no longer stuck, the quiet clock restarts.
  const events: CorralEvent[] = track.state === 'stuck' ? [unstuckEvent(track, now)] : [];
  const state = track.state === 'registered' ? 'registered' : 'monitoring';
  return {
    track: { ...next, state, quietSince: now, stuckSince: null, reason: null, message: null, acknowledged: false },
    events,
  };
}

/** What the screen shows that a claim cannot be true with, or null when it does not contradict it. */
function contradiction(claim: HookClaim, verdict: PromptVerdict): string | null {
  const stopped = verdict.prompt && verdict.reason === 'stopped' && !verdict.busy;
  switch (claim) {
    case 'permission':
      // An unknown dialog (no verdict either way) is no contradiction: the hook may know better.
      if (verdict.busy) return 'busy';
      return stopped ? 'stopped' : null;
    case 'working':
      return stopped ? 'stopped' : null;
    case 'waiting':
      return verdict.busy && !verdict.prompt ? 'busy' : null;
  }
}

/**
 * Weighs the claim against a screen; returns the updated hook track and the claim that just ended.
 * `screenSince` is when the screen last changed: a contradiction counts from then, or from the
 * claim when that came later, so a corral process that starts late (or reads the claim from its
 * pane record) reaches the verdict at the same moment as one that watched all along.
 */
function weighClaim(hook: HookTrack | null, verdict: PromptVerdict, now: number, screenSince: number, config: MachineConfig): { hook: HookTrack | null; ended: HookClaim | null } {
  if (hook === null || hook.claim === null) return { hook, ended: null };
  const grace = config.hookGraceMs ?? DEFAULT_HOOK_GRACE_MS;
  const ttl = config.hookPermissionTtlMs ?? DEFAULT_HOOK_PERMISSION_TTL_MS;
  const claim = hook.claim;
  const confirmedAt = claim === 'permission' && verdict.prompt && verdict.reason === 'permission' ? now : hook.confirmedAt;
  const screen = contradiction(claim, verdict);
  if (screen === null) {
    if (claim === 'permission' && now - confirmedAt >= ttl) {
      return { hook: { ...hook, claim: null, contradiction: null, confirmedAt }, ended: claim };
    }
    // Unchanged tracks stay the same object, so views (and renders) stay put.
    if (hook.contradiction === null && confirmedAt === hook.confirmedAt) return { hook, ended: null };
    return { hook: { ...hook, contradiction: null, confirmedAt }, ended: null };
  }
  const since = hook.contradiction?.since ?? Math.min(now, Math.max(hook.claimSince, screenSince));
  if (now - since >= grace) {
    return { hook: { ...hook, claim: null, contradiction: null, confirmedAt, overruled: { claim, screen, at: now } }, ended: claim };
  }
  if (hook.contradiction?.screen === screen && confirmedAt === hook.confirmedAt) return { hook, ended: null };
  return { hook: { ...hook, contradiction: { since, screen }, confirmedAt }, ended: null };
}

function observeScreen(track: PaneTrack, observation: ScreenObservation, now: number, config: MachineConfig): Step {
  const events: CorralEvent[] = [];
  const firstCapture = track.hash === null;
  const changed = !firstCapture && observation.hash !== track.hash;
  const verdict = observation.verdict;
  const screenSince = changed ? Math.min(now, observation.changedAt ?? now) : track.quietSince;
  const weighed = weighClaim(track.hook, verdict, now, screenSince, config);
  const claim = weighed.hook?.claim ?? null;
  // The same screen, verdict and hook claim: the same track object (most panes, most cycles), so
  // nothing downstream is rebuilt.
  const same = !firstCapture && !changed && verdict === track.verdict && weighed.hook === track.hook;
  let next: PaneTrack = same ? track : { ...track, hash: observation.hash, verdict, hook: weighed.hook };
  if (firstCapture && next.state === 'registered') next = { ...next, state: 'monitoring' };

  if (changed) {
    // The hook arrives before its dialog is drawn: while the claim holds, the drawing is no news.
    const quietSince = Math.min(now, observation.changedAt ?? now);
    if (claim === 'permission' && track.state === 'stuck') return { track: { ...next, quietSince }, events };
    if (track.state === 'stuck') events.push(unstuckEvent(track, now));
    return {
      track: { ...next, state: 'monitoring', quietSince, stuckSince: null, reason: null, message: null, acknowledged: false },
      events,
    };
  }

  // A permission claim just ended (overruled or lapsed): the pane stays stuck only if the screen says so too.
  if (weighed.ended === 'permission' && next.state === 'stuck' && !(verdict.prompt && verdict.reason === 'permission' && !verdict.busy)) {
    events.push(unstuckEvent(track, now));
    next = { ...next, state: 'monitoring', stuckSince: null, reason: null, message: null, acknowledged: false };
  }

  const quietFor = now - next.quietSince;
  if (next.state !== 'monitoring' || quietFor < config.quietThresholdMs || verdict.busy) return { track: next, events };
  let reason: StuckReason | null = null;
  let message = verdict.line;
  let source: StuckSource = 'screen';
  if (verdict.prompt && verdict.reason !== null) {
    // A running turn vetoes "stopped": an agent's input box is drawn while it works.
    if (!(verdict.reason === 'stopped' && claim === 'working')) reason = verdict.reason;
  } else if (claim === 'waiting') {
    // The agent said its turn is over; the screen has no rule for what it shows.
    reason = 'stopped';
    message = verdict.line || 'waiting for the next prompt';
    source = 'hook';
  }
  if (reason !== null) {
    next = { ...next, state: 'stuck', stuckSince: now, reason, message };
    events.push(stuckEvent(next, reason, message, now, source));
  }
  return { track: next, events };
}

export function end(track: PaneTrack, why: EndReason, now: number): CorralEvent {
  return { type: 'ended', host: track.host, key: track.key, sessionId: track.trackingId, paneId: track.paneId, why, timestamp: now };
}

/** Snoozes a stuck pane until its screen changes (a change clears the flag in observe()). */
export function acknowledge(track: PaneTrack): PaneTrack {
  return track.state === 'stuck' ? { ...track, acknowledged: true } : track;
}

/** The hook part of a pane's view: the claim in force and any disagreement with the screen. */
export function hookView(hook: HookTrack | null): HookView | null {
  if (hook === null) return null;
  let disagreement: HookDisagreement | null = null;
  if (hook.claim !== null && hook.contradiction !== null) {
    disagreement = { claim: hook.claim, screen: hook.contradiction.screen, since: hook.contradiction.since, overruled: false };
  } else if (hook.overruled !== null) {
    disagreement = { claim: hook.overruled.claim, screen: hook.overruled.screen, since: hook.overruled.at, overruled: true };
  }
  return {
    agent: hook.agent,
    sessionId: hook.sessionId,
    transcriptPath: hook.transcriptPath,
    claim: hook.claim,
    claimSince: hook.claimSince,
    lastEvent: hook.lastEvent,
    lastEventAt: hook.lastEventAt,
    disagreement,
  };
}

/** One line for people: "hook says permission, screen shows stopped" (null when they agree). */
export function describeDisagreement(d: HookDisagreement | null): string | null {
  if (d === null) return null;
  return d.overruled ? `screen overruled the hook's "${d.claim}" (it showed ${d.screen})` : `hook says ${d.claim}, screen shows ${d.screen}`;
}
