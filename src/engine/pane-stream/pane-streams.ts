// Live pane output for viewers. One tmux control client per session that has viewers (a control
// client only hears the panes of its own session); per watched pane a ring of recent bytes with
// growing offsets, and the seam between "the screen now" and "what comes next" taken on the same
// control connection, so a viewer sees every byte exactly once. tmux stays the source of truth.
// A pane's ring (and so its session's control client) outlives its last viewer by a grace period:
// a viewer back within it catches up exactly, and viewers coming and going never churn tmux
// control clients (attaching and detaching them concurrently can crash tmux 3.3a).

import type { TmuxTransport } from '../tmux/transport.js';
import { type Timers, type TmuxSocket } from '../types.js';
import { ControlClient, type ControlClientOptions } from '../tmux/control-client.js';
import { replyLines, type ControlReply } from '../tmux/control-protocol.js';
import type { SendItem } from '../typing/keys.js';
import { assertPaneId } from '../tmux/pane-id.js';
import { PaneGoneError } from '../tmux/core.js';
import { chain, escapeArg } from '../tmux/command-line.js';
import { sendBytesCommands, sendItemCommands } from '../tmux/pane-io.js';
import { runChecked, type TmuxRunner } from '../tmux/runner.js';
import { RingBuffer } from './ring-buffer.js';
import { randomBytes } from 'node:crypto';
import { buildRepaint, parseCursorLine, repaintCommands } from './repaint.js';
import { Utf8Stream, leadingContinuationBytes } from './utf8-stream.js';

// The pane-gone error is tmux's own; the stream owners re-use it.
export { PaneGoneError };

export type ReplayMode = 'none' | 'catch_up' | 'recovery';

export interface Replay {
  readonly mode: ReplayMode;
  /** Bytes to write before live output: the catch-up range, or a full repaint. */
  readonly bytes: Buffer;
  /** Live output after this offset follows the replay with nothing missing and nothing repeated. */
  readonly snapshotOffset: number;
}

/** One piece of live output; `text`/`textEnd` exist for viewers that need whole characters. */
export interface LiveChunk {
  readonly paneId: string;
  readonly bytes: Buffer;
  readonly endOffset: number;
  readonly text: string;
  readonly textEnd: number;
}

export interface PaneEnd {
  /**
   * `exited`: the pane is gone; `closed`: corral stopped watching (shutting down); `lost`: the
   * tmux control connection went away while the pane still exists (a new subscribe reconnects).
   */
  readonly status: 'exited' | 'closed' | 'lost';
  readonly exitCode: number | null;
}

export interface StreamViewer {
  /** True for viewers that get text (offsets then count whole characters only). */
  readonly text: boolean;
  onOutput(chunk: LiveChunk): void;
  /** The stream had a gap (tmux paused the pane, or a repaint was asked for): start over from this. */
  onReset(replay: Replay): void;
  onEnd(end: PaneEnd): void;
}

export interface Subscription {
  readonly replay: Replay;
  unsubscribe(): void;
}

/** The part of a control client the streams need (tests pass a scripted one). */
export interface ControlConnection {
  readonly closed: boolean;
  run(
    commands: readonly (readonly string[])[],
    onSettled?: (replies: readonly ControlReply[]) => void,
  ): Promise<ControlReply[]>;
  close(): Promise<void>;
}

export type OpenControl = (options: ControlClientOptions) => Promise<ControlConnection>;

