// The engine of one host: a poll loop over one TmuxClient that keeps an entry per watched pane,
// publishes immutable snapshots (getSnapshot/subscribe) and emits events. The parts live in
// poll/: what the next cycle asks, as a value (poll-plan, capture-plan), the one question to tmux
// (poll-request), the pure step over its answer (poll-step), the views (pane-views), the host's
// health and clock (host-health, clock-skew) and when cycles run (poll-loop). Time and timers come
// from outside.

import { followInterval } from './poll/capture-gate.js';
import type { EngineSettings } from './settings/config.js';
import { end, observe, type MachineConfig } from './pane/pane-machine.js';
import { LOOK_MS, withAnswer, withLook, withSnooze } from './attention/attention.js';
import type { AttentionRecord } from './attention/record.js';
import { HOOK_OPTION, hookRecordEvent, hookRecordValue } from './hooks/hook-record.js';
import { DEFAULT_RULES, type PromptRules } from './prompt/matcher.js';
import type { ScopeOptions } from './pane/scope.js';
import { NoServerError } from './tmux/core.js';
import type { TmuxClient } from './tmux/client.js';
import { TmuxMissingError } from './tmux/runner.js';
import { HostAuthError, HostUnreachableError } from './tmux/host-errors.js';
import type { CapturePlan } from './poll/capture-plan.js';
import { ClockSkew } from './poll/clock-skew.js';
import { HostHealthTracker } from './poll/host-health.js';
import { PaneViews } from './poll/pane-views.js';
import { PollLoop } from './poll/poll-loop.js';
import { requestListing, type ListingAnswer } from './poll/poll-request.js';
import { workFromTable, type TableRecord } from './poll/process-table.js';
import { pollStep, type PaneEntry, type StepContext } from './poll/poll-step.js';
import { COSTS_FAR_AWAY, COSTS_HERE, learnAsked, learnPlanned, learnStep, NOTHING_LEARNED, planCycle, sleepAfterCycle, wakeOnChange, type AskedListing, type CycleAsk, type HostCosts, type PollLearned } from './poll/poll-plan.js';
import { LOCAL_HOST, type Clock, type EndReason, type CorralEvent, type EngineHandle, type EngineSnapshot, type EngineStatus, type HookEvent, type HostSpec, type PaneInfo, type PaneView, type Timers } from './types.js';
import { parsePaneKey } from './pane/pane-key.js';

export { RECONNECT_MAX_MS, RECONNECT_MIN_MS, reconnectDelay } from './poll/host-health.js';
export { FULL_LISTING_MS } from './poll/poll-plan.js';

