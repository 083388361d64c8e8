// The tmux adapter: every tmux operation corral performs, on top of one TmuxRunner.
// Command lines come from commands.ts; this file only runs them and interprets exit codes.

import { randomBytes } from 'node:crypto';
import type { PaneInfo, TmuxSocket } from '../types.js';
import {
  activityListCommand,
  captureBatchCommand,
  captureCommand,
  chain,
  clockCommand,
  escapeArg,
  escapeFormat,
  makeFraming,
  listPanesCommand,
  parseActivityList,
  parseCaptureBatch,
  paneInfoCommand,
  parseClock,
  parsePaneList,
  parsePollCycle,
  pasteBufferCommands,
  pollCycleCommand,
  screensCommand,
  sendItemsCommands,
  splitPollCycle,
  withNames,
  type BatchCapture,
  type CaptureBatchOptions,
  type CaptureOptions,
  type Framing,
  type PaneActivity,
  type PollCycleOutput,
} from './commands.js';
import {
  bufferedScreensCommands,
  captureBufferName,
  parseProbe,
  probeCommand,
  screensFromReplies,
  shownScreen,
  type BufferStyle,
} from './control-capture.js';
import type { ControlReply } from './control-protocol.js';
import { HOOK_OPTION } from '../hooks/hook-record.js';
import { terminalSafe } from '../terminal-text.js';
import { OPTION_PANES_FORMAT, parseOptionPanes, type OptionPane } from '../status-options.js';
import type { SendItem } from '../keys.js';
import { assertPaneId } from './pane-id.js';
import { killPaneCommand, newSessionCommand, newWindowCommand, type SessionTarget, type WindowSpec } from './launch-commands.js';
import { TmuxCommandError, createExecRunner, createProgramRunner, type ProgramRunner, isNoServerMessage, runChecked, type RunOptions, type TmuxResult, type TmuxRunner } from './runner.js';
import { shellAnswerCommands, splitShellAnswer } from './shell-answer.js';
import { describeSocket } from './socket.js';
import { localTransport, type TmuxTransport } from './transport.js';
import { mergeWindows, windowListCommands, windowsListable, worthListingSome } from './window-listing.js';
import { systemClock } from '../time.js';
import type { Clock } from '../types.js';

export class NoServerError extends Error {
  constructor(readonly server: string) {
    super(`no tmux server is running on ${server}`);
    this.name = 'NoServerError';
  }
}

export class PaneGoneError extends Error {
  constructor(readonly paneId: string) {
    super(`pane ${paneId} does not exist (it may have closed)`);
    this.name = 'PaneGoneError';
  }
}

/** No terminal client is attached to the server, so there is none to switch (Enter in the dashboard). */
export class NoClientError extends Error {
  constructor() {
    super('no tmux client is attached to this tmux server');
    this.name = 'NoClientError';
  }
}

export interface CaptureBatchResult {
  readonly captures: Map<string, BatchCapture>;
  /** Panes that no longer exist. */
  readonly gone: readonly string[];
}

/**
 * A runner for poll cycles; `connected` says whether its last call went over a persistent
 * connection, `replies` runs commands there and answers each on its own (null: no connection).
 */
export type PollRunner = TmuxRunner & {
  close?(): Promise<void>;
  connected?(): boolean;
  replies?(commands: readonly (readonly string[])[]): Promise<readonly ControlReply[] | null>;
  watch?(listener: () => void): void;
  changes?(): number | null;
  /** The windows the changes told after `mark` touched; null when one may have touched anything. */
  windowsSince?(mark: number): ReadonlySet<string> | null;
};

export interface TmuxClientOptions {
  readonly socket: TmuxSocket;
  /** How the host's tmux is reached (its name labels errors); the local tmux on `socket` by default. */
  readonly transport?: TmuxTransport;
  /** Runs one tmux process per call; an exec runner over `transport` by default. */
  readonly runner?: TmuxRunner;
  /** Runs the poll cycles (a persistent control-mode runner); `runner` when not given. */
  readonly pollRunner?: PollRunner;
  /** Random by default; tests pass a fixed one. */
  readonly nonce?: string;
  /** Wall-clock time, for how old the panes' folders and commands are; Date.now by default. */
  readonly clock?: Clock;
}

/**
 * Over a persistent connection, the names, titles, folders and foreground commands of the panes are
 * listed at most this long apart (the default poll interval, so at that interval every listing is
 * full). In between, a poll lists only what tmux generates itself (an activity listing: ids,
 * indexes, sizes, flags, activity stamps), about a seventh of the bytes and half the server's work,
 * and keeps the names of the last full listing. A pane that is new, respawned or moved to another
 * session or window is listed in full at once.
 */
