// What the next poll cycle asks, as a value: from what the cycles so far learned (the panes'
// entries, the last listing, what tmux's change watch told since) and what the host's tmux costs,
// whether to ask at all, which listing to run, which panes to capture, whether the process table
// rides along, and how long to sleep. Pure: the poller reads tmux and the clocks, runs the plan and
// folds the answer back in (learnAsked, learnStep).

import { paneHere } from './clock-skew.js';
import { capturesAhead, chooseCaptures, nextCaptureAt, type CapturePlan } from './capture-plan.js';
import { followedUntil, keepsPrinting, printingAtCapture, silentSince } from './capture-gate.js';
import { entriesHookWaitDueAt, entriesStillUntil, type PaneEntry } from './poll-step.js';
import { tableWanted, type TableRecord, NO_TABLES } from './process-table.js';
import type { MachineConfig } from '../pane/pane-machine.js';
import type { PaneInfo } from '../types.js';
import type { ListingAnswer } from './poll-request.js';

/**
 * While tmux tells of changes, every pane is still listed this often, for what it does not tell:
 * a title set with `select-pane -T`, a pane option set with `set -p` (a hook's record, which its
 * screen follows anyway), a pane kept dead by remain-on-exit. Prompts come with output, which is
 * told. Every listing costs the server about 30 us a pane, so this is most of an idle poll's cost.
 */
export const FULL_LISTING_MS = 30_000;

/**
 * A pane seen for the first time this recently may still be starting its program: tmux forks, and
 * until the child execs, the pane's command is tmux's own name. The program's first output can fall
 * in the same second as the window's creation, which leaves the activity stamp (all that tmux tells
 * of) as it was. Its window is listed at every cycle until then.
 */
export const STARTING_MS = 3_000;

/** What asking a host's tmux costs, which shapes every cycle's question to it. */
export interface HostCosts {
  /**
   * 'dear' (a host far away): a round trip costs more than a capture, so a cycle is one round trip:
   * the whole listing, with the captures the last one chose (a cycle ahead), and nothing else.
   * 'cheap' (this machine): the listing comes first and the captures are chosen from it.
   */
  readonly roundTrip: 'cheap' | 'dear';
  /**
   * Where a pane's foreground child is read (see process-table.ts): this machine's /proc, or the
   * host's process table, which then rides along with the round trip while a pane looks idle.
   */
  readonly processTable: 'here' | 'round-trip';
}

export const COSTS_HERE: HostCosts = { roundTrip: 'cheap', processTable: 'here' };
export const COSTS_FAR_AWAY: HostCosts = { roundTrip: 'dear', processTable: 'round-trip' };

/** The last listing asked for while tmux told of changes. */
export interface AskedListing {
  /** The change watch's count when it was asked. */
  readonly mark: number;
  /** Wall-clock time of the last listing of every pane. */
  readonly at: number;
  /** The panes listed, activity stamps in the host's clock. */
  readonly panes: readonly PaneInfo[];
  /** The windows that listing took anew (the other panes as the one before showed them); null when it listed every pane. */
  readonly windows: ReadonlySet<string> | null;
  /**
   * The windows that were printing or due a capture when it was asked (told of since the listing
   * before, starting, or with a capture wanted); null when that was not known. A change told of any
   * other window is news (see wakeOnChange).
   */
  readonly active: ReadonlySet<string> | null;
}

/** What the cycles so far learned, as far as planning the next one goes. */
export interface PollLearned {
  readonly entries: ReadonlyMap<string, PaneEntry>;
  /** Null when the last cycle asked without a change watch, or failed. */
  readonly asked: AskedListing | null;
  /** The last cycle asked tmux nothing. */
  readonly skipped: boolean;
  /** After a cycle that rested: the wall-clock time the loop sleeps until (see wakeOnChange); null otherwise. */
  readonly restUntil?: number | null;
  /**
   * Engine clock: when the panes were last stepped, and until when stepping them again over the
   * same listing leaves them as they are (the first wait coming of age); null when they must be stepped.
   */
  readonly still: { readonly from: number; readonly until: number; readonly hookWaitDue?: number } | null;
  /** With dear round trips: the panes the next round trip captures, chosen from the last listing. */
  readonly ahead: readonly string[];
  /**
   * With dear round trips: `ahead` holds a pane that was quiet at its last capture and printed since
   * (a question drawn, a command ended), so the next round trip goes at once (see soonAhead).
   */
  readonly aheadSoon: boolean;
  /** The host's process tables: when the last came, and whether its `ps` can give one. */
  readonly tables: TableRecord;
}

