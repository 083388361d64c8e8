// One long-lived tmux control-mode client (`tmux -C attach -t SESSION`): a command queue whose
// replies resolve promises, and a stream of notifications (pane output above all). Besides
// runner.ts this is the only place that starts tmux, through the host's transport (over ssh:
// `ssh -T HOST -- tmux -C attach …`; control mode needs no terminal). Attaching and detaching go through the
// server's ControlGate, one at a time. No signal handlers here: each client runs under a small
// supervisor (control-supervisor.ts) that ends it when its commands stop coming, so none outlives
// corral, however corral ends (even on SIGKILL).

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { type Timers, type TmuxSocket } from '../types.js';
import { controlGate, type ControlGate } from './control-gate.js';
import { ControlLimitError, ControlParser, formatControlLine, replyLines, type ControlEvent, type ControlReply } from './control-protocol.js';
import { localTransport, type TmuxTransport } from './transport.js';
import { trackChild } from './child-processes.js';

export interface ControlHandlers {
  onOutput?(paneId: string, data: Buffer): void;
  onPause?(paneId: string): void;
  onContinue?(paneId: string): void;
  /** Any other notification (`%layout-change`, `%window-close` ...). */
  onNotification?(name: string, args: string): void;
  /** The connection ended (closed by us, detached, session gone, or tmux died). */
  onExit?(reason: string): void;
}

export interface ControlClientOptions {
  readonly socket: TmuxSocket;
  /** Session to attach to: `$1` or a name. */
  readonly session: string;
  /** tmux flow control: pause a pane whose output is this many seconds behind (0: off). */
  readonly pauseAfterSeconds?: number;
  /** More client flags, e.g. `no-output` for a connection that only runs commands. */
  readonly extraFlags?: readonly string[];
  readonly handlers?: ControlHandlers;
  /** The tmux program, for a local connection without `transport`. */
  readonly binary?: string;
  /** How the host's tmux is reached; a local tmux on `socket` when not given. */
  readonly transport?: TmuxTransport;
  /** How long open() waits for the attach to finish. */
  readonly timeoutMs?: number;
  /** For the attach timeout and the wait after a detach (the process is held by the child meanwhile anyway). */
  readonly timers: Timers;
}

export class ControlClientError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ControlClientError';
  }
}

interface PendingCommand {
  readonly expected: number;
  readonly replies: ControlReply[];
  readonly onSettled: ((replies: readonly ControlReply[]) => void) | undefined;
  readonly resolve: (replies: ControlReply[]) => void;
  readonly reject: (error: Error) => void;
}

const live = new Set<ControlClient>();

/** How many control clients this process holds open (for tests and diagnostics). */
export function openControlClientCount(): number {
  return live.size;
}