export interface PaneStreamsOptions {
  readonly socket: TmuxSocket;
  /** How the host's tmux is reached (this machine's by default; over ssh for another host). */
  readonly transport?: TmuxTransport;
  /** Ring size per watched pane, bytes. */
  readonly ringBytes: number;
  /** tmux `pause-after` in seconds (0: off). */
  readonly pauseAfterSeconds: number;
  /** Finds the session (`$N`) a pane belongs to; null when there is no such pane. */
  readonly sessionOf: (paneId: string) => Promise<string | null>;
  readonly openControl?: OpenControl;
  /** Runs commands for panes nobody watches yet (typing before the first subscribe). */
  readonly runner?: TmuxRunner;
  /**
   * Offset of the first byte of a pane first seen by this process: firstOffsetAt(now), which grows
   * with the wall clock, so offsets a client kept from an earlier corral process are always older
   * than the new ring (a repaint), never mistaken for a place in the new stream.
   */
  readonly firstOffset: number;
  /** How often to check that watched panes still exist. */
  readonly livenessMs?: number;
  /**
   * How long a pane's ring outlives its last viewer (ms). Its session's control client stays as
   * long as one of its panes is kept. 0 drops both with the last viewer.
   */
  readonly keepMs?: number;
  /** For the liveness checks and the rings kept after their last viewer. */
  readonly timers: Timers;
  /** For the sessions' control clients (their attach timeout and detach wait). */
  readonly controlTimers: Timers;
  /**
   * Where repaints take the screen from. Without it, from the capture's reply (`capture-pane -p`).
   * With it, the capture goes into a paste buffer that `take` reads and deletes outside control
   * mode: tmux 3.2 to 3.5 leak the text of every `capture-pane -p` run by a control client.
   */
  readonly screenBuffers?: { take(name: string): Promise<string[] | null> };
}


/** corral is shutting the streams down: no new viewer is taken. */
/**
 * The first offset of the streams made at wall-clock time `now`: 1024 offsets per millisecond,
 * ~280,000 years of headroom below 2^53, and more bytes than a pane can print in that time.
 */
export function firstOffsetAt(now: number): number {
  return now * 1024;
}

export class StreamsClosingError extends Error {
  constructor() {
    super('corral is stopping');
    this.name = 'StreamsClosingError';
  }
}

interface PaneStream {
  readonly paneId: string;
  readonly ring: RingBuffer;
  readonly utf8: Utf8Stream;
  readonly viewers: Set<StreamViewer>;
  resyncing: boolean;
  /** Live output for viewers whose repaint is still being read: it follows the repaint. */
  readonly held: Map<StreamViewer, LiveChunk[]>;
  /**
   * The last repaint and where in the stream it was taken. A viewer joining later gets it plus
   * the output since (from the ring), so viewers coming and going cost tmux no capture.
   */
  screen: { readonly bytes: Buffer; readonly byteOffset: number; readonly textOffset: number } | null;
  /** A capture for joining viewers under way: later joiners wait for it instead of asking again. */
  capturing: Promise<unknown> | null;
  /** Armed while nobody views the pane: when it fires, the ring is dropped. */
  expiry: unknown;
  /** Subscriptions waiting for their repaint: the stream must not be dropped under them. */
  joining: number;
}

interface SessionLink {
  readonly sessionId: string;
  readonly client: ControlConnection;
  readonly panes: Map<string, PaneStream>;
  timer: unknown;
  checking: boolean;
  /** Set once corral itself closes the link: the client's exit then ends nothing more. */
  closing: boolean;
}

/** A kept repaint serves new viewers while the output since it is at most this long. */
const SCREEN_TAIL_BYTES = 64 * 1024;

export class PaneStreams {
  private readonly links = new Map<string, Promise<SessionLink>>();
  private readonly ready = new Map<string, SessionLink>();
  /** Where each pane's offsets stopped, so a later stream of the same pane never reuses them. */
  private readonly lastEnd = new Map<string, number>();
  private readonly openControl: OpenControl;
  private readonly firstOffset: number;
  private readonly timers: Timers;
  private readonly keepMs: number;
  private readonly bufferPrefix = `corral-screen-${randomBytes(4).toString('hex')}`;
  private buffers = 0;
  private closing = false;

  constructor(private readonly options: PaneStreamsOptions) {
    this.openControl = options.openControl ?? ((o) => ControlClient.open(o));
    this.timers = options.timers;
    this.keepMs = options.keepMs ?? 300_000;
    this.firstOffset = options.firstOffset;
  }

