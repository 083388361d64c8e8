// The engine of one host: a poll loop over one TmuxClient that keeps an entry per watched pane,
// publishes immutable snapshots (getSnapshot/subscribe) and emits events. The parts live in
// poll/: what a cycle asks tmux (poll-request, capture-plan), the pure step over its answer
// (poll-step), the views (pane-views), the host's health and clock (host-health, clock-skew) and
// when cycles run (poll-loop). Time and timers come from outside.

import { followInterval } from './capture-gate.js';
import type { EngineSettings } from './config.js';
import { end, observe, type MachineConfig } from './pane-machine.js';
import { LOOK_MS, withAnswer, withLook, withSnooze } from './attention/attention.js';
import type { AttentionRecord } from './attention/record.js';
import { HOOK_OPTION, hookRecordEvent, hookRecordValue } from './hooks/hook-record.js';
import { DEFAULT_RULES, type PromptRules } from './prompt/matcher.js';
import type { ScopeOptions } from './scope.js';
import { NoServerError } from './tmux/core.js';
import type { TmuxClient } from './tmux/client.js';
import { TmuxMissingError } from './tmux/runner.js';
import { HostAuthError, HostUnreachableError } from './tmux/host-errors.js';
import { capturesAhead, chooseCaptures, nextCaptureAt, type CapturePlan } from './poll/capture-plan.js';
import { ClockSkew } from './poll/clock-skew.js';
import { HostHealthTracker } from './poll/host-health.js';
import { PaneViews } from './poll/pane-views.js';
import { PollLoop } from './poll/poll-loop.js';
import { requestListing, type ListingAnswer } from './poll/poll-request.js';
import { NO_TABLES, tableShell, workFromTable, type TableRecord } from './poll/process-table.js';
import { entriesStillUntil, pollStep, type PaneEntry, type StepContext } from './poll/poll-step.js';
import { LOCAL_HOST, type Clock, type EndReason, type CorralEvent, type EngineHandle, type EngineSnapshot, type EngineStatus, type HookEvent, type HostSpec, type PaneInfo, type PaneView, type Timers } from './types.js';
import { parsePaneKey } from './pane-key.js';
import { heldTimers, systemClock } from './time.js';

export { RECONNECT_MAX_MS, RECONNECT_MIN_MS, reconnectDelay } from './poll/host-health.js';

export interface EngineOptions {
  readonly settings: EngineSettings;
  readonly tmux: TmuxClient;
  readonly clock?: Clock;
  /** Timers for the poll loop (real ones that keep the process alive by default). */
  readonly timers?: Timers;
  /** corral's own pane, only when corral runs inside the server it watches. */
  readonly selfPaneId?: string | null;
  readonly rules?: PromptRules;
  /** Wall-clock time, which tmux's activity stamps are in (the system clock unless tests drive it). */
  readonly wallClock?: Clock;
  /** The host this engine watches: this machine by default. */
  readonly host?: HostSpec;
  /**
   * The latest wall-clock time a pane's program (by its pid) used its terminal, when that can be
   * told (see tty-output.ts: this machine's panes only); a pane's quiet time then starts no later.
   */
  readonly terminalUse?: (pid: number) => number | null;
  /**
   * The child command a pane's foreground job runs, or null (see prompt/process-work.ts), where that
   * can be told on this machine. A host far away is asked for its process table instead (see
   * poll/process-table.ts).
   */
  readonly processWork?: (pane: PaneInfo) => string | null;
}

/** Where agent hook calls enter the engine (the HTTP hook receiver calls it). */
export interface HookPort {
  /** Applies a hook event to a watched pane; false when the pane is not watched. */
  observeHook(paneId: string, hook: HookEvent): boolean;
}

export interface Engine extends EngineHandle, HookPort {
  start(): void;
  stop(): Promise<void>;
}

/**
 * After a hook, the pane's screen is about to change (a permission dialog is drawn 0.15 to 0.7 s
 * after the hook): it is captured at these delays, whatever the poll interval.
 */
