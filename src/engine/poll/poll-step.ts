// One poll cycle as a pure function: the last state of every watched pane and what tmux listed
// (with the screens the cycle captured) in, the next state, the events and the hook records to
// clear out. No tmux, no clock: the caller reads both and hands the readings in.

import { carriesCapture, outputEndedBy, printedBefore, resized, silentSince, type LastCapture } from './capture-gate.js';
import { agentExited, decodeHookRecord, hookRecordEvent } from '../hooks/hook-record.js';
import { end, hookWaitDueAt, observe, register, stillUntil, type MachineConfig, type PaneTrack } from '../pane/pane-machine.js';
import { classifyScreen, type PromptRules } from '../prompt/matcher.js';
import { withProcessWork } from '../prompt/process-work.js';
import { quietSinceFromRecord } from '../records/quiet-record.js';
import { contentHash } from '../pane/screen-content.js';
import { readLines } from '../pane/screen-hash.js';
import { inScope, type ScopeOptions } from '../pane/scope.js';
import type { CorralEvent, PaneInfo, PromptVerdict } from '../types.js';
import { mergeRecord, recordedSince, trackWait, withLook } from '../attention/attention.js';
import { askOf } from '../attention/ask.js';
import { decodeAttention, EMPTY_RECORD, type AttentionRecord } from '../attention/record.js';

/** A captured screen and what was made of it: the same text again needs no new verdict. */
export interface ScreenReading {
  readonly text: string;
  readonly alternateOn: boolean;
  readonly lines: readonly string[];
  readonly hash: string;
  /** The hash with animation masked (see screen-content.ts). */
  readonly contentHash: string;
  readonly verdict: PromptVerdict;
}

/** The listing and wall-clock time of a pane's last capture, its cycle, whether the screen had changed since the capture before, and whether it may wait. */
export interface CaptureRecord extends LastCapture {
  readonly pane: PaneInfo;
  readonly cycle: number;
}

/**
 * How long after a resize a changed screen may be the program laying its screen out again for the
 * new size: a redraw comes a moment after the resize tmux lists, often a capture later.
 */
export const REDRAW_MS = 3_000;

/** What the engine keeps of one watched pane from one cycle to the next. */
export interface PaneEntry {
  readonly pane: PaneInfo;
  readonly track: PaneTrack;
  /** The preview lines, kept as the same array while the screen does not change. */
  readonly lines: readonly string[];
  /** The screen hash `lines` were taken for (null before the first screen). */
  readonly linesHash: string | null;
  readonly captured: CaptureRecord | null;
  /** When a listing last showed the pane at another size than the listing before (absent: never). */
  readonly resizedAt?: number;
  readonly screen: ScreenReading | null;
  /** The event part of the pane's hook record as last read or written (see hooks/hook-record.ts), and the last record cleared. */
  readonly hookRecord: string;
  readonly clearedRecord: string;
  /** The pane's foreground command when its last hook came (its agent's). */
  readonly agentCommand: string;
  /**
   * The pane's attention record as this process holds it: its own wait joined with the record the
   * last listing read (attention/attention.ts); what the status writer keeps in tmux.
   */
  readonly attention: AttentionRecord;
}

/** What one cycle got from tmux, and when. */
export interface PollListing {
  /** Every pane listed, activity stamps in this machine's clock. */
  readonly panes: readonly PaneInfo[];
  readonly screens: ReadonlyMap<string, string>;
  /** The panes the cycle chose to capture; null when it captured every pane it knew. */
  readonly chosen: ReadonlySet<string> | null;
  /** Wall-clock time the request left (tmux's stamps compare with it). */
  readonly requestedAt: number;
  /** Engine-clock time the answer came. */
  readonly now: number;
  /** Wall-clock time the answer came. */
  readonly wallNow: number;
  readonly cycle: number;
  /** For panes new to this listing: the latest their own terminal was used (see tty-output.ts), where known. */
  readonly usedBy?: ReadonlyMap<string, number>;
  /** The panes a person looks at now: shown by an attached client they used recently (engine clock time of the look). */
  readonly looked?: ReadonlySet<string>;
  /**
   * The child command a pane's foreground job runs, or null (see prompt/process-work.ts); asked
   * only about panes whose screen looks idle, where it is known at all.
   */
  readonly workOf?: ((pane: PaneInfo) => string | null) | undefined;
}

export interface StepContext {
  readonly host: string;
  readonly scope: ScopeOptions;
  readonly machine: MachineConfig;
  readonly rules: PromptRules;
  readonly previewLines: number;
  /** How far apart captures of a pane that keeps printing are (the capture plan's; see capture-gate.ts). */
  readonly followMs: number;
  /** The host's clock minus this machine's (ms): hook records are stamped in the host's clock. */
  readonly skew: number;
}

