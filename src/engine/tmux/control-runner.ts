// A TmuxRunner over one persistent tmux control-mode connection, for the engine's poll: a cycle
// then costs no process at all (forking a tmux client from a large Node process costs about 20 ms
// of CPU). Whenever the connection is not there (no session yet, its session closed, the server
// died) the call goes to the exec runner instead, and a later call connects again.

import { ControlClient, type ControlHandlers } from './control-client.js';
import { ChangeWatch } from './change-watch.js';
import { HostUnreachableError } from './host-errors.js';
import type { ControlReply } from './control-protocol.js';
import type { RunOptions, TmuxResult, TmuxRunner } from './runner.js';
import type { TmuxSocket } from '../types.js';
import type { TmuxTransport } from './transport.js';
import type { Clock, Timers } from '../types.js';

export interface ControlRunnerOptions {
  readonly socket: TmuxSocket;
  /** Used while there is no connection, and for anything with stdin. */
  readonly exec: TmuxRunner;
  /** How the host's tmux is reached (the exec runner's transport); local tmux when not given. */
  readonly transport?: TmuxTransport;
  /** How long attaching may take (ms); ssh's first connection to a host takes a while. */
  readonly attachTimeoutMs?: number;
  /** Wait this long after a failed or lost connection before trying again. */
  readonly retryMs?: number;
  /** The global option every record write also sets (see change-watch.ts): a change to it is told like output. */
  readonly recordsStamp: string;
  readonly clock: Clock;
  /** For the control connections' attach timeout and detach wait. */
  readonly timers: Timers;
}

export interface ControlRunner extends TmuxRunner {
  /** Whether the last call went over the connection (for tests and diagnostics). */
  readonly connected: () => boolean;
  /**
   * Runs commands over the connection and returns each one's reply (up to the first that failed);
   * null when there is no connection, and the caller runs them some other way.
   */
  replies(commands: readonly (readonly string[])[]): Promise<readonly ControlReply[] | null>;
  /**
   * Asks tmux to tell of changes over the connection (a format subscription, see change-watch.ts);
   * `listener` hears each one. From then on `changes` counts them.
   */
  watch(listener: () => void): void;
  /** How many changes tmux has told of; null while nothing watches (no connection, or no subscription on it). */
  changes(): number | null;
  /** The windows the changes after `mark` (a count from `changes`) touched; null when one may have touched anything. */
  windowsSince(mark: number): ReadonlySet<string> | null;
  close(): Promise<void>;
}

/** Splits chained argv (`a ; b`) into commands. */
function splitChain(args: readonly string[]): string[][] {
  const commands: string[][] = [[]];
  for (const arg of args) {
    if (arg === ';') commands.push([]);
    else commands[commands.length - 1]!.push(arg);
  }
  return commands.filter((c) => c.length > 0);
}

export function createControlRunner(options: ControlRunnerOptions): ControlRunner {
  const refuseOverflow = (connection: ControlClient) => {
    if (connection.overflow === null) return;
    if (options.transport?.remote) throw new HostUnreachableError(options.transport.host, connection.overflow);
    throw new Error(connection.overflow);
  };
  const retryMs = options.retryMs ?? 5_000;
  const clock = options.clock;
  const now = () => clock.now();
  let client: ControlClient | null = null;
  let connecting: Promise<ControlClient | null> | null = null;
  let nextTry = 0;
  let closed = false;
  const watch = new ChangeWatch(options.recordsStamp);

  const connect = async (): Promise<ControlClient | null> => {
    if (client && !client.closed) return client;
    client = null;
    if (closed || now() < nextTry) return null;
    nextTry = now() + retryMs;
    const sessions = await options.exec(['list-sessions', '-F', '#{session_id}']);
    const session = sessions.exitCode === 0 ? sessions.stdout.split('\n').find((s) => s.startsWith('$')) : undefined;
    if (!session) return null;
    try {
      const opened = await openConnection(options, session, watch.handlers);
      if (closed) {
        await opened.close();
        return null;
      }
      client = opened;
      if (watch.wanted) await watch.subscribe(opened);
      return client;
    } catch {
      return null;
    }
  };

  let lastConnected = false;
  const runner = async (args: readonly string[], runOptions?: RunOptions): Promise<TmuxResult> => {
    if (runOptions?.input !== undefined) return options.exec(args, runOptions);
    const answered = await replies(splitChain(args));
    // No connection, or it died under this call: answered the slow way, connected again later.
    return answered === null ? options.exec(args) : resultOf(answered);
  };

  const replies = async (commands: readonly (readonly string[])[]): Promise<readonly ControlReply[] | null> => {
    connecting ??= connect().finally(() => (connecting = null));
    const connection = await connecting;
    if (connection) {
      try {
        const answered = await connection.run(commands);
        lastConnected = true;
        return answered;
      } catch {
        // The connection died under this call; unless the peer flooded it, which the caller must
        // hear of (a host goes offline with the reason), the caller answers some other way.
        lastConnected = false;
        refuseOverflow(connection);
      }
    }
    lastConnected = false;
    return null;
  };

  return Object.assign(runner, {
    connected: () => lastConnected,
    replies,
    watch: (listener: () => void) => watch.listen(listener, client),
    changes: () => watch.changes(client),
    windowsSince: (mark: number) => (watch.changes(client) === null ? null : watch.windowsSince(mark)),
    async close() {
      closed = true;
      await connecting;
      await client?.close();
      client = null;
    },
  });
}

/** A control-mode connection attached to `session`, printing no pane output. */
function openConnection(options: ControlRunnerOptions, session: string, handlers: ControlHandlers): Promise<ControlClient> {
  return ControlClient.open({
    socket: options.socket,
    session,
    handlers,
    extraFlags: ['no-output'],
    timers: options.timers,
    ...(options.transport ? { transport: options.transport } : {}),
    ...(options.attachTimeoutMs === undefined ? {} : { timeoutMs: options.attachTimeoutMs }),
  });
}

/** The replies of a chain of commands as one run's result: up to the first that failed. */
function resultOf(replies: readonly ControlReply[]): TmuxResult {
  let stdout = '';
  for (const reply of replies) {
    if (!reply.ok) return { stdout, stderr: reply.text === '' ? '\n' : reply.text, exitCode: 1 };
    stdout += reply.text;
  }
  return { stdout, stderr: '', exitCode: 0 };
}