  /** Sessions that currently hold a control client (for tests and diagnostics). */
  get sessionCount(): number {
    return this.ready.size;
  }

  /** Panes whose output is kept, with or without viewers (for tests and diagnostics). */
  get paneCount(): number {
    let count = 0;
    for (const link of this.ready.values()) count += link.panes.size;
    return count;
  }

  /**
   * Starts watching a pane for a viewer. With `fromOffset` inside the ring the viewer gets exactly
   * the bytes after it (`catch_up`, or `none` when it missed nothing); otherwise a repaint of the
   * current screen (`recovery`). Live output after the replay goes to `viewer.onOutput`.
   */
  async subscribe(paneId: string, viewer: StreamViewer, fromOffset?: number): Promise<Subscription> {
    assertPaneId(paneId);
    if (this.closing) throw new StreamsClosingError();
    const sessionId = await this.options.sessionOf(paneId);
    if (sessionId === null) throw new PaneGoneError(paneId);
    let link = await this.link(sessionId);
    // A link that started closing while we waited for it cannot take new viewers: open the next.
    if (link.closing) link = await this.link(sessionId);
    if (this.closing) throw new StreamsClosingError();
    if (link.closing) throw new Error('the tmux connection for this session is closing; try again');
    const stream = this.stream(link, paneId);
    const unsubscribe = () => this.leave(link, stream, viewer);

    if (fromOffset !== undefined && !stream.resyncing) {
      const snapshot = viewer.text ? stream.utf8.boundary : stream.ring.endOffset;
      if (stream.ring.holds(fromOffset, snapshot)) {
        let bytes = stream.ring.slice(fromOffset, snapshot);
        if (viewer.text) bytes = bytes.subarray(leadingContinuationBytes(bytes));
        this.watch(stream, viewer);
        return {
          replay: { mode: bytes.length === 0 ? 'none' : 'catch_up', bytes, snapshotOffset: snapshot },
          unsubscribe,
        };
      }
    }
    stream.joining += 1;
    let replay: Replay;
    try {
      replay = await this.recovery(link, stream, viewer);
    } catch (error) {
      // The capture failed: the pane is gone (or going), so its ring is of no use to anyone.
      stream.joining -= 1;
      stream.viewers.delete(viewer);
      this.dropIfIdle(link, stream);
      throw error;
    }
    stream.joining -= 1;
    return { replay, unsubscribe };
  }

  /** A repaint for a joining viewer: the kept one plus the output since, or a new capture. */
  private async recovery(link: SessionLink, stream: PaneStream, viewer: StreamViewer): Promise<Replay> {
    // Viewers that arrive together share one capture.
    while (stream.capturing) await stream.capturing.catch(() => undefined);
    if (link.panes.get(stream.paneId) !== stream) throw new PaneGoneError(stream.paneId);
    const kept = this.keptScreen(stream, viewer);
    if (kept) {
      this.watch(stream, viewer);
      return kept;
    }
    let snapshotOffset = 0;
    const capturing = this.captureScreen(
      link,
      stream.paneId,
      [],
      (ok) => {
        if (!ok || link.panes.get(stream.paneId) !== stream) return;
        // The seam: every byte appended so far is in the capture, every later byte is live. The
        // viewer gets live output from here on; it sends it after the replay.
        snapshotOffset = viewer.text ? stream.utf8.boundary : stream.ring.endOffset;
        this.watch(stream, viewer);
      },
      stream,
    );
    stream.capturing = capturing;
    let bytes: Buffer | null;
    try {
      bytes = await capturing;
    } finally {
      if (stream.capturing === capturing) stream.capturing = null;
    }
    if (bytes === null || !stream.viewers.has(viewer)) throw new PaneGoneError(stream.paneId);
    return { mode: 'recovery', bytes, snapshotOffset };
  }