export const NOTHING_LEARNED: PollLearned = { entries: new Map(), asked: null, skipped: false, still: null, ahead: [], aheadSoon: false, tables: NO_TABLES };

/** The moment a cycle starts, as the poller reads it. */
export interface PollMoment {
  /** Wall-clock time (tmux's activity stamps are in it). */
  readonly wallNow: number;
  /** Engine-clock time. */
  readonly now: number;
  /** The change watch's count; null without one (then every cycle asks). */
  readonly changes: number | null;
  /** The windows tmux told of changes to since the last listing's mark; null when anything may have changed. */
  readonly told: ReadonlySet<string> | null;
}

export interface PlanInput {
  readonly learned: PollLearned;
  readonly moment: PollMoment;
  readonly costs: HostCosts;
  readonly captures: CapturePlan;
  /** The host's clock minus this machine's (ms). */
  readonly skew: number;
  readonly intervalMs: number;
}

/** The captures a cycle takes: the ones chosen a cycle ahead, or chosen from its own listing. */
export type CaptureAsk =
  | { readonly kind: 'ahead'; readonly panes: readonly string[] }
  | {
      readonly kind: 'from-listing';
      /** Silent panes whose recapture falls due by then (wall clock) are taken now (see chooseCaptures). */
      readonly recaptureBy: number;
    };

/** A cycle's question to tmux. */
export interface CycleAsk {
  /** The change watch's count read before asking: a change told while the answer is on its way counts for the next cycle. */
  readonly mark: number | null;
  /** Only these windows need listing; null: every pane. */
  readonly windows: ReadonlySet<string> | null;
  /** The windows printing or due a capture as the cycle asks (see AskedListing.active). */
  readonly active: ReadonlySet<string> | null;
  readonly captures: CaptureAsk;
  /** The host's process table rides along. */
  readonly processTable: boolean;
  /** Who looks at what is asked too, where the poll's long-lived connection is up (see the poller's lookedAt). */
  readonly looks: boolean;
}

/**
 * The next cycle: `rest` (nothing to ask, nothing to step: sleep), `restep` (nothing to ask, but a
 * wait comes of age: step the last listing again) or `ask`.
 */
export type CyclePlan =
  | { readonly kind: 'rest'; readonly sleepMs: number }
  | { readonly kind: 'restep'; readonly listing: ListingAnswer }
  | { readonly kind: 'ask'; readonly ask: CycleAsk };

/** What the cycles learned once a cycle is planned, before it runs (`wallNow`: when it was planned). */
export function learnPlanned(learned: PollLearned, plan: CyclePlan, wallNow: number): PollLearned {
  return { ...learned, skipped: plan.kind !== 'ask', restUntil: plan.kind === 'rest' ? wallNow + plan.sleepMs : null };
}

export function planCycle(input: PlanInput): CyclePlan {
  const unchanged = unchangedListing(input);
  if (unchanged === null) return { kind: 'ask', ask: askOf(input) };
  // Nothing told and nothing to capture: until a wait comes of age, the step would change nothing.
  if (stillAt(input.learned.still, input.moment.now)) return { kind: 'rest', sleepMs: restDelay(input) };
  return { kind: 'restep', listing: unchanged };
}

/** Whether every pane, stepped at `now` over the last listing with no new screen, stays as it is. */
function stillAt(still: PollLearned['still'], now: number): boolean {
  return still !== null && now >= still.from && now < still.until;
}