const HOOK_FOLLOW_UPS_MS = [250, 800, 1_600];

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
const STARTING_MS = 3_000;

export function createEngine(options: EngineOptions): Engine {
  const engine = new HostEngine(options);
  return {
    getSnapshot: () => engine.store.snapshot,
    subscribe: (listener) => engine.store.subscribe(listener),
    onEvent: (listener) => engine.store.onEvent(listener),
    observeHook: (key, hook) => engine.observeHook(key, hook),
    focus: (keys) => engine.focus(keys),
    acknowledge: (key) => engine.person(key, (record) => withSnooze(record)),
    markSeen: (key) => engine.person(key, (record, now) => withLook(record, now)),
    markAnswered: (key, answer, contentHash) => engine.person(key, (record, now) => withAnswer(record, { ...answer, at: now }, contentHash)),
    pollNow: () => engine.loop.pollNow(),
    start: () => engine.loop.start(),
    stop: () => engine.stop(),
  };
}

/** One host's engine: its panes' entries between cycles, and what a cycle does with them. */
class HostEngine {
  readonly store: EngineStore;
  readonly loop: PollLoop;
  private readonly settings: EngineSettings;
  private readonly tmux: TmuxClient;
  private readonly clock: Clock;
  private readonly wallClock: Clock;
  private readonly host: string;
  private readonly remote: boolean;
  private readonly machine: MachineConfig;
  private readonly context: Omit<StepContext, 'skew'>;
  private readonly plan: { -readonly [K in keyof CapturePlan]: CapturePlan[K] };
  private readonly health: HostHealthTracker;
  private readonly skew = new ClockSkew();
  private readonly views: PaneViews;
  private entries: ReadonlyMap<string, PaneEntry> = new Map();
  /** A remote host's panes to capture in the next cycle's round trip (chosen from this cycle's list). */
  private pending: readonly string[] = [];
  /** The last views of a host that went down, shown greyed until it answers again. */
  private offline: readonly PaneView[] = [];
  private cycle = 0;
  /** The last listing asked for while tmux told of changes: the change count then, and when (wall clock). */
  private asked: { readonly mark: number; readonly at: number; readonly panes: PaneInfo[] } | null = null;
  /** The last cycle asked tmux nothing. */
  private skipped = false;
  /** The last cycle listed only these windows, told of up to `mark`; null when it listed every pane. */
  private listed: { readonly mark: number; readonly windows: ReadonlySet<string> } | null = null;
  /**
   * When (engine clock) the panes were last stepped, and until when stepping them over the same
   * listing leaves them as they are: worked out at the first cycle that could skip, not at every step.
   */
  private still: { readonly from: number; until: number | null } | null = null;
  private readonly terminalUse: ((pid: number) => number | null) | null;
  /** The panes a person looked at, as of the last cycle that asked (see lookedAt). */
  private looked: ReadonlySet<string> = new Set();
  private readonly processWork: EngineOptions['processWork'];
  /** A remote host's process tables: when the last came, and whether its `ps` can give one. */
  private tables: TableRecord = NO_TABLES;