export interface StepResult {
  readonly entries: ReadonlyMap<string, PaneEntry>;
  readonly events: readonly CorralEvent[];
  /** A pane was registered without its screen: the next cycle should come at once. */
  readonly registeredNew: boolean;
  /** Hook records to remove from their panes (their agents exited). */
  readonly clearRecords: readonly HookRecordToClear[];
}

export interface HookRecordToClear {
  readonly paneId: string;
  readonly value: string;
}

/** The next state of every watched pane after one listing. */
export function pollStep(entries: ReadonlyMap<string, PaneEntry>, listing: PollListing, context: StepContext): StepResult {
  const events: CorralEvent[] = [];
  const clearRecords: HookRecordToClear[] = [];
  const watched = new Map<string, PaneInfo>();
  const present = new Set<string>();
  for (const pane of listing.panes) {
    present.add(pane.paneId);
    if (inScope(pane, context.scope)) watched.set(pane.paneId, pane);
    // A dead pane (kept by remain-on-exit) is not watched, and its agent is gone with its record.
    else if (pane.dead && pane.hookRecord !== '') clearRecords.push({ paneId: pane.paneId, value: pane.hookRecord });
  }
  const next = new Map<string, PaneEntry>();
  for (const [paneId, entry] of entries) {
    if (watched.has(paneId)) next.set(paneId, entry);
    else events.push(end(entry.track, present.has(paneId) ? 'out-of-scope' : 'closed', listing.now));
  }
  let registeredNew = false;
  for (const pane of watched.values()) {
    const known = next.get(pane.paneId);
    const step = known === undefined ? registerPane(pane, listing, context) : { entry: known, events: [], registeredNew: false, clearRecords: [] };
    events.push(...step.events);
    clearRecords.push(...step.clearRecords);
    if (step.registeredNew) {
      registeredNew = true;
      next.set(pane.paneId, step.entry);
      continue;
    }
    const updated = updatePane(step.entry, pane, known !== undefined, listing, context);
    events.push(...updated.events);
    clearRecords.push(...updated.clearRecords);
    next.set(pane.paneId, updated.entry);
  }
  return { entries: next, events, registeredNew, clearRecords };
}

/**
 * Until when stepping every pane over the same listing again, with no new screen, changes nothing
 * (engine clock; see stillUntil): the earliest moment any pane's wait becomes stuck.
 */
export function entriesStillUntil(entries: ReadonlyMap<string, PaneEntry>, now: number, config: MachineConfig): number {
  let until = Infinity;
  for (const { track } of entries.values()) until = Math.min(until, stillUntil(track, now, config));
  return until;
}

/** The earliest moment a turn a hook said is over becomes a wait (see hookWaitDueAt); Infinity for none. */
export function entriesHookWaitDueAt(entries: ReadonlyMap<string, PaneEntry>, config: MachineConfig): number {
  let due = Infinity;
  for (const { track } of entries.values()) due = Math.min(due, hookWaitDueAt(track, config));
  return due;
}

interface PaneStep {
  readonly entry: PaneEntry;
  readonly events: readonly CorralEvent[];
  readonly registeredNew: boolean;
  readonly clearRecords: readonly HookRecordToClear[];
}

/** A pane seen for the first time: registered, with what its hook record says. */
function registerPane(pane: PaneInfo, listing: PollListing, context: StepContext): PaneStep {
  const step = register(pane, listing.now, context.host, listing.usedBy?.get(pane.paneId) ?? null);
  const fresh: PaneEntry = { pane, track: step.track, lines: [], linesHash: null, captured: null, screen: null, hookRecord: '', clearedRecord: '', agentCommand: '', attention: EMPTY_RECORD };
  const hooked = followHookRecord(fresh, pane, listing, context);
  return {
    entry: hooked.entry,
    events: [...step.events, ...hooked.events],
    registeredNew: !listing.screens.has(pane.paneId),
    clearRecords: hooked.clearRecords,
  };
}

