// Delivers events to a sink in order, at least once per event while it is queued. A sink that is
// down never blocks the caller: events wait in a bounded queue, the oldest are dropped (and
// counted) when it overflows, and delivery is retried with exponential backoff.

import { type CorralEvent, type Timers } from '../types.js';

export type { Timers } from '../types.js';

export interface EventQueueOptions {
  /** Delivers one event; rejects when it did not arrive. */
  readonly deliver: (event: CorralEvent) => Promise<void>;
  readonly capacity?: number;
  readonly initialBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** For the retries' backoff (the CLI's choice of held or not, src/cli/time.ts). */
  readonly timers: Timers;
  /** Called once when delivery starts failing and once when it works again. */
  readonly onOutage?: (error: Error) => void;
  readonly onRecovery?: (info: { delivered: number; dropped: number }) => void;
}

export class EventQueue {
  private readonly queue: CorralEvent[] = [];
  private readonly capacity: number;
  private readonly initialBackoff: number;
  private readonly maxBackoff: number;
  private readonly timers: Timers;
  private backoff: number;
  private sending = false;
  private retryHandle: unknown = null;
  private down = false;
  private droppedTotal = 0;
  private droppedInOutage = 0;
  private deliveredInOutage = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly options: EventQueueOptions) {
    this.capacity = options.capacity ?? 1000;
    this.initialBackoff = options.initialBackoffMs ?? 250;
    this.maxBackoff = options.maxBackoffMs ?? 30_000;
    this.timers = options.timers;
    this.backoff = this.initialBackoff;
  }

  get size(): number {
    return this.queue.length;
  }

  get dropped(): number {
    return this.droppedTotal;
  }

  get outage(): boolean {
    return this.down;
  }

  push(event: CorralEvent): void {
    this.queue.push(event);
    while (this.queue.length > this.capacity) {
      this.queue.shift();
      this.droppedTotal += 1;
      this.droppedInOutage += 1;
    }
    if (!this.sending && this.retryHandle === null) void this.drain();
  }

  /** Resolves when the queue is empty (or immediately if it is). */
  whenIdle(): Promise<void> {
    if (this.queue.length === 0 && !this.sending) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops retrying; queued events are abandoned. */
  close(): void {
    if (this.retryHandle !== null) this.timers.clearTimeout(this.retryHandle);
    this.retryHandle = null;
  }

  private async drain(): Promise<void> {
    this.sending = true;
    try {
      while (this.queue.length > 0) {
        const event = this.queue[0] as CorralEvent;
        try {
          await this.options.deliver(event);
        } catch (error) {
          if (!this.down) {
            this.down = true;
            this.droppedInOutage = 0;
            this.deliveredInOutage = 0;
            this.options.onOutage?.(error as Error);
          }
          this.retryHandle = this.timers.setTimeout(() => {
            this.retryHandle = null;
            void this.drain();
          }, this.backoff);
          this.backoff = Math.min(this.backoff * 2, this.maxBackoff);
          return;
        }
        // The head may have been dropped by an overflow while we awaited.
        if (this.queue[0] === event) this.queue.shift();
        if (this.down) this.deliveredInOutage += 1;
        this.backoff = this.initialBackoff;
      }
      if (this.down) {
        this.down = false;
        this.options.onRecovery?.({ delivered: this.deliveredInOutage, dropped: this.droppedInOutage });
      }
    } finally {
      this.sending = false;
      if (this.queue.length === 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const resolve of waiters) resolve();
      }
    }
  }
}

/** POSTs one event as JSON; anything but a 2xx is a failed delivery. */
export function httpDeliver(url: string, timeoutMs = 5000): (event: CorralEvent) => Promise<void> {
  return async (event) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer().catch(() => undefined);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  };
}