  constructor(options: EngineOptions) {
    const { settings, tmux } = options;
    this.settings = settings;
    this.tmux = tmux;
    this.clock = options.clock ?? systemClock;
    this.wallClock = options.wallClock ?? systemClock;
    const spec: HostSpec = options.host ?? { name: LOCAL_HOST, ssh: null, socket: tmux.socket };
    this.host = spec.name;
    this.remote = spec.ssh !== null;
    this.terminalUse = options.terminalUse ?? null;
    this.processWork = options.processWork;
    const scope: ScopeOptions = { optIn: settings.optIn, prefix: settings.prefix, selfPaneId: options.selfPaneId ?? null };
    this.machine = { quietThresholdMs: settings.quietThresholdMs, askThresholdMs: settings.askThresholdMs, hookGraceMs: settings.hookGraceMs, hookPermissionTtlMs: settings.hookPermissionTtlMs };
    this.context = { host: spec.name, scope, machine: this.machine, rules: options.rules ?? DEFAULT_RULES, previewLines: settings.previewLines };
    this.plan = { scope, focused: new Set(), followMs: followInterval(settings.pollIntervalMs) };
    this.health = new HostHealthTracker(spec, tmux.serverLabel, this.clock.now());
    this.views = new PaneViews(settings.prefix, settings.waiting);
    this.store = new EngineStore({ server: tmux.serverLabel, hosts: [this.health.health('starting', null, 0)], status: 'starting', statusMessage: null, panes: [], updatedAt: this.clock.now(), cycle: 0 });
    this.loop = new PollLoop(() => this.runCycle(), options.timers ?? heldTimers);
    // A change told after a cycle that asked nothing brings a cycle at once (that cycle may have
    // missed it); after one that asked, the next cycle comes within an interval of that listing
    // anyway. The same holds for a cycle that listed only some windows, for a change told of another
    // one. A change is told up to a second late, but a poll faster than that loses nothing by it: a
    // pane whose last listed stamp is its current second is captured at every interval anyway (the
    // capture plan), so a pane that prints is followed at the poll's pace and an idle server sleeps.
    tmux.panes.watchChanges(() => (this.skipped || this.toldOfUnlisted()) && this.loop.pollSoon());
  }

  /** One cycle: ask tmux, step every pane, publish. Resolves to the delay before the next one. */
  private async runCycle(): Promise<number> {
    this.cycle += 1;
    // Captures are compared with tmux's activity stamps, which are wall-clock time (moved to this
    // machine's clock for a remote host).
    const requestedAt = this.wallClock.now();
    let registeredNew = false;
    try {
      const unchanged = this.unchangedListing(requestedAt);
      this.skipped = unchanged !== null;
      if (unchanged !== null) {
        // Nothing told and nothing to capture: until a wait comes of age, the step would change nothing.
        const now = this.clock.now();
        if (this.stillAt(now)) return this.idleDelay(requestedAt, now);
        registeredNew = this.applyListing(unchanged, requestedAt);
      } else {
        // Read before asking: a change told while the answer is on its way counts for the next cycle.
        const mark = this.tmux.panes.changeCount();
        // A remote host answers in one round trip a cycle: the list, with the captures that the
        // previous list asked for (a screen then shows up to one poll later than on this machine).
        const pipelined = this.remote ? this.pending.filter((id) => this.entries.has(id)) : null;
        const windows = this.windowsToList(mark, requestedAt);
        // The periodic listing of a quiet server takes along the recaptures due before the next one.
        const periodic = mark !== null && !this.remote && this.asked !== null && this.listingDue(requestedAt);
        const recaptureBy = periodic ? requestedAt + FULL_LISTING_MS : requestedAt;
        // Far away, the process table rides along while a pane looks idle (see process-table.ts).
        const shell = this.remote ? tableShell(this.entries, this.tables) : null;
        const answer = await requestListing(this.tmux, { entries: this.entries, plan: this.plan, skew: this.skew, requestedAt, pipelined, windows, recaptureBy, shell });
        // Who looks at what: one more command over this machine's long-lived connection (a look that
        // lasts one command, as `ls` takes, sees nobody looking; a host far away keeps its one
        // round trip a cycle).
        if (!this.remote && this.tmux.connected) this.looked = await this.lookedAt(requestedAt);
        const partial = answer.output.partial === true && this.asked !== null;
        this.listed = mark !== null && partial && windows !== null ? { mark, windows } : null;
        this.asked = mark === null ? null : { mark, at: partial ? this.asked!.at : requestedAt, panes: answer.output.panes };
        registeredNew = this.applyListing(answer, requestedAt);
      }
    } catch (error) {
      this.asked = null;
      this.listed = null;
      this.failCycle(error);
    }
    if (this.health.retryAt !== null) return this.health.retryAt - this.clock.now();
    return registeredNew ? 0 : this.delayAfterCycle();
  }

