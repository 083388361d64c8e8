// The poll plan over generated histories: a world of panes that print (tmux telling of it or not),
// draw prompts, open and close, polled by the plan alone (planCycle, the step and the folds, as the
// poller runs them, with no tmux and no timers), here and far away, with and without a change
// watch. What must hold at every cycle: a pane whose screen may have changed is captured within its
// bound; a wait coming of age is never slept past; nothing is captured twice in a cycle; a window
// told of is listed at the next cycle, its printing panes captured then (or, far away, in the round
// trip after); sleeps stay within their bounds (cycles take no time, or up to 20 ms from their step
// to their end). Seeded; CORRAL_TEST_SEED replays a failure.

import { describe, expect, it } from 'vitest';
import { followInterval, following } from '../../../src/engine/poll/capture-gate.js';
import type { MachineConfig } from '../../../src/engine/pane/pane-machine.js';
import { chooseCaptures, type CapturePlan } from '../../../src/engine/poll/capture-plan.js';
import {
  COSTS_FAR_AWAY,
  COSTS_HERE,
  FULL_LISTING_MS,
  learnAsked,
  learnPlanned,
  learnStep,
  NOTHING_LEARNED,
  planCycle,
  sleepAfterCycle,
  wakeOnChange,
  type CycleAsk,
  type HostCosts,
  type PlanInput,
  type PollLearned,
} from '../../../src/engine/poll/poll-plan.js';
import { pollStep, type StepContext } from '../../../src/engine/poll/poll-step.js';
import { workFromTable } from '../../../src/engine/poll/process-table.js';
import { DEFAULT_RULES } from '../../../src/engine/prompt/matcher.js';
import type { PaneInfo } from '../../../src/engine/types.js';
import { paneInfo } from '../../helpers/fake-engine.js';
import { SeededRandom, testSeeds } from '../../helpers/seeded-random.js';

const START = 1_700_000_000_000;
const MACHINE: MachineConfig = { quietThresholdMs: 3_000, askThresholdMs: 1_000 };
const SCREENS = ['compiling', 'Deploy to production? [y/N] ', 'done\n>', 'tests passed\n$ '];
/** What a host's `ps` prints (see process-table.ts): the table's answer when the plan asks for it. */
const TABLE = '    1     0     1     1   600 S    bash\n';

interface WorldPane {
  info: PaneInfo;
  screen: string;
  /** Wall-clock time of the first change to its screen since its last capture; null: the capture shows it. */
  unseenSince: number | null;
  /** Wall-clock time of the first change since its last capture that the change watch told of. */
  toldSince: number | null;
}

/** A generated host and the plan polling it. */
class History {
  now = START;
  learned: PollLearned = NOTHING_LEARNED;
  readonly panes: WorldPane[] = [];
  /** What the change watch told, one entry a change (null: anything); null when there is no watch. */
  readonly journal: (ReadonlySet<string> | null)[] | null;
  captures: CapturePlan;
  readonly context: StepContext;
  cycle = 0;
  /** The cycles that asked tmux (the others rested or stepped the last listing again). */
  asks = 0;
  /** Screens captured, over every cycle that asked. */
  captured = 0;
  /** The last cycle asked for the next round trip at once (see PollLearned.aheadSoon). */
  soon = false;
  private nextId = 1;

  constructor(
    readonly random: SeededRandom,
    readonly costs: HostCosts,
    readonly intervalMs: number,
    watched: boolean,
  ) {
    this.journal = watched ? [] : null;
    const scope = { optIn: false, prefix: 'corral', selfPaneId: null };
    this.captures = { scope, focused: new Set(), followMs: followInterval(intervalMs) };
    this.context = { host: 'h', scope, machine: MACHINE, rules: DEFAULT_RULES, previewLines: 5, followMs: this.captures.followMs, skew: 0 };
    for (let i = random.int(1, 8); i > 0; i--) this.open();
  }

