// The narrow port the servers use to reach panes: the store, a conversation (type, then stream
// the answer), a live stream for viewers and guarded typing, all addressed by pane key. One port
// per host owns that host's capture ticker and pane streams, shared by every server; a server
// never holds a tmux client. routePorts puts one port per host behind a single one. What servers
// see of it (the interface, its types and errors) is in pane-port-api.ts.

import { AnswerRefusedError, planAnswer } from '../typing/answer-plan.js';
import { refuseIfHostDown } from '../hosts/host-status.js';
import { createConversations, type PaneConversations, type PaneHold } from '../conversation/run-conversation.js';
import type { CaptureTicker } from '../conversation/capture-ticker.js';
import type { Classifier } from '../conversation/conversation.js';
import { PaneStreams, firstOffsetAt } from '../pane-stream/pane-streams.js';
import { openSpillFile } from '../conversation/spill-file.js';
import { foregroundWaitsForInput } from '../conversation/input-wait.js';
import { printedCapturesLeak } from '../pane-stream/repaint.js';
import { guardScreen } from '../typing/guarded-send.js';
import { PaneGoneError as TmuxPaneGoneError, tmuxVersion } from '../tmux/core.js';
import type { TmuxClient } from '../tmux/client.js';
import type { SendItem } from '../typing/keys.js';
import { LOCAL_HOST, type Clock, type CorralEvent, type EngineHandle, type EngineSnapshot, type EngineStore, type PaneView, type Timers } from '../types.js';
import { parsePaneKey, paneKey } from '../pane/pane-key.js';
import { ENTER_DELAY_MS, PASTE_THRESHOLD, sendKeys, typeLine, type KeysSink } from '../typing/type-into-pane.js';
import { StartRefusedError, endPane, startPane } from '../launch/pane-launch.js';
import { BadPaneKeyError, UnknownHostError, type PanePort, type SendGuard } from './pane-port-api.js';

export * from './pane-port-api.js';

export interface PanePortSettings {
  readonly bridgePollMs: number;
  readonly bridgeQuietMs: number;
  readonly bridgeLongQuietMs: number;
  readonly bridgeMaxDurationMs: number;
  readonly bridgeHistoryLines: number;
  /** Most lines one answer holds (default 200,000). */
  readonly bridgeMaxLines?: number;
  readonly attachRingBytes: number;
  readonly attachPauseAfter: number;
  readonly attachGraceMs: number;
}

export interface PanePortOptions {
  readonly engine: EngineHandle;
  readonly tmux: TmuxClient;
  readonly host: string;
  readonly settings: PanePortSettings;
  /** How busy and prompt screens are told apart (the engine's rules). */
  readonly classify?: Classifier;
  /** Where answers past their cap keep every line (one file each); without it they are only counted. */
  readonly spillDir?: string;
  readonly clock: Clock;
  /** For the pause before the Enter that follows a typed line. */
  readonly typingTimers: Timers;
  /** For the conversations' capture ticker and the pane streams. */
  readonly timers: Timers;
  /** For the pane streams' control clients. */
  readonly controlTimers: Timers;
}

/** One host's port; the ticker and streams are visible to tests and benchmarks, not to servers. */
export interface HostPanePort extends PanePort {
  readonly host: string;
  readonly ticker: CaptureTicker;
  /** The viewers' streams, once the first viewer or keystroke asked for them. */
  readonly streams: PaneStreams | null;
}