  /**
   * After a cycle: the poll interval, or less when a wait comes of age before it (the cycle then
   * steps the last listing again, asking tmux for nothing it has not told of), so a prompt is
   * waiting at the moment it is due rather than up to an interval later.
   */
  private delayAfterCycle(): number {
    const interval = this.settings.pollIntervalMs;
    const still = this.still;
    if (still === null) return interval;
    still.until ??= entriesStillUntil(this.entries, still.from, this.machine);
    const due = still.until - this.clock.now();
    return due > 0 && due < interval ? due : interval;
  }

  /** Whether every pane, stepped at `now` over the last listing with no new screen, stays as it is. */
  private stillAt(now: number): boolean {
    const still = this.still;
    if (still === null || now < still.from) return false;
    still.until ??= entriesStillUntil(this.entries, still.from, this.machine);
    return now < still.until;
  }

  /** The last listing's panes, their activity stamps in this machine's clock (as the capture plan takes them). */
  private lastListingHere(asked: { readonly panes: readonly PaneInfo[] }): PaneInfo[] {
    return asked.panes.map((pane) => this.skew.toLocal(pane));
  }

  /** Whether every pane is due to be listed again: the period has passed, or the wall clock went back past the last listing. */
  private listingDue(requestedAt: number): boolean {
    const asked = this.asked;
    return asked === null || requestedAt < asked.at || requestedAt - asked.at >= FULL_LISTING_MS;
  }

  /**
   * How long the loop may sleep after a cycle that had nothing to ask and nothing to step: until the
   * full listing, the next captures the plan wants (taken together when they fall due within an
   * interval, as a poll at every interval would) or a wait coming of age, whichever comes first.
   * tmux's word of a change wakes it earlier (see the constructor). A host far away, whose next
   * captures are chosen a cycle ahead, keeps the poll interval.
   */
  private idleDelay(requestedAt: number, now: number): number {
    const interval = this.settings.pollIntervalMs;
    const asked = this.asked;
    if (this.remote || asked === null || this.still?.until == null) return interval;
    const wallDue = Math.min(asked.at + FULL_LISTING_MS, nextCaptureAt(this.lastListingHere(asked), this.entries, this.plan, interval));
    const delay = Math.min(wallDue - requestedAt, this.still.until - now);
    // Something already due would have been asked for or stepped: no reason to trust the sum then.
    // (No longer than the listing period: a wall clock set back makes the listing due at once.)
    return delay > 0 ? delay : interval;
  }

  /**
   * The windows a cycle needs listed when tmux told only of windows that printed (see
   * window-listing.ts): null for every pane (far away, where a round trip carries the listing
   * anyway; no recent full listing; or a change that may have touched anything).
   */
  private windowsToList(mark: number | null, requestedAt: number): ReadonlySet<string> | null {
    const asked = this.asked;
    if (this.remote || mark === null || asked === null || this.listingDue(requestedAt)) return null;
    const told = this.tmux.panes.windowsChangedSince(asked.mark);
    if (told === null) return null;
    // A pane captured while its window is not listed would pair a screen of now with an activity
    // stamp of the last listing: output in the second before tmux tells of it would then pass for
    // old, and a prompt just drawn for one held since then. The windows of the panes the last
    // listing wants captured (a recapture, a follow pace that ends, a hook's follow-up) are listed too.
    const windows = new Set([...told, ...this.starting(this.clock.now())]);
    const panes = this.lastListingHere(asked);
    const wanted = new Set(chooseCaptures(panes, this.entries, this.plan, requestedAt));
    for (const pane of panes) if (wanted.has(pane.paneId)) windows.add(pane.windowId);
    return windows;
  }

