// The per-pane state machine, as pure functions of (track, observation, now, config).
// registered -> monitoring; monitoring -> stuck when the screen has shown the same wait (a prompt
// that is not busy, with the same reason, rule and line) for the threshold; stuck -> monitoring
// (emitting `unstuck`) when that wait ends; any -> ended.
//
// A wait is held by what the screen says, not by its pixels: a blinking bullet or a spinner inside
// a dialog does not end it (see WaitTrack). The quiet clock (quietSince) still counts from the last
// change of the screen, animation included: it says when the pane last printed.
//
// An observation is a screen (hash + prompt verdict) or an agent hook event. Hooks make claims
// (permission, a turn is working, the agent waits for its next prompt) that the screen can
// overrule: a claim the screen contradicts for `hookGraceMs` no longer counts.

import { stillLine } from './screen-content.js';
import { LOCAL_HOST, type CorralEvent, type EndReason, type HookClaim, type HookDisagreement, type HookEvent, type HookView, type PaneInfo, type PromptVerdict, type StuckReason, type StuckSource } from '../types.js';
import { paneKey } from './pane-key.js';

export interface MachineConfig {
  /** How long a pane that stopped at a prompt (a shell, an agent's input) holds it before it waits. */
  readonly quietThresholdMs: number;
  /** The same for a prompt that asks (a permission, a question); quietThresholdMs when not given. */
  readonly askThresholdMs?: number;
  /** How long the screen may contradict a hook's claim before the screen wins. */
  readonly hookGraceMs?: number;
  /** A permission claim that the screen never confirms lapses after this long (a rejection fires no hook). */
  readonly hookPermissionTtlMs?: number;
}

export const DEFAULT_HOOK_GRACE_MS = 10_000;

/**
 * How long the screen must hold still after the agent's own hook said its turn is over: the hook is
 * the evidence, this only lets the last frame of output land.
 */
export const HOOK_QUIET_MS = 500;

/**
 * How long a wait must hold before it counts, by what says it waits: the agent's hook (its turn is
 * over), a prompt that asks (a permission, a question: nothing else draws those), or a program
 * that stopped at its prompt (which a pause in output also looks like, so it waits longest).
 */
export function waitThreshold(reason: StuckReason, claim: HookClaim | null, config: MachineConfig): number {
  if (claim === 'waiting') return Math.min(HOOK_QUIET_MS, config.quietThresholdMs);
  if (reason === 'permission') return config.askThresholdMs ?? config.quietThresholdMs;
  return config.quietThresholdMs;
}
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
  /** The same with animation masked (see screen-content.ts); '' before the first capture. */
  readonly contentHash: string;
  /** When the screen last changed, animation included: the quiet clock. */
  readonly quietSince: number;
  /** What the screen waits for, and since when; null when it shows no prompt, or a busy one. */
  readonly wait: WaitTrack | null;
  /** The question that left the screen last, and when: it resumes if it comes back (see resumedWait). */
  readonly leftWait: { readonly wait: WaitTrack; readonly at: number } | null;
  readonly stuckSince: number | null;
  readonly reason: StuckReason | null;
  readonly message: string | null;
  readonly verdict: PromptVerdict | null;
  readonly hook: HookTrack | null;
}

/**
 * A wait the screen shows: a prompt verdict that is not busy, identified by its reason, rule and
 * line (animation masked). It holds while the screens stay among those seen since it began: an
 * animation that cycles (a bullet on and off, a spinner's frames) comes back to screens already
 * seen, output never does. A screen not seen before, or another verdict, starts a new wait.
 */
export interface WaitTrack {
  readonly reason: StuckReason;
  /** Reason, rule and line, as one string. */
  readonly key: string;
  readonly since: number;
  /** The content hashes seen since, newest last (at most WAIT_SCREENS). */
  readonly screens: readonly string[];
  /** It began after a change this machine saw (the pane did something), not on its first screen. */
  readonly worked: boolean;
  /** The content hash of the screen it began on (what names this appearance of the wait across processes). */
  readonly first: string;
}