/** Whether every pane is due to be listed again: the period has passed, or the wall clock went back past the last listing. */
function listingDue(asked: AskedListing | null, wallNow: number): boolean {
  return asked === null || wallNow < asked.at || wallNow - asked.at >= FULL_LISTING_MS;
}

/** A listing's panes, their activity stamps in this machine's clock (as the capture plan takes them). */
export function panesHere(panes: readonly PaneInfo[], skew: number): PaneInfo[] {
  return panes.map((pane) => paneHere(pane, skew));
}

/** The windows of the panes first seen less than STARTING_MS before `now` (engine clock). */
function startingWindows(entries: ReadonlyMap<string, PaneEntry>, now: number): Set<string> {
  const windows = new Set<string>();
  for (const { pane, track } of entries.values()) if (now - track.registeredAt < STARTING_MS) windows.add(pane.windowId);
  return windows;
}

/**
 * With dear round trips: the panes the next round trip captures. Those chosen a cycle ahead that
 * are still watched, and those that want a capture by now (a pane followed while it printed whose
 * pace has run out while the loop rested: nothing new is told of it, and it must still be seen).
 */
function aheadLive({ learned, captures, moment }: PlanInput): string[] {
  const chosen = new Set(learned.ahead.filter((id) => learned.entries.has(id)));
  for (const id of capturesAhead(learned.entries, captures, moment.wallNow, 0)) chosen.add(id);
  return [...chosen];
}

/** Whether the process table rides along with the next round trip. */
function tableAsked({ costs, learned }: PlanInput): boolean {
  return costs.processTable === 'round-trip' && tableWanted(learned.entries, learned.tables);
}

/**
 * The last listing again, when tmux is watched and has told of no change since it was asked (or
 * only of windows whose panes are followed, see toldOnlyFollowed), and the cycle would capture none
 * of its panes nor want the process table (a child may end without a word from tmux): then the
 * cycle needs nothing from tmux, and quiet time still counts. Null when it must ask.
 */
function unchangedListing(input: PlanInput): ListingAnswer | null {
  const { learned, moment } = input;
  const asked = learned.asked;
  if (asked === null || listingDue(asked, moment.wallNow)) return null;
  if (moment.changes !== asked.mark && !toldOnlyFollowed(input)) return null;
  if (startingWindows(learned.entries, moment.now).size > 0) return null;
  const captures: readonly string[] = input.costs.roundTrip === 'dear' ? aheadLive(input) : chooseCaptures(panesHere(asked.panes, input.skew), learned.entries, input.captures, moment.wallNow);
  if (captures.length > 0 || tableAsked(input)) return null;
  return { output: { panes: [...asked.panes], screens: new Map(), serverTime: null }, chosen: new Set() };
}

/**
 * Whether every window tmux told of since the last listing was asked is one whose every watched
 * pane is followed now (see toldPacesEnd): its output is what the follow pace already waits for,
 * and listing it before the pace ends would change nothing the cycle does (none of its panes is
 * captured, none can be stuck while it prints). The listing's mark stays where it was, so those
 * windows are still told of when the pace ends, and listed and captured then. A fleet of panes that
 * keep printing is then asked once a follow pace, not once an interval.
 */
function toldOnlyFollowed({ learned, moment, captures }: PlanInput): boolean {
  const { told } = moment;
  if (told === null || moment.changes === null) return false;
  return told.size === 0 || toldPacesEnd(learned.entries, told, captures, moment.wallNow) > moment.wallNow;
}

/**
 * The first moment (wall clock) a pane of the windows in `told` stops being followed (see
 * followedUntil): the end of the earliest follow pace among them. -Infinity when one of them is not
 * followed at all as of `wallNow` (never captured, looked at, not printing plain output, captured
 * after `wallNow` by a clock that went back) or has no watched pane.
 */