/** A known pane (or one registered this cycle with its screen): its listing, hook record and screen. */
function updatePane(entry: PaneEntry, pane: PaneInfo, known: boolean, listing: PollListing, context: StepContext): PaneStep {
  const events: CorralEvent[] = [];
  let clearRecords: readonly HookRecordToClear[] = [];
  let current = entry;
  if (known && entry.pane !== pane) {
    const hooked = followHookRecord(entry, pane, listing, context);
    events.push(...hooked.events);
    clearRecords = hooked.clearRecords;
    current = hooked.entry;
  }
  if (current.pane !== pane) current = { ...current, pane, ...(resized(current.pane, pane) ? { resizedAt: listing.now } : {}) };
  const text = listing.screens.get(pane.paneId);
  if (text === undefined) {
    // Left out on purpose: the screen is the one seen last time, and quiet time still counts.
    const { hash, contentHash: content } = current.track;
    const seen = current.screen?.verdict ?? current.track.verdict;
    if (listing.chosen !== null && !listing.chosen.has(pane.paneId) && hash !== null && seen !== null) {
      const verdict = withProcessWork(seen, pane, listing.workOf);
      const step = observe(current.track, { hash, contentHash: content, verdict }, listing.now, context.machine);
      events.push(...step.events);
      if (step.track !== current.track) current = { ...current, track: step.track };
    }
    return { entry: withAttention(current, pane, listing, context), events, registeredNew: false, clearRecords };
  }
  const screened = observeScreen(current, pane, text, listing, context);
  events.push(...screened.events);
  return { entry: withAttention(screened.entry, pane, listing, context), events, registeredNew: false, clearRecords };
}

/**
 * The pane's attention record after a listing: its wait as the record names it when both saw the
 * same appearance of it (so every corral process counts it from the same moment), joined with the
 * record tmux holds, what the wait asks, and the person's look.
 */
function withAttention(entry: PaneEntry, pane: PaneInfo, listing: PollListing, context: StepContext): PaneEntry {
  const listed = decodeAttention(pane.attentionRecord);
  let track = entry.track;
  const since = recordedSince(track, listed, listing.now);
  if (since !== null && track.wait !== null) {
    track = { ...track, wait: { ...track.wait, since } };
    // A wait held longer than this process knew may be of age already: stepped again over the same
    // screen. (Its stuck or unstuck event is not one readers hear: those speak of the person.)
    const { hash, contentHash: content, verdict } = track;
    if (track.state === 'monitoring' && hash !== null && verdict !== null) track = observe(track, { hash, contentHash: content, verdict }, listing.now, context.machine).track;
  }
  const wait = trackWait(track);
  const own = entry.attention;
  // The agent's own words when its hook sent them, whenever they came (before or after its dialog
  // was drawn), so every corral process says the same; else read from the screen once per wait (an
  // animated frame does not make it ask anew).
  const hookMessage = track.hook?.claim === 'permission' && track.hook.message !== null && track.hook.message.trim() !== '' ? track.hook.message : null;
  const sameWait = wait !== null && own.wait !== null && own.wait.id === wait.id && own.wait.since === wait.since;
  const ask = wait === null ? '' : hookMessage !== null ? askOf(null, [], hookMessage) : sameWait && own.ask !== '' ? own.ask : askOf(track.verdict, entry.screen?.lines ?? [], null);
  let attention = mergeRecord(own, listed, wait, ask);
  if (listing.looked?.has(pane.paneId)) attention = withLook(attention, listing.now);
  if (track === entry.track && attention === own) return entry;
  return { ...entry, track, attention };
}

/**
 * A pane's first screen, when another corral recorded since when this very screen has been still
 * (see quiet-record.ts): its quiet time goes on from there instead of starting again.
 */
function quietByRecord(track: PaneTrack, pane: PaneInfo, content: string, now: number): PaneTrack {
  const since = quietSinceFromRecord(pane.quietRecord, content, now);
  return since !== null && since < track.quietSince ? { ...track, quietSince: since } : track;
}

