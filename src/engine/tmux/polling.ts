// Listing panes for a poll (`client.panes`): one poll cycle's question to tmux (the listing, the
// server's clock, the screens chosen from the listing), the change watch over the connection, pane
// lookups and the server's identity. The builders and parsers of a cycle's command line are here too.

import type { PaneInfo } from '../types.js';
import { captureBatch, type CaptureBatchOptions, type CaptureBatchResult } from './capture-batch.js';
import { chain, escapeRegExp, type Framing, type TmuxCommand } from './command-line.js';
import { bufferedCapture, bufferedScreensCommands, captureBufferName, screensFromReplies, screensToRows, shownScreen } from './control-capture.js';
import { GONE_MESSAGE, type TmuxCore } from './core.js';
import { ListingMemory, clockCommand, listPanesCommand, paneInfoCommand, parseClock, parsePaneList, type ListedRecords } from './pane-list.js';
import { assertPaneId } from './pane-id.js';
import { TmuxCommandError } from './runner.js';
import { shellAnswerCommands, splitShellAnswer } from './shell-answer.js';
import { mergeWindows, windowListCommands, windowsListable, worthListingSome } from './window-listing.js';

export interface PollCycleOutput {
  readonly panes: PaneInfo[];
  /** Screens by pane id; a pane missing here was not captured this cycle. */
  readonly screens: Map<string, string>;
  /** The tmux server's clock when it listed the panes (epoch ms, whole seconds), when asked for. */
  readonly serverTime: number | null;
  /** Only some windows were listed; the other panes are the last listing's. */
  readonly partial?: boolean;
  /** The answer of the shell command the poll was given (see shell-answer.ts); null when it got none. */
  readonly shellAnswer?: string | null;
}

export interface PollCycleOptions {
  readonly clock?: boolean;
  readonly pipelined?: readonly string[];
  readonly windows?: ReadonlySet<string>;
  readonly shell?: string;
}

type Listed = { panes: PaneInfo[]; serverTime: number | null };

export class PaneListing {
  /** What the last listings said (see pane-list.ts). */
  private readonly memory: ListingMemory;