function toldPacesEnd(entries: ReadonlyMap<string, PaneEntry>, told: ReadonlySet<string>, captures: CapturePlan, wallNow: number): number {
  let end = Infinity;
  const seen = new Set<string>();
  for (const { pane, captured } of entries.values()) {
    if (!told.has(pane.windowId)) continue;
    if (captured === null || captures.focused.has(pane.paneId) || captured.at > wallNow) return -Infinity;
    end = Math.min(end, followedUntil(captured, captures.followMs));
    seen.add(pane.windowId);
  }
  return seen.size === told.size ? end : -Infinity;
}

/**
 * The panes of a listing with the windows told of since stamped as printing in the second of
 * `wallNow` (this machine's clock): they did print after the listing, which does not show it yet. A
 * loop that rests over such a listing wakes when their follow paces end (see restDelay).
 */
function toldAsPrinting(panes: readonly PaneInfo[], told: ReadonlySet<string> | null, wallNow: number): PaneInfo[] {
  if (told === null || told.size === 0) return [...panes];
  const second = Math.floor(wallNow / 1000) * 1000;
  return panes.map((pane) => (told.has(pane.windowId) && pane.windowActivity < second ? { ...pane, windowActivity: second } : pane));
}

function askOf(input: PlanInput): CycleAsk {
  const { learned, moment, costs } = input;
  const mark = moment.changes;
  // The periodic listing of a quiet server takes along the recaptures due before the next one.
  const periodic = mark !== null && learned.asked !== null && listingDue(learned.asked, moment.wallNow);
  const captures: CaptureAsk =
    costs.roundTrip === 'dear'
      ? { kind: 'ahead', panes: aheadLive(input) }
      : { kind: 'from-listing', recaptureBy: periodic ? moment.wallNow + FULL_LISTING_MS : moment.wallNow };
  // Who looks at what: one more command, where a round trip is cheap (over a long-lived connection
  // only: a look that lasts one command, as `ls` takes, sees nobody looking).
  const looks = costs.roundTrip === 'cheap';
  const active = activeWindows(input);
  const windows = active !== null && moment.told !== null && !listingDue(learned.asked, moment.wallNow) ? active : null;
  return { mark, windows, active, captures, processTable: tableAsked(input), looks };
}

/**
 * The windows printing or due a capture as a cycle asks: those tmux told of, those starting, those
 * whose panes the last listing wants captured (a recapture, a follow pace that ends, a hook's
 * follow-up). When the rest of the panes stand as last listed, only these need listing (see
 * window-listing.ts). Null where that is not known: a dear round trip (which carries the whole
 * listing anyway), no change watch or no listing yet. After a change that may have touched
 * anything (a window renamed, another corral process's record), the told windows are not known:
 * every pane is listed, and the windows left out here are those that may have printed unseen, so
 * that a change told of them next wakes the loop (wakeOnChange).
 */
function activeWindows({ learned, moment, costs, captures, skew }: PlanInput): ReadonlySet<string> | null {
  const asked = learned.asked;
  if (costs.roundTrip === 'dear' || moment.changes === null || asked === null) return null;
  // A pane captured while its window is not listed would pair a screen of now with an activity
  // stamp of the last listing: output in the second before tmux tells of it would then pass for
  // old, and a prompt just drawn for one held since then. The windows of the panes the last
  // listing wants captured (a recapture, a follow pace that ends, a hook's follow-up) are listed too.
  const windows = new Set([...(moment.told ?? []), ...startingWindows(learned.entries, moment.now)]);
  const panes = panesHere(asked.panes, skew);
  const wanted = new Set(chooseCaptures(panes, learned.entries, captures, moment.wallNow));
  for (const pane of panes) if (wanted.has(pane.paneId)) windows.add(pane.windowId);
  return windows;
}

/**
 * How long the loop may sleep after a cycle that had nothing to ask and nothing to step: until the
 * full listing, the next captures the plan wants (taken together when they fall due within an
 * interval, as a poll at every interval would) or a wait coming of age, whichever comes first.
 * tmux's word of a change wakes it earlier (wakeOnChange). With dear round trips, whose captures
 * are chosen at each rest, it sleeps an interval at most, less when a wait comes of age sooner.
 */
