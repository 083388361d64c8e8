// The engine: a poll loop over one TmuxClient that keeps a PaneTrack per watched pane, publishes
// immutable snapshots (getSnapshot/subscribe) and emits events. Each cycle costs one tmux process,
// or, over a control-mode connection, a list and the captures of the panes that printed since.

import { followInterval, following, needsCapture, outputEndedBy, type LastCapture } from './capture-gate.js';
import type { EngineSettings } from './config.js';
import { acknowledge, end, hookView, observe, register, type PaneTrack } from './pane-machine.js';
import { agentExited, decodeHookRecord, hookRecordEvent, hookRecordValue } from './hooks/hook-record.js';
import { DEFAULT_RULES, classifyScreen, type PromptRules } from './prompt/matcher.js';
import { contentHash } from './screen-content.js';
import { readLines } from './screen-hash.js';
import { inScope, optInLabel, type ScopeOptions } from './scope.js';
import { paneTarget } from './tmux/commands.js';
import { NoServerError, type TmuxClient } from './tmux/client.js';
import { TmuxMissingError } from './tmux/runner.js';
import { HostAuthError, HostUnreachableError } from './host-errors.js';
import {
  LOCAL_HOST,
  parsePaneKey,
  systemClock,
  type Clock,
  type EndReason,
  type HostHealth,
  type HostSpec,
  type HostState,
  type CorralEvent,
  type EngineHandle,
  type EngineSnapshot,
  type EngineStatus,
  type HookEvent,
  type HookView,
  type PaneInfo,
  type PaneView,
  type PromptVerdict,
} from './types.js';

export interface EngineOptions {
  readonly settings: EngineSettings;
  readonly tmux: TmuxClient;
  readonly clock?: Clock;
  /** corral's own pane, only when corral runs inside the server it watches. */
  readonly selfPaneId?: string | null;
  readonly rules?: PromptRules;
  /** Wall-clock time, which tmux's activity stamps are in (the system clock unless tests drive it). */
  readonly wallClock?: Clock;
  /** The host this engine watches: this machine by default. */
  readonly host?: HostSpec;
}

/** A host that does not answer is tried again after 1 s, then twice as long each time, up to 60 s. */
export const RECONNECT_MIN_MS = 1_000;
export const RECONNECT_MAX_MS = 60_000;

/** How many cycles' clock readings the skew estimate keeps (a changed remote clock is picked up after that). */
const SKEW_SAMPLES = 16;

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

interface Entry {
  pane: PaneInfo;
  track: PaneTrack;
  lines: readonly string[];
  view: PaneView | null;
  /** The track the view was made from (with `pane` and `lines`, all a view depends on). */
  viewTrack: PaneTrack | null;
  /**
   * The listing and wall-clock time of the last capture (null before the first), its cycle, and
   * whether the screen had changed since the capture before.
   */
  captured: (LastCapture & { readonly pane: PaneInfo; readonly cycle: number }) | null;
  /** The last captured text and what was made of it: the same text again needs no new verdict. */
  screen: ScreenReading | null;
  /** The pane's hook record as last read or written (see hooks/hook-record.ts), and the last one cleared. */
  hookRecord: string;
  clearedRecord: string;
  /** The pane's foreground command when its last hook came (its agent's). */
  agentCommand: string;
}

interface ScreenReading {
  readonly text: string;
  readonly alternateOn: boolean;
  readonly lines: readonly string[];
  readonly hash: string;
  readonly contentHash: string;
  readonly verdict: PromptVerdict;
}

