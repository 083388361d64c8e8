import { describe, expect, it } from 'vitest';
import { EventQueue, type Timers } from '../../../src/engine/events/event-queue.js';
import type { CorralEvent } from '../../../src/engine/types.js';
import { realDeliveryTimers } from '../../helpers/real-time.js';

/** Timers driven by hand: run() fires the due callbacks. */
class ManualTimers implements Timers {
  now = 0;
  private pending: Array<{ at: number; fn: () => void; id: number }> = [];
  private nextId = 1;
  setTimeout(fn: () => void, ms: number) {
    const id = this.nextId++;
    this.pending.push({ at: this.now + ms, fn, id });
    return id;
  }
  clearTimeout(handle: unknown) {
    this.pending = this.pending.filter((t) => t.id !== handle);
  }
  get delays() {
    return this.pending.map((t) => t.at - this.now);
  }
  async advance(ms: number) {
    this.now += ms;
    const due = this.pending.filter((t) => t.at <= this.now);
    this.pending = this.pending.filter((t) => t.at > this.now);
    for (const t of due) t.fn();
    await flush();
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0));
const ev = (n: number): CorralEvent => ({ type: 'unstuck', host: 'local', key: '%1', sessionId: `s${n}`, paneId: '%1', timestamp: n });

describe('event queue', () => {
  it('delivers in order while the sink is up', async () => {
    const got: number[] = [];
    const q = new EventQueue({ timers: realDeliveryTimers, deliver: async (e) => void got.push(e.timestamp) });
    for (let i = 1; i <= 5; i++) q.push(ev(i));
    await q.whenIdle();
    expect(got).toEqual([1, 2, 3, 4, 5]);
  });

  it('queues while down, retries with growing backoff, reports the outage once, then delivers everything in order', async () => {
    const timers = new ManualTimers();
    let up = false;
    const got: number[] = [];
    const outages: string[] = [];
    const recoveries: Array<{ delivered: number; dropped: number }> = [];
    const q = new EventQueue({
      deliver: async (e) => {
        if (!up) throw new Error('ECONNREFUSED');
        got.push(e.timestamp);
      },
      timers,
      initialBackoffMs: 100,
      maxBackoffMs: 1000,
      onOutage: (e) => outages.push(e.message),
      onRecovery: (info) => recoveries.push(info),
    });
    q.push(ev(1));
    q.push(ev(2));
    await flush();
    expect(timers.delays).toEqual([100]);
    await timers.advance(100);
    expect(timers.delays).toEqual([200]);
    await timers.advance(200);
    await timers.advance(400);
    await timers.advance(800);
    expect(timers.delays).toEqual([1000]);
    q.push(ev(3));
    expect(outages).toEqual(['ECONNREFUSED']);
    expect(q.size).toBe(3);
    up = true;
    await timers.advance(1000);
    await q.whenIdle();
    expect(got).toEqual([1, 2, 3]);
    expect(recoveries).toEqual([{ delivered: 3, dropped: 0 }]);
    expect(q.outage).toBe(false);
  });

  it('drops the oldest events when full, and counts them', async () => {
    const timers = new ManualTimers();
    let up = false;
    const got: number[] = [];
    const q = new EventQueue({
      deliver: async (e) => {
        if (!up) throw new Error('down');
        got.push(e.timestamp);
      },
      capacity: 3,
      timers,
      initialBackoffMs: 10,
    });
    for (let i = 1; i <= 6; i++) q.push(ev(i));
    await flush();
    expect(q.size).toBe(3);
    expect(q.dropped).toBe(3);
    up = true;
    await timers.advance(10);
    await q.whenIdle();
    expect(got).toEqual([4, 5, 6]);
  });
});