export const DETAILS_MS = 2_000;

/** What a full listing says of a pane that an activity listing does not, and what it is checked by. */
interface PaneDetails {
  readonly pid: number;
  readonly dead: boolean;
  readonly sessionId: string;
  readonly windowId: string;
  readonly sessionName: string;
  readonly windowName: string;
  readonly title: string;
  readonly cwd: string;
  readonly command: string;
  readonly quietRecord: string;
}

export class TmuxClient {
  readonly socket: TmuxSocket;
  /** The host's name (`local` for this machine). */
  readonly host: string;
  /** How this host's tmux is reached (its own control connections go the same way). */
  readonly transport: TmuxTransport;
  private readonly remote: boolean;
  readonly runner: TmuxRunner;
  private readonly pollRunner: PollRunner;
  private readonly framing: Framing;
  private shownStyle: BufferStyle | null = null;
  private roundTrips = 0;
  private readonly now: () => number;
  private details = new Map<string, PaneDetails>();
  private detailsAt: number | null = null;
  /** Each pane's PaneInfo from the last listing: a pane listed the same again is that same object. */
  private known = new Map<string, PaneInfo>();

  constructor(options: TmuxClientOptions) {
    this.socket = options.socket;
    const transport = options.transport ?? localTransport(options.socket);
    this.transport = transport;
    this.host = transport.host;
    this.remote = transport.remote;
    this.runner = options.runner ?? createExecRunner(transport);
    this.pollRunner = options.pollRunner ?? this.runner;
    this.framing = makeFraming(options.nonce ?? randomBytes(6).toString('hex'));
    const clock = options.clock ?? systemClock;
    this.now = () => clock.now();
  }

  /** Whether polls go over a persistent connection (the dashboard, `serve`, `watch`) that is up now, not a tmux process each. */
  get connected(): boolean {
    return this.pollRunner !== this.runner && (this.pollRunner.connected?.() ?? true);
  }

  /** Runs commands over the persistent connection when there is one, else as one tmux process. */
  get commandRunner(): TmuxRunner {
    return this.pollRunner;
  }

  get serverLabel(): string {
    return this.remote ? `${describeSocket(this.socket)} on ${this.host}` : describeSocket(this.socket);
  }

  /**
   * Lists every pane and captures some of them. Over a persistent connection, where a round trip
   * is cheap, the list comes first and `select` picks the panes to capture from it. Otherwise (no
   * such runner, or its connection was missing last time) one tmux process lists and captures every
   * pane in `candidates`, because a second process would cost more than the captures it saves.
   *
   * With `pipelined` (a host far away, where a round trip costs more than a capture), a cycle is
   * one round trip over the connection: the list, and the captures of the panes that the previous
   * list showed printing (the caller passes them; `select` is not called). `shell`, only there, is
   * a command for the tmux server's own shell in that same round trip (see shell-answer.ts); its
   * answer comes back as `shellAnswer`, null when it could not be had.
   */
  async pollCycle(
    candidates: readonly string[],
    select?: (panes: readonly PaneInfo[]) => readonly string[],
    options: { readonly clock?: boolean; readonly pipelined?: readonly string[]; readonly windows?: ReadonlySet<string>; readonly shell?: string } = {},
  ): Promise<PollCycleOutput> {
    const clock = options.clock ?? false;
    const canPersist = this.pollRunner !== this.runner;
    // The first cycle of a long-running poll (nothing known yet) lists, then captures what `select`
    // picks, even before the connection is up: every pane arrives with its screen.
    const first = canPersist && candidates.length === 0;
    const persistent = canPersist && (this.pollRunner.connected?.() ?? true);
    if (select === undefined || !(persistent || first)) {
      return this.runPoll(pollCycleCommand(this.framing, candidates, clock));
    }
    if (options.pipelined !== undefined && persistent) return this.pipelinedPoll(clock, options.pipelined, options.shell ?? null);
    const some = options.windows === undefined || !persistent ? null : await this.listWindowsForPoll(clock, options.windows);
    const { panes, serverTime } = some ?? (await this.listForPoll(clock));
    const partial = some !== null;
    const chosen = select(panes);
    if (chosen.length === 0) return { panes, screens: new Map(), serverTime, partial };
    // Over the connection, screens go through a paste buffer (a printed capture leaks there before
    // tmux 3.6); a tmux process of its own frees its captures, so it prints them.
    const style = persistent ? await this.bufferStyle() : null;
    const buffer = style === null ? null : captureBufferName(this.framing);
    if (style !== null && buffer !== null && this.pollRunner.replies) {
      // Each command answered on its own: the screens need no markers between them.
      const commands = bufferedScreensCommands(chosen, buffer);
      this.roundTrips += 1;
      const replies = await this.pollRunner.replies(commands);
      if (replies !== null) {
        // Stopped early (a pane closed): the buffer's delete at the end did not run.
        if (replies.length < commands.length) await this.pollRunner.replies([['delete-buffer', '-b', buffer]]);
        return { panes, screens: screensFromReplies(chosen, replies, style), serverTime, partial };
      }
    }
    const result = await this.roundTrip(screensCommand(this.framing, chosen, buffer));
    if (result.exitCode !== 0 && isNoServerMessage(result.stderr)) throw new NoServerError(this.serverLabel);
    // A connection lost under the call was answered by a tmux process, which shows buffers as they are.
    const shown = style === null ? null : this.pollRunner.connected?.() === false ? 'raw' : style;
    const screen = (body: string) => (shown === null ? body : shownScreen(body, shown));
    return { panes, screens: parsePollCycle(result.stdout, this.framing, result.exitCode === 0, screen).screens, serverTime, partial };
  }