export function createEngine(options: EngineOptions): Engine {
  const { settings, tmux } = options;
  const clock = options.clock ?? systemClock;
  const wallClock = options.wallClock ?? systemClock;
  const rules = options.rules ?? DEFAULT_RULES;
  const scope: ScopeOptions = { optIn: settings.optIn, prefix: settings.prefix, selfPaneId: options.selfPaneId ?? null };
  const machine = {
    quietThresholdMs: settings.quietThresholdMs,
    hookGraceMs: settings.hookGraceMs,
    hookPermissionTtlMs: settings.hookPermissionTtlMs,
  };

  const entries = new Map<string, Entry>();
  const followMs = followInterval(settings.pollIntervalMs);
  // Panes a person looks at (the dashboard's selection): captured whenever they printed, every poll.
  let focused: ReadonlySet<string> = new Set();
  const storeListeners = new Set<() => void>();
  const eventListeners = new Set<(event: CorralEvent) => void>();
  const hostSpec: HostSpec = options.host ?? { name: LOCAL_HOST, ssh: null, socket: tmux.socket };
  const host = hostSpec.name;
  const remote = hostSpec.ssh !== null;
  // The host's health: its state changes only on a poll's outcome.
  let hostState: HostState = 'connecting';
  let hostSince = clock.now();
  let hostError: string | null = null;
  let retryAt: number | null = null;
  let failures = 0;
  const setHost = (state: HostState, error: string | null) => {
    if (state !== hostState) hostSince = clock.now();
    hostState = state;
    hostError = error;
  };
  const health = (status: EngineStatus, statusMessage: string | null, paneCount: number): HostHealth => ({
    name: host,
    ssh: hostSpec.ssh,
    server: tmux.serverLabel,
    state: hostState,
    since: hostSince,
    status,
    // ssh's words when the host is down; else what went wrong with its tmux server, if anything.
    error: hostError ?? (status === 'ok' || status === 'starting' ? null : statusMessage),
    paneCount,
    retryAt,
  });
  // Remote activity stamps are in the remote clock: `skew` (remote minus local, ms) moves them to
  // this machine's clock. Each reading errs low, so stamps err late: a capture too many, never one
  // too few.
  const skewSamples: number[] = [];
  let skew = 0;
  const toLocalClock = (pane: PaneInfo): PaneInfo =>
    !remote || skew === 0 || pane.windowActivity <= 0 ? pane : { ...pane, windowActivity: pane.windowActivity - skew };
  // A remote host's panes to capture in the next cycle's round trip (chosen from this cycle's list).
  let pending: string[] = [];
  // The last views of a host that went down, shown greyed until it answers again.
  let offline: readonly PaneView[] = [];
  let snapshot: EngineSnapshot = {
    server: tmux.serverLabel,
    hosts: [health('starting', null, 0)],
    status: 'starting',
    statusMessage: null,
    panes: [],
    updatedAt: clock.now(),
    cycle: 0,
  };
  let cycle = 0;
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let inFlight: Promise<void> | null = null;
  const followUps = new Set<NodeJS.Timeout>();

  const emit = (events: readonly CorralEvent[]) => {
    for (const event of events) for (const listener of eventListeners) listener(event);
  };

  const viewOf = (entry: Entry): PaneView => {
    const { pane, track } = entry;
    const previous = entry.view;
    // Made from the same objects: the same view, without building one to compare.
    if (previous !== null && entry.viewTrack === track && previous.pane === pane && previous.lines === entry.lines) return previous;
    entry.viewTrack = track;
    const view: PaneView = {
      key: track.key,
      host: track.host,
      online: true,
      pane,
      target: paneTarget(pane),
      label: optInLabel(pane, settings.prefix),
      trackingId: track.trackingId,
      state: track.state,
      reason: track.reason,
      message: track.message,
      verdict: track.verdict,
      registeredAt: track.registeredAt,
      quietSince: track.quietSince,
      waitSince: track.wait?.since ?? null,
      stuckSince: track.stuckSince,
      acknowledged: track.acknowledged,
      lines: entry.lines,
      screenHash: track.hash ?? '',
      contentHash: track.contentHash,
      hook: sameHook(previous?.hook ?? null, hookView(track.hook)),
    };
    // Reuse the previous object when nothing changed, so renderers can compare by identity.
    if (previous && sameView(previous, view)) return previous;
    return view;
  };

  const publish = (status: EngineStatus, statusMessage: string | null) => {
    const panes: PaneView[] = [];
    const previousHost = snapshot.hosts[0];
    let changed =
      status !== snapshot.status ||
      statusMessage !== snapshot.statusMessage ||
      previousHost?.state !== hostState ||
      previousHost.error !== hostError ||
      previousHost.retryAt !== retryAt;
    for (const entry of entries.values()) {
      const view = viewOf(entry);
      if (view !== entry.view) changed = true;
      entry.view = view;
      panes.push(view);
    }
    panes.push(...offline);
    if (!changed && panes.length === snapshot.panes.length && panes.every((p, i) => p === snapshot.panes[i])) return;
    const hosts = [health(status, statusMessage, entries.size)];
    snapshot = { server: tmux.serverLabel, hosts, status, statusMessage, panes, updatedAt: clock.now(), cycle };
    for (const listener of storeListeners) listener();
  };

  const endAll = (why: EndReason, now: number) => {
    const events = [...entries.values()].map((entry) => end(entry.track, why, now));
    // A host that went away keeps its last views, greyed, so people see what was there.
    if (why === 'host-gone') offline = [...offline, ...[...entries.values()].flatMap((e) => (e.view ? [{ ...e.view, online: false }] : []))];
    entries.clear();
    emit(events);
  };

  /** The tmux id of a pane key of this host (`%3`, or `build-box/%3` on build-box), else null. */
  const ownPaneId = (key: string): string | null => {
    const parsed = parsePaneKey(key);
    return parsed !== null && parsed.host === host ? parsed.paneId : null;
  };

  const noteSkew = (serverTime: number | null | undefined, requestedAt: number) => {
    if (!remote || serverTime === null || serverTime === undefined) return;
    // serverTime is the start of the remote second, read after the request left: minus a second,
    // the reading is at most the true skew (for round trips under a second).
    skewSamples.push(serverTime - requestedAt - 1000);
    if (skewSamples.length > SKEW_SAMPLES) skewSamples.shift();
    skew = Math.max(...skewSamples);
  };

  /**
   * What the pane's hook record says, once: the agent hook it tells of (received by whichever corral
   * process runs the hook receiver, or recorded by the hook itself), observed at the time it fired.
   * A pane whose agent has exited (a shell where the agent was, or a dead pane) keeps no claim, and
   * its record is cleared for every corral process.
   */
  const followHookRecord = (entry: Entry, pane: PaneInfo, now: number): CorralEvent[] => {
    const events: CorralEvent[] = [];
    // The event part only: a record this engine wrote itself comes back with the command filled in.
    const event = hookRecordEvent(pane.hookRecord);
    if (event !== entry.hookRecord) {
      entry.hookRecord = event;
      const record = decodeHookRecord(pane.hookRecord);
      // The record of an agent that has exited since is not news: it is only cleared (below).
      if (record !== null && agentExited(record.command, pane.command)) entry.agentCommand = record.command;
      else if (record !== null) {
        entry.agentCommand = record.command;
        // The record's time is the recording machine's wall clock: moved to the engine's clock.
        const at = now - (wallClock.now() - (remote ? record.at - skew : record.at));
        const step = observe(entry.track, { kind: 'hook', hook: record.hook, at }, now, machine);
        entry.track = step.track;
        events.push(...step.events);
      }
    }
    if (!pane.dead && !agentExited(entry.agentCommand, pane.command)) return events;
    if (pane.hookRecord !== '' && entry.clearedRecord !== pane.hookRecord) {
      entry.clearedRecord = pane.hookRecord;
      void tmux.clearHookRecord(pane.paneId, pane.hookRecord).catch(() => undefined);
    }
    const { hook } = entry.track;
    if (hook === null || hook.claim === null) return events;
    const exited = { agent: hook.agent, signal: 'end', event: 'agent-exited', sessionId: hook.sessionId, transcriptPath: hook.transcriptPath, cwd: entry.track.cwd, message: null } as const;
    const step = observe(entry.track, { kind: 'hook', hook: exited }, now, machine);
    entry.track = step.track;
    events.push(...step.events);
    return events;
  };

  const runCycle = async (): Promise<boolean> => {
    cycle += 1;
    let registeredNew = false;
    // Captures are compared with tmux's activity stamps, which are wall-clock time (moved to this
    // machine's clock for a remote host).
    const requestedAt = wallClock.now();
    // Filled when the client lets the engine choose; otherwise every known pane is captured.
    const chosenIds = new Set<string>();
    let chose = false;
    const select = (panes: readonly PaneInfo[]): string[] => {
      const chosen: string[] = [];
      for (const listed of panes) {
        const pane = toLocalClock(listed);
        const entry = entries.get(pane.paneId);
        let capture: boolean;
        // A pane seen for the first time is captured with its first listing: its state is known
        // from the first frame that lists it.
        if (!entry) capture = inScope(pane, scope);
        else {
          const { captured } = entry;
          capture =
            needsCapture(captured?.pane ?? pane, pane, captured?.at ?? null, requestedAt) &&
            // Printing plain output at its last capture, printing still: it cannot be stuck, and
            // unless someone looks at it, it is followed at a steady pace (see FOLLOW_MS).
            (captured === null || focused.has(pane.paneId) || !following(captured, requestedAt, followMs));
        }
        if (capture) {
          chosen.push(pane.paneId);
          chosenIds.add(pane.paneId);
        }
      }
      chose = true;
      return chosen;
    };
    try {
      // A remote host answers in one round trip a cycle: the list, with the captures that the
      // previous list asked for (a screen then shows up to one poll later than on this machine).
      const pipelined = remote ? pending.filter((id) => entries.has(id)) : null;
      if (pipelined !== null) {
        chose = true;
        for (const id of pipelined) chosenIds.add(id);
      }
      const output = await tmux.pollCycle([...entries.keys()], select, { clock: remote, ...(pipelined === null ? {} : { pipelined }) });
      const now = clock.now();
      noteSkew(output.serverTime, requestedAt);
      setHost('connected', null);
      failures = 0;
      retryAt = null;
      offline = [];
      const watched = new Map<string, PaneInfo>();
      const present = new Set<string>();
      for (const listed of output.panes) {
        const pane = toLocalClock(listed);
        present.add(pane.paneId);
        if (inScope(pane, scope)) watched.set(pane.paneId, pane);
        // A dead pane (kept by remain-on-exit) is not watched, and its agent is gone with its record.
        else if (pane.dead && pane.hookRecord !== '') void tmux.clearHookRecord(pane.paneId, pane.hookRecord).catch(() => undefined);
      }
      const events: CorralEvent[] = [];
      entries.forEach((entry, paneId) => {
        if (watched.has(paneId)) return;
        events.push(end(entry.track, present.has(paneId) ? 'out-of-scope' : 'closed', now));
        entries.delete(paneId);
      });
      for (const pane of watched.values()) {
        const paneId = pane.paneId;
        let entry = entries.get(paneId);
        const screen = output.screens.get(paneId);
        if (!entry) {
          const step = register(pane, now, host);
          events.push(...step.events);
          entry = { pane, track: step.track, lines: [], view: null, viewTrack: null, captured: null, screen: null, hookRecord: '', clearedRecord: '', agentCommand: '' };
          entries.set(paneId, entry);
          events.push(...followHookRecord(entry, pane, now));
          if (screen === undefined) {
            registeredNew = true;
            continue;
          }
        }
        if (entry.pane !== pane) events.push(...followHookRecord(entry, pane, now));
        entry.pane = pane;
        if (screen === undefined) {
          // Left out on purpose: the screen is the one seen last time, and quiet time still counts.
          const { hash, contentHash, verdict } = entry.track;
          if (chose && !chosenIds.has(paneId) && hash !== null && verdict !== null) {
            const step = observe(entry.track, { hash, contentHash, verdict }, now, machine);
            entry.track = step.track;
            events.push(...step.events);
          }
          continue;
        }
        const before = entry.screen;
        const previous = entry.captured;
        entry.screen = readScreen(entry.screen, screen, pane.alternateOn, rules);
        const { lines, hash, verdict } = entry.screen;
        const changed = before !== null && before.hash !== hash;
        entry.captured = { pane, at: requestedAt, cycle, changed, mayWait: verdict.prompt || verdict.busy };
        // Quiet time starts when the output ended, not when this capture found it (a pane followed
        // at a steady pace is captured late): moved from tmux's wall-clock stamp to the engine's clock.
        const endedBy = changed && previous !== null ? outputEndedBy(previous, pane, requestedAt) : null;
        const changedAt = endedBy === null ? now : now - (requestedAt - endedBy);
        const step = observe(entry.track, { hash, contentHash: entry.screen.contentHash, verdict, changedAt }, now, machine);
        entry.track = step.track;
        // Keep the same array while the screen is unchanged (a blank screen too), so the view, and
        // with it the snapshot, stays the same object and readers need not re-render.
        if (step.track.hash !== entry.view?.screenHash) {
          entry.lines = lines.slice(-settings.previewLines);
        }
        events.push(...step.events);
      }
      if (remote) {
        pending = [...entries.values()]
          .filter(
            ({ captured, pane }) =>
              captured === null ||
              // As on this machine, judged at the time of the next poll.
              (needsCapture(captured.pane, pane, captured.at, requestedAt) &&
                (focused.has(pane.paneId) || !following(captured, requestedAt + settings.pollIntervalMs, followMs))),
          )
          .map(({ pane }) => pane.paneId);
      }
      emit(events);
      publish('ok', null);
    } catch (error) {
      const now = clock.now();
      if (error instanceof HostUnreachableError || error instanceof HostAuthError) {
        failures += 1;
        retryAt = now + reconnectDelay(failures);
        setHost(error instanceof HostAuthError ? 'auth-failed' : 'unreachable', error.sshMessage);
        endAll('host-gone', now);
        publish('error', error.message);
      } else if (error instanceof NoServerError) {
        setHost('connected', null);
        endAll('server-gone', now);
        publish('no-server', error.message);
      } else if (error instanceof TmuxMissingError) {
        setHost('connected', null);
        endAll('server-gone', now);
        publish('no-tmux', error.message);
      } else {
        publish('error', (error as Error).message);
      }
    }
    return registeredNew;
  };

  const poll = async (): Promise<void> => {
    if (inFlight) return inFlight;
    inFlight = (async () => {
      try {
        const registeredNew = await runCycle();
        if (running) schedule(retryAt !== null ? retryAt - clock.now() : registeredNew ? 0 : settings.pollIntervalMs);
      } finally {
        inFlight = null;
      }
    })();
    return inFlight;
  };

  const schedule = (delay: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void poll();
    }, Math.max(0, delay));
  };

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      storeListeners.add(listener);
      return () => storeListeners.delete(listener);
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    observeHook(key, hook) {
      const paneId = ownPaneId(key);
      const entry = paneId === null ? undefined : entries.get(paneId);
      if (!entry) return false;
      const step = observe(entry.track, { kind: 'hook', hook }, clock.now(), machine);
      entry.track = step.track;
      // Recorded on the pane, so that every other corral process on this server hears it too.
      entry.agentCommand = entry.pane.command;
      const value = hookRecordValue({ hook, at: wallClock.now() });
      entry.hookRecord = hookRecordEvent(value);
      void tmux.writeHookRecord(entry.track.paneId, value).catch(() => undefined);
      emit(step.events);
      publish(snapshot.status, snapshot.statusMessage);
      if (running) {
        for (const delay of HOOK_FOLLOW_UPS_MS) {
          const handle = setTimeout(() => {
            followUps.delete(handle);
            const current = entries.get(entry.track.paneId);
            if (current) current.captured = null; // forces its capture in the next cycle
            void poll();
          }, delay);
          followUps.add(handle);
        }
      }
      return true;
    },
    focus(keys) {
      focused = new Set(keys.flatMap((key) => ownPaneId(key) ?? []));
    },
    acknowledge(key) {
      const paneId = ownPaneId(key);
      const entry = paneId === null ? undefined : entries.get(paneId);
      if (!entry) return;
      entry.track = acknowledge(entry.track);
      publish(snapshot.status, snapshot.statusMessage);
    },
    async pollNow() {
      if (inFlight) await inFlight;
      if (timer) clearTimeout(timer);
      timer = null;
      await poll();
    },
    start() {
      if (running) return;
      running = true;
      void poll();
    },
    async stop() {
      running = false;
      for (const handle of followUps) clearTimeout(handle);
      followUps.clear();
      if (timer) clearTimeout(timer);
      timer = null;
      if (inFlight) await inFlight;
      await tmux.close();
    },
  };
}

/** The wait before reconnect attempt `failures` (1, 2, 4 ... 60 s). */
export function reconnectDelay(failures: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** Math.max(0, failures - 1));
}

/** Normalises, hashes and classifies a captured screen, unless it is the text read last time. */
function readScreen(previous: ScreenReading | null, text: string, alternateOn: boolean, rules: PromptRules): ScreenReading {
  if (previous !== null && previous.text === text && previous.alternateOn === alternateOn) return previous;
  const { lines, hash } = readLines(text);
  const verdict = classifyScreen(lines, rules, { alternateScreen: alternateOn });
  return { text, alternateOn, lines, hash, contentHash: contentHash(lines, hash), verdict };
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