export class ControlClient {
  private readonly parser = new ControlParser();
  private readonly queue: PendingCommand[] = [];
  private readonly handlers: ControlHandlers;
  private exited = false;
  private exitReason = '';
  private closing: Promise<void> | null = null;
  private readonly exitedPromise: Promise<void>;
  sessionId = '';
  sessionName = '';
  /** Why the connection was dropped for sending more than a reader keeps (see MAX_CONTROL_LINE); null otherwise. */
  overflow: string | null = null;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly gate: ControlGate,
    handlers: ControlHandlers,
    private readonly timers: Timers,
  ) {
    this.handlers = handlers;
    this.exitedPromise = new Promise((resolve) => child.once('close', () => resolve()));
  }

  /** Attaches to the session and resolves once tmux has finished attaching. */
  static async open(options: ControlClientOptions): Promise<ControlClient> {
    const pauseAfter = options.pauseAfterSeconds ?? 0;
    const flags = [
      'ignore-size',
      ...(pauseAfter > 0 ? [`pause-after=${Math.floor(pauseAfter)}`] : []),
      ...(options.extraFlags ?? []),
    ].join(',');
    const transport =
      options.transport ??
      (options.binary === undefined ? localTransport(options.socket) : localTransport(options.socket, options.binary));
    // -u: tmux would otherwise replace every non-ASCII byte of command replies with `_` under a
    // non-UTF-8 locale (titles, paths, screens shown from buffers).
    const command = transport.controlCommand(['-u', '-C', 'attach-session', '-f', flags, '-t', options.session]);
    const gate = controlGate(options.socket, transport.remote ? transport.host : null);
    return gate.run(() => {
      // In a session (and process group) of its own: a terminal that closes hangs up corral alone,
      // which then detaches its clients in order; kill() ends the whole group. The lifeline (fd 3)
      // is never written: the supervisor waits for its end.
      const child = spawn(command.file, command.args, {
        stdio: command.lifeline ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
        detached: true,
      }) as ChildProcessWithoutNullStreams;
      trackChild(child, true);
      child.stdio[3]?.on('error', () => undefined);
      const client = new ControlClient(child, gate, options.handlers ?? {}, options.timers);
      live.add(client);
      return client.start(options.timeoutMs ?? 5000, transport);
    });
  }

  private start(timeoutMs: number, transport: TmuxTransport): Promise<ControlClient> {
    return new Promise((resolve, reject) => {
      let attached = false;
      const stderr: string[] = [];
      const early: string[] = [];
      const timer = this.timers.setTimeout(() => {
        if (attached) return;
        this.kill();
        reject(new ControlClientError(`tmux control client did not attach within ${timeoutMs} ms`));
      }, timeoutMs);
      this.child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
      this.child.stdin.on('error', () => undefined);
      this.child.on('error', (error: NodeJS.ErrnoException) => {
        this.timers.clearTimeout(timer);
        this.finish('could not start tmux');
        reject(
          error.code === 'ENOENT'
            ? transport.missingProgram()
            : new ControlClientError(`could not start ${transport.remote ? 'ssh' : 'tmux'}: ${error.message}`),
        );
      });
      this.child.on('close', (code: number | null) => {
        this.timers.clearTimeout(timer);
        this.finish(this.exitReason || 'tmux control client exited');
        if (!attached) {
          // ssh's own failures (host down, key refused) say more than "could not attach".
          const failure = code === null || code === 0 ? null : transport.classify(code, stderr.join(''));
          const why = this.overflow ?? ([...early, ...stderr].join(' ').trim() || 'tmux exited');
          reject(failure ?? new ControlClientError(`could not attach a tmux control client: ${why}`));
        }
      });
      this.child.stdout.on('data', (chunk: Buffer) => {
        this.feed(chunk, transport, (event) => {
          if (!attached) {
            if (event.kind === 'session-changed') {
              attached = true;
              this.timers.clearTimeout(timer);
              this.sessionId = event.sessionId;
              this.sessionName = event.name;
              resolve(this);
            } else if (event.kind === 'reply' && !event.reply.ok) {
              early.push(...replyLines(event.reply));
            }
            return;
          }
          this.dispatch(event);
        });
      });
    });
  }

  /** Parses what tmux sent; a peer that writes without end (a broken or hostile host) is dropped, alone. */
  private feed(chunk: Buffer, transport: TmuxTransport, emit: (event: ControlEvent) => void): void {
    if (this.overflow !== null) return;
    try {
      this.parser.push(chunk, emit);
    } catch (error) {
      if (!(error instanceof ControlLimitError)) throw error;
      this.overflow = transport.remote ? `the host ${error.message}` : `tmux ${error.message}`;
      this.exitReason = this.overflow;
      this.kill();
    }
  }

  get closed(): boolean {
    return this.exited;
  }

  private dispatch(event: ControlEvent): void {
    switch (event.kind) {
      case 'reply':
        this.onReply(event.reply);
        return;
      case 'output':
        this.handlers.onOutput?.(event.paneId, event.data);
        return;
      case 'pause':
        this.handlers.onPause?.(event.paneId);
        return;
      case 'continue':
        this.handlers.onContinue?.(event.paneId);
        return;
      case 'exit':
        this.exitReason = event.reason || 'detached';
        return;
      case 'session-changed':
        this.sessionId = event.sessionId;
        this.sessionName = event.name;
        this.handlers.onNotification?.('session-changed', `${event.sessionId} ${event.name}`);
        return;
      case 'window-pane-changed':
        this.handlers.onNotification?.('window-pane-changed', `${event.windowId} ${event.paneId}`);
        return;
      case 'notification':
        this.handlers.onNotification?.(event.name, event.args);
        return;
    }
  }

  private onReply(reply: ControlReply): void {
    // Blocks with flags 0 answer commands that did not come from this client (the attach itself).
    if (reply.flags === 0) return;
    const pending = this.queue[0];
    if (!pending) return;
    pending.replies.push(reply);
    // tmux drops the rest of a command line after a failing command.
    if (pending.replies.length < pending.expected && reply.ok) return;
    this.queue.shift();
    pending.onSettled?.(pending.replies);
    pending.resolve(pending.replies);
  }

  /**
   * Runs commands as one line: they execute back to back, with no pane output in between.
   * `onSettled` runs synchronously when the last reply arrives, before any later notification is
   * handled: the exact point in the output stream where the commands ran.
   */
  run(
    commands: readonly (readonly string[])[],
    onSettled?: (replies: readonly ControlReply[]) => void,
  ): Promise<ControlReply[]> {
    if (this.exited) return Promise.reject(new ControlClientError('the tmux control client has exited'));
    // Nothing to run needs no round trip, and must not be written: tmux detaches a control client
    // at an empty line.
    if (commands.length === 0) {
      onSettled?.([]);
      return Promise.resolve([]);
    }
    if (commands.some((command) => command.length === 0)) return Promise.reject(new ControlClientError('an empty tmux command'));
    const line = formatControlLine(commands);
    return new Promise((resolve, reject) => {
      this.queue.push({ expected: commands.length, replies: [], onSettled, resolve, reject });
      this.child.stdin.write(`${line}\n`);
    });
  }

  /** Runs one command and returns its output lines; a tmux error becomes a rejection. */
  async command(args: readonly string[]): Promise<string[]> {
    const [reply] = await this.run([args]);
    if (!reply?.ok)
      throw new ControlClientError(`tmux ${args[0] ?? ''} failed: ${reply ? replyLines(reply).join(' ') : 'no reply'}`);
    return replyLines(reply);
  }

  /**
   * Detaches cleanly, when no other control client on the server attaches or detaches; kills the
   * process if it has not gone within `graceMs` of the detach.
   */
  close(graceMs = 1000): Promise<void> {
    if (this.exited) return Promise.resolve();
    this.closing ??= this.gate.run(async () => {
      if (this.exited) return;
      this.exitReason = this.exitReason || 'closed';
      try {
        // An empty line detaches a control client.
        this.child.stdin.end('\n');
      } catch {
        // stdin already closed
      }
      const timer = this.timers.setTimeout(() => this.kill(), graceMs);
      await this.exitedPromise;
      this.timers.clearTimeout(timer);
    });
    return this.closing;
  }

  /** Ends the process at once (exit paths that cannot wait), with its whole group. */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null && this.child.pid !== undefined) {
      try {
        process.kill(-this.child.pid, 'SIGTERM');
      } catch {
        // gone meanwhile
      }
    }
    this.finish(this.exitReason || 'killed');
  }

  private finish(reason: string): void {
    if (this.exited) return;
    this.exited = true;
    live.delete(this);
    for (const pending of this.queue.splice(0))
      pending.reject(new ControlClientError(`tmux control client exited (${reason})`));
    this.handlers.onExit?.(reason);
  }
}