  /** The kept repaint with the output since appended, while that is short and all in the ring. */
  private keptScreen(stream: PaneStream, viewer: StreamViewer): Replay | null {
    const screen = stream.screen;
    if (screen === null || stream.resyncing) return null;
    const from = viewer.text ? screen.textOffset : screen.byteOffset;
    const to = viewer.text ? stream.utf8.boundary : stream.ring.endOffset;
    if (!stream.ring.holds(from, to) || to - from > SCREEN_TAIL_BYTES) return null;
    const tail = stream.ring.slice(from, to);
    return { mode: 'recovery', bytes: tail.length > 0 ? Buffer.concat([screen.bytes, tail]) : screen.bytes, snapshotOffset: to };
  }

  /** A fresh repaint for one viewer (the `refresh` message). */
  async repaint(paneId: string, viewer: StreamViewer): Promise<void> {
    const link = this.linkOfViewer(paneId, viewer);
    if (!link) return;
    const stream = link.panes.get(paneId) as PaneStream;
    let snapshotOffset = 0;
    const bytes = await this.captureScreen(
      link,
      paneId,
      [],
      (ok) => {
        if (!ok || !stream.viewers.has(viewer)) return;
        snapshotOffset = viewer.text ? stream.utf8.boundary : stream.ring.endOffset;
        stream.held.set(viewer, []);
      },
      stream,
    );
    this.reset(stream, viewer, bytes, snapshotOffset);
  }

  /**
   * Resolves once every byte tmux had read from the pane before this call has reached the pane's
   * viewers: tmux answers a control client's command only after the output it queued before it.
   */
  async sync(paneId: string): Promise<void> {
    const link = [...this.ready.values()].find((l) => l.panes.has(paneId) && !l.client.closed);
    if (!link) return;
    await link.client.run([['display-message', '-p', '-t', paneId, '']]).catch(() => undefined);
  }

  /** Types raw terminal bytes into the pane. */
  async sendBytes(paneId: string, bytes: Buffer): Promise<void> {
    if (bytes.length === 0) return;
    await this.runChecked(paneId, sendBytesCommands(paneId, bytes));
  }

  /** Types keys and text (validated by the caller with parseSendItems). */
  async sendItems(paneId: string, items: readonly SendItem[]): Promise<void> {
    if (items.length === 0) return;
    await this.runChecked(paneId, sendItemCommands(paneId, items));
  }

  async resize(paneId: string, cols: number, rows: number): Promise<void> {
    assertPaneId(paneId);
    await this.runChecked(paneId, [['resize-pane', '-t', paneId, '-x', String(cols), '-y', String(rows)]]);
  }

  /** Ends every stream (viewers get `closed`) and detaches every control client, one at a time. */
  async close(): Promise<void> {
    this.closing = true;
    const links = await Promise.allSettled([...this.links.values()]);
    await Promise.all(
      links.map((l) => (l.status === 'fulfilled' ? this.closeLink(l.value, 'closed') : Promise.resolve())),
    );
  }

  // --- internals -------------------------------------------------------------------------------

  private async runChecked(paneId: string, commands: readonly (readonly string[])[]): Promise<void> {
    const link = [...this.ready.values()].find((l) => l.panes.has(paneId) && !l.client.closed);
    if (!link) {
      if (!this.options.runner) throw new Error(`pane ${paneId} is not being watched (subscribe first)`);
      await runChecked(this.options.runner, chain(commands.map((c) => c.map(escapeArg))));
      return;
    }
    const replies = await link.client.run(commands);
    const failed = replies.find((r) => !r.ok);
    if (failed || replies.length < commands.length) {
      throw new Error(`tmux refused: ${(failed ? replyLines(failed).join(' ') : '') || 'command not run'}`);
    }
  }

  private linkOfViewer(paneId: string, viewer: StreamViewer): SessionLink | null {
    for (const link of this.ready.values()) if (link.panes.get(paneId)?.viewers.has(viewer)) return link;
    return null;
  }