  /**
   * Has the poll's connection tell of changes to the listing (see change-watch.ts); `listener`
   * hears each. False when the poll has no such connection (one tmux process a cycle).
   */
  watchChanges(listener: () => void): boolean {
    if (this.pollRunner === this.runner || !this.pollRunner.watch) return false;
    this.pollRunner.watch(listener);
    return true;
  }

  /** How many changes tmux has told of since watchChanges; null while nothing watches (then every poll must ask). */
  changeCount(): number | null {
    return this.pollRunner === this.runner ? null : (this.pollRunner.changes?.() ?? null);
  }

  /** The windows tmux told of changes to after `mark` (see changeCount); null when it must be all of them. */
  windowsChangedSince(mark: number): ReadonlySet<string> | null {
    return this.pollRunner === this.runner ? null : (this.pollRunner.windowsSince?.(mark) ?? null);
  }

  /**
   * The panes of `windows` listed in full, every other pane as the last listing showed it (see
   * window-listing.ts); null when that cannot be done (no connection, a window gone, a pane new or
   * moved), and the caller lists every pane instead.
   */
  private async listWindowsForPoll(clock: boolean, windows: ReadonlySet<string>): Promise<{ panes: PaneInfo[]; serverTime: number | null } | null> {
    const last = [...this.known.values()];
    if (this.detailsAt === null || !worthListingSome(last, windows) || !windowsListable(last) || !this.pollRunner.replies) return null;
    // No window told of (a cycle that only captures, as after a hook): the last listing stands.
    if (windows.size === 0 && !clock) return { panes: last, serverTime: null };
    const commands = [...windowListCommands(this.framing, windows), ...(clock ? [clockCommand(this.framing)] : [])];
    this.roundTrips += 1;
    const replies = await this.pollRunner.replies(commands);
    if (replies === null || replies.length < commands.length || replies.some((reply) => !reply.ok)) return null;
    const text = replies.map((reply) => reply.text).join('');
    const listed = this.keptAsKnown(parsePaneList(text, this.framing));
    const panes = mergeWindows(last, windows, listed);
    if (panes === null) return null;
    for (const pane of listed) this.details.set(pane.paneId, detailsOf(pane));
    this.known = new Map(panes.map((p) => [p.paneId, p]));
    return { panes, serverTime: parseClock(text, this.framing) };
  }

  /** Freshly listed panes, each one listed the same as last time replaced by that same object. */
  private keptAsKnown(panes: readonly PaneInfo[]): PaneInfo[] {
    return panes.map((pane) => {
      const last = this.known.get(pane.paneId);
      return last !== undefined && samePaneInfo(last, pane) ? last : pane;
    });
  }

  /** The listing of a poll: an activity listing while the last full one is recent (see DETAILS_MS), else a full one. */
  private listCommand(clock: boolean, activity: boolean): string[] {
    const list = activity ? activityListCommand() : listPanesCommand(this.framing);
    return chain(clock ? [list, clockCommand(this.framing)] : [list]);
  }

  private activityNow(now: number): boolean {
    return this.detailsAt !== null && now >= this.detailsAt && now - this.detailsAt < DETAILS_MS;
  }

  /**
   * The panes of a listing's text. An activity listing takes the names of the last full one: null
   * when it shows a pane that listing does not know as it is now (new, respawned or moved).
   */
  private readListing(text: string, activity: boolean, now: number): PaneInfo[] | null {
    let panes: PaneInfo[];
    if (activity) {
      const filled = withDetails(parseActivityList(text), this.details, this.known);
      if (filled === null) return null;
      panes = filled;
    } else {
      panes = this.keptAsKnown(parsePaneList(text, this.framing));
      this.details = new Map(panes.map((p) => [p.paneId, detailsOf(p)]));
      this.detailsAt = now;
    }
    this.known = new Map(panes.map((p) => [p.paneId, p]));
    return panes;
  }