  get label(): string {
    return `${this.costs.roundTrip} round trips, ${this.intervalMs} ms, ${this.journal === null ? 'no watch' : 'a watch'}, cycle ${this.cycle} at +${this.now - START}`;
  }

  /** The windows told of since `mark`; null when anything may have changed (or there is no watch). */
  toldSince(mark: number): ReadonlySet<string> | null {
    if (this.journal === null) return null;
    const windows = new Set<string>();
    for (const told of this.journal.slice(mark)) {
      if (told === null) return null;
      for (const window of told) windows.add(window);
    }
    return windows;
  }

  input(): PlanInput {
    const { asked } = this.learned;
    const moment = { wallNow: this.now, now: this.now, changes: this.journal?.length ?? null, told: asked === null ? null : this.toldSince(asked.mark) };
    return { learned: this.learned, moment, costs: this.costs, captures: this.captures, skew: 0, intervalMs: this.intervalMs };
  }

  tell(windows: ReadonlySet<string> | null): void {
    this.journal?.push(windows);
  }

  open(): void {
    const id = this.nextId++;
    const info = paneInfo({ paneId: `%${id}`, windowId: `@${id}`, windowIndex: id, pid: 100 + id, windowActivity: this.second() });
    this.panes.push({ info, screen: 'starting', unseenSince: this.now, toldSince: this.now });
    this.tell(null);
  }

  /** At most how long a cycle takes, from its step to its end (the sleep counts from there). */
  cycleSpanMs = 0;

  /** How long this cycle takes, from its step to its end. */
  cycleMs(): number {
    return this.cycleSpanMs === 0 ? 0 : this.random.int(0, this.cycleSpanMs);
  }

  /** How long until the next thing happens on the host: mostly soon, at times after a long quiet. */
  stepMs(): number {
    return this.random.chance(0.15) ? this.random.int(5_000, 40_000) : this.random.int(50, 3 * this.intervalMs);
  }

  second(): number {
    return Math.floor(this.now / 1000) * 1000;
  }

  /** Something happens on the host; true when tmux told of it. */
  happen(): boolean {
    const random = this.random;
    const pane = random.pick(this.panes);
    const roll = random.int(0, 99);
    if (roll < 4 && this.panes.length < 10) return this.open(), true;
    if (roll < 7 && this.panes.length > 1) {
      this.panes.splice(this.panes.indexOf(pane), 1);
      return this.tell(null), true;
    }
    if (roll < 12) {
      this.captures = { ...this.captures, focused: new Set(this.panes.filter(() => random.chance(0.3)).map((p) => p.info.paneId)) };
      return false;
    }
    // Output: a new line, or one of the screens that wait.
    pane.screen = roll < 60 ? `${pane.screen.split('\n').at(-1)}\nline ${random.int(0, 99)}` : random.pick(SCREENS);
    pane.info = { ...pane.info, windowActivity: this.second() };
    const told = this.journal !== null && random.chance(0.85);
    if (pane.unseenSince === null) pane.unseenSince = this.now;
    if (told) pane.toldSince ??= this.now;
    if (told) this.tell(new Set([pane.info.windowId]));
    return told;
  }
}

/** The listing a cycle's question brings: every pane, or the windows asked for with the others as last listed. */
function listingOf(history: History, ask: CycleAsk): PaneInfo[] {
  const current = new Map(history.panes.map((p) => [p.info.paneId, p.info]));
  if (ask.windows === null || history.learned.asked === null) return [...current.values()];
  const windows = ask.windows;
  return history.learned.asked.panes.map((pane) => (windows.has(pane.windowId) ? current.get(pane.paneId)! : pane));
}