export function createPanePort(options: PanePortOptions): HostPanePort {
  const { engine, tmux, host } = options;
  const timers = options.typingTimers;
  // The session from the store; tmux is asked only for a pane the engine has not seen yet.
  const sessionOf = async (paneId: string) => find(paneKey(host, paneId))?.pane.sessionId ?? (await tmux.panes.findPane(paneId))?.sessionId ?? null;
  const streams = new StreamsOnDemand(options, sessionOf);
  const openStreams = () => streams.open();
  const conversations = portConversations(options, openStreams, inputWaitOf(host, (paneId) => find(paneKey(host, paneId))?.pane.pid));
  let closed = false;

  const paneIdOf = (key: string): string => hostPaneId(key, host);
  const keyOfHold = (hold: PaneHold): PaneHold => ({ ...hold, paneId: paneKey(host, hold.paneId) });

  function find(key: string): PaneView | null {
    paneIdOf(key);
    return engine.getSnapshot().panes.find((view) => view.key === key) ?? null;
  }

  // The key is checked before the streams are built.
  const withStreams = async <T>(key: string, use: (paneStreams: PaneStreams, paneId: string) => Promise<T>): Promise<T> => {
    const paneId = paneIdOf(key);
    return use(await openStreams(), paneId);
  };
  // Keys go over the viewers' control connection; it cannot paste, so a line is always typed.
  const sinkOf = (paneId: string): KeysSink => ({ send: async (items: readonly SendItem[]) => (await openStreams()).sendItems(paneId, items) });
  // The pane is read again right before the keys go out, the way the poll read the screen the person saw.
  const refuseIfChanged = async (paneId: string, key: string, guard: SendGuard | undefined) => {
    if (guard) await guardScreen(tmux.io, paneId, guard.target ?? key, guard.shownHash);
  };
  const guarded = async (key: string, guard: SendGuard | undefined, keys: (paneId: string) => Promise<void>): Promise<void> => {
    const paneId = paneIdOf(key);
    await refuseIfChanged(paneId, key, guard);
    await keys(paneId);
  };

  return {
    host,
    get ticker() {
      return conversations.ticker;
    },
    get streams() {
      return streams.current;
    },
    ...handleOf(engine),
    // Starting and ending panes: pane-launch.ts on this host.
    find, ...launchOn(tmux, host),
    converse: (key, text, converseOptions) => conversations.converse(paneIdOf(key), text, converseOptions),
    hold(key) {
      const hold = conversations.hold(paneIdOf(key));
      return hold ? keyOfHold(hold) : null;
    },
    holds: () => conversations.holds().map(keyOfHold),
    async identify(key) {
      paneIdOf(key);
      return `${host}/${await tmux.panes.serverIdentity()}`;
    },
    release: (key) => conversations.drop(paneIdOf(key)),
    stream: (key, viewer, fromOffset) => withStreams(key, (paneStreams, paneId) => paneStreams.subscribe(paneId, viewer, fromOffset)),
    repaint: (key, viewer) => withStreams(key, (paneStreams, paneId) => paneStreams.repaint(paneId, viewer)),
    send: (key, items, guard) => guarded(key, guard, (paneId) => sendKeys(sinkOf(paneId), items)),
    async read(key, history) {
      return tmux.io.capture(paneIdOf(key), { history, join: true });
    },
    input: (key, bytes) => withStreams(key, (paneStreams, paneId) => paneStreams.sendBytes(paneId, bytes)),
    reply: (key, text, guard) => guarded(key, guard, (paneId) => typeLine(sinkOf(paneId), text, { timers })),
    async answer(key, option, guard) {
      const paneId = paneIdOf(key);
      const view = find(key);
      if (view === null) throw new TmuxPaneGoneError(paneId);
      const target = guard?.target ?? view.target;
      const plan = planAnswer(view.verdict, option, target);
      // One answer per screen, from whichever surface or process: a second key never lands on what follows.
      const answered = view.attention.answered;
      if (answered !== null) throw new AnswerRefusedError('answered', `${target} was already answered (${answered.what}, from ${answered.surface}); wait for its screen to change`);
      const shownHash = guard?.shownHash ?? view.contentHash;
      await refuseIfChanged(paneId, key, { shownHash, target });
      if (plan.kind === 'line') await typeLine(sinkOf(paneId), plan.text, { timers });
      else await sendKeys(sinkOf(paneId), plan.items);
      engine.markAnswered(key, { surface: guard?.surface ?? 'corral', what: plan.label }, shownHash);
      return plan;
    },
    resize: (key, cols, rows) => withStreams(key, (paneStreams, paneId) => paneStreams.resize(paneId, cols, rows)),
    async close() {
      if (closed) return;
      closed = true;
      await conversations.close();
      await streams.close();
    },
  };
}