  /** The windows of the panes first seen less than STARTING_MS before `now` (engine clock). */
  private starting(now: number): Set<string> {
    const windows = new Set<string>();
    for (const { pane, track } of this.entries.values()) if (now - track.registeredAt < STARTING_MS) windows.add(pane.windowId);
    return windows;
  }

  /** After a cycle that listed only some windows: whether tmux has since told of a change beyond them. */
  private toldOfUnlisted(): boolean {
    if (this.listed === null) return false;
    const told = this.tmux.panes.windowsChangedSince(this.listed.mark);
    return told === null || [...told].some((window) => !this.listed!.windows.has(window));
  }

  /**
   * The last listing again, when tmux is watched and has told of no change since it was asked,
   * and the capture plan wants none of its panes (or, far away, the next round trip brings none):
   * then the cycle needs nothing from tmux, and quiet time still counts. Null when it must ask.
   */
  private unchangedListing(requestedAt: number): ListingAnswer | null {
    const asked = this.asked;
    if (asked === null || this.tmux.panes.changeCount() !== asked.mark || this.listingDue(requestedAt)) return null;
    if (this.starting(this.clock.now()).size > 0) return null;
    // Far away, a wanted process table is a reason to ask: a child may end without a word from tmux.
    const wanted = this.remote
      ? this.pending.some((id) => this.entries.has(id)) || tableShell(this.entries, this.tables) !== null
      : chooseCaptures(this.lastListingHere(asked), this.entries, this.plan, requestedAt).length > 0;
    return wanted ? null : { output: { panes: asked.panes, screens: new Map(), serverTime: null }, chosen: new Set() };
  }

  /** Steps every pane over tmux's answer and publishes; true when a pane came without its screen. */
  private applyListing({ output, chosen }: ListingAnswer, requestedAt: number): boolean {
    // Both clocks read together: a hook record's wall-clock time moves to the engine's clock exactly.
    const now = this.clock.now();
    const wallNow = this.wallClock.now();
    this.skew.note(output.serverTime, requestedAt);
    this.health.answered(now);
    this.offline = [];
    const panes = output.panes.map((pane) => this.skew.toLocal(pane));
    const listing = { panes, screens: output.screens, chosen, requestedAt, now, wallNow, cycle: this.cycle, usedBy: this.terminalUseOfNew(panes), looked: this.looked, workOf: this.workOf(output.shellAnswer, now) };
    const step = pollStep(this.entries, listing, { ...this.context, skew: this.skew.value });
    this.entries = step.entries;
    this.still = { from: now, until: null };
    // A listing stepped over again still shows the records its first step cleared: not again (nor
    // for the panes a listing of some windows took from the last one).
    const listed = this.listed;
    const relisted = (paneId: string) => listed === null || listed.windows.has(panes.find((p) => p.paneId === paneId)?.windowId ?? '');
    for (const { paneId, value } of this.skipped ? [] : step.clearRecords) {
      if (relisted(paneId)) void this.tmux.options.clearRecord(paneId, HOOK_OPTION, value).catch(() => undefined);
    }
    if (this.remote) this.pending = capturesAhead(this.entries, this.plan, requestedAt, this.settings.pollIntervalMs);
    this.store.emit(step.events.filter(machineEvent));
    this.publish('ok', null);
    return step.registeredNew;
  }

  /**
   * How this cycle tells a pane's work: this machine's /proc, or a remote host's table from this very
   * round trip (none without one: a table a cycle old is not trusted).
   */
  private workOf(shellAnswer: string | null | undefined, now: number): EngineOptions['processWork'] {
    if (!this.remote) return this.processWork;
    const read = workFromTable(shellAnswer, this.tables, now);
    this.tables = read.record;
    return read.workOf;
  }

  /** When the panes this engine does not track yet last used their terminals, where that can be told. */
  private terminalUseOfNew(panes: readonly PaneInfo[]): ReadonlyMap<string, number> {
    const read = this.terminalUse;
    const used = new Map<string, number>();
    if (read === null) return used;
    for (const pane of panes) {
      if (this.entries.has(pane.paneId)) continue;
      const at = read(pane.pid);
      if (at !== null) used.set(pane.paneId, at);
    }
    return used;
  }

