// One WebSocket viewer of one pane. JSON mode speaks the attach protocol (hello, replay, output,
// status, error, pong); raw mode sends terminal bytes only (repaint, then live) so that
// @xterm/addon-attach works unchanged. Read-only unless the upgrade was allowed to write.

import type { WebSocket, RawData } from 'ws';
import type { PaneInfo, Timers } from '../../engine/types.js';
import { HostDownError, PaneGoneError, StreamsClosingError, UnknownKeyError, parseSendItems, type LiveChunk, type PaneEnd, type PanePort, type Replay, type StreamViewer, type Subscription } from '../../engine/port/pane-port-api.js';
import { CLOSE_CODES, parseClientMessage, type ClientMessage } from './protocol.js';

export interface ConnectionOptions {
  readonly ws: WebSocket;
  /** The pane's key across hosts, and its listing when the upgrade was taken. */
  readonly key: string;
  readonly pane: PaneInfo;
  readonly port: PanePort;
  readonly mode: 'json' | 'raw';
  readonly write: boolean;
  readonly allowResize: boolean;
  /** Unsent bytes above which the viewer is dropped. */
  readonly slowClientBytes: number;
  /** Shared per live chunk, so N viewers of one pane stringify it once. */
  readonly encodeOutput: (chunk: LiveChunk) => string;
  /** For the wait before a socket that does not read its close frame is ended. */
  readonly timers: Timers;
  readonly onClose: () => void;
}

export class AttachConnection implements StreamViewer {
  readonly text: boolean;
  private subscription: Subscription | null = null;
  private subscribing = false;
  /** Live output at or below this offset was already covered by the replay. */
  private fence = -1;
  private closed = false;
  private queue: Promise<void> = Promise.resolve();
  /** Live output received before the replay was sent (null when not subscribing). */
  private held: LiveChunk[] | null = null;

  constructor(private readonly options: ConnectionOptions) {
    this.text = options.mode === 'json';
    const { ws } = options;
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('close', () => this.dispose());
    ws.on('error', () => this.dispose());
  }

  start(): void {
    if (this.options.mode === 'raw') {
      void this.subscribe(undefined);
      return;
    }
    const { pane } = this.options;
    this.sendJson({
      type: 'hello',
      pane: {
        id: pane.paneId,
        session: pane.sessionName,
        session_id: pane.sessionId,
        window: pane.windowIndex,
        window_name: pane.windowName,
        index: pane.paneIndex,
        title: pane.title,
        command: pane.command,
        cwd: pane.cwd,
        cols: pane.width,
        rows: pane.height,
      },
      write: this.options.write,
      resize: this.options.write && this.options.allowResize,
    });
  }

  // --- StreamViewer ------------------------------------------------------------------------------

  onOutput(chunk: LiveChunk): void {
    if (this.closed) return;
    // Output that comes while the replay of a subscribe is on its way follows the replay.
    if (this.held !== null) {
      this.held.push(chunk);
      return;
    }
    if (this.options.mode === 'raw') {
      if (chunk.endOffset <= this.fence) return;
      this.send(chunk.bytes);
      return;
    }
    if (chunk.text === '' || chunk.textEnd <= this.fence) return;
    this.send(this.options.encodeOutput(chunk));
  }

  onReset(replay: Replay): void {
    this.sendReplay(replay);
  }

  onEnd(end: PaneEnd): void {
    this.subscription = null;
    if (this.closed) return;
    if (end.status === 'closed') {
      this.close(CLOSE_CODES.goingAway, 'server stopping');
      return;
    }
    if (end.status === 'lost') {
      // The pane is still there: the viewer may connect again (a new tmux connection is made).
      if (this.options.mode === 'json') this.error('tmux_lost', 'the tmux connection for this pane went away; connect again');
      this.close(CLOSE_CODES.internalError, 'lost the tmux connection');
      return;
    }
    if (this.options.mode === 'json') {
      this.sendJson({
        type: 'status',
        status: 'exited',
        ...(end.exitCode === null ? {} : { exit_code: end.exitCode }),
      });
    }
    this.close(CLOSE_CODES.paneExited, 'pane exited');
  }

  // --- internals ---------------------------------------------------------------------------------