/** The engine's own calls, passed through. */
function handleOf(engine: EngineHandle): EngineHandle {
  return {
    getSnapshot: () => engine.getSnapshot(),
    subscribe: (listener) => engine.subscribe(listener),
    acknowledge: (key) => engine.acknowledge(key),
    markSeen: (key) => engine.markSeen(key),
    markAnswered: (key, answer, contentHash) => engine.markAnswered(key, answer, contentHash),
    focus: (keys) => engine.focus(keys),
    pollNow: () => engine.pollNow(),
    onEvent: (listener) => engine.onEvent(listener),
  };
}

/** Starting and ending panes on the port's host (pane-launch.ts). */
function launchOn(tmux: TmuxClient, host: string): Pick<PanePort, 'start' | 'end'> {
  return {
    async start(onHost, request) {
      if (onHost !== host) throw new StartRefusedError(`this port serves ${host}, not ${onHost}`);
      const started = await startPane(tmux, request);
      return { ...started, key: paneKey(host, started.paneId) };
    },
    async end(key, seenPid) {
      await endPane(tmux, hostPaneId(key, host), seenPid);
    },
  };
}

/** The tmux id a key names on `host`; a key that names no pane, or another host's, is refused. */
function hostPaneId(key: string, host: string): string {
  const parsed = parsePaneKey(key);
  if (!parsed) throw new BadPaneKeyError(key);
  if (parsed.host !== host) throw new UnknownHostError(parsed.host, key);
  return parsed.paneId;
}

/** On this machine the kernel says whether a pane's program reads its input (so a question waits). */
function inputWaitOf(host: string, pidOf: (paneId: string) => number | undefined): ((paneId: string) => boolean | null) | undefined {
  if (host !== LOCAL_HOST) return undefined;
  return (paneId) => {
    const pid = pidOf(paneId);
    return pid === undefined ? null : foregroundWaitsForInput(pid);
  };
}

/** The conversations of one host's port: answers are read from the same pane streams the attach server's viewers use. */
function portConversations(
  options: PanePortOptions,
  streams: () => Promise<PaneStreams>,
  waitsForInput?: (paneId: string) => boolean | null,
): PaneConversations & { readonly ticker: CaptureTicker } {
  const { tmux, host, settings } = options;
  return createConversations({
    tmux,
    ...(options.classify ? { classify: options.classify } : {}),
    clock: options.clock,
    timers: options.timers,
    settings: {
      pollMs: settings.bridgePollMs,
      quietMs: settings.bridgeQuietMs,
      longQuietMs: settings.bridgeLongQuietMs,
      maxDurationMs: settings.bridgeMaxDurationMs,
      historyLines: settings.bridgeHistoryLines,
      enterDelayMs: ENTER_DELAY_MS,
      pasteThreshold: PASTE_THRESHOLD,
      ...(settings.bridgeMaxLines !== undefined ? { maxLines: settings.bridgeMaxLines } : {}),
    },
    streams,
    ...(waitsForInput ? { waitsForInput } : {}),
    ...(options.spillDir !== undefined ? { openSpill: (paneId: string) => openSpillFile(options.spillDir!, paneKey(host, paneId), options.clock.now()) } : {}),
  });
}

/** A port's pane streams, built on first use: they need the tmux version (a process) first. */
class StreamsOnDemand {
  current: PaneStreams | null = null;
  private opening: Promise<PaneStreams> | null = null;

  constructor(
    private readonly options: PanePortOptions,
    private readonly sessionOf: (paneId: string) => Promise<string | null>,
  ) {}

  open(): Promise<PaneStreams> {
    this.opening ??= this.build();
    return this.opening;
  }

  async close(): Promise<void> {
    if (this.opening) await (await this.opening.catch(() => null))?.close();
  }