  private failCycle(error: unknown): void {
    const now = this.clock.now();
    if (error instanceof HostUnreachableError || error instanceof HostAuthError) {
      this.health.failed(error instanceof HostAuthError ? 'auth-failed' : 'unreachable', error.sshMessage, now);
      this.endAll('host-gone', now);
      this.publish('error', error.message);
    } else if (error instanceof NoServerError || error instanceof TmuxMissingError) {
      this.health.answered(now);
      this.endAll('server-gone', now);
      this.publish(error instanceof NoServerError ? 'no-server' : 'no-tmux', error.message);
    } else {
      this.publish('error', (error as Error).message);
    }
  }

  private publish(status: EngineStatus, statusMessage: string | null): void {
    const last = this.store.snapshot;
    const made = this.views.viewsOf(this.entries);
    if (made.changed) this.store.emit(needEvents(last.panes, made.views, this.clock.now()));
    const panes = this.offline.length === 0 ? made.views : [...made.views, ...this.offline];
    const changed = made.changed || status !== last.status || statusMessage !== last.statusMessage || this.health.differsFrom(last.hosts[0]);
    if (!changed && panes.length === last.panes.length && panes.every((p, i) => p === last.panes[i])) return;
    const hosts = [this.health.health(status, statusMessage, this.entries.size)];
    this.store.replace({ server: this.tmux.serverLabel, hosts, status, statusMessage, panes, updatedAt: this.clock.now(), cycle: this.cycle });
  }

  private endAll(why: EndReason, now: number): void {
    this.still = null;
    const events = [...this.entries.values()].map((entry) => end(entry.track, why, now));
    // A host that went away keeps its last views, greyed, so people see what was there.
    if (why === 'host-gone') this.offline = [...this.offline, ...[...this.entries.keys()].flatMap((id) => greyed(this.views.last(id)))];
    this.entries = new Map();
    this.store.emit(events);
  }

  observeHook(key: string, hook: HookEvent): boolean {
    const entry = this.entryOf(key);
    if (!entry) return false;
    // Both clocks read together: the record's time is the event's, to the millisecond.
    const now = this.clock.now();
    const wallNow = this.wallClock.now();
    const step = observe(entry.track, { kind: 'hook', hook }, now, this.machine);
    // Recorded on the pane, so that every other corral process on this server hears it too.
    const value = hookRecordValue({ hook, at: wallNow });
    this.replaceEntry({ ...entry, track: step.track, agentCommand: entry.pane.command, hookRecord: hookRecordEvent(value) });
    void this.tmux.options.writeRecord(entry.track.paneId, HOOK_OPTION, value).catch(() => undefined);
    this.store.emit(step.events.filter(machineEvent));
    this.publish(this.store.snapshot.status, this.store.snapshot.statusMessage);
    this.loop.pollAfter(HOOK_FOLLOW_UPS_MS, () => {
      // Forces the pane's capture in the next cycle.
      const current = this.entries.get(entry.track.paneId);
      if (current) this.replaceEntry({ ...current, captured: null });
    });
    return true;
  }

  focus(keys: readonly string[]): void {
    const focused = new Set(keys.flatMap((key) => this.ownPaneId(key) ?? []));
    const added = [...focused].some((paneId) => !this.plan.focused.has(paneId));
    this.plan.focused = focused;
    // A pane just looked at is captured if it printed since its last capture, not after an idle sleep.
    if (added && this.skipped) this.loop.pollSoon();
  }

  /** What the person did to a pane (a snooze, a look, an answer), into its attention record. */
  person(key: string, change: (record: AttentionRecord, now: number) => AttentionRecord): void {
    const entry = this.entryOf(key);
    if (!entry) return;
    const attention = change(entry.attention, this.clock.now());
    if (attention === entry.attention) return;
    this.replaceEntry({ ...entry, attention });
    this.publish(this.store.snapshot.status, this.store.snapshot.statusMessage);
  }