/** Runs what the plan asks against the world and folds the answer in, as the poller does; the captures taken. */
function runAsk(history: History, ask: CycleAsk): { captured: string[]; registeredNew: boolean } {
  const panes = listingOf(history, ask);
  const { entries } = history.learned;
  const captured = ask.captures.kind === 'ahead' ? [...ask.captures.panes] : chooseCaptures(panes, entries, history.captures, history.now, ask.captures.recaptureBy);
  const screens = new Map<string, string>();
  for (const id of captured) {
    const pane = history.panes.find((p) => p.info.paneId === id);
    if (pane === undefined) continue;
    screens.set(id, pane.screen);
    pane.unseenSince = null;
    pane.toldSince = null;
  }
  const tables = workFromTable(ask.processTable ? TABLE : null, history.learned.tables, history.now);
  const listing = { panes, screens, chosen: new Set(captured), requestedAt: history.now, now: history.now, wallNow: history.now, cycle: history.cycle, workOf: tables.workOf };
  const step = pollStep(entries, listing, history.context);
  const learned = learnAsked(history.learned, ask, { panes, partial: ask.windows !== null }, history.now);
  history.learned = fold(history, learned, step.entries, tables.record);
  return { captured, registeredNew: step.registeredNew };
}

function fold(history: History, learned: PollLearned, entries: PollLearned['entries'], tables: PollLearned['tables']): PollLearned {
  const context = { costs: history.costs, captures: history.captures, intervalMs: history.intervalMs, machine: MACHINE };
  return learnStep(learned, { entries, now: history.now, requestedAt: history.now, tables }, context);
}

/** The checks on a question before it is run: a told window listed, its printing panes captured (or chosen ahead). */
function checkAsk(history: History, input: PlanInput, ask: CycleAsk): void {
  const told = input.moment.told ?? new Set<string>();
  for (const window of told) if (ask.windows !== null) expect(ask.windows.has(window), `${history.label}: told ${window} listed`).toBe(true);
  if (ask.captures.kind === 'ahead') expect(new Set(ask.captures.panes).size, `${history.label}: ahead once each`).toBe(ask.captures.panes.length);
}

/**
 * After a cycle that asked: nothing captured twice; here, no pane captured without its window listed
 * anew (its screen would pair with an old activity stamp), and a pane told of captured unless its
 * follow pace holds it back.
 */
function checkCaptures(history: History, ask: CycleAsk, before: PollLearned, told: ReadonlySet<string> | null, captured: readonly string[]): void {
  expect(new Set(captured).size, `${history.label}: captured once each`).toBe(captured.length);
  if (history.costs.roundTrip === 'dear') return;
  const windows = ask.windows;
  const windowOf = new Map(history.panes.map((p) => [p.info.paneId, p.info.windowId]));
  if (windows !== null) for (const id of captured) expect(windows.has(windowOf.get(id) ?? ''), `${history.label}: ${id} captured, its window listed`).toBe(true);
  if (told === null) return;
  for (const pane of history.panes) {
    const entry = before.entries.get(pane.info.paneId);
    if (!told.has(pane.info.windowId) || entry?.captured == null || entry.captured.pane.windowActivity === pane.info.windowActivity) continue;
    const held = following(entry.captured, history.now, history.captures.followMs) && !history.captures.focused.has(pane.info.paneId);
    if (!held) expect(captured, `${history.label}: ${pane.info.paneId} told of, captured`).toContain(pane.info.paneId);
  }
}

/** A sleep of `sleep` from now: within its bounds, and never past a wait coming of age after the last step (also one that came while the cycle ran). */
function checkSleep(history: History, sleep: number, bounds: { readonly min: number; readonly max: number }): void {
  expect(sleep, `${history.label}: sleep`).toBeGreaterThanOrEqual(bounds.min);
  expect(sleep, `${history.label}: sleep`).toBeLessThanOrEqual(bounds.max);
  const { still } = history.learned;
  const until = still?.until ?? Infinity;
  if (still !== null && until > still.from && Number.isFinite(until)) expect(history.now + sleep, `${history.label}: a wait comes of age at +${until - START}`).toBeLessThanOrEqual(Math.max(until, history.now));
}