  private async build(): Promise<PaneStreams> {
    const { tmux, settings } = this.options;
    // tmux before 3.6 never frees a capture a control client prints: repaints then go through a
    // paste buffer that a separate tmux process reads and deletes.
    const leaks = printedCapturesLeak(await tmuxVersion(tmux.runner).catch(() => null));
    this.current = new PaneStreams({
      ...(leaks ? { screenBuffers: { take: (name: string) => tmux.io.takeBuffer(name) } } : {}),
      socket: tmux.socket,
      transport: tmux.transport,
      ringBytes: settings.attachRingBytes,
      pauseAfterSeconds: settings.attachPauseAfter,
      keepMs: settings.attachGraceMs,
      timers: this.options.timers,
      controlTimers: this.options.controlTimers,
      firstOffset: firstOffsetAt(this.options.clock.now()),
      runner: tmux.commandRunner,
      sessionOf: this.sessionOf,
    });
    return this.current;
  }
}

/**
 * One port over several hosts: each call goes to the port of the key's host. A key of a host
 * that is down is refused with HostDownError (nothing reaches it), of an unknown host with
 * UnknownHostError. `store` is the combined store of every host (its `hosts` say who is down).
 */
export function routePorts(
  ports: ReadonlyMap<string, PanePort>,
  store: EngineStore & { readonly pollNow?: () => Promise<void> },
  clock: Clock,
): PanePort {
  const portOf = (key: string): PanePort => {
    const parsed = parsePaneKey(key);
    if (!parsed) throw new BadPaneKeyError(key);
    const port = ports.get(parsed.host);
    if (!port) throw new UnknownHostError(parsed.host, key);
    refuseIfHostDown(store, parsed.host, clock.now());
    return port;
  };
  const all = [...ports.values()];
  return {
    getSnapshot: (): EngineSnapshot => store.getSnapshot(),
    subscribe: (listener) => store.subscribe(listener),
    acknowledge(key) {
      const parsed = parsePaneKey(key);
      if (parsed) ports.get(parsed.host)?.acknowledge(key);
    },
    markSeen(key) {
      const parsed = parsePaneKey(key);
      if (parsed) ports.get(parsed.host)?.markSeen(key);
    },
    markAnswered(key, answer, contentHash) {
      const parsed = parsePaneKey(key);
      if (parsed) ports.get(parsed.host)?.markAnswered(key, answer, contentHash);
    },
    focus(keys) {
      for (const port of all) port.focus(keys);
    },
    pollNow: async () => {
      if (store.pollNow) await store.pollNow();
      else await Promise.all(all.map((port) => port.pollNow()));
    },
    onEvent(listener: (event: CorralEvent) => void) {
      const stops = all.map((port) => port.onEvent(listener));
      return () => stops.forEach((stop) => stop());
    },
    find: (key) => portOf(key).find(key),
    // Async, so a refusal arrives as a rejected promise like any other failure.
    converse: async (key, text, options) => portOf(key).converse(key, text, options),
    hold(key) {
      const parsed = parsePaneKey(key);
      return parsed ? (ports.get(parsed.host)?.hold(key) ?? null) : null;
    },
    holds: () => all.flatMap((port) => port.holds()),
    identify: async (key) => portOf(key).identify(key),
    release(key) {
      const parsed = parsePaneKey(key);
      if (parsed) ports.get(parsed.host)?.release(key);
    },
    stream: async (key, viewer, fromOffset) => portOf(key).stream(key, viewer, fromOffset),
    repaint: async (key, viewer) => portOf(key).repaint(key, viewer),
    send: async (key, items, guard) => portOf(key).send(key, items, guard),
    read: async (key, history) => portOf(key).read(key, history),
    input: async (key, bytes) => portOf(key).input(key, bytes),
    reply: async (key, text, guard) => portOf(key).reply(key, text, guard),
    answer: async (key, option, guard) => portOf(key).answer(key, option, guard),
    resize: async (key, cols, rows) => portOf(key).resize(key, cols, rows),
    async start(host, request) {
      const port = ports.get(host);
      if (!port) throw new StartRefusedError(`corral watches no host named ${host}`);
      refuseIfHostDown(store, host, clock.now());
      return port.start(host, request);
    },
    end: async (key, seenPid) => portOf(key).end(key, seenPid),
    async close() {
      await Promise.all(all.map((port) => port.close()));
    },
  };
}