/** How many screens a wait remembers: more than the frames of a spinner drawn in place. */
export const WAIT_SCREENS = 16;

export interface Step {
  readonly track: PaneTrack;
  readonly events: CorralEvent[];
}

export interface ScreenObservation {
  readonly kind?: 'screen';
  readonly hash: string;
  /** The screen's content hash (animation masked); the plain hash when not given. */
  readonly contentHash?: string;
  readonly verdict: PromptVerdict;
  /** When a changed screen changed last, at the latest (its output's end); `now` when not given. */
  readonly changedAt?: number;
  /**
   * The pane was resized a moment ago (see REDRAW_MS): a change may be the program laying out the
   * same screen again for the new size (an attached client that views the window resizes it), not work.
   */
  readonly resized?: boolean;
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
 * (so a pane idle for an hour before corral started is not reported as fresh), or at `usedBy` (the
 * latest its own terminal was used, when that is known and earlier: the window's stamp also moves
 * when another pane of it prints), else now.
 */
export function register(pane: PaneInfo, now: number, host: string = LOCAL_HOST, usedBy: number | null = null): Step {
  // tmux reports whole seconds: the end of that second is the safe (never early) estimate.
  const stamped = pane.windowActivity > 0 ? Math.min(now, pane.windowActivity + 999) : now;
  const activity = usedBy === null ? stamped : Math.min(stamped, usedBy);
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
    contentHash: '',
    quietSince: activity,
    wait: null,
    leftWait: null,
    stuckSince: null,
    reason: null,
    message: null,
    verdict: null,
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

/**
 * Until when the same screen, observed again, leaves the track as it is and emits nothing (engine
 * clock): the moment a wait held that long becomes stuck; `now` while a hook's claim is in force
 * (its grace and lifetime count at every observation) or before the first screen; Infinity when
 * only a new screen or a hook can change it. A poll that learns nothing new need not step the pane
 * before then.
 */
/**
 * When the turn an agent's hook said is over becomes a wait: its screen held still for the hook's
 * grace (see stuckNow). Infinity when no such claim waits. A pane with a claim is stepped at every
 * cycle anyway (stillUntil); this says when a cycle is worth having, so the wait is told then.
 */
export function hookWaitDueAt(track: PaneTrack, config: MachineConfig): number {
  if (track.state !== 'monitoring' || track.hook?.claim !== 'waiting') return Infinity;
  return track.quietSince + waitThreshold('stopped', 'waiting', config);
}

export function stillUntil(track: PaneTrack, now: number, config: MachineConfig): number {
  if (track.state === 'registered' || track.hash === null || track.verdict === null) return now;
  if (track.hook !== null && track.hook.claim !== null) return now;
  if (track.state === 'monitoring' && track.wait !== null) return track.wait.since + waitThreshold(track.wait.reason, null, config);
  return Infinity;
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
      track: { ...next, state: 'stuck', stuckSince: now, reason: 'permission', message },
      events,
    };
  }
  // Anything else the agent did is activity: a stuck pane is no longer stuck, the quiet clock restarts.
  const events: CorralEvent[] = track.state === 'stuck' ? [unstuckEvent(track, now)] : [];
  const state = track.state === 'registered' ? 'registered' : 'monitoring';
  return {
    track: { ...next, state, quietSince: now, stuckSince: null, reason: null, message: null },
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

/** The key of the wait a verdict shows, or null: no prompt, or a live busy signal. */
export function waitKey(verdict: PromptVerdict): string | null {
  if (!verdict.prompt || verdict.reason === null || verdict.busy) return null;
  return `${verdict.reason}\u0000${verdict.rule ?? ''}\u0000${stillLine(verdict.line.trim())}`;
}

/**
 * The wait after a screen: the same object while it holds (the same verdict, a screen seen during
 * it), a new one from `startsAt` when it changes. A new wait of the same key keeps the screens
 * seen, so an animation found halfway through its cycle restarts the wait once, not at every frame.
 * The same prompt drawn again after a resize (`resized`) is the same wait, with its moment, its
 * id and what the person did about it: the program laid its screen out anew, it did nothing.
 */
export function followWait(wait: WaitTrack | null, verdict: PromptVerdict, contentHash: string, startsAt: number, worked = true, resized = false): WaitTrack | null {
  const key = waitKey(verdict);
  if (key === null || verdict.reason === null) return null;
  const sameKey = wait !== null && wait.key === key;
  if (sameKey && wait.screens.includes(contentHash)) return wait;
  const screens = sameKey ? [...wait.screens, contentHash].slice(-WAIT_SCREENS) : [contentHash];
  if (sameKey && resized) return { ...wait, screens };
  return { reason: verdict.reason, key, since: startsAt, screens, worked: sameKey ? wait.worked || worked : worked, first: contentHash };
}

/**
 * How long a question may leave the screen and still be the same one when it comes back: a
 * program that redraws its whole screen (a transcript drawn again from the top) hides its dialog
 * for a poll or two, then shows the very screen it showed before.
 */
export const RESUME_MS = 10_000;

/**
 * The question that left the screen, when the wait now shown is that question back: the same
 * prompt on one of the screens it was seen on, within RESUME_MS, whether the screens between
 * showed no question or the same one drawn otherwise. It keeps its moment (and so its age, its id
 * and what the person did about it); a question asked again after other output shows a screen it
 * never had, and is a new wait.
 */
export function resumedWait(left: PaneTrack['leftWait'], wait: WaitTrack, contentHash: string, now: number): WaitTrack | null {
  if (left === null || now - left.at > RESUME_MS || now < left.at || left.wait.since >= wait.since) return null;
  if (left.wait.key !== wait.key || !left.wait.screens.includes(contentHash)) return null;
  // Back with the screens seen meanwhile: the frames of an animation found halfway through hold it too.
  const screens = [...left.wait.screens.filter((hash) => !wait.screens.includes(hash)), ...wait.screens].slice(-WAIT_SCREENS);
  return { ...left.wait, screens, worked: left.wait.worked || wait.worked };
}

/** The same wait: neither ended nor started again. */
function sameWait(a: WaitTrack | null, b: WaitTrack | null): boolean {
  return a === b || (a !== null && b !== null && a.key === b.key && a.since === b.since);
}

/** The words a stuck event carries for a verdict: its line, or what it is when the rule says so. */
export function stuckMessage(verdict: PromptVerdict): string {
  return verdict.menu ? `menu open: ${verdict.line}` : verdict.line;
}

interface ScreenChange {
  readonly next: PaneTrack;
  /** What the pane is held by moved on: its wait ended or began, or (with no wait) its content changed. */
  readonly moved: boolean;
}

/** Folds a screen into the track: hashes, the quiet clock and the wait. */
function takeScreen(track: PaneTrack, observation: ScreenObservation, now: number, hook: HookTrack | null): ScreenChange {
  const firstCapture = track.hash === null;
  const changed = !firstCapture && observation.hash !== track.hash;
  const contentHash = observation.contentHash ?? observation.hash;
  const contentChanged = !firstCapture && contentHash !== track.contentHash;
  const verdict = observation.verdict;
  // The quiet clock starts when the output ended, not when this capture found it.
  const quietSince = changed ? Math.min(now, observation.changedAt ?? now) : track.quietSince;
  // A wait found on the first capture began when the pane last printed (as far as tmux knows).
  const startsAt = firstCapture ? track.quietSince : contentChanged ? quietSince : now;
  const followed = followWait(track.wait, verdict, contentHash, startsAt, !firstCapture, observation.resized === true);
  const wait = followed === null ? null : (resumedWait(track.leftWait, followed, contentHash, now) ?? followed);
  const leftWait = track.wait !== null && track.wait.reason === 'permission' && !sameWait(track.wait, wait) ? { wait: track.wait, at: now } : track.leftWait;
  // The same screen, verdict, wait and hook claim: the same track object (most panes, most
  // cycles), so nothing downstream is rebuilt.
  const same = !firstCapture && !changed && verdict === track.verdict && hook === track.hook && wait === track.wait;
  let next: PaneTrack = same ? track : { ...track, hash: observation.hash, contentHash, verdict, hook, quietSince, wait, leftWait };
  if (firstCapture && next.state === 'registered') next = { ...next, state: 'monitoring' };
  const moved = !firstCapture && (track.wait === null && wait === null ? contentChanged : !sameWait(track.wait, wait));
  return { next, moved };
}

/** Why the pane is stuck now (and the words for it), or null: not yet, or not at all. */
function stuckNow(
  track: PaneTrack,
  claim: HookClaim | null,
  now: number,
  config: MachineConfig,
): { reason: StuckReason; message: string; source: StuckSource } | null {
  const { verdict, wait } = track;
  if (verdict === null || verdict.busy) return null;
  if (wait !== null) {
    if (now - wait.since < waitThreshold(wait.reason, claim, config)) return null;
    // A running turn vetoes "stopped": an agent's input box is drawn while it works.
    if (wait.reason === 'stopped' && claim === 'working') return null;
    return { reason: wait.reason, message: stuckMessage(verdict), source: 'screen' };
  }
  // The agent said its turn is over; the screen has no rule for what it shows: quiet time decides.
  if (claim === 'waiting' && now - track.quietSince >= waitThreshold('stopped', claim, config)) {
    return { reason: 'stopped', message: verdict.line || 'waiting for the next prompt', source: 'hook' };
  }
  return null;
}

function observeScreen(track: PaneTrack, observation: ScreenObservation, now: number, config: MachineConfig): Step {
  const events: CorralEvent[] = [];
  const verdict = observation.verdict;
  // When the screen last changed: a contradiction of the hook's claim counts from there at the earliest.
  const changed = track.hash !== null && observation.hash !== track.hash;
  const screenSince = changed ? Math.min(now, observation.changedAt ?? now) : track.quietSince;
  const weighed = weighClaim(track.hook, verdict, now, screenSince, config);
  const claim = weighed.hook?.claim ?? null;
  const taken = takeScreen(track, observation, now, weighed.hook);
  let next = taken.next;

  if (taken.moved) {
    // The hook arrives before its dialog is drawn: while the claim holds, the drawing is no news.
    if (claim === 'permission' && track.state === 'stuck') return { track: next, events };
    if (track.state === 'stuck') events.push(unstuckEvent(track, now));
    next = { ...next, state: 'monitoring', stuckSince: null, reason: null, message: null };
  }

  // A permission claim just ended (overruled or lapsed): the pane stays stuck only if the screen says so too.
  if (weighed.ended === 'permission' && next.state === 'stuck' && !(verdict.prompt && verdict.reason === 'permission' && !verdict.busy)) {
    events.push(unstuckEvent(track, now));
    next = { ...next, state: 'monitoring', stuckSince: null, reason: null, message: null };
  }

  if (next.state !== 'monitoring') return { track: next, events };
  const stuck = stuckNow(next, claim, now, config);
  if (stuck !== null) {
    next = { ...next, state: 'stuck', stuckSince: now, reason: stuck.reason, message: stuck.message };
    events.push(stuckEvent(next, stuck.reason, stuck.message, now, stuck.source));
  }
  return { track: next, events };
}

export function end(track: PaneTrack, why: EndReason, now: number): CorralEvent {
  return { type: 'ended', host: track.host, key: track.key, sessionId: track.trackingId, paneId: track.paneId, why, timestamp: now };
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
