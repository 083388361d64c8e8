// A clock and timers driven by hand: advance(ms) runs due callbacks in time order and lets
// promises settle between them.

import type { Clock } from '../../src/engine/types.js';
import type { Timers } from '../../src/engine/types.js';

export class ManualTime implements Clock, Timers {
  private current: number;
  private nextId = 1;
  private readonly pending = new Map<number, { at: number; callback: () => void }>();

  constructor(start = 1_000_000) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.pending.set(id, { at: this.current + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  get timerCount(): number {
    return this.pending.size;
  }

  /** Moves time forward, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    const end = this.current + ms;
    for (;;) {
      await settle();
      let due: [number, { at: number; callback: () => void }] | null = null;
      for (const entry of this.pending) if (entry[1].at <= end && (due === null || entry[1].at < due[1].at)) due = entry;
      if (!due) break;
      this.pending.delete(due[0]);
      this.current = Math.max(this.current, due[1].at);
      due[1].callback();
    }
    this.current = end;
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
}