function restDelay({ learned, moment, costs, captures, skew, intervalMs }: PlanInput): number {
  const { asked, still } = learned;
  if (asked === null || still === null) return intervalMs;
  // Far away the captures are chosen at each rest (aheadLive): a poll interval at most, less when a wait comes of age sooner.
  if (costs.roundTrip === 'dear') return Math.max(1, Math.min(intervalMs, still.until - moment.now));
  // Windows told of while their panes were followed (see toldOnlyFollowed) want their captures when their paces end.
  const panes = toldAsPrinting(panesHere(asked.panes, skew), moment.changes === asked.mark ? null : moment.told, moment.wallNow);
  const wallDue = Math.min(asked.at + FULL_LISTING_MS, nextCaptureAt(panes, learned.entries, captures, intervalMs));
  const delay = Math.min(wallDue - moment.wallNow, still.until - moment.now);
  // Something already due would have been asked for or stepped: no reason to trust the sum then.
  // (No longer than the listing period: a wall clock set back makes the listing due at once.)
  return delay > 0 ? delay : intervalMs;
}

/**
 * The sleep after a cycle that asked or stepped: until the host is retried after a failure; none
 * when a pane came without its screen; else the poll interval, or less when a wait comes of age
 * before it (the cycle then steps the last listing again), so a prompt is waiting at the moment it
 * is due rather than up to an interval later; none when that moment came while the cycle ran.
 */
export function sleepAfterCycle(learned: PollLearned, after: { readonly now: number; readonly retryAt: number | null; readonly registeredNew: boolean; readonly intervalMs: number }): number {
  const { now, retryAt, registeredNew, intervalMs } = after;
  if (retryAt !== null) return retryAt - now;
  if (registeredNew || learned.aheadSoon) return 0;
  if (learned.still === null) return intervalMs;
  // The first moment after the step that a step would change something, or a hook's end of turn
  // becomes a wait. One that came between the step and the cycle's end (a cycle woken just before
  // it, as by another corral process's record, steps the panes a few ms too early) is due at once;
  // one due by the step's own moment changed nothing then (a pane stepped at every cycle) and is
  // not waited for.
  const { from, until, hookWaitDue } = learned.still;
  const dues = [until, hookWaitDue ?? Infinity].filter((at) => at > from).map((at) => Math.max(0, at - now));
  const due = Math.min(...dues);
  return due < intervalMs ? due : intervalMs;
}

/**
 * Whether a change tmux tells of between cycles brings a cycle at once: after a cycle that asked
 * nothing (it may have missed it), or for a change told of a window that was not active when the
 * last cycle asked (`told`: the windows told of since its mark), or whose panes had not yet printed
 * at two captures in a row. A quiet pane that prints may be drawing a question, and so may one that
 * just took a command (typed, the screen changed once, and the question drawn a moment later); the
 * next cycle could be an interval away. Windows that keep printing are followed at the poll's pace
 * (capture-gate.ts) and wake nothing, also when one paused for a cycle and prints again (then its
 * window was not active): its capture comes with its pace. After the periodic full listing too,
 * which once let a question drawn just after it wait a whole interval.
 */
export function wakeOnChange(learned: PollLearned, told: ReadonlySet<string> | null, pace: { readonly captures: CapturePlan; readonly wallNow: number }): boolean {
  if (learned.skipped) return !restOutlasted(learned, told, pace);
  const active = learned.asked?.active ?? null;
  if (active === null) return false;
  if (told === null) return true;
  const printing = printingWindows(learned.entries);
  const steady = steadyWindows(learned.entries, pace.captures, pace.wallNow);
  return [...told].some((window) => !steady.has(window) && (!active.has(window) || !printing.has(window)));
}