  private async listForPoll(clock: boolean): Promise<{ panes: PaneInfo[]; serverTime: number | null }> {
    const now = this.now();
    if (this.activityNow(now)) {
      const list = await this.listingText(this.listCommand(clock, true));
      const panes = this.readListing(list, true, now);
      if (panes !== null) return { panes, serverTime: parseClock(list, this.framing) };
    }
    const list = await this.listingText(this.listCommand(clock, false));
    return { panes: this.readListing(list, false, now) ?? [], serverTime: parseClock(list, this.framing) };
  }

  /** One round trip: the listing, the captures of `captureIds` after it and `shell`'s answer last (see pollCycle). */
  private async pipelinedPoll(clock: boolean, captureIds: readonly string[], shell: string | null): Promise<PollCycleOutput> {
    if (captureIds.length === 0 && shell === null) {
      const { panes, serverTime } = await this.listForPoll(clock);
      return { panes, screens: new Map(), serverTime };
    }
    const style = await this.bufferStyle();
    const now = this.now();
    const activity = this.activityNow(now);
    // The shell goes last: a pane closed since the last listing stops the chain at its capture, and
    // that cycle goes without an answer rather than without its screens.
    const shellPart = shell === null ? [] : [';', ...chain(shellAnswerCommands(this.framing, shell))];
    const capturePart = captureIds.length === 0 ? [] : [';', ...screensCommand(this.framing, captureIds, captureBufferName(this.framing))];
    const result = await this.roundTrip([...this.listCommand(clock, activity), ...capturePart, ...shellPart]);
    if (result.exitCode !== 0 && isNoServerMessage(result.stderr)) throw new NoServerError(this.serverLabel);
    const shown = this.pollRunner.connected?.() === false ? 'raw' : style;
    // Once the shell's marker printed, every capture before it ran; a failure is the shell part's.
    const cut = shell === null ? { before: result.stdout, answer: null } : splitShellAnswer(result.stdout, this.framing, result.exitCode === 0);
    const reachedShell = cut.before.length < result.stdout.length;
    const { list, screens } = splitPollCycle(cut.before, this.framing, result.exitCode === 0 || reachedShell, (body) => shownScreen(body, shown));
    const shellAnswer = shell === null ? undefined : cut.answer === null ? null : shownScreen(cut.answer, shown);
    const answered = shellAnswer === undefined ? {} : { shellAnswer };
    const panes = this.readListing(list, activity, now);
    // tmux stops a sequence at a pane that closed: the list, which comes first, is still whole.
    if (result.exitCode !== 0 && list.trim() === '') throw new TmuxCommandError(['list-panes'], result);
    if (panes !== null) return { panes, screens, serverTime: parseClock(list, this.framing), ...answered };
    // A pane appeared since the last full listing: list once more, in full.
    const full = await this.listForPoll(clock);
    return { panes: full.panes, screens, serverTime: full.serverTime, ...answered };
  }

  /**
   * How this server shows a paste buffer to the control connection, asked once (screens go through
   * buffers there, since a printed capture leaks before tmux 3.6). An answer that came from a tmux
   * process instead (no connection just then) is not kept.
   */
  /** Calls made through the poll runner (round trips over the control connection, when there is one). */
  get pollRoundTrips(): number {
    return this.roundTrips;
  }

  private roundTrip(args: readonly string[], options?: RunOptions): Promise<TmuxResult> {
    this.roundTrips += 1;
    return this.pollRunner(args, options);
  }

  private async bufferStyle(): Promise<BufferStyle> {
    if (this.shownStyle) return this.shownStyle;
    const result = await this.roundTrip(probeCommand(this.framing));
    if (result.exitCode !== 0 && isNoServerMessage(result.stderr)) throw new NoServerError(this.serverLabel);
    const style = result.exitCode === 0 ? parseProbe(result.stdout) : null;
    if (style === null) throw new TmuxCommandError(['show-buffer'], result);
    if (this.pollRunner.connected?.() !== false) this.shownStyle = style;
    return style;
  }

  private async runPoll(command: readonly string[]): Promise<PollCycleOutput> {
    const result = await this.roundTrip(command);
    if (result.exitCode !== 0 && isNoServerMessage(result.stderr)) throw new NoServerError(this.serverLabel);
    const output = parsePollCycle(result.stdout, this.framing, result.exitCode === 0);
    if (result.exitCode !== 0 && output.panes.length === 0) {
      throw new TmuxCommandError(['list-panes'], result);
    }
    return output;
  }