/** A captured screen through the pane's machine. */
function observeScreen(entry: PaneEntry, pane: PaneInfo, text: string, listing: PollListing, context: StepContext): { entry: PaneEntry; events: readonly CorralEvent[] } {
  const { requestedAt, now } = listing;
  const before = entry.screen;
  const previous = entry.captured;
  const screen = readScreen(before, text, pane.alternateOn, context.rules);
  const { lines, hash } = screen;
  const verdict = withProcessWork(screen.verdict, pane, listing.workOf);
  const changed = before !== null && before.hash !== hash;
  // Quiet time starts when the output ended, not when this capture found it (a pane followed at a
  // steady pace is captured late): moved from tmux's wall-clock stamp to the engine's clock.
  const endedBy = changed && previous !== null ? outputEndedBy(previous, pane, requestedAt) : null;
  const track = before === null ? quietByRecord(entry.track, pane, screen.contentHash, now) : entry.track;
  // A change that came with no output since the last capture leaves the quiet clock where it was.
  const changedAt = previous !== null && silentSince(previous.at, pane) ? track.quietSince : endedBy === null ? now : now - (requestedAt - endedBy);
  const redrawn = entry.resizedAt !== undefined && now - entry.resizedAt <= REDRAW_MS;
  const step = observe(track, { hash, contentHash: screen.contentHash, verdict, changedAt, ...(redrawn ? { resized: true } : {}) }, now, context.machine);
  // Keep the same array while the screen is unchanged (a blank screen too), so the view, and with
  // it the snapshot, stays the same object and readers need not re-render.
  const fresh = step.track.hash !== entry.linesHash;
  return {
    entry: {
      ...entry,
      track: step.track,
      screen,
      captured: capturedNow(previous, pane, { at: requestedAt, cycle: listing.cycle, changed, mayWait: verdict.prompt || verdict.busy }, context.followMs),
      lines: fresh ? lines.slice(-context.previewLines) : entry.lines,
      linesHash: fresh ? step.track.hash : entry.linesHash,
    },
    events: step.events,
  };
}

/** The record of a capture taken now: what it found, or, when it told nothing new, what the one before said (see carriesCapture). */
function capturedNow(previous: CaptureRecord | null, pane: PaneInfo, found: { readonly at: number; readonly cycle: number; readonly changed: boolean; readonly mayWait: boolean }, followMs: number): CaptureRecord {
  const { at, cycle, changed, mayWait } = found;
  if (carriesCapture(previous, pane, changed)) return { ...previous!, pane, at, cycle, mayWait };
  const changedAt = changed ? at : previous?.changedAt ?? previous?.at;
  return { pane, at, cycle, changed, printing: changed && printedBefore(previous, at, followMs), mayWait, ...(changedAt === undefined ? {} : { changedAt }) };
}

/**
 * What the pane's hook record says, once: the agent hook it tells of (received by whichever corral
 * process runs the hook receiver, or recorded by the hook itself), observed at the time it fired.
 * A pane whose agent has exited (a shell where the agent was, or a dead pane) keeps no claim, and
 * its record is cleared for every corral process.
 */
function followHookRecord(entry: PaneEntry, pane: PaneInfo, listing: PollListing, context: StepContext): PaneStep {
  const events: CorralEvent[] = [];
  const clearRecords: HookRecordToClear[] = [];
  const { now } = listing;
  let current = entry;
  // The event part only: a record this engine wrote itself comes back with the command filled in.
  const event = hookRecordEvent(pane.hookRecord);
  if (event !== current.hookRecord) {
    current = { ...current, hookRecord: event };
    const record = decodeHookRecord(pane.hookRecord);
    // The record of an agent that has exited since is not news: it is only cleared (below).
    if (record !== null && agentExited(record.command, pane.command)) current = { ...current, agentCommand: record.command };
    else if (record !== null) {
      // The record's time is the recording machine's wall clock: moved to the engine's clock.
      const at = now - (listing.wallNow - (record.at - context.skew));
      const step = observe(current.track, { kind: 'hook', hook: record.hook, at }, now, context.machine);
      current = { ...current, agentCommand: record.command, track: step.track };
      events.push(...step.events);
    }
  }
  const done = { entry: current, events, registeredNew: false, clearRecords };
  if (!pane.dead && !agentExited(current.agentCommand, pane.command)) return done;
  if (pane.hookRecord !== '' && current.clearedRecord !== pane.hookRecord) {
    current = { ...current, clearedRecord: pane.hookRecord };
    clearRecords.push({ paneId: pane.paneId, value: pane.hookRecord });
  }
  const { hook } = current.track;
  if (hook === null || hook.claim === null) return { ...done, entry: current };
  const exited = { agent: hook.agent, signal: 'end', event: 'agent-exited', sessionId: hook.sessionId, transcriptPath: hook.transcriptPath, cwd: current.track.cwd, message: null } as const;
  const step = observe(current.track, { kind: 'hook', hook: exited }, now, context.machine);
  events.push(...step.events);
  return { ...done, entry: { ...current, track: step.track } };
}

/** Normalises, hashes and classifies a captured screen, unless it is the text read last time. */
export function readScreen(previous: ScreenReading | null, text: string, alternateOn: boolean, rules: PromptRules): ScreenReading {
  if (previous !== null && previous.text === text && previous.alternateOn === alternateOn) return previous;
  const { lines, hash } = readLines(text);
  const verdict = classifyScreen(lines, rules, { alternateScreen: alternateOn });
  return { text, alternateOn, lines, hash, contentHash: contentHash(lines, hash), verdict };
}
