import { afterEach, describe, expect, it } from 'vitest';
import { PaneStreams } from '../../../src/engine/pane-stream/pane-streams.js';
import { openControlClientCount } from '../../../src/engine/tmux/control-client.js';
import { Recorder } from '../../helpers/stream-recorder.js';
import { realStreamsTime } from '../../helpers/real-time.js';
import { startTestTmux, type TestTmux } from '../../helpers/tmux-server.js';
import { GENERATOR, expectContiguous, numberedLines, viewerText } from '../../helpers/stream-text.js';

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

let tmux: TestTmux | null = null;
let streams: PaneStreams | null = null;

afterEach(async () => {
  await streams?.close();
  streams = null;
  await tmux?.kill();
  tmux = null;
});

function makeStreams(t: TestTmux, ringBytes = 1 << 20, keepMs?: number): PaneStreams {
  return new PaneStreams({
    socket: t.socket,
    ringBytes,
    pauseAfterSeconds: 5,
    ...realStreamsTime(),
    ...(keepMs === undefined ? {} : { keepMs }),
    sessionOf: async (paneId) => {
      try {
        return (await t.tmux('display-message', '-p', '-t', paneId, '#{session_id}')).trim() || null;
      } catch {
        return null;
      }
    },
  });
}

describe('PaneStreams (real tmux)', () => {
  it('joins with a repaint and continues live with each numbered line exactly once', async () => {
    tmux = await startTestTmux();
    const pane = await tmux.spawn(GENERATOR);
    await tmux.waitForScreen(pane, (s) => /line \d+/.test(s));
    streams = makeStreams(tmux);
    const viewer = new Recorder(false);
    const sub = await streams.subscribe(pane, viewer);
    expect(sub.replay.mode).toBe('recovery');
    await until(() => numberedLines(viewer.liveBytes.toString()).length > 200);
    const text = viewerText(sub.replay.bytes.toString(), viewer.liveBytes.toString());
    expectContiguous(numberedLines(text), 200);
    // Live offsets continue the snapshot offset without gaps.
    let offset = sub.replay.snapshotOffset;
    for (const chunk of viewer.chunks) {
      expect(chunk.endOffset).toBe(offset + chunk.bytes.length);
      offset = chunk.endOffset;
    }
    sub.unsubscribe();
  });

  it('resumes at an offset inside the ring exactly', async () => {
    tmux = await startTestTmux();
    const pane = await tmux.spawn(GENERATOR);
    streams = makeStreams(tmux, 16384);
    const first = new Recorder(false);
    const sub1 = await streams.subscribe(pane, first);
    await until(() => first.chunks.length > 20);
    const k = first.chunks.length - 2;
    const resumeAt = first.chunks[k]!.endOffset;
    const second = new Recorder(false);
    const sub2 = await streams.subscribe(pane, second, resumeAt);
    expect(sub2.replay.mode).toBe('catch_up');
    await until(() => second.chunks.length > 5);
    // What the second viewer got from resumeAt on equals what the first one got from there.
    const fromFirst = Buffer.concat(first.chunks.slice(k + 1).map((c) => c.bytes));
    const fromSecond = Buffer.concat([sub2.replay.bytes, second.liveBytes]);
    const common = Math.min(fromFirst.length, fromSecond.length);
    expect(common).toBeGreaterThan(100);
    expect(fromSecond.subarray(0, common).equals(fromFirst.subarray(0, common))).toBe(true);

    sub1.unsubscribe();
    sub2.unsubscribe();
  });

  it('repaints for an offset that fell out of the ring', async () => {
    tmux = await startTestTmux();
    const pane = await tmux.spawn('bash --norc');
    streams = makeStreams(tmux, 4096);
    const first = new Recorder(false);
    const sub1 = await streams.subscribe(pane, first);
    await tmux.tmux('send-keys', '-t', pane, 'seq 1 5000', 'Enter');
    await until(() => first.chunks.length > 0, 10000);
    const early = first.chunks[0]!.endOffset;
    await until(() => first.chunks.at(-1)!.endOffset > early + 3 * 4096, 20000);
    const late = new Recorder(false);
    const sub3 = await streams.subscribe(pane, late, early);
    expect(sub3.replay.mode).toBe('recovery');
    sub1.unsubscribe();
    sub3.unsubscribe();
  });

  it('uses one control client per session and, without a grace period, closes it when the last viewer leaves', async () => {
    tmux = await startTestTmux();
    const a = await tmux.spawn('bash --norc', { session: 'one' });
    const b = await tmux.spawn('bash --norc', { session: 'two' });
    streams = makeStreams(tmux, 1 << 20, 0);
    const va = new Recorder(true);
    const vb = new Recorder(true);
    const sa = await streams.subscribe(a, va);
    const sb = await streams.subscribe(b, vb);
    expect(streams.sessionCount).toBe(2);
    const clients = async () =>
      (await tmux!.tmux('list-clients', '-F', '#{client_flags}')).split('\n').filter((l) => l.includes('control-mode'));
    expect(await clients()).toHaveLength(2);
    await tmux.tmux('send-keys', '-t', a, 'echo alpha-$((6*7))', 'Enter');
    await tmux.tmux('send-keys', '-t', b, 'echo beta-$((6*7))', 'Enter');
    await until(
      () =>
        va.chunks
          .map((c) => c.text)
          .join('')
          .includes('alpha-42') &&
        vb.chunks
          .map((c) => c.text)
          .join('')
          .includes('beta-42'),
    );
    sa.unsubscribe();
    sb.unsubscribe();
    await until(() => streams!.sessionCount === 0);
    await until(() => openControlClientCount() === 0);
    const deadline = Date.now() + 3000;
    while ((await clients()).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await clients()).toHaveLength(0);
  });

  it('keeps the ring after the last viewer leaves: a viewer back in time gets exactly what it missed', async () => {
    tmux = await startTestTmux();
    const pane = await tmux.spawn('bash --norc');
    streams = makeStreams(tmux);
    const first = new Recorder(false);
    const sub1 = await streams.subscribe(pane, first);
    await tmux.tmux('send-keys', '-t', pane, 'echo before-$((2*3))', 'Enter');
    await until(() => first.liveBytes.includes('before-6'));
    const left = first.chunks.at(-1)!.endOffset;
    sub1.unsubscribe();
    // Nobody watches now; the pane prints, and the control client stays to record it.
    await tmux.tmux('send-keys', '-t', pane, 'echo while-away-$((6*7))', 'Enter');
    await tmux.waitForScreen(pane, (s) => s.includes('while-away-42'));
    const back = new Recorder(false);
    const sub2 = await streams.subscribe(pane, back, left);
    expect(sub2.replay.mode).toBe('catch_up');
    const missed = sub2.replay.bytes.toString();
    expect(missed).toContain('while-away-42');
    expect(missed).not.toContain('before-6');
    expect(streams.sessionCount).toBe(1);
    sub2.unsubscribe();
  });

  it('tells viewers when the pane exits', async () => {
    tmux = await startTestTmux();
    await tmux.spawn('bash --norc');
    const pane = await tmux.spawn('bash --norc');
    streams = makeStreams(tmux);
    const viewer = new Recorder(true);
    await streams.subscribe(pane, viewer);
    await tmux.tmux('send-keys', '-t', pane, 'exit 3', 'Enter');
    await until(() => viewer.ended !== null);
    expect(viewer.ended?.status).toBe('exited');
  });
});