  /** A listing (and whatever follows it) over the poll runner, as text; a failed listing throws. */
  private async listingText(command: readonly string[]): Promise<string> {
    const result = await this.roundTrip(command);
    if (result.exitCode !== 0) {
      if (isNoServerMessage(result.stderr)) throw new NoServerError(this.serverLabel);
      throw new TmuxCommandError(['list-panes'], result);
    }
    return result.stdout;
  }

  /**
   * Captures several panes (with history and the cursor row) in one tmux process. tmux stops a
   * command sequence at the first pane that no longer exists: that pane is reported gone and the
   * rest are captured again, so one closed pane costs one extra process, not all the captures.
   */
  async captureBatch(paneIds: readonly string[], options: CaptureBatchOptions): Promise<CaptureBatchResult> {
    const captures = new Map<string, BatchCapture>();
    const gone: string[] = [];
    let remaining = [...paneIds];
    while (remaining.length > 0) {
      const result = await this.runner(captureBatchCommand(this.framing, remaining, options));
      if (result.exitCode !== 0 && isNoServerMessage(result.stderr)) throw new NoServerError(this.serverLabel);
      for (const capture of parseCaptureBatch(result.stdout, this.framing, result.exitCode === 0)) {
        captures.set(capture.paneId, capture);
      }
      if (result.exitCode === 0) break;
      const failed = remaining.find((id) => !captures.has(id));
      if (failed === undefined) break;
      if (!/can't find pane|can't find window|can't find session/i.test(result.stderr)) {
        throw new TmuxCommandError(['capture-pane'], result);
      }
      gone.push(failed);
      remaining = remaining.slice(remaining.indexOf(failed) + 1);
    }
    return { captures, gone };
  }

  /**
   * The tmux server's identity: its pid and start time (`4411:1796285931`). Pane ids are unique
   * only within one server; a new server on the same socket starts again at `%0`.
   */
  async serverIdentity(): Promise<string> {
    const result = await this.roundTrip(['display-message', '-p', '#{pid}:#{start_time}']);
    if (result.exitCode !== 0) {
      if (isNoServerMessage(result.stderr)) throw new NoServerError(this.serverLabel);
      throw new TmuxCommandError(['display-message'], result);
    }
    return result.stdout.trim();
  }

  /** Ends the persistent poll connection, if there is one. */
  async close(): Promise<void> {
    await this.pollRunner.close?.();
  }

  async listPanes(): Promise<PaneInfo[]> {
    const result = await this.runner(listPanesCommand(this.framing));
    if (result.exitCode !== 0) {
      if (isNoServerMessage(result.stderr)) throw new NoServerError(this.serverLabel);
      throw new TmuxCommandError(['list-panes'], result);
    }
    return parsePaneList(result.stdout, this.framing);
  }