  /**
   * Captures the screen and the cursor after `prefix`, in one command line; `atSeam(ok)` runs at
   * the exact point of the output stream where they were taken. Resolves with the repaint bytes,
   * or null when the pane could not be captured.
   */
  private async captureScreen(
    link: SessionLink,
    paneId: string,
    prefix: readonly string[][],
    atSeam: (ok: boolean) => void,
    keepIn?: PaneStream,
  ): Promise<Buffer | null> {
    const buffers = this.options.screenBuffers;
    const buffer = buffers ? `${this.bufferPrefix}-${++this.buffers}` : null;
    let captured = false;
    let ok = false;
    let printed: readonly string[] = [];
    let cursorLine: string | undefined;
    let seam = { byteOffset: 0, textOffset: 0 };
    await link.client.run([...prefix, ...repaintCommands(paneId, buffer)], (replies) => {
      const [capture, cursor] = replies.slice(prefix.length);
      captured = capture?.ok === true;
      ok = captured && cursor?.ok === true;
      printed = capture ? replyLines(capture) : [];
      cursorLine = cursor ? replyLines(cursor)[0] : undefined;
      if (keepIn) seam = { byteOffset: keepIn.ring.endOffset, textOffset: keepIn.utf8.boundary };
      atSeam(ok);
    });
    // A buffer that was filled is always taken, so none is left in the user's buffer list.
    const lines = buffers && buffer && captured ? await buffers.take(buffer).catch(() => null) : printed;
    if (!ok || lines === null) return null;
    const bytes = buildRepaint(lines, parseCursorLine(cursorLine));
    if (keepIn && keepIn.ring.holds(seam.byteOffset)) keepIn.screen = { bytes, ...seam };
    return bytes;
  }

  /** Delivers a repaint to a viewer whose live output was held meanwhile, then that output. */
  private reset(stream: PaneStream, viewer: StreamViewer, bytes: Buffer | null, snapshotOffset: number): void {
    const held = stream.held.get(viewer);
    if (held === undefined) return;
    stream.held.delete(viewer);
    if (!stream.viewers.has(viewer)) return;
    if (bytes !== null) viewer.onReset({ mode: 'recovery', bytes, snapshotOffset });
    for (const chunk of held) viewer.onOutput(chunk);
  }

  private link(sessionId: string): Promise<SessionLink> {
    let pending = this.links.get(sessionId);
    if (!pending) {
      pending = this.openLink(sessionId);
      this.links.set(sessionId, pending);
      pending.catch(() => this.links.delete(sessionId));
    }
    return pending;
  }

  private async openLink(sessionId: string): Promise<SessionLink> {
    const panes = new Map<string, PaneStream>();
    let link: SessionLink | null = null;
    const client = await this.openControl({
      socket: this.options.socket,
      ...(this.options.transport ? { transport: this.options.transport } : {}),
      session: sessionId,
      pauseAfterSeconds: this.options.pauseAfterSeconds,
      timers: this.options.controlTimers,
      handlers: {
        onOutput: (paneId, data) => {
          const stream = panes.get(paneId);
          if (stream) this.deliver(stream, data);
        },
        onPause: (paneId) => {
          const stream = panes.get(paneId);
          if (stream && link) this.recoverFromPause(link, stream);
        },
        onNotification: (name) => {
          // A resize changes the screen without any output: kept repaints no longer match it.
          if (name === 'layout-change') for (const stream of panes.values()) stream.screen = null;
          if (
            link &&
            /^(window-close|unlinked-window-close|layout-change|window-pane-changed|sessions-changed|pane-mode-changed)$/.test(
              name,
            )
          ) {
            this.checkLiveness(link);
          }
        },
        onExit: () => {
          if (link) void this.linkLost(link);
        },
      },
    });
    link = { sessionId, client, panes, timer: null, checking: false, closing: false };
    this.ready.set(sessionId, link);
    this.armLiveness(link);
    if (client.closed) void this.linkLost(link);
    return link;
  }