describe('flow control (real tmux)', () => {
  it('recovers from %pause with a repaint and offsets past the gap', async () => {
    tmux = await startTestTmux();
    const pane = await tmux.spawn('bash --norc');
    streams = new PaneStreams({
      socket: tmux.socket,
      ringBytes: 1 << 20,
      // Flow control on, but far enough away that tmux never pauses the pane by itself here: the
      // test pauses it, so the recovery runs once, at a known moment, whatever the machine's load.
      pauseAfterSeconds: 600,
      ...realStreamsTime(),
      sessionOf: async (id) => (await tmux!.tmux('display-message', '-p', '-t', id, '#{session_id}')).trim(),
    });
    const viewer = new Recorder(false);
    await streams.subscribe(pane, viewer);
    await tmux.tmux('send-keys', '-t', pane, 'while :; do echo tick-$RANDOM; sleep 0.02; done', 'Enter');
    await until(() => viewer.chunks.length > 10);
    const controlClients = (await tmux.tmux('list-clients', '-F', '#{client_control_mode} #{client_name}'))
      .split('\n')
      .filter((line) => line.startsWith('1 '))
      .map((line) => line.slice(2));
    expect(controlClients).toHaveLength(1);
    // What tmux does to a control client that falls pause-after seconds behind, asked for directly:
    // it drops the pane's queued output and sends %pause; output stops until corral continues it.
    const endBefore = viewer.chunks.at(-1)!.endOffset;
    await tmux.tmux('refresh-client', '-t', controlClients[0]!, '-A', `${pane}:pause`);
    await until(() => viewer.resets.length > 0, 10_000);
    expect(viewer.resets).toHaveLength(1);
    const reset = viewer.resets[0]!;
    expect(reset.mode).toBe('recovery');
    expect(reset.snapshotOffset).toBeGreaterThan(endBefore);
    expect(reset.bytes.subarray(0, 2).toString()).toBe('\x1bc');
    // corral continued the pane: output flows again after the repaint, at offsets past it.
    const count = viewer.chunks.length;
    await until(() => viewer.chunks.length > count + 5);
    expect(viewer.chunks.at(-1)!.endOffset).toBeGreaterThan(reset.snapshotOffset);
    await tmux.tmux('send-keys', '-t', pane, 'C-c', '');
  });
});