/**
 * Whether a rest outlasts nothing tmux told of: every window told of has watched panes only, each
 * followed until the rest ends at the earliest (see toldPacesEnd). The loop then wakes when the rest
 * ends, and plans with them (see toldOnlyFollowed); a pane whose pace ends sooner wakes it now, so
 * that its next sleep is planned to the end of that pace.
 */
function restOutlasted(learned: PollLearned, told: ReadonlySet<string> | null, pace: { readonly captures: CapturePlan; readonly wallNow: number }): boolean {
  const until = learned.restUntil ?? null;
  if (until === null || told === null) return false;
  return told.size === 0 || toldPacesEnd(learned.entries, told, pace.captures, pace.wallNow) >= until;
}

/** The windows with a pane that changed at its last two captures (see printingAtCapture). */
function printingWindows(entries: ReadonlyMap<string, PaneEntry>): Set<string> {
  const windows = new Set<string>();
  for (const { pane, captured } of entries.values()) if (captured != null && printingAtCapture(captured)) windows.add(pane.windowId);
  return windows;
}

/** The windows whose every watched pane keeps printing at `wallNow` (see keepsPrinting), none of them looked at. */
function steadyWindows(entries: ReadonlyMap<string, PaneEntry>, captures: CapturePlan, wallNow: number): Set<string> {
  const steady = new Set<string>();
  const other = new Set<string>();
  for (const { pane, captured } of entries.values()) {
    const keeps = captured !== null && !captures.focused.has(pane.paneId) && keepsPrinting(captured, wallNow, captures.followMs);
    (keeps ? steady : other).add(pane.windowId);
  }
  for (const window of other) steady.delete(window);
  return steady;
}

/** What a cycle that asked learned of the listing, before stepping the panes over it. */
export function learnAsked(learned: PollLearned, ask: CycleAsk, answer: { readonly panes: readonly PaneInfo[]; readonly partial?: boolean }, requestedAt: number): PollLearned {
  const partial = answer.partial === true && learned.asked !== null;
  const asked = ask.mark === null ? null : { mark: ask.mark, at: partial ? learned.asked!.at : requestedAt, panes: answer.panes, windows: partial ? ask.windows : null, active: ask.active };
  return { ...learned, skipped: false, asked };
}

/** What stepping the panes taught: their entries, from when they stand still, and, with dear round trips, the next one's captures. */
export function learnStep(
  learned: PollLearned,
  step: { readonly entries: ReadonlyMap<string, PaneEntry>; readonly now: number; readonly requestedAt: number; readonly tables: TableRecord },
  context: { readonly costs: HostCosts; readonly captures: CapturePlan; readonly intervalMs: number; readonly machine: MachineConfig },
): PollLearned {
  const { entries, now, requestedAt, tables } = step;
  const still = { from: now, until: entriesStillUntil(entries, now, context.machine), hookWaitDue: entriesHookWaitDueAt(entries, context.machine) };
  const dear = context.costs.roundTrip === 'dear';
  const ahead = dear ? capturesAhead(entries, context.captures, requestedAt, context.intervalMs) : learned.ahead;
  const aheadSoon = dear && !learned.aheadSoon && soonAhead(entries, ahead, requestedAt);
  return { ...learned, entries, still, ahead, aheadSoon, tables };
}

/**
 * Far away, where tmux tells of no change between round trips: whether a pane chosen for the next
 * one was quiet at its last capture (taken before this round trip, not while it printed) and has
 * printed since. That is how a question or a prompt back shows first; capturing it one round trip
 * later rather than an interval later is what keeps a host far away within a round trip of this
 * machine, whose change watch wakes the loop for it (wakeOnChange). Never twice in a row (see
 * learnStep), so a pane that prints without changing its screen costs at most one round trip more
 * per interval.
 */
function soonAhead(entries: ReadonlyMap<string, PaneEntry>, ahead: readonly string[], requestedAt: number): boolean {
  return ahead.some((id) => {
    const entry = entries.get(id);
    const captured = entry?.captured;
    return captured != null && captured.at < requestedAt && !printingAtCapture(captured) && !silentSince(captured.at, entry!.pane);
  });
}
