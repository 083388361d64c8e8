// The poll loop on hand-driven time: cycles at the delay each one asks for, one at a time, extra
// cycles after a hook, and nothing armed once stopped. Counts, never sleeps.

import { describe, expect, it } from 'vitest';
import { PollLoop } from '../../../src/engine/poll/poll-loop.js';
import { ManualTime } from '../../helpers/manual-time.js';

function loop(delay: (n: number) => number = () => 500) {
  const time = new ManualTime();
  const runs: number[] = [];
  let release: (() => void) | null = null;
  let hold = false;
  const cycle = async () => {
    runs.push(time.now());
    if (hold) await new Promise<void>((resolve) => (release = resolve));
    return delay(runs.length);
  };
  const poller = new PollLoop(cycle, time);
  return { time, runs, poller, holdNext: () => (hold = true), release: () => (hold = false, release?.()) };
}

describe('PollLoop', () => {
  it('runs a cycle at start, then after the delay each cycle returns', async () => {
    const l = loop((n) => (n === 2 ? 0 : 500));
    l.poller.start();
    await l.time.advance(1_600);
    // 0, 500 (asks for 0), 500 again at once, then every 500.
    expect(l.runs.map((t) => t - 1_000_000)).toEqual([0, 500, 500, 1000, 1500]);
    await l.poller.stop();
    expect(l.time.timerCount).toBe(0);
  });

  it('never runs two cycles at once: pollNow waits for the one in flight, then runs its own', async () => {
    const l = loop();
    l.poller.start();
    await l.time.advance(0);
    l.holdNext();
    await l.time.advance(500);
    expect(l.runs).toHaveLength(2);
    const now = l.poller.pollNow();
    await l.time.advance(0);
    expect(l.runs).toHaveLength(2);
    l.release();
    await now;
    expect(l.runs).toHaveLength(3);
    await l.poller.stop();
  });

  it('runs extra cycles after a hook at the given delays, each after its callback', async () => {
    const l = loop(() => 10_000);
    l.poller.start();
    await l.time.advance(0);
    const marks: number[] = [];
    l.poller.pollAfter([250, 800], () => marks.push(l.time.now() - 1_000_000));
    await l.time.advance(1_000);
    expect(marks).toEqual([250, 800]);
    expect(l.runs.map((t) => t - 1_000_000)).toEqual([0, 250, 800]);
    await l.poller.stop();
  });

  it('runs a cycle at once when asked soon, or right after the one in flight', async () => {
    const l = loop(() => 10_000);
    l.poller.start();
    await l.time.advance(0);
    l.poller.pollSoon();
    await l.time.advance(0);
    expect(l.runs.map((t) => t - 1_000_000)).toEqual([0, 0]);
    l.holdNext();
    await l.time.advance(10_000);
    expect(l.runs).toHaveLength(3);
    l.poller.pollSoon();
    l.release();
    await l.time.advance(0);
    expect(l.runs.map((t) => t - 1_000_000)).toEqual([0, 0, 10_000, 10_000]);
    await l.poller.stop();
    l.poller.pollSoon();
    await l.time.advance(60_000);
    expect(l.runs).toHaveLength(4);
  });

  it('arms nothing before start or after stop: no cycle runs however long time goes on', async () => {
    const l = loop();
    l.poller.pollAfter([100], () => undefined);
    await l.time.advance(5_000);
    expect(l.runs).toEqual([]);
    l.poller.start();
    await l.time.advance(0);
    l.poller.pollAfter([100, 200], () => undefined);
    await l.poller.stop();
    expect(l.time.timerCount).toBe(0);
    await l.time.advance(60_000);
    expect(l.runs).toHaveLength(1);
  });
});