/**
 * Every change to a screen is captured within its bound: here a told one within two cycles and the
 * follow pace, any within the full listing's period more. Far away only the latter holds: the
 * captures the next round trip takes are chosen when a listing is stepped, not again while the loop
 * rests, so a pane whose follow pace ends during a rest waits for the next change told or the full
 * listing (see the scripted history below).
 */
function checkSeen(history: History): void {
  const { intervalMs } = history;
  const followMs = history.captures.followMs;
  const bound = 2 * intervalMs + followMs + 1_000;
  for (const pane of history.panes) {
    const { paneId } = pane.info;
    if (pane.unseenSince !== null) expect(history.now - pane.unseenSince, `${history.label}: ${paneId} changed at +${pane.unseenSince - START}, not captured`).toBeLessThanOrEqual(FULL_LISTING_MS + bound);
    if (pane.toldSince !== null && history.costs.roundTrip === 'cheap') expect(history.now - pane.toldSince, `${history.label}: ${paneId} told of at +${pane.toldSince - START}, not captured`).toBeLessThanOrEqual(bound);
  }
}

/** One cycle of the plan, then the sleep it asks for, with the world going on meanwhile. */
function cycle(history: History): void {
  history.cycle += 1;
  // Before the cycle takes them: no change has waited past its bound.
  checkSeen(history);
  const input = planInput(history);
  const plan = planCycle(input);
  history.learned = learnPlanned(history.learned, plan, history.now);
  let sleep: number;
  if (plan.kind === 'rest') {
    sleep = plan.sleepMs;
    // Far away a rest lasts a poll interval at most (the captures are chosen again at each rest),
    // less when a wait comes of age before it.
    const dear = history.costs.roundTrip === 'dear';
    checkSleep(history, sleep, { min: 1, max: dear ? history.intervalMs : FULL_LISTING_MS });
  } else {
    let registeredNew = false;
    if (plan.kind === 'restep') {
      const { output, chosen } = plan.listing;
      const listing = { panes: output.panes, screens: output.screens, chosen, requestedAt: history.now, now: history.now, wallNow: history.now, cycle: history.cycle };
      const step = pollStep(history.learned.entries, listing, history.context);
      history.learned = fold(history, history.learned, step.entries, history.learned.tables);
      registeredNew = step.registeredNew;
    } else {
      history.asks += 1;
      checkAsk(history, input, plan.ask);
      const before = history.learned;
      const ran = runAsk(history, plan.ask);
      history.captured += ran.captured.length;
      checkCaptures(history, plan.ask, before, input.moment.told, ran.captured);
      registeredNew = ran.registeredNew;
    }
    history.now += history.cycleMs();
    const soonBefore = history.soon;
    history.soon = history.learned.aheadSoon;
    // Far away, a round trip at once after one that found a quiet pane printing: never twice in a row.
    if (soonBefore) expect(history.soon, `${history.label}: two round trips at once in a row`).toBe(false);
    sleep = sleepAfterCycle(history.learned, { now: history.now, retryAt: null, registeredNew, intervalMs: history.intervalMs });
    // None when a wait came of age after the step, while the cycle ran.
    const { still } = history.learned;
    const cameDue = still !== null && [still.until, still.hookWaitDue ?? Infinity].some((at) => at > still.from && at <= history.now);
    checkSleep(history, sleep, registeredNew || history.soon ? { min: 0, max: 0 } : { min: cameDue ? 0 : 1, max: history.intervalMs });
  }
  checkSeen(history);
  live(history, sleep);
}

function planInput(history: History): PlanInput {
  const input = history.input();
  // Every pane is listed again within the listing period (and the interval the loop may be late
  // by, which counts from the end of the cycle before).
  if (input.learned.asked !== null) expect(input.moment.wallNow - input.learned.asked.at, history.label).toBeLessThanOrEqual(FULL_LISTING_MS + history.intervalMs + history.cycleSpanMs);
  return input;
}