  /**
   * The panes shown by an attached terminal client whose person pressed a key within LOOK_MS: they
   * see them. Kept from the last asking cycle for the cycles that ask nothing.
   */
  private async lookedAt(wallNow: number): Promise<ReadonlySet<string>> {
    const views = await this.tmux.clients.clientViews().catch(() => null);
    if (views === null) return this.looked;
    return new Set(views.filter((view) => view.activity + 999 >= wallNow - LOOK_MS).map((view) => view.paneId));
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.tmux.close();
  }

  /** The tmux id of a pane key of this host (`%3`, or `build-box/%3` on build-box), else null. */
  private ownPaneId(key: string): string | null {
    const parsed = parsePaneKey(key);
    return parsed !== null && parsed.host === this.host ? parsed.paneId : null;
  }

  private entryOf(key: string): PaneEntry | undefined {
    const paneId = this.ownPaneId(key);
    return paneId === null ? undefined : this.entries.get(paneId);
  }

  private replaceEntry(entry: PaneEntry): void {
    this.still = null;
    const next = new Map(this.entries);
    next.set(entry.track.paneId, entry);
    this.entries = next;
  }
}

/**
 * The machine's events that reach readers as they are: `stuck` and `unstuck` speak of the person
 * instead (needEvents), so every reader hears of a pane when it starts or stops needing someone.
 */
function machineEvent(event: CorralEvent): boolean {
  return event.type !== 'stuck' && event.type !== 'unstuck';
}

/** `stuck` for each pane that began to need the person between two sets of views, `unstuck` for each that stopped. */
export function needEvents(before: readonly PaneView[], after: readonly PaneView[], now: number): CorralEvent[] {
  const was = new Map(before.filter((v) => v.online && v.attention.need !== null).map((v) => [v.key, v]));
  const events: CorralEvent[] = [];
  for (const view of after) {
    const base = { host: view.host, key: view.key, sessionId: view.trackingId, paneId: view.pane.paneId, timestamp: view.stuckSince ?? now } as const;
    const needs = view.online && view.attention.need !== null;
    const earlier = was.get(view.key);
    was.delete(view.key);
    const same = earlier !== undefined && earlier.trackingId === view.trackingId;
    if (needs && !same) {
      const reason = view.attention.need === 'asks' ? 'permission' : 'stopped';
      // What it asks; a menu the person opened says so (`menu open: …`), as the machine words it.
      const message = (view.verdict?.menu ? view.message : view.attention.ask) ?? view.message ?? view.verdict?.line ?? '';
      // The agent's hook said so (a permission request, a finished turn the screen has no rule for).
      const claim = view.hook?.claim ?? null;
      const source = (claim === 'permission' && reason === 'permission') || (claim === 'waiting' && view.waitSince === null) ? 'hook' : 'screen';
      events.push({ ...base, type: 'stuck', cwd: view.pane.cwd, transcriptPath: view.hook?.transcriptPath ?? '', reason, message, source });
    } else if (!needs && same && view.online) events.push({ ...base, type: 'unstuck' });
  }
  return events;
}

function greyed(view: PaneView | undefined): PaneView[] {
  return view ? [{ ...view, online: false }] : [];
}

/** The engine's store: the snapshot readers see, its subscribers, and the event listeners. */
class EngineStore {
  private readonly listeners = new Set<() => void>();
  private readonly eventListeners = new Set<(event: CorralEvent) => void>();

  constructor(public snapshot: EngineSnapshot) {}

  replace(snapshot: EngineSnapshot): void {
    this.snapshot = snapshot;
    for (const listener of this.listeners) listener();
  }

  emit(events: readonly CorralEvent[]): void {
    for (const event of events) for (const listener of this.eventListeners) listener(event);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onEvent(listener: (event: CorralEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }
}