  private armLiveness(link: SessionLink): void {
    link.timer = this.timers.setTimeout(() => {
      link.timer = null;
      if (link.closing) return;
      this.checkLiveness(link);
      this.armLiveness(link);
    }, this.options.livenessMs ?? 2000);
  }

  private stream(link: SessionLink, paneId: string): PaneStream {
    let stream = link.panes.get(paneId);
    if (!stream) {
      const last = this.lastEnd.get(paneId);
      // A new stream of a pane seen before starts past its old offsets: resuming across the gap
      // (bytes nobody recorded) must give a repaint, never a silent hole.
      const start = last === undefined ? this.firstOffset : last + 1;
      stream = {
        paneId,
        ring: new RingBuffer(this.options.ringBytes, start),
        utf8: new Utf8Stream(start),
        viewers: new Set(),
        held: new Map(),
        screen: null,
        capturing: null,
        resyncing: false,
        expiry: null,
        joining: 0,
      };
      link.panes.set(paneId, stream);
    }
    return stream;
  }

  private watch(stream: PaneStream, viewer: StreamViewer): void {
    if (stream.expiry !== null) this.timers.clearTimeout(stream.expiry);
    stream.expiry = null;
    stream.viewers.add(viewer);
  }

  private deliver(stream: PaneStream, data: Buffer): void {
    if (data.length === 0) return;
    const endOffset = stream.ring.append(data);
    if (stream.viewers.size === 0) {
      stream.utf8.push(data, endOffset);
      return;
    }
    const text = stream.utf8.push(data, endOffset);
    const chunk: LiveChunk = { paneId: stream.paneId, bytes: data, endOffset, text, textEnd: stream.utf8.boundary };
    for (const viewer of [...stream.viewers]) {
      const held = stream.held.get(viewer);
      if (held) held.push(chunk);
      else viewer.onOutput(chunk);
    }
  }

  /**
   * tmux paused the pane (we fell behind) and dropped its output meanwhile. Continue it and take a
   * repaint in the same command line; offsets jump past the gap so no one resumes across it.
   */
  private recoverFromPause(link: SessionLink, stream: PaneStream): void {
    if (stream.resyncing) return;
    stream.resyncing = true;
    stream.screen = null;
    const restart = stream.ring.endOffset + 1;
    stream.ring.restartAt(restart);
    stream.utf8.restartAt(restart);
    const offsets = new Map<StreamViewer, number>();
    this.captureScreen(
      link,
      stream.paneId,
      [['refresh-client', '-A', `${stream.paneId}:continue`]],
      (ok) => {
        stream.resyncing = false;
        if (!ok) return;
        for (const viewer of stream.viewers) {
          offsets.set(viewer, viewer.text ? stream.utf8.boundary : stream.ring.endOffset);
          stream.held.set(viewer, []);
        }
      },
      stream,
    )
      .then(
        (bytes) => {
          for (const [viewer, offset] of offsets) this.reset(stream, viewer, bytes, offset);
        },
        () => {
          for (const viewer of offsets.keys()) this.reset(stream, viewer, null, 0);
        },
      )
      .finally(() => {
        stream.resyncing = false;
      });
  }

  private checkLiveness(link: SessionLink): void {
    if (link.checking || link.client.closed || link.panes.size === 0) return;
    link.checking = true;
    const streams = [...link.panes.values()];
    // One command line per pane: a missing pane must not cut the checks of the others.
    Promise.all(
      streams.map((stream) =>
        link.client
          .run([['display-message', '-p', '-t', stream.paneId, '#{pane_id} #{pane_dead} #{pane_dead_status}']])
          .then(
            ([reply]) => ({ stream, reply }),
            () => ({ stream, reply: undefined }),
          ),
      ),
    )
      .then((results) => {
        for (const { stream, reply } of results) {
          const fields = reply?.ok ? (replyLines(reply)[0] ?? '').split(' ') : [];
          if (fields[0] !== stream.paneId) {
            if (!link.client.closed) this.endStream(link, stream, { status: 'exited', exitCode: null });
          } else if (fields[1] === '1') {
            const code = Number(fields[2]);
            this.endStream(link, stream, { status: 'exited', exitCode: Number.isInteger(code) ? code : null });
          }
        }
      })
      .finally(() => {
        link.checking = false;
      });
  }