/** The world goes on for `sleep`, unless tmux tells of a change the poller wakes for (wakeOnChange). */
function live(history: History, sleep: number): void {
  const end = history.now + sleep;
  for (;;) {
    const next = history.now + history.stepMs();
    if (next >= end) break;
    history.now = next;
    const told = history.happen();
    const { asked } = history.learned;
    if (told && wakeOnChange(history.learned, asked === null ? null : history.toldSince(asked.mark), { captures: history.captures, wallNow: history.now })) return;
  }
  history.now = end;
}

/** One pane that prints a line every 300 ms from +2 s to +6 s, each told of, then holds still. */
class PrintingThenStill extends History {
  constructor(costs: HostCosts) {
    super(new SeededRandom(1), costs, 500, true);
    this.panes.splice(1);
  }

  override stepMs(): number {
    return 300;
  }

  override happen(): boolean {
    const at = this.now - START;
    if (at < 2_000 || at > 6_000) return false;
    const pane = this.panes[0]!;
    pane.screen = `line ${at}`;
    pane.info = { ...pane.info, windowActivity: this.second() };
    pane.unseenSince ??= this.now;
    pane.toldSince ??= this.now;
    this.tell(new Set([pane.info.windowId]));
    return true;
  }
}

/**
 * Twenty panes that keep printing plain lines, each 1 to 3 s apart (a fleet of builds and logs), all
 * told of, at a 2 s poll: they are followed at their pace, and a pane that paused for a cycle and
 * prints again within its pace brings no cycle of its own.
 */
class PacedPrinters extends History {
  private readonly due: number[] = [];
  /** Windows that printed since tmux last told: its subscription is evaluated once a second. */
  private readonly untold = new Set<string>();

  constructor() {
    super(new SeededRandom(3), COSTS_HERE, 2_000, true);
    this.panes.splice(0);
    for (let i = 0; i < 20; i++) {
      this.open();
      this.due.push(START + this.random.int(0, 3_000));
    }
  }

  override stepMs(): number {
    return 100;
  }

  override happen(): boolean {
    this.panes.forEach((pane, i) => {
      if (this.now < this.due[i]!) return;
      this.due[i] = this.now + this.random.int(1_000, 3_000);
      pane.screen = `${pane.screen.split('\n').at(-1)}\nline at ${this.now - START}`;
      pane.info = { ...pane.info, windowActivity: this.second() };
      pane.unseenSince ??= this.now;
      pane.toldSince ??= this.now;
      this.untold.add(pane.info.windowId);
    });
    if (this.now % 1_000 !== 0 || this.untold.size === 0) return false;
    this.tell(new Set(this.untold));
    this.untold.clear();
    return true;
  }
}

/**
 * One idle pane asked a question at a different moment of each 30 s (so some fall just after a
 * periodic full listing), at a 2 s poll: returns how long each question waited for its capture.
 */
class QuietThenAsked extends History {
  /** When the current question was drawn and told of (wall clock); null: captured. */
  drawnAt: number | null = null;
  readonly waits: number[] = [];

  constructor(
    costs: HostCosts = COSTS_HERE,
    /** The command that asks is typed 250 ms before its question shows (the screen changes twice). */
    private readonly typed = false,
    /** 500 ms before each question, tmux tells of a change that may have touched anything (another corral process's record, a window renamed). */
    private readonly unknownBefore = false,
  ) {
    super(new SeededRandom(2), costs, 2_000, true);
    this.panes.splice(1);
  }

  override stepMs(): number {
    return 250;
  }

