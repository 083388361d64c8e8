// When the engine polls: one cycle at a time, the next one armed when a cycle ends (after the
// delay the cycle asks for), at once on request, and extra cycles at fixed delays after a hook.
// Every timer goes through the injected Timers.

import type { Timers } from '../types.js';

export class PollLoop {
  private timer: unknown = null;
  private running = false;
  private inFlight: Promise<void> | null = null;
  /** A cycle was asked for while one ran: the next one comes right after it. */
  private soon = false;
  private readonly extra = new Set<unknown>();

  /** `cycle` runs one poll and resolves to the delay before the next one (ms). */
  constructor(
    private readonly cycle: () => Promise<number>,
    private readonly timers: Timers,
  ) {}

  get started(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.poll();
  }

  /** Runs a cycle now, after the one in flight if any. */
  async pollNow(): Promise<void> {
    if (this.inFlight) await this.inFlight;
    this.disarm();
    await this.poll();
  }

  /** While running: a cycle as soon as possible (right after the one in flight, if any). */
  pollSoon(): void {
    if (!this.running) return;
    if (this.inFlight) this.soon = true;
    else this.arm(0);
  }

  /** While running: a cycle at each of `delays` from now, each after `before()`. */
  pollAfter(delays: readonly number[], before: () => void): void {
    if (!this.running) return;
    for (const delay of delays) {
      const handle = this.timers.setTimeout(() => {
        this.extra.delete(handle);
        before();
        void this.poll();
      }, delay);
      this.extra.add(handle);
    }
  }

  /** Stops arming timers and waits for the cycle in flight. */
  async stop(): Promise<void> {
    this.running = false;
    for (const handle of this.extra) this.timers.clearTimeout(handle);
    this.extra.clear();
    this.disarm();
    if (this.inFlight) await this.inFlight;
  }

  private poll(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    this.inFlight = (async () => {
      try {
        const delay = await this.cycle();
        if (this.running) this.arm(this.soon ? 0 : delay);
        this.soon = false;
      } finally {
        this.inFlight = null;
      }
    })();
    return this.inFlight;
  }

  private arm(delay: number): void {
    this.disarm();
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      void this.poll();
    }, Math.max(0, delay));
  }

  private disarm(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}