  /** `records`: the pane option records every listing carries (see pane-list.ts). */
  constructor(
    private readonly core: TmuxCore,
    private readonly records: ListedRecords,
  ) {
    this.memory = new ListingMemory(core.framing, records);
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
  async pollCycle(candidates: readonly string[], select?: (panes: readonly PaneInfo[]) => readonly string[], options: PollCycleOptions = {}): Promise<PollCycleOutput> {
    const { core } = this;
    const clock = options.clock ?? false;
    const canPersist = core.persistent;
    // The first cycle of a long-running poll (nothing known yet) lists, then captures what `select`
    // picks, even before the connection is up: every pane arrives with its screen.
    const first = canPersist && candidates.length === 0;
    const persistent = canPersist && (core.pollRunner.connected?.() ?? true);
    if (select === undefined || !(persistent || first)) {
      return this.runPoll(pollCycleCommand(core.framing, this.records, candidates, clock));
    }
    if (options.pipelined !== undefined && persistent) return this.pipelinedPoll(clock, options.pipelined, options.shell ?? null);
    const some = options.windows === undefined || !persistent ? null : await this.listWindowsForPoll(clock, options.windows);
    const { panes, serverTime } = some ?? (await this.listForPoll(clock));
    const partial = some !== null;
    const chosen = select(panes);
    if (chosen.length === 0) return { panes, screens: new Map(), serverTime, partial };
    return { panes, screens: screensToRows(await this.screens(chosen, persistent), panes), serverTime, partial };
  }

  /**
   * The screens of `chosen`. Over the connection, screens go through a paste buffer (a printed
   * capture leaks there before tmux 3.6); a tmux process of its own frees its captures, so it prints them.
   */
  private async screens(chosen: readonly string[], persistent: boolean): Promise<Map<string, string>> {
    const { core } = this;
    const style = persistent ? await core.bufferStyle() : null;
    const buffer = style === null ? null : captureBufferName(core.framing);
    if (style !== null && buffer !== null) {
      // Each command answered on its own: the screens need no markers between them.
      const commands = bufferedScreensCommands(chosen, buffer);
      const replies = await core.replies(commands);
      if (replies !== null) {
        // Stopped early (a pane closed): the buffer's delete at the end did not run.
        if (replies.length < commands.length) await core.pollRunner.replies?.([['delete-buffer', '-b', buffer]]);
        return screensFromReplies(chosen, replies, style);
      }
    }
    const result = await core.roundTrip(screensCommand(core.framing, chosen, buffer));
    core.throwIfNoServer(result);
    // A connection lost under the call was answered by a tmux process, which shows buffers as they are.
    const shown = style === null ? null : core.pollRunner.connected?.() === false ? 'raw' : style;
    const screen = (body: string) => (shown === null ? body : shownScreen(body, shown));
    return parsePollCycle(result.stdout, core.framing, result.exitCode === 0, screen).screens;
  }

  /**
   * Has the poll's connection tell of changes to the listing (see change-watch.ts); `listener`
   * hears each. False when the poll has no such connection (one tmux process a cycle).
   */
  watchChanges(listener: () => void): boolean {
    const { pollRunner } = this.core;
    if (!this.core.persistent || !pollRunner.watch) return false;
    pollRunner.watch(listener);
    return true;
  }

  /** How many changes tmux has told of since watchChanges; null while nothing watches (then every poll must ask). */
  changeCount(): number | null {
    return this.core.persistent ? (this.core.pollRunner.changes?.() ?? null) : null;
  }

  /** The windows tmux told of changes to after `mark` (see changeCount); null when it must be all of them. */
  windowsChangedSince(mark: number): ReadonlySet<string> | null {
    return this.core.persistent ? (this.core.pollRunner.windowsSince?.(mark) ?? null) : null;
  }

  /**
   * The panes of `windows` listed in full, every other pane as the last listing showed it (see
   * window-listing.ts); null when that cannot be done (no connection, a window gone, a pane new or
   * moved), and the caller lists every pane instead.
   */
  private async listWindowsForPoll(clock: boolean, windows: ReadonlySet<string>): Promise<Listed | null> {
    const { framing } = this.core;
    const last = this.memory.last();
    if (!this.memory.listed || !worthListingSome(last, windows) || !windowsListable(last) || !this.core.pollRunner.replies) return null;
    // No window told of (a cycle that only captures, as after a hook): the last listing stands.
    if (windows.size === 0 && !clock) return { panes: last, serverTime: null };
    const commands = [...windowListCommands(framing, this.records, windows), ...(clock ? [clockCommand(framing)] : [])];
    const replies = await this.core.replies(commands);
    if (replies === null || replies.length < commands.length || replies.some((reply) => !reply.ok)) return null;
    const text = replies.map((reply) => reply.text).join('');
    const listed = this.memory.readSome(text);
    const panes = mergeWindows(last, windows, listed);
    if (panes === null) return null;
    this.memory.tookSome(listed, panes);
    return { panes, serverTime: parseClock(text, framing) };
  }

  private async listForPoll(clock: boolean): Promise<Listed> {
    const now = this.core.now();
    if (this.memory.activityAt(now)) {
      const { panes, serverTime } = this.memory.read(await this.listingText(this.memory.command(clock, true)), true, now);
      if (panes !== null) return { panes, serverTime };
    }
    const { panes, serverTime } = this.memory.read(await this.listingText(this.memory.command(clock, false)), false, now);
    return { panes: panes ?? [], serverTime };
  }

  /** One round trip: the listing, the captures of `captureIds` after it and `shell`'s answer last (see pollCycle). */
  private async pipelinedPoll(clock: boolean, captureIds: readonly string[], shell: string | null): Promise<PollCycleOutput> {
    const { core } = this;
    const { framing } = core;
    if (captureIds.length === 0 && shell === null) {
      const { panes, serverTime } = await this.listForPoll(clock);
      return { panes, screens: new Map(), serverTime };
    }
    const style = await core.bufferStyle();
    const now = core.now();
    const activity = this.memory.activityAt(now);
    // The shell goes last: a pane closed since the last listing stops the chain at its capture, and
    // that cycle goes without an answer rather than without its screens.
    const shellPart = shell === null ? [] : [';', ...chain(shellAnswerCommands(framing, shell))];
    const capturePart = captureIds.length === 0 ? [] : [';', ...screensCommand(framing, captureIds, captureBufferName(framing))];
    const result = await core.roundTrip([...this.memory.command(clock, activity), ...capturePart, ...shellPart]);
    core.throwIfNoServer(result);
    const shown = core.pollRunner.connected?.() === false ? 'raw' : style;
    // Once the shell's marker printed, every capture before it ran; a failure is the shell part's.
    const cut = shell === null ? { before: result.stdout, answer: null } : splitShellAnswer(result.stdout, framing, result.exitCode === 0);
    const reachedShell = cut.before.length < result.stdout.length;
    const { list, screens } = splitPollCycle(cut.before, framing, result.exitCode === 0 || reachedShell, (body) => shownScreen(body, shown));
    const shellAnswer = shell === null ? undefined : cut.answer === null ? null : shownScreen(cut.answer, shown);
    const answered = shellAnswer === undefined ? {} : { shellAnswer };
    const { panes, serverTime } = this.memory.read(list, activity, now);
    // tmux stops a sequence at a pane that closed: the list, which comes first, is still whole.
    if (result.exitCode !== 0 && list.trim() === '') throw new TmuxCommandError(['list-panes'], result);
    if (panes !== null) return { panes, screens: screensToRows(screens, panes), serverTime, ...answered };
    // A pane appeared since the last full listing: list once more, in full.
    const full = await this.listForPoll(clock);
    return { panes: full.panes, screens: screensToRows(screens, full.panes), serverTime: full.serverTime, ...answered };
  }

  private async runPoll(command: readonly string[]): Promise<PollCycleOutput> {
    const result = await this.core.roundTrip(command);
    this.core.throwIfNoServer(result);
    const output = parsePollCycle(result.stdout, this.core.framing, result.exitCode === 0);
    if (result.exitCode !== 0 && output.panes.length === 0) {
      throw new TmuxCommandError(['list-panes'], result);
    }
    return output;
  }

  /** A listing (and whatever follows it) over the poll runner, as text; a failed listing throws. */
  private async listingText(command: readonly string[]): Promise<string> {
    const result = await this.core.roundTrip(command);
    if (result.exitCode !== 0) {
      this.core.throwIfNoServer(result);
      throw new TmuxCommandError(['list-panes'], result);
    }
    return result.stdout;
  }

  /** Several panes' screens with history and the cursor row, in one tmux process (see capture-batch.ts). */
  captureBatch(paneIds: readonly string[], options: CaptureBatchOptions): Promise<CaptureBatchResult> {
    return captureBatch(this.core, paneIds, options);
  }

  /**
   * The tmux server's identity: its pid and start time (`4411:1796285931`). Pane ids are unique
   * only within one server; a new server on the same socket starts again at `%0`.
   */
  async serverIdentity(): Promise<string> {
    const result = await this.core.roundTrip(['display-message', '-p', '#{pid}:#{start_time}']);
    if (result.exitCode !== 0) {
      this.core.throwIfNoServer(result);
      throw new TmuxCommandError(['display-message'], result);
    }
    return result.stdout.trim();
  }

  async listPanes(): Promise<PaneInfo[]> {
    const result = await this.core.runner(listPanesCommand(this.core.framing, this.records));
    if (result.exitCode !== 0) {
      this.core.throwIfNoServer(result);
      throw new TmuxCommandError(['list-panes'], result);
    }
    return parsePaneList(result.stdout, this.core.framing);
  }

  /**
   * One pane by id, or null when the server has no such pane. Goes over the persistent connection
   * when there is one: looking a pane up then starts no tmux process.
   */
  async findPane(paneId: string): Promise<PaneInfo | null> {
    const result = await this.core.roundTrip(paneInfoCommand(this.core.framing, this.records, paneId));
    if (result.exitCode !== 0) {
      this.core.throwIfNoServer(result);
      if (GONE_MESSAGE.test(result.stderr)) return null;
      throw new TmuxCommandError(['display-message'], result);
    }
    return parsePaneList(result.stdout, this.core.framing).find((p) => p.paneId === paneId) ?? null;
  }

  /** The socket path of the server this client talks to (to tell whether corral runs inside it). */
  async socketPath(): Promise<string | null> {
    const result = await this.core.runner(['display-message', '-p', '#{socket_path}']);
    return result.exitCode === 0 ? result.stdout.trim() || null : null;
  }

  async hasServer(): Promise<boolean> {
    const result = await this.core.runner(['list-sessions', '-F', '#{session_id}']);
    return result.exitCode === 0;
  }
}

// --- one poll cycle's command line ------------------------------------------------------------------

/**
 * `list-panes -a`, then for each watched pane a marker line and its screen. Captures come after the
 * list, so a pane that vanished since the last cycle only cuts the captures after it (tmux stops
 * a command sequence at the first failure); the list itself is always complete.
 */
export function pollCycleCommand(framing: Framing, records: ListedRecords, captureIds: readonly string[], clock = false): string[] {
  return chain([listPanesCommand(framing, records), ...(clock ? [clockCommand(framing)] : []), ...screenCommands(framing, captureIds)]);
}

/**
 * Only the captures of a poll cycle (its output parses with parsePollCycle, with no panes listed).
 * With `buffer`, each screen goes through that paste buffer (see control-capture.ts: over a control
 * connection, tmux before 3.6 never frees a printed capture).
 */
export function screensCommand(framing: Framing, captureIds: readonly string[], buffer: string | null = null): string[] {
  return chain(screenCommands(framing, captureIds, buffer));
}

function screenCommands(framing: Framing, captureIds: readonly string[], buffer: string | null = null): TmuxCommand[] {
  const commands: TmuxCommand[] = [];
  for (const id of captureIds) {
    assertPaneId(id);
    // display-message runs strftime over its text: `%5~` would print as `  %5~`, so write `%%5`.
    commands.push(['display-message', '-p', `${framing.blockStart}${id.replace('%', '%%')}~>`]);
    if (buffer === null) commands.push(['capture-pane', '-p', '-t', id]);
    else commands.push(...bufferedCapture(id, buffer));
  }
  if (buffer !== null && captureIds.length > 0) commands.push(['delete-buffer', '-b', buffer]);
  return commands;
}

/** `screen` turns a block's text into the screen (buffered captures need decoding). */
export function parsePollCycle(stdout: string, framing: Framing, exitedCleanly: boolean, screen: (body: string) => string = (body) => body): PollCycleOutput {
  const { list, screens } = splitPollCycle(stdout, framing, exitedCleanly, screen);
  return { panes: parsePaneList(list, framing), screens, serverTime: parseClock(list, framing) };
}

/** A poll cycle's output cut into the listing's text (with the clock line, if any) and the screens. */
export function splitPollCycle(
  stdout: string,
  framing: Framing,
  exitedCleanly: boolean,
  screen: (body: string) => string = (body) => body,
): { list: string; screens: Map<string, string> } {
  const marker = new RegExp(`^${escapeRegExp(framing.blockStart)}(%\\d+)~>$`, 'm');
  const first = stdout.search(marker);
  const list = first === -1 ? stdout : stdout.slice(0, first);
  const screens = new Map<string, string>();
  if (first !== -1) {
    const blocks = stdout.slice(first).split(new RegExp(`^(?=${escapeRegExp(framing.blockStart)}%\\d+~>$)`, 'm'));
    blocks.forEach((block, index) => {
      const m = marker.exec(block);
      if (!m || m.index !== 0) return;
      const id = m[1] as string;
      const body = block.slice(m[0].length + 1);
      const isLast = index === blocks.length - 1;
      // When tmux stopped early, the last marker has no trustworthy screen after it.
      if (isLast && !exitedCleanly) return;
      screens.set(id, screen(body));
    });
  }
  return { list, screens };
}