export interface EngineOptions {
  readonly settings: EngineSettings;
  readonly tmux: TmuxClient;
  readonly clock: Clock;
  /** Timers for the poll loop (the CLI gives real ones that keep the process alive, src/cli/time.ts). */
  readonly timers: Timers;
  /** corral's own pane, only when corral runs inside the server it watches. */
  readonly selfPaneId?: string | null;
  readonly rules?: PromptRules;
  /** Wall-clock time, which tmux's activity stamps are in (the system clock unless tests drive it). */
  readonly wallClock: Clock;
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

export function createEngine(options: EngineOptions): Engine {
  const engine = new HostPoller(options);
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

/** One host's poller: runs the cycles its poll plan asks for (poll-plan.ts) against tmux, folds the answers into what it learned, and publishes to the store. */
class HostPoller {
  readonly store: EngineStore;
  readonly loop: PollLoop;
  private readonly settings: EngineSettings;
  private readonly tmux: TmuxClient;
  private readonly clock: Clock;
  private readonly wallClock: Clock;
  private readonly host: string;
  /** What asking this host's tmux costs: all that sets a host far away apart in planning its cycles. */
  private readonly costs: HostCosts;
  private readonly machine: MachineConfig;
  private readonly context: Omit<StepContext, 'skew'>;
  private readonly plan: { -readonly [K in keyof CapturePlan]: CapturePlan[K] };
  private readonly health: HostHealthTracker;
  private readonly skew = new ClockSkew();
  private readonly views: PaneViews;
  /** What the cycles so far learned: the panes' entries, the last listing and what the next cycle plans from. */
  private learned: PollLearned = NOTHING_LEARNED;
  /** The last views of a host that went down, shown greyed until it answers again. */
  private offline: readonly PaneView[] = [];
  private cycle = 0;
  private readonly terminalUse: ((pid: number) => number | null) | null;
  /** The panes a person looked at, as of the last cycle that asked (see lookedAt). */
  private looked: ReadonlySet<string> = new Set();
  private readonly processWork: EngineOptions['processWork'];

  constructor(options: EngineOptions) {
    const { settings, tmux } = options;
    this.settings = settings;
    this.tmux = tmux;
    this.clock = options.clock;
    this.wallClock = options.wallClock;
    const spec: HostSpec = options.host ?? { name: LOCAL_HOST, ssh: null, socket: tmux.socket };
    this.host = spec.name;
    this.costs = spec.ssh === null ? COSTS_HERE : COSTS_FAR_AWAY;
    this.terminalUse = options.terminalUse ?? null;
    this.processWork = options.processWork;
    const scope: ScopeOptions = { optIn: settings.optIn, prefix: settings.prefix, selfPaneId: options.selfPaneId ?? null };
    this.machine = { quietThresholdMs: settings.quietThresholdMs, askThresholdMs: settings.askThresholdMs, hookGraceMs: settings.hookGraceMs, hookPermissionTtlMs: settings.hookPermissionTtlMs };
    const followMs = followInterval(settings.pollIntervalMs);
    this.context = { host: spec.name, scope, machine: this.machine, rules: options.rules ?? DEFAULT_RULES, previewLines: settings.previewLines, followMs };
    this.plan = { scope, focused: new Set(), followMs };
    this.health = new HostHealthTracker(spec, tmux.serverLabel, this.clock.now());
    this.views = new PaneViews(settings.prefix, settings.waiting);
    this.store = new EngineStore({ server: tmux.serverLabel, hosts: [this.health.health('starting', null, 0)], status: 'starting', statusMessage: null, panes: [], updatedAt: this.clock.now(), cycle: 0 });
    this.loop = new PollLoop(() => this.runCycle(), options.timers);
    // A change is told up to a second late, but a poll faster than that loses nothing by it: a pane
    // whose last listed stamp is its current second is captured at every interval anyway (the
    // capture plan), so a pane that prints is followed at the poll's pace and an idle server sleeps.
    tmux.panes.watchChanges(() => wakeOnChange(this.learned, this.toldSince(this.learned.asked), { captures: this.plan, wallNow: this.wallClock.now() }) && this.loop.pollSoon());
  }

  private get entries(): ReadonlyMap<string, PaneEntry> {
    return this.learned.entries;
  }

  /** The windows tmux told of changes to since `asked` was listed; null when anything may have changed. */
  private toldSince(asked: AskedListing | null): ReadonlySet<string> | null {
    return asked === null ? null : this.tmux.panes.windowsChangedSince(asked.mark);
  }

  /** One cycle: plan, ask tmux, step every pane, publish. Resolves to the delay before the next one. */
  private async runCycle(): Promise<number> {
    this.cycle += 1;
    // Captures are compared with tmux's activity stamps, which are wall-clock time (moved to this
    // machine's clock for a host far away).
    const requestedAt = this.wallClock.now();
    let registeredNew = false;
    try {
      const { learned } = this;
      const moment = { wallNow: requestedAt, now: this.clock.now(), changes: this.tmux.panes.changeCount(), told: this.toldSince(learned.asked) };
      const next = planCycle({ learned, moment, costs: this.costs, captures: this.plan, skew: this.skew.value, intervalMs: this.settings.pollIntervalMs });
      this.learned = learnPlanned(learned, next, requestedAt);
      if (next.kind === 'rest') return this.aimed(next.sleepMs);
      registeredNew = next.kind === 'restep' ? this.applyListing(next.listing, requestedAt) : await this.ask(next.ask, requestedAt);
    } catch (error) {
      this.learned = { ...this.learned, asked: null };
      this.failCycle(error);
    }
    const after = { now: this.clock.now(), retryAt: this.health.retryAt, registeredNew, intervalMs: this.settings.pollIntervalMs };
    return this.aimed(sleepAfterCycle(this.learned, after));
  }

  /**
   * The delay before the next cycle, brought forward where a host's clock wants a reading aimed
   * (see ClockSkew.aimedRequest) and the moment for it has not passed (at a poll faster than a
   * second it may never come: the offset then stays as the readings leave it).
   */
  private aimed(delay: number): number {
    const wallNow = this.wallClock.now();
    const aimed = this.skew.aimedRequest(wallNow + delay) - wallNow;
    return aimed > 0 && aimed < delay ? aimed : delay;
  }

  /** Asks tmux what the plan says, and steps every pane over the answer; true when a pane came without its screen. */
  private async ask(ask: CycleAsk, requestedAt: number): Promise<boolean> {
    const answer = await requestListing(this.tmux, { entries: this.entries, plan: this.plan, skew: this.skew, requestedAt, ask });
    if (ask.looks && this.tmux.connected) this.looked = await this.lookedAt(requestedAt);
    this.learned = learnAsked(this.learned, ask, answer.output, requestedAt);
    return this.applyListing(answer, requestedAt);
  }

  /** Steps every pane over tmux's answer and publishes; true when a pane came without its screen. */
  private applyListing({ output, chosen }: ListingAnswer, requestedAt: number): boolean {
    // Both clocks read together: a hook record's wall-clock time moves to the engine's clock exactly.
    const now = this.clock.now();
    const wallNow = this.wallClock.now();
    this.skew.note(output.serverTime, requestedAt, wallNow);
    this.health.answered(now);
    this.offline = [];
    const panes = output.panes.map((pane) => this.skew.toLocal(pane));
    const work = this.workOf(output.shellAnswer, now);
    const listing = { panes, screens: output.screens, chosen, requestedAt, now, wallNow, cycle: this.cycle, usedBy: this.terminalUseOfNew(panes), looked: this.looked, workOf: work.workOf };
    const step = pollStep(this.entries, listing, { ...this.context, skew: this.skew.value });
    const { skipped, asked } = this.learned;
    const context = { costs: this.costs, captures: this.plan, intervalMs: this.settings.pollIntervalMs, machine: this.machine };
    this.learned = learnStep(this.learned, { entries: step.entries, now, requestedAt, tables: work.tables }, context);
    // A listing stepped over again still shows the records its first step cleared: not again (nor
    // for the panes a listing of some windows took from the last one).
    const windows = asked?.windows ?? null;
    const relisted = (paneId: string) => windows === null || windows.has(panes.find((p) => p.paneId === paneId)?.windowId ?? '');
    for (const { paneId, value } of skipped ? [] : step.clearRecords) {
      if (relisted(paneId)) void this.tmux.options.clearRecord(paneId, HOOK_OPTION, value).catch(() => undefined);
    }
    this.store.emit(step.events.filter(machineEvent));
    this.publish('ok', null);
    return step.registeredNew;
  }

  /**
   * How this cycle tells a pane's work: this machine's /proc, or the host's process table from this
   * very round trip (none without one: a table a cycle old is not trusted); and the tables' record.
   */
  private workOf(shellAnswer: string | null | undefined, now: number): { workOf: EngineOptions['processWork']; tables: TableRecord } {
    const { tables } = this.learned;
    if (this.costs.processTable === 'here') return { workOf: this.processWork, tables };
    const read = workFromTable(shellAnswer, tables, now);
    return { workOf: read.workOf, tables: read.record };
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
    const events = [...this.entries.values()].map((entry) => end(entry.track, why, now));
    // A host that went away keeps its last views, greyed, so people see what was there.
    if (why === 'host-gone') this.offline = [...this.offline, ...[...this.entries.keys()].flatMap((id) => greyed(this.views.last(id)))];
    this.learned = { ...this.learned, entries: new Map(), still: null };
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
    if (added && this.learned.skipped) this.loop.pollSoon();
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

  /** A pane's entry changed between cycles: the panes must be stepped again before the loop rests. */
  private replaceEntry(entry: PaneEntry): void {
    const entries = new Map(this.entries);
    entries.set(entry.track.paneId, entry);
    this.learned = { ...this.learned, entries, still: null };
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
      // The agent's hook said so (a permission request, a finished turn the screen has no rule for).
      const claim = view.hook?.claim ?? null;
      const source = (claim === 'permission' && reason === 'permission') || (claim === 'waiting' && view.waitSince === null) ? 'hook' : 'screen';
      // What it asks: a permission the hook asked for in the hook's words, which every corral
      // process has from the moment the hook fired (the dialog may not be on screen yet); else what
      // the screen asks, a menu the person opened saying so (`menu open: …`), as the machine words it.
      const hookAsks = source === 'hook' && reason === 'permission' ? view.message : null;
      const message = hookAsks ?? (view.verdict?.menu ? view.message : view.attention.ask) ?? view.message ?? view.verdict?.line ?? '';
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