  private async subscribe(fromOffset: number | undefined): Promise<void> {
    if (this.subscribing) {
      this.error('busy', 'a subscribe is already in progress');
      return;
    }
    this.subscribing = true;
    this.subscription?.unsubscribe();
    this.subscription = null;
    this.held = [];
    try {
      const subscription = await this.options.port.stream(this.options.key, this, fromOffset);
      if (this.closed) {
        subscription.unsubscribe();
        return;
      }
      this.subscription = subscription;
      // A terminal opened on the pane: the person sees it.
      this.options.port.markSeen(this.options.key);
      this.sendReplay(subscription.replay);
      const held = this.held;
      this.held = null;
      for (const chunk of held) this.onOutput(chunk);
    } catch (error) {
      if (error instanceof StreamsClosingError) {
        this.close(CLOSE_CODES.goingAway, 'server stopping');
      } else if (error instanceof HostDownError) {
        if (this.options.mode === 'json') this.error('host_unreachable', error.message);
        this.close(CLOSE_CODES.internalError, `${error.host} is unreachable`);
      } else if (error instanceof PaneGoneError) {
        if (this.options.mode === 'json') this.error('no_such_pane', error.message);
        this.close(CLOSE_CODES.noSuchPane, 'no such pane');
      } else {
        if (this.options.mode === 'json') this.error('attach_failed', (error as Error).message);
        this.close(CLOSE_CODES.internalError, 'could not watch the pane');
      }
    } finally {
      this.held = null;
      this.subscribing = false;
    }
  }

  private sendReplay(replay: Replay): void {
    this.fence = replay.snapshotOffset;
    if (this.options.mode === 'raw') {
      if (replay.bytes.length > 0) this.send(replay.bytes);
      return;
    }
    this.sendJson({
      type: 'replay',
      replay_mode: replay.mode,
      chunks: replay.bytes.length > 0 ? [replay.bytes.toString('utf8')] : [],
      snapshot_offset: replay.snapshotOffset,
    });
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (this.options.mode === 'raw') {
      // Raw mode carries only terminal bytes; a read-only viewer's keystrokes are dropped here.
      if (this.options.write) this.serially(() => this.options.port.input(this.options.key, bytes));
      return;
    }
    if (isBinary) {
      this.error('bad_message', 'JSON mode takes text frames; use ?mode=raw for terminal bytes');
      return;
    }
    const parsed = parseClientMessage(bytes.toString('utf8'));
    if (!parsed.ok) {
      this.error(parsed.error.code, parsed.error.message);
      return;
    }
    this.handle(parsed.message);
  }

  private handle(message: ClientMessage): void {
    const { key, port } = this.options;
    switch (message.type) {
      case 'subscribe':
        void this.subscribe(message.fromOffset);
        return;
      case 'ping':
        this.sendJson({ type: 'pong', id: message.id });
        return;
      case 'refresh':
        if (this.subscription) void port.repaint(key, this).catch(() => undefined);
        else this.error('not_subscribed', 'send subscribe first');
        return;
      case 'input':
        if (!this.mayWrite('input')) return;
        this.serially(() => port.input(key, Buffer.from(message.data, 'utf8')));
        return;
      case 'keys': {
        if (!this.mayWrite('keys')) return;
        let items;
        try {
          items = parseSendItems(message.keys);
        } catch (error) {
          if (error instanceof UnknownKeyError) {
            this.error('unknown_key', `${error.message}; nothing was sent`);
            return;
          }
          throw error;
        }
        this.serially(() => port.send(key, items));
        return;
      }
      case 'resize':
        if (!this.mayWrite('resize')) return;
        // Resizing changes the user's own layout: only when they allowed it; otherwise ignored.
        if (!this.options.allowResize) return;
        this.serially(() => port.resize(key, message.cols, message.rows));
        return;
    }
  }

  private mayWrite(what: string): boolean {
    if (this.options.write) return true;
    this.error(
      'read_only',
      `this connection is read-only: ${what} was not sent (connect with ?write=1 and the token to type)`,
    );
    return false;
  }

  /** Keeps keystrokes in order even though each goes to tmux asynchronously. */
  private serially(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch((error: Error) => {
      if (this.options.mode === 'json') this.error('tmux_error', `could not send to the pane: ${error.message}`);
    });
  }

  private error(code: string, message: string): void {
    this.sendJson({ type: 'error', code, message });
  }

  private sendJson(value: unknown): void {
    this.send(JSON.stringify(value));
  }

  private send(data: string | Buffer): void {
    const { ws } = this.options;
    if (this.closed || ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > this.options.slowClientBytes) {
      this.close(CLOSE_CODES.tooSlow, 'too slow: output was not read fast enough');
      return;
    }
    ws.send(data);
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    const { ws } = this.options;
    this.dispose();
    ws.close(code, reason);
    // A client that does not read will not read our close frame either.
    this.options.timers.setTimeout(() => ws.terminate(), 2000);
  }

  private dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.subscription?.unsubscribe();
    this.subscription = null;
    this.options.onClose();
  }
}