  private endStream(link: SessionLink, stream: PaneStream, end: PaneEnd): void {
    if (link.panes.get(stream.paneId) !== stream) return;
    this.forget(link, stream);
    const viewers = [...stream.viewers];
    stream.viewers.clear();
    for (const viewer of viewers) viewer.onEnd(end);
    if (link.panes.size === 0) void this.closeLink(link);
  }

  /**
   * The control client went away without corral closing it: the session ended, the tmux server
   * died, or someone detached it. Panes that are gone have exited; the viewers of panes that still
   * exist are told the connection was lost, so they can subscribe again.
   */
  private async linkLost(link: SessionLink): Promise<void> {
    if (link.closing) return;
    const streams = [...link.panes.values()];
    const exists = await Promise.all(
      streams.map((stream) =>
        this.options.sessionOf(stream.paneId).then(
          (session) => session !== null,
          () => false,
        ),
      ),
    );
    if (link.closing) return;
    streams.forEach((stream, i) =>
      this.endStream(link, stream, { status: exists[i] ? 'lost' : 'exited', exitCode: null }),
    );
    void this.closeLink(link);
  }

  private leave(link: SessionLink, stream: PaneStream, viewer: StreamViewer): void {
    stream.held.delete(viewer);
    if (!stream.viewers.delete(viewer)) return;
    this.release(link, stream);
  }

  /** Nobody views the pane any more: keep its ring for the grace period, then drop it. */
  private release(link: SessionLink, stream: PaneStream): void {
    if (stream.viewers.size > 0 || stream.joining > 0 || link.panes.get(stream.paneId) !== stream) return;
    if (stream.expiry !== null) return;
    if (this.keepMs <= 0 || this.closing) {
      this.drop(link, stream);
      return;
    }
    stream.expiry = this.timers.setTimeout(() => {
      stream.expiry = null;
      if (stream.viewers.size === 0 && stream.joining === 0) this.drop(link, stream);
    }, this.keepMs);
  }

  private dropIfIdle(link: SessionLink, stream: PaneStream): void {
    if (stream.viewers.size === 0 && stream.joining === 0) this.drop(link, stream);
  }

  private drop(link: SessionLink, stream: PaneStream): void {
    if (link.panes.get(stream.paneId) !== stream) return;
    this.forget(link, stream);
    if (link.panes.size === 0) void this.closeLink(link);
  }

  /** Removes a stream, remembering where its offsets stopped. */
  private forget(link: SessionLink, stream: PaneStream): void {
    link.panes.delete(stream.paneId);
    if (stream.expiry !== null) this.timers.clearTimeout(stream.expiry);
    stream.expiry = null;
    this.lastEnd.set(stream.paneId, stream.ring.endOffset);
  }

  private async closeLink(link: SessionLink, status: PaneEnd['status'] = 'exited'): Promise<void> {
    link.closing = true;
    if (this.ready.get(link.sessionId) === link) {
      this.ready.delete(link.sessionId);
      this.links.delete(link.sessionId);
    }
    if (link.timer !== null) this.timers.clearTimeout(link.timer);
    link.timer = null;
    for (const stream of [...link.panes.values()]) {
      this.forget(link, stream);
      const viewers = [...stream.viewers];
      stream.viewers.clear();
      for (const viewer of viewers) viewer.onEnd({ status, exitCode: null });
    }
    await link.client.close();
  }
}