  override happen(): boolean {
    const at = this.now - START;
    const pane = this.panes[0]!;
    if (this.typed && at >= 20_000 && (at + 250) % 7_250 === 0) {
      pane.screen = `$ deploy ${at}`;
      pane.info = { ...pane.info, windowActivity: this.second() };
      pane.unseenSince ??= this.now;
      pane.toldSince ??= this.now;
      this.tell(new Set([pane.info.windowId]));
      return true;
    }
    if (this.unknownBefore && at >= 20_000 && (at + 500) % 7_250 === 0) {
      this.tell(null);
      return true;
    }
    // A question every 7.25 s from +20 s on: its phase against the 30 s listing period moves each time.
    if (at < 20_000 || at % 7_250 !== 0) return false;
    pane.screen = `Deploy ${at}? [y/N] `;
    pane.info = { ...pane.info, windowActivity: this.second() };
    pane.unseenSince ??= this.now;
    pane.toldSince ??= this.now;
    this.drawnAt = this.now;
    this.tell(new Set([pane.info.windowId]));
    return true;
  }
}

/**
 * QuietThenAsked (the command typed before each question) where every cycle takes 4 ms from its
 * step to its end, and 2 ms before each question's wait comes of age tmux tells of a change that
 * may have touched anything: another corral process, which found the same wait due at the same
 * moment, wrote its record. The cycle that wakes steps the pane just before the wait is due and
 * ends just after.
 */
class WokenJustBeforeTheDue extends QuietThenAsked {
  constructor() {
    super(COSTS_HERE, true);
  }

  override cycleMs(): number {
    return 4;
  }

  /** To the next 250 ms of the script (see QuietThenAsked), or to the wake before a due that comes sooner. */
  override stepMs(): number {
    const grid = 250 - ((this.now - START) % 250);
    const wake = this.wakeAt();
    return wake !== null && wake > this.now && wake - this.now < grid ? wake - this.now : grid;
  }

  override happen(): boolean {
    if (this.now !== this.wakeAt()) return super.happen();
    this.tell(null);
    return true;
  }

  private wakeAt(): number | null {
    const until = this.learned.still?.until ?? Infinity;
    return Number.isFinite(until) ? until - 2 : null;
  }
}

/** How late, after its wait came of age, each question of 200 s of a history was found stuck (more than 20 of them). */
function stuckLateness(history: QuietThenAsked): number[] {
  const pane = history.panes[0]!;
  const late: number[] = [];
  let due: number | null = null;
  while (history.now - START < 200_000) {
    cycle(history);
    const track = history.learned.entries.get(pane.info.paneId)?.track;
    const until = history.learned.still?.until ?? Infinity;
    if (track?.state === 'monitoring' && track.wait !== null && Number.isFinite(until)) due = until;
    if (track?.state === 'stuck' && due !== null) {
      late.push((track.stuckSince ?? NaN) - due);
      due = null;
    }
  }
  expect(late.length).toBeGreaterThan(20);
  return late;
}

/** How long each question of 200 s of a QuietThenAsked history waited for its capture (more than 20 of them). */
function questionWaits(history: QuietThenAsked): number[] {
  const pane = history.panes[0]!;
  while (history.now - START < 200_000) {
    cycle(history);
    if (history.drawnAt !== null && pane.unseenSince === null) {
      history.waits.push((history.learned.entries.get(pane.info.paneId)?.captured?.at ?? NaN) - history.drawnAt);
      history.drawnAt = null;
    }
  }
  expect(history.waits.length).toBeGreaterThan(20);
  return history.waits;
}

/** When the scripted pane's last screen is captured (ms from the start), the minute it is given. */
function lastScreenCaptured(history: History): number {
  const pane = history.panes[0]!;
  while (history.now - START < 60_000) {
    cycle(history);
    if (history.now - START > 6_000 && pane.unseenSince === null) return (history.learned.entries.get(pane.info.paneId)?.captured?.at ?? NaN) - START;
  }
  return Infinity;
}

