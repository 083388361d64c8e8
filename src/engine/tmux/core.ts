// What every part of a tmux client shares: the runners (one tmux process a call, and the persistent
// control connection when there is one), the server's name for errors, the nonce framing, and how
// that server shows a paste buffer to the connection. The parts by concern take this core.

import { randomBytes } from 'node:crypto';
import type { Clock, TmuxSocket } from '../types.js';
import { makeFraming, type Framing } from './command-line.js';
import { parseProbe, probeCommand, type BufferStyle } from './control-capture.js';
import type { ControlReply } from './control-protocol.js';
import { TmuxCommandError, createExecRunner, isNoServerMessage, type RunOptions, type TmuxResult, type TmuxRunner } from './runner.js';
import { describeSocket } from './socket.js';
import { localTransport, type TmuxTransport } from './transport.js';

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

/** What tmux says when a pane, its window or its session is gone. */
export const GONE_MESSAGE = /can't find pane|can't find window|can't find session/i;

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

export interface TmuxCoreOptions {
  readonly socket: TmuxSocket;
  /** How the host's tmux is reached (its name labels errors); the local tmux on `socket` by default. */
  readonly transport?: TmuxTransport;
  /** Runs one tmux process per call; an exec runner over `transport` by default. */
  readonly runner?: TmuxRunner;
  /** Runs the poll cycles (a persistent control-mode runner); `runner` when not given. */
  readonly pollRunner?: PollRunner;
  /** Random by default; tests pass a fixed one. */
  readonly nonce?: string;
  /** Wall-clock time, for how old the panes' folders and commands are. */
  readonly clock: Clock;
}

export class TmuxCore {
  readonly socket: TmuxSocket;
  /** The host's name (`local` for this machine). */
  readonly host: string;
  /** How this host's tmux is reached (its own control connections go the same way). */
  readonly transport: TmuxTransport;
  readonly remote: boolean;
  readonly runner: TmuxRunner;
  readonly pollRunner: PollRunner;
  readonly framing: Framing;
  readonly now: () => number;
  private shownStyle: BufferStyle | null = null;
  private roundTrips = 0;

  constructor(options: TmuxCoreOptions) {
    this.socket = options.socket;
    const transport = options.transport ?? localTransport(options.socket);
    this.transport = transport;
    this.host = transport.host;
    this.remote = transport.remote;
    this.runner = options.runner ?? createExecRunner(transport);
    this.pollRunner = options.pollRunner ?? this.runner;
    this.framing = makeFraming(options.nonce ?? randomBytes(6).toString('hex'));
    const clock = options.clock;
    this.now = () => clock.now();
  }

  /** Whether polls have a persistent connection of their own (up or not), rather than a tmux process each. */
  get persistent(): boolean {
    return this.pollRunner !== this.runner;
  }

  /** Whether polls go over a persistent connection (the dashboard, `serve`, `watch`) that is up now, not a tmux process each. */
  get connected(): boolean {
    return this.persistent && (this.pollRunner.connected?.() ?? true);
  }

  /** Runs commands over the persistent connection when there is one, else as one tmux process. */
  get commandRunner(): TmuxRunner {
    return this.pollRunner;
  }

  get serverLabel(): string {
    return this.remote ? `${describeSocket(this.socket)} on ${this.host}` : describeSocket(this.socket);
  }

  /** Calls made through the poll runner (round trips over the control connection, when there is one). */
  get pollRoundTrips(): number {
    return this.roundTrips;
  }

  /** One call through the poll runner, counted. */
  roundTrip(args: readonly string[], options?: RunOptions): Promise<TmuxResult> {
    this.roundTrips += 1;
    return this.pollRunner(args, options);
  }

  /** Commands over the persistent connection, each answered on its own, counted as one round trip; null without one. */
  async replies(commands: readonly (readonly string[])[]): Promise<readonly ControlReply[] | null> {
    if (!this.pollRunner.replies) return null;
    this.roundTrips += 1;
    return this.pollRunner.replies(commands);
  }

  /** Throws NoServerError when a failed run failed for want of a server. */
  throwIfNoServer(result: TmuxResult): void {
    if (result.exitCode !== 0 && isNoServerMessage(result.stderr)) throw new NoServerError(this.serverLabel);
  }

  /**
   * How this server shows a paste buffer to the control connection, asked once (screens go through
   * buffers there, since a printed capture leaks before tmux 3.6). An answer that came from a tmux
   * process instead (no connection just then) is not kept.
   */
  async bufferStyle(): Promise<BufferStyle> {
    if (this.shownStyle) return this.shownStyle;
    const result = await this.roundTrip(probeCommand(this.framing));
    this.throwIfNoServer(result);
    const style = result.exitCode === 0 ? parseProbe(result.stdout) : null;
    if (style === null) throw new TmuxCommandError(['show-buffer'], result);
    if (this.pollRunner.connected?.() !== false) this.shownStyle = style;
    return style;
  }

  /** Runs a command about one pane as its own tmux process: PaneGoneError when the pane is gone. */
  async checked(paneId: string, args: readonly string[], input?: string): Promise<string> {
    const result = await this.runner(args, input === undefined ? undefined : { input });
    if (result.exitCode === 0) return result.stdout;
    this.throwIfNoServer(result);
    if (GONE_MESSAGE.test(result.stderr)) throw new PaneGoneError(paneId);
    throw new TmuxCommandError(args, result);
  }

  /** Ends the persistent poll connection, if there is one. */
  async close(): Promise<void> {
    await this.pollRunner.close?.();
  }
}

/** `tmux -V` as [major, minor], or throws TmuxMissingError when tmux is not installed. */
export async function tmuxVersion(runner: TmuxRunner): Promise<[number, number] | null> {
  const result = await runner(['-V']);
  const match = /tmux\s+(?:next-)?(\d+)\.(\d+)/.exec(result.stdout);
  return match ? [Number(match[1]), Number(match[2])] : null;
}