  /**
   * One pane by id, or null when the server has no such pane. Goes over the persistent connection
   * when there is one: looking a pane up then starts no tmux process.
   */
  async findPane(paneId: string): Promise<PaneInfo | null> {
    const result = await this.roundTrip(paneInfoCommand(this.framing, paneId));
    if (result.exitCode !== 0) {
      if (isNoServerMessage(result.stderr)) throw new NoServerError(this.serverLabel);
      if (/can't find pane|can't find window|can't find session/i.test(result.stderr)) return null;
      throw new TmuxCommandError(['display-message'], result);
    }
    return parsePaneList(result.stdout, this.framing).find((p) => p.paneId === paneId) ?? null;
  }

  /**
   * The lines of a paste buffer, which is then deleted; null when there is no such buffer. Runs as
   * its own tmux process (a control client's copy of the text would not be freed on tmux < 3.6).
   */
  async takeBuffer(name: string): Promise<string[] | null> {
    const result = await this.runner(['save-buffer', '-b', name, '-', ';', 'delete-buffer', '-b', name]);
    if (result.exitCode !== 0) {
      if (isNoServerMessage(result.stderr)) throw new NoServerError(this.serverLabel);
      return null;
    }
    const text = result.stdout.endsWith('\n') ? result.stdout.slice(0, -1) : result.stdout;
    return text.split('\n');
  }

  async capture(paneId: string, options: CaptureOptions = {}): Promise<string> {
    return this.checked(paneId, captureCommand(paneId, options));
  }

  /**
   * The pane's visible screen read the way a poll reads it: over the persistent connection through
   * a paste buffer and the same decoder, else as a capture of its own. A screen a person saw (its
   * hash came from a poll) and this one are then the same text whenever the pane did not change.
   */
  async screen(paneId: string): Promise<string> {
    assertPaneId(paneId);
    if (this.pollRunner.replies && this.pollRunner.connected?.() !== false && this.pollRunner !== this.runner) {
      const style = await this.bufferStyle();
      const commands = bufferedScreensCommands([paneId], `${captureBufferName(this.framing)}-look`);
      const replies = await this.pollRunner.replies(commands);
      if (replies !== null) {
        const screen = screensFromReplies([paneId], replies, style).get(paneId);
        if (screen !== undefined) return screen;
        const failed = replies.find((reply) => !reply.ok);
        if (failed && /can't find pane|can't find window|can't find session/i.test(failed.text)) throw new PaneGoneError(paneId);
      }
    }
    return this.capture(paneId);
  }

  /** Types keys and literal text in order, in one tmux process (all validated beforehand). */
  async send(paneId: string, items: readonly SendItem[]): Promise<void> {
    if (items.length === 0) return;
    await this.checked(paneId, chain(sendItemsCommands(paneId, items)));
  }

  /** Bracketed paste: the reliable way to put long or multi-line text into a program. */
  async paste(paneId: string, text: string): Promise<void> {
    assertPaneId(paneId);
    const buffer = `corral-${randomBytes(4).toString('hex')}`;
    await this.checked(paneId, chain([['load-buffer', '-b', buffer, '-'], ...pasteBufferCommands(paneId, buffer)]), text);
  }

  /**
   * Moves a person's tmux client to the target pane, across sessions: the client that shows
   * `fromPaneId` (corral's own pane), else the one used most recently (corral in a popup, or in a
   * pane no client shows). Throws NoClientError when no terminal client is attached at all.
   */
  async switchClientTo(target: PaneInfo, fromPaneId: string | null): Promise<void> {
    assertPaneId(target.paneId);
    const client = ['-c', await this.clientOf(fromPaneId)];
    await this.checked(
      target.paneId,
      chain([
        ['switch-client', ...client, '-t', target.sessionId],
        ['select-window', '-t', target.windowId],
        ['select-pane', '-t', target.paneId],
      ]),
    );
  }

  /**
   * Runs independent commands (setting options, say) in as few round trips as it can: tmux stops a
   * command line at the first command that fails (an option of a pane that closed meanwhile), so
   * the ones after it go again. Resolves to how many failed.
   */
  async runEach(commands: readonly (readonly string[])[]): Promise<number> {
    let failed = 0;
    let rest = commands;
    while (rest.length > 0) {
      const replies = this.pollRunner.replies ? await this.pollRunner.replies(rest) : null;
      let done: number;
      if (replies !== null) {
        done = replies.length;
        if (replies.at(-1)?.ok === false) failed += 1;
      } else {
        const result = await this.pollRunner(chain(rest));
        if (result.exitCode === 0) return failed;
        if (isNoServerMessage(result.stderr)) throw new NoServerError(this.serverLabel);
        // Which one failed is not told: run them one by one.
        for (const command of rest) if ((await this.pollRunner(command)).exitCode !== 0) failed += 1;
        return failed;
      }
      rest = rest.slice(Math.max(1, done));
    }
    return failed;
  }

  /** Every pane's status options (status-options.ts), and the global options (the writers among them). */
  async statusOptions(): Promise<{ readonly panes: OptionPane[]; readonly globals: string }> {
    const out = await runChecked(this.commandRunner, ['list-panes', '-a', '-F', OPTION_PANES_FORMAT]).catch((error: unknown) => {
      if (error instanceof TmuxCommandError && isNoServerMessage(error.result.stderr)) throw new NoServerError(this.serverLabel);
      throw error;
    });
    return { panes: parseOptionPanes(out), globals: await this.globalOptions() };
  }

  /**
   * The terminal clients attached to this server (never a control-mode one, such as corral's own
   * connection), most recently active first: name, tty, session id and current pane.
   */
  async terminalClients(): Promise<Array<{ readonly name: string; readonly tty: string; readonly sessionId: string; readonly paneId: string }>> {
    const sep = this.framing.fieldSep;
    const format = ['#{client_activity}', '#{client_control_mode}', '#{client_name}', '#{client_tty}', '#{session_id}', '#{pane_id}'].join(sep) + this.framing.recordEnd;
    const out = await runChecked(this.runner, ['list-clients', '-F', format]);
    return out
      .split(this.framing.recordEnd)
      .map((record) => record.replace(/^\n/, '').split(sep))
      .filter((f) => f.length === 6 && f[1] === '0')
      .sort((a, b) => Number(b[0]) - Number(a[0]))
      .map((f) => ({ name: f[2]!, tty: f[3]!, sessionId: f[4]!, paneId: f[5]! }));
  }

  /**
   * The pane each attached terminal client shows, with the client's last key press (epoch ms, to
   * the second); corral's own control connections are left out. Over the poll's connection.
   */
  async clientViews(): Promise<Array<{ readonly paneId: string; readonly activity: number }>> {
    const out = await runChecked(this.commandRunner, ['list-clients', '-F', '#{client_control_mode} #{pane_id} #{client_activity}']);
    const views: Array<{ paneId: string; activity: number }> = [];
    for (const line of out.split('\n')) {
      const [control, paneId = '', activity = ''] = line.split(' ');
      if (control === '0' && /^%\d+$/.test(paneId) && /^\d+$/.test(activity)) views.push({ paneId, activity: Number(activity) * 1000 });
    }
    return views;
  }

  /** Shows the pane on a client: its session, its window, the pane itself, in one step. */
  async jumpClient(client: string, paneId: string): Promise<void> {
    assertPaneId(paneId);
    await this.checked(
      paneId,
      chain([
        ['switch-client', '-c', client, '-t', paneId],
        ['select-window', '-t', paneId],
        ['select-pane', '-t', paneId],
      ]),
    );
  }

  /** A message in a client's status line (a key binding has no other place to say something). */
  async tellClient(client: string, text: string): Promise<void> {
    await runChecked(this.runner, ['display-message', '-c', client, escapeArg(escapeFormat(terminalSafe(text)))]);
  }

  /** `show-options -g`: the global session options, user options among them, one a line. */
  async globalOptions(): Promise<string> {
    return runChecked(this.commandRunner, ['show-options', '-g']);
  }

  /**
   * Sets the pane's hook record (see hooks/hook-record.ts: `value` from hookRecordValue, whose
   * format tmux expands), over the control connection when there is one.
   */
  async writeHookRecord(paneId: string, value: string): Promise<void> {
    assertPaneId(paneId);
    await runChecked(this.commandRunner, ['set-option', '-p', '-F', '-t', paneId, HOOK_OPTION, value]);
  }

  /**
   * Empties the pane's hook record if it still holds `value` (tmux compares and stores in one
   * command, so a record written meanwhile by another corral process stays). One `set-option -F`,
   * not an `if-shell`: the command an `if-shell` runs answers a control client in a second reply
   * block, which no caller waits for, and every later reply on that connection would be the one
   * before it.
   */
  async clearHookRecord(paneId: string, value: string): Promise<void> {
    assertPaneId(paneId);
    if (!/^[A-Za-z0-9._-]+$/.test(value)) return;
    await runChecked(this.commandRunner, ['set-option', '-p', '-q', '-F', '-t', paneId, HOOK_OPTION, `#{?#{==:#{${HOOK_OPTION}},${value}},,#{${HOOK_OPTION}}}`]);
  }

  /** A message in tmux's message line; control characters in it are shown, never sent (terminal-text.ts). */
  async displayMessage(text: string): Promise<void> {
    await runChecked(this.runner, ['display-message', escapeArg(escapeFormat(terminalSafe(text)))]);
  }

  /**
   * Starts the command in a new window (a new session when `newSession` is set), not made current;
   * resolves to the new pane's id. The command line is one argument, run by the pane's shell.
   */
  async newPane(spec: WindowSpec, where: { readonly session: SessionTarget } | { readonly newSession: string | null }): Promise<string> {
    const args = 'session' in where ? newWindowCommand(spec, where.session) : newSessionCommand(spec, where.newSession);
    const result = await this.runner(args);
    if (result.exitCode !== 0) {
      if (isNoServerMessage(result.stderr)) throw new NoServerError(this.serverLabel);
      throw new TmuxCommandError(args, result);
    }
    const paneId = result.stdout.trim();
    return assertPaneId(paneId);
  }

  /** True when the server has a session of exactly this name. */
  async hasSession(name: string): Promise<boolean> {
    return (await this.runner(['has-session', '-t', escapeArg(`=${name}`)])).exitCode === 0;
  }

  /** Ends the pane and its processes (tmux sends SIGHUP); PaneGoneError when it is no longer there. */
  async killPane(paneId: string): Promise<void> {
    await this.checked(paneId, killPaneCommand(paneId));
  }

  /** Runs another program (git, test) on this client's host, with argv. */
  program(file: string): ProgramRunner {
    return createProgramRunner(this.transport, file);
  }

  /**
   * The terminal client (never a control-mode one, such as corral's own poll connection) that
   * shows `paneId`, else the most recently active one, wherever it is attached.
   */
  private async clientOf(paneId: string | null): Promise<string> {
    if (paneId !== null) assertPaneId(paneId);
    const sep = this.framing.fieldSep;
    const fields = ['#{client_name}', '#{client_control_mode}', '#{pane_id}', '#{client_activity}'];
    const out = await runChecked(this.runner, ['list-clients', '-F', fields.join(sep)]);
    return pickClient(out, sep, paneId);
  }

  /** The socket path of the server this client talks to (to tell whether corral runs inside it). */
  async socketPath(): Promise<string | null> {
    const result = await this.runner(['display-message', '-p', '#{socket_path}']);
    return result.exitCode === 0 ? result.stdout.trim() || null : null;
  }

  async hasServer(): Promise<boolean> {
    const result = await this.runner(['list-sessions', '-F', '#{session_id}']);
    return result.exitCode === 0;
  }

  private async checked(paneId: string, args: readonly string[], input?: string): Promise<string> {
    const result = await this.runner(args, input === undefined ? undefined : { input });
    if (result.exitCode === 0) return result.stdout;
    if (isNoServerMessage(result.stderr)) throw new NoServerError(this.serverLabel);
    if (/can't find pane|can't find window|can't find session/i.test(result.stderr)) throw new PaneGoneError(paneId);
    throw new TmuxCommandError(args, result);
  }
}

/**
 * From a `list-clients` listing (name, control mode, current pane, last activity): the terminal
 * client showing `paneId`, else the one with the latest activity.
 */
export function pickClient(listing: string, sep: string, paneId: string | null): string {
  const clients = listing
    .split('\n')
    .map((line) => line.split(sep))
    .filter((f) => f.length === 4 && f[1] === '0')
    .map(([name, , pane, activity]) => ({ name: name as string, pane: pane as string, activity: Number(activity) || 0 }));
  const showing = paneId === null ? undefined : clients.find((c) => c.pane === paneId);
  const recent = clients.reduce<(typeof clients)[number] | undefined>((best, c) => (best === undefined || c.activity > best.activity ? c : best), undefined);
  const client = showing ?? recent;
  if (!client) throw new NoClientError();
  return client.name;
}

function detailsOf(pane: PaneInfo): PaneDetails {
  const { pid, dead, sessionId, windowId, sessionName, windowName, title, cwd, command, quietRecord } = pane;
  return { pid, dead, sessionId, windowId, sessionName, windowName, title, cwd, command, quietRecord };
}

/**
 * An activity listing with the names of the last full one (a pane listed as before keeps its
 * PaneInfo object); null when a pane is new, respawned, or now in another session or window.
 */
function withDetails(
  panes: readonly PaneActivity[],
  details: ReadonlyMap<string, PaneDetails>,
  known: ReadonlyMap<string, PaneInfo>,
): PaneInfo[] | null {
  const filled: PaneInfo[] = [];
  for (const pane of panes) {
    const d = details.get(pane.paneId);
    if (d === undefined || d.pid !== pane.pid || d.dead !== pane.dead || d.sessionId !== pane.sessionId || d.windowId !== pane.windowId) return null;
    const last = known.get(pane.paneId);
    if (last !== undefined && sameActivity(last, pane)) {
      filled.push(last);
      continue;
    }
    filled.push(withNames(pane, d));
  }
  return filled;
}

function sameActivity(a: PaneActivity, b: PaneActivity): boolean {
  return (
    a.paneId === b.paneId &&
    a.sessionId === b.sessionId &&
    a.windowId === b.windowId &&
    a.windowIndex === b.windowIndex &&
    a.paneIndex === b.paneIndex &&
    a.pid === b.pid &&
    a.dead === b.dead &&
    a.width === b.width &&
    a.height === b.height &&
    a.inMode === b.inMode &&
    a.alternateOn === b.alternateOn &&
    a.windowActivity === b.windowActivity &&
    a.hookRecord === b.hookRecord &&
    a.attentionRecord === b.attentionRecord
  );
}

function samePaneInfo(a: PaneInfo, b: PaneInfo): boolean {
  return (
    sameActivity(a, b) &&
    a.sessionName === b.sessionName &&
    a.windowName === b.windowName &&
    a.title === b.title &&
    a.cwd === b.cwd &&
    a.command === b.command
  );
}

/** `tmux -V` as [major, minor], or throws TmuxMissingError when tmux is not installed. */
export async function tmuxVersion(runner: TmuxRunner): Promise<[number, number] | null> {
  const result = await runner(['-V']);
  const match = /tmux\s+(?:next-)?(\d+)\.(\d+)/.exec(result.stdout);
  return match ? [Number(match[1]), Number(match[2])] : null;
}