describe('the poll plan', () => {
  it('a pane followed while it printed is captured once its follow pace ends, here and far away (where the loop rests meanwhile)', () => {
    expect(lastScreenCaptured(new PrintingThenStill(COSTS_HERE))).toBeLessThanOrEqual(6_000 + 2 * 500 + 2_000 + 1_000);
    // Far away a round trip brings the captures chosen at the rest before it: one more interval.
    expect(lastScreenCaptured(new PrintingThenStill(COSTS_FAR_AWAY))).toBeLessThanOrEqual(6_000 + 3 * 500 + 2_000 + 1_000);
  });

  it('a fleet that keeps printing asks tmux about once a follow pace, every pane captured once a pace, every screen within its bound', () => {
    const history = new PacedPrinters();
    while (history.now - START < 120_000) cycle(history);
    // 30 paces of 4 s, and the cycles a pane brings when it paused longer than a pace and prints
    // again (news, as a question would be); an interval each, as before the paces met, was 62.
    expect(history.asks).toBeLessThanOrEqual(42);
    // 20 panes captured once a pace, and the first captures of a pane that prints again: as many as
    // when each pane kept a pace of its own (639).
    expect(history.captured).toBeLessThanOrEqual(20 * 30 * 1.1);
  });

  it('sleeps until a turn a hook said is over comes of age, when that is sooner than the interval', () => {
    const after = { now: 10_000, retryAt: null, registeredNew: false, intervalMs: 2_000 };
    // A pane with a hook's claim is stepped at every cycle (its still time is now): the interval, unless the end of a turn comes sooner.
    const learned = (hookWaitDue: number): PollLearned => ({ ...NOTHING_LEARNED, still: { from: 10_000, until: 10_000, hookWaitDue } });
    expect(sleepAfterCycle(learned(Infinity), after)).toBe(2_000);
    expect(sleepAfterCycle(learned(10_350), after)).toBe(350);
    expect(sleepAfterCycle(learned(15_000), after)).toBe(2_000);
    expect(sleepAfterCycle(learned(9_000), after)).toBe(2_000);
    expect(sleepAfterCycle({ ...NOTHING_LEARNED, still: { from: 10_000, until: 10_900, hookWaitDue: 10_400 } }, after)).toBe(400);
  });

  it('a quiet pane that prints is captured as tmux tells of it, also just after the periodic full listing', () => {
    const waits = questionWaits(new QuietThenAsked());
    expect(Math.max(...waits)).toBe(0);
  });

  it('a question drawn just after the command that asks it was typed (and captured) is captured as tmux tells of it', () => {
    const waits = questionWaits(new QuietThenAsked(COSTS_HERE, true));
    expect(Math.max(...waits)).toBe(0);
  });

  it('a wait that comes of age while a cycle runs (woken just before it by another process) is found stuck at once, not an interval later', () => {
    const late = stuckLateness(new WokenJustBeforeTheDue());
    // Found at the end of the cycle that straddled it (4 ms), or at the due itself.
    expect(Math.max(...late)).toBeLessThanOrEqual(4);
  });

  it('a question drawn just after tmux told of a change that may have touched anything is captured as tmux tells of it', () => {
    const waits = questionWaits(new QuietThenAsked(COSTS_HERE, false, true));
    expect(Math.max(...waits)).toBe(0);
  });

  it('far away, a quiet pane that prints is captured one round trip after the listing that shows it, not an interval later', () => {
    const waits = questionWaits(new QuietThenAsked(COSTS_FAR_AWAY));
    // The listing comes within an interval of the question; the capture in the round trip right after.
    expect(Math.max(...waits)).toBeLessThanOrEqual(2_000);
  });

  for (const seed of testSeeds(20261206)) {
    it(`over generated histories: captures what may have changed in time, never sleeps past a wait, captures once a cycle (seed ${seed})`, () => {
      const random = new SeededRandom(seed);
      for (let run = 0; run < 40; run++) {
        const costs = random.pick([COSTS_HERE, COSTS_FAR_AWAY]);
        const history = new History(random, costs, random.pick([500, 1_000, 2_000]), random.chance(0.8));
        history.cycleSpanMs = random.pick([0, 20]);
        for (let i = 0; i < 150; i++) cycle(history);
      }
    });
  }
});
