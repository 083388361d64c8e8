// PaneStreams against a scripted control connection: the seam, fencing and pause recovery,
// deterministic and without tmux.
import { describe, expect, it } from 'vitest';
import {
  PaneStreams,
  firstOffsetAt,
  type ControlConnection,
} from '../../../src/engine/pane-stream/pane-streams.js';
import type { ControlHandlers, ControlClientOptions } from '../../../src/engine/tmux/control-client.js';
import type { ControlReply } from '../../../src/engine/tmux/control-protocol.js';
import { ManualTime } from '../../helpers/manual-time.js';
import { Recorder } from '../../helpers/stream-recorder.js';

interface Pending {
  commands: readonly (readonly string[])[];
  onSettled: ((replies: readonly ControlReply[]) => void) | undefined;
  resolve: (replies: ControlReply[]) => void;
}

function scripted() {
  const pending: Pending[] = [];
  let handlers: ControlHandlers = {};
  let opened = 0;
  let closed = false;
  const connection: ControlConnection = {
    get closed() {
      return closed;
    },
    run(commands, onSettled) {
      return new Promise((resolve) => pending.push({ commands, onSettled, resolve }));
    },
    async close() {
      closed = true;
    },
  };
  return {
    pending,
    get opened() {
      return opened;
    },
    get closed() {
      return closed;
    },
    output: (paneId: string, data: string | Buffer) => handlers.onOutput?.(paneId, Buffer.from(data)),
    pause: (paneId: string) => handlers.onPause?.(paneId),
    notify: (name: string) => handlers.onNotification?.(name, ''),
    /** The tmux side ends the connection (session gone, server died, detached by someone). */
    exit() {
      closed = true;
      handlers.onExit?.('detached');
    },
    /** Answers the oldest command line: each command ok with the given lines. */
    answer(lines: string[][]) {
      const next = pending.shift()!;
      const replies = lines.map((l, i) => ({ number: i, flags: 1, ok: true, text: l.map((line) => `${line}\n`).join('') }));
      next.onSettled?.(replies);
      next.resolve(replies);
    },
    open: async (options: ControlClientOptions) => {
      opened += 1;
      closed = false;
      handlers = options.handlers ?? {};
      return connection;
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

const KEEP_MS = 60_000;

function streamsWith(
  script: ReturnType<typeof scripted>,
  time = new ManualTime(),
  sessionOf: (paneId: string) => Promise<string | null> = async () => '$1',
) {
  return new PaneStreams({
    socket: { kind: 'default' },
    ringBytes: 64,
    pauseAfterSeconds: 5,
    sessionOf,
    openControl: script.open,
    controlTimers: new ManualTime(),
    livenessMs: 3_600_000,
    firstOffset: 0,
    keepMs: KEEP_MS,
    timers: time,
  });
}

/** Subscribes a viewer to %1 and answers its join: one screen row, the cursor at the top left. */
async function join(streams: PaneStreams, script: ReturnType<typeof scripted>, viewer: Recorder, row = 'x', from?: number) {
  const joining = streams.subscribe('%1', viewer, from);
  await tick();
  script.answer([[row], ['0 0 1 80 24 0']]);
  return joining;
}

describe('PaneStreams with a scripted control connection', () => {
  it('puts everything before the capture reply in the snapshot and everything after in live output', async () => {
    const script = scripted();
    const streams = streamsWith(script);
    const viewer = new Recorder(false);
    const joining = streams.subscribe('%1', viewer);
    await tick();
    script.output('%1', 'before;');
    expect(script.pending[0]!.commands[0]).toEqual(['capture-pane', '-p', '-e', '-t', '%1']);
    script.answer([['screen row'], ['3 0 1 80 24 0']]);
    script.output('%1', 'after;');
    const sub = await joining;
    expect(sub.replay.mode).toBe('recovery');
    expect(sub.replay.snapshotOffset).toBe(7);
    expect(sub.replay.bytes.toString()).toContain('screen row');
    expect(viewer.chunks.map((c) => c.bytes.toString())).toEqual(['after;']);
    expect(viewer.chunks[0]!.endOffset).toBe(13);
    // Another pane's output in the same session is not this viewer's.
    script.output('%2', 'other');
    expect(viewer.chunks).toHaveLength(1);
    sub.unsubscribe();
    await tick();
    expect(script.closed).toBe(false);
  });

  it('keeps the ring and the control client for the grace period after the last viewer, then lets both go', async () => {
    const script = scripted();
    const time = new ManualTime();
    const streams = streamsWith(script, time);
    const first = new Recorder(false);
    const sub = await join(streams, script, first);
    script.output('%1', 'seen;');
    const left = first.chunks.at(-1)!.endOffset;
    sub.unsubscribe();
    // Output while nobody watches still goes into the ring.
    script.output('%1', 'missed-1;');
    await time.advance(KEEP_MS - 1);
    script.output('%1', 'missed-2;');
    expect(script.closed).toBe(false);
    const back = new Recorder(false);
    const resumed = await streams.subscribe('%1', back, left);
    // Exactly the bytes printed while away; no capture asked of tmux, no second client.
    expect(resumed.replay).toMatchObject({ mode: 'catch_up', snapshotOffset: left + 18 });
    expect(resumed.replay.bytes.toString()).toBe('missed-1;missed-2;');
    expect(script.pending).toHaveLength(0);
    expect(script.opened).toBe(1);
    // The viewer's return disarmed the expiry: time passing now changes nothing.
    await time.advance(2 * KEEP_MS);
    expect(script.closed).toBe(false);
    script.output('%1', 'live;');
    expect(back.chunks.map((c) => c.bytes.toString())).toEqual(['live;']);

    resumed.unsubscribe();
    await time.advance(KEEP_MS - 1);
    expect(script.closed).toBe(false);
    expect(streams.paneCount).toBe(1);
    await time.advance(1);
    expect(script.closed).toBe(true);
    expect(streams.paneCount).toBe(0);
    expect(streams.sessionCount).toBe(0);
    expect(time.timerCount).toBe(0);
  });

  it('repaints a viewer back after the grace period, with offsets past the old ring', async () => {
    const script = scripted();
    const time = new ManualTime();
    const streams = streamsWith(script, time);
    const first = new Recorder(false);
    const sub = await join(streams, script, first);
    script.output('%1', 'seen;');
    const left = first.chunks.at(-1)!.endOffset;
    sub.unsubscribe();
    await time.advance(KEEP_MS);
    expect(script.closed).toBe(true);
    const late = new Recorder(false);
    const resumed = await join(streams, script, late, 'screen now', left);
    expect(resumed.replay.mode).toBe('recovery');
    expect(resumed.replay.snapshotOffset).toBeGreaterThan(left);
    expect(script.opened).toBe(2);
  });

  it('with no grace period detaches with the last viewer', async () => {
    const script = scripted();
    const streams = new PaneStreams({
      socket: { kind: 'default' },
      ringBytes: 64,
      pauseAfterSeconds: 5,
      sessionOf: async () => '$1',
      openControl: script.open,
      controlTimers: new ManualTime(),
      livenessMs: 3_600_000,
      firstOffset: 0,
      keepMs: 0,
      timers: new ManualTime(),
    });
    const viewer = new Recorder(false);
    const sub = await join(streams, script, viewer);
    sub.unsubscribe();
    await tick();
    expect(script.closed).toBe(true);
  });

  it('ends viewers with "lost" when the control client goes but the pane is still there, "exited" when it is gone', async () => {
    for (const [exists, status] of [
      [true, 'lost'],
      [false, 'exited'],
    ] as const) {
      const script = scripted();
      let lookups = 0;
      const streams = streamsWith(script, new ManualTime(), async () => (lookups++ === 0 || exists ? '$1' : null));
      const viewer = new Recorder(false);
      await join(streams, script, viewer);
      script.exit();
      await tick();
      expect(viewer.ended).toEqual({ status, exitCode: null });
      expect(streams.sessionCount).toBe(0);
    }
  });

  it('catches up from an offset without asking tmux, and fences text at whole characters', async () => {
    const script = scripted();
    const streams = streamsWith(script);
    const first = new Recorder(true);
    await join(streams, script, first, '');
    const euro = Buffer.from('€');
    script.output('%1', 'ab');
    const mid = first.chunks.at(-1)!.textEnd;
    expect(mid).toBe(2);
    // Half a character: no text yet, and the text offset stays before it.
    script.output('%1', Buffer.concat([Buffer.from('c'), euro.subarray(0, 1)]));
    expect(first.chunks.at(-1)!.text).toBe('c');
    const second = new Recorder(true);
    const sub2 = await streams.subscribe('%1', second, mid);
    expect(script.pending).toHaveLength(0);
    expect(sub2.replay.mode).toBe('catch_up');
    expect(sub2.replay.bytes.toString()).toBe('c');
    expect(sub2.replay.snapshotOffset).toBe(3);
    expect(script.opened).toBe(1);
    // The rest of the character completes it for both viewers.
    script.output('%1', euro.subarray(1));
    expect(first.chunks.at(-1)!.text).toBe('€');
    expect(second.chunks.at(-1)!.text).toBe('€');
    expect(second.chunks.at(-1)!.textEnd).toBe(6);
  });

  it('on %pause continues the pane and repaints in one command line, past the gap', async () => {
    const script = scripted();
    const streams = streamsWith(script);
    const viewer = new Recorder(false);
    await join(streams, script, viewer);
    script.output('%1', '0123456789');
    script.pause('%1');
    expect(script.pending[0]!.commands.map((c) => c[0])).toEqual(['refresh-client', 'capture-pane', 'display-message']);
    expect(script.pending[0]!.commands[0]).toEqual(['refresh-client', '-A', '%1:continue']);
    script.answer([[], ['after pause'], ['0 0 1 80 24 0']]);
    await tick();
    expect(viewer.resets).toHaveLength(1);
    expect(viewer.resets[0]!.snapshotOffset).toBe(11);
    // A viewer resuming from before the gap gets a repaint (the one just taken), not a silent hole.
    const late = new Recorder(false);
    const resumed = await streams.subscribe('%1', late, 10);
    expect(resumed.replay.mode).toBe('recovery');
    expect(resumed.replay.bytes.toString()).toContain('after pause');
    expect(script.pending).toHaveLength(0);
  });

  it('serves later viewers the kept repaint plus the output since, without asking tmux', async () => {
    const script = scripted();
    const streams = streamsWith(script);
    const first = new Recorder(false);
    const sub = await join(streams, script, first, 'the screen');
    script.output('%1', 'abc');
    const second = new Recorder(true);
    const later = await streams.subscribe('%1', second);
    expect(script.pending).toHaveLength(0);
    expect(later.replay.mode).toBe('recovery');
    expect(later.replay.bytes.toString()).toMatch(/the screen.*abc$/s);
    expect(later.replay.snapshotOffset).toBe(3);
    // Once the output since the kept repaint has left the ring, a new capture is taken.
    sub.unsubscribe();
    script.output('%1', 'x'.repeat(100));
    const third = new Recorder(false);
    const joining = streams.subscribe('%1', third);
    await tick();
    expect(script.pending).toHaveLength(1);
    script.answer([['new screen'], ['0 0 1 80 24 0']]);
    expect((await joining).replay.bytes.toString()).toContain('new screen');
  });

  it('lets viewers that arrive together share one capture', async () => {
    const script = scripted();
    const streams = streamsWith(script);
    const viewers = [new Recorder(false), new Recorder(true), new Recorder(false)];
    const joining = viewers.map((v) => streams.subscribe('%1', v));
    await tick();
    expect(script.pending).toHaveLength(1);
    script.answer([['shared'], ['0 0 1 80 24 0']]);
    const subs = await Promise.all(joining);
    expect(subs.map((s) => s.replay.mode)).toEqual(['recovery', 'recovery', 'recovery']);
    expect(subs.every((s) => s.replay.bytes.toString().includes('shared'))).toBe(true);
  });

  it('takes a new capture after a layout change (a resize changes the screen without output)', async () => {
    const script = scripted();
    const streams = streamsWith(script);
    await join(streams, script, new Recorder(false));
    script.notify('layout-change');
    void streams.subscribe('%1', new Recorder(false));
    await tick();
    // (The notification also has the panes' liveness checked.)
    expect(script.pending.map((p) => p.commands[0])).toContainEqual(['capture-pane', '-p', '-e', '-t', '%1']);
  });

  it('on tmux before 3.6 captures into a paste buffer, takes it, and keeps output after the repaint', async () => {
    const script = scripted();
    const taken: string[] = [];
    let release: (lines: string[]) => void = () => {};
    const streams = new PaneStreams({
      socket: { kind: 'default' },
      ringBytes: 1024,
      pauseAfterSeconds: 5,
      sessionOf: async () => '$1',
      openControl: script.open,
      controlTimers: new ManualTime(),
      livenessMs: 3_600_000,
      firstOffset: 0,
      timers: new ManualTime(),
      screenBuffers: {
        take: (name) => {
          taken.push(name);
          return new Promise((resolve) => (release = resolve));
        },
      },
    });
    const viewer = new Recorder(false);
    const joining = streams.subscribe('%1', viewer);
    await tick();
    const [capture] = script.pending[0]!.commands;
    expect(capture).toEqual(['capture-pane', '-e', '-b', expect.stringMatching(/^corral-screen-[0-9a-f]{8}-1$/), '-t', '%1']);
    script.answer([[], ['0 0 1 80 24 0']]);
    await tick();
    expect(taken).toEqual([capture![3]]);
    release(['from the buffer']);
    const sub = await joining;
    expect(sub.replay.bytes.toString()).toContain('from the buffer');
    // A repaint asked for later: output that comes while the buffer is read follows the repaint.
    const refreshing = streams.repaint('%1', viewer);
    await tick();
    script.answer([[], ['0 0 1 80 24 0']]);
    await tick();
    script.output('%1', 'meanwhile');
    expect(viewer.resets).toHaveLength(0);
    expect(viewer.chunks).toHaveLength(0);
    release(['second screen']);
    await refreshing;
    expect(viewer.resets.map((r) => r.bytes.toString().includes('second screen'))).toEqual([true]);
    expect(viewer.chunks.map((c) => c.bytes.toString())).toEqual(['meanwhile']);
  });

  it('starts offsets past those of any earlier corral process', async () => {
    const script = scripted();
    // Taken before the streams exist: their offsets start from the clock when they are made.
    const before = Date.now() * 1024;
    const streams = new PaneStreams({
      socket: { kind: 'default' },
      ringBytes: 64,
      pauseAfterSeconds: 0,
      sessionOf: async () => '$1',
      openControl: script.open,
      controlTimers: new ManualTime(),
      firstOffset: firstOffsetAt(Date.now()),
      timers: new ManualTime(),
    });
    const viewer = new Recorder(false);
    const sub = await join(streams, script, viewer, 'x', 5000);
    expect(sub.replay.mode).toBe('recovery');
    expect(sub.replay.snapshotOffset).toBeGreaterThanOrEqual(before);
    expect(Number.isSafeInteger(sub.replay.snapshotOffset)).toBe(true);
    await streams.close();
  });

  it('ends viewers with "closed" when it shuts down', async () => {
    const script = scripted();
    const streams = streamsWith(script);
    const viewer = new Recorder(false);
    await join(streams, script, viewer);
    await streams.close();
    expect(viewer.ended).toEqual({ status: 'closed', exitCode: null });
    expect(script.closed).toBe(true);
  });
});
