// One poll loop for every pane that has a conversation: each tick captures all of them in a
// single tmux process and hands each capture to its listener. Twenty streams at 100 ms are ten
// tmux processes a second, not two hundred.

import type { BatchCapture } from '../tmux/capture-batch.js';
import type { PaneListing } from '../tmux/polling.js';
import { type Timers } from '../types.js';
import type { Clock } from '../types.js';


export type TickEvent =
  | { readonly kind: 'capture'; readonly capture: BatchCapture }
  | { readonly kind: 'gone' }
  | { readonly kind: 'error'; readonly error: Error };

export type TickListener = (event: TickEvent) => void;

export interface CaptureSource {
  readonly panes: Pick<PaneListing, 'captureBatch'>;
}

export interface CaptureTickerOptions {
  readonly tmux: CaptureSource;
  readonly intervalMs: number;
  readonly historyLines: number;
  readonly timers: Timers;
  readonly clock: Clock;
}

export class CaptureTicker {
  private readonly listeners = new Map<string, Set<TickListener>>();
  private readonly histories = new Map<string, () => number>();
  /** Panes watched at a slower pace than every tick: their interval and when they are due. */
  private readonly slow = new Map<string, { intervalMs: number; due: number }>();
  private timer: unknown = null;
  private running = false;
  private ticks = 0;
  private readonly recent: number[] = [];
  private readonly timers: Timers;
  private readonly now: () => number;

  constructor(private readonly options: CaptureTickerOptions) {
    this.timers = options.timers;
    const clock = options.clock;
    this.now = () => clock.now();
  }

  /** How many batches ran (for tests and benchmarks). */
  get tickCount(): number {
    return this.ticks;
  }

  /** Start times of the last 64 ticks (for tests and benchmarks: the poll period really kept). */
  get recentTicks(): readonly number[] {
    return this.recent;
  }

  get watchedPanes(): string[] {
    return [...this.listeners.keys()];
  }

  /**
   * Calls `listener` with every capture of the pane from the next tick on; returns the stop
   * function. `history` (optional) says how many history lines the next capture needs;
   * `intervalMs` (optional) captures the pane less often than every tick.
   */
  watch(paneId: string, listener: TickListener, history?: () => number, intervalMs?: number): () => void {
    if (history) this.histories.set(paneId, history);
    if (intervalMs !== undefined && intervalMs > this.options.intervalMs) this.slow.set(paneId, { intervalMs, due: this.now() + intervalMs });
    else this.slow.delete(paneId);
    let set = this.listeners.get(paneId);
    if (!set) {
      set = new Set();
      this.listeners.set(paneId, set);
    }
    set.add(listener);
    this.schedule(this.options.intervalMs);
    return () => {
      const current = this.listeners.get(paneId);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) {
        this.listeners.delete(paneId);
        this.histories.delete(paneId);
        this.slow.delete(paneId);
      }
      if (this.listeners.size === 0) this.cancel();
    };
  }

  /** Stops the loop (listeners stay registered but get nothing more). */
  close(): void {
    this.listeners.clear();
    this.histories.clear();
    this.slow.clear();
    this.cancel();
  }

  private schedule(delay: number): void {
    if (this.timer !== null || this.running || this.listeners.size === 0) return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      void this.tick();
    }, Math.max(0, delay));
  }

  private cancel(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  private async tick(): Promise<void> {
    const started = this.now();
    // A slow pane is due a little early rather than a whole tick late.
    const ids = [...this.listeners.keys()].filter((id) => {
      const slow = this.slow.get(id);
      if (!slow || slow.due - this.options.intervalMs / 2 <= started) {
        if (slow) slow.due = started + slow.intervalMs;
        return true;
      }
      return false;
    });
    if (ids.length === 0) {
      this.schedule(this.options.intervalMs);
      return;
    }
    this.running = true;
    this.ticks += 1;
    this.recent.push(started);
    if (this.recent.length > 64) this.recent.shift();
    try {
      const historyByPane = new Map<string, number>();
      for (const id of ids) {
        const wanted = this.histories.get(id)?.();
        if (wanted !== undefined) historyByPane.set(id, Math.min(this.options.historyLines, Math.max(0, Math.ceil(wanted))));
      }
      const result = await this.options.tmux.panes.captureBatch(ids, { history: this.options.historyLines, historyByPane });
      for (const id of ids) {
        const capture = result.captures.get(id);
        const event: TickEvent | null = capture
          ? capture.dead
            ? { kind: 'gone' }
            : { kind: 'capture', capture }
          : result.gone.includes(id)
            ? { kind: 'gone' }
            : null;
        if (event) this.dispatch(id, event);
      }
    } catch (error) {
      for (const id of ids) this.dispatch(id, { kind: 'error', error: error as Error });
    } finally {
      this.running = false;
    }
    // Fixed rate: the next tick is one interval after this one started.
    this.schedule(this.options.intervalMs - (this.now() - started));
  }

  private dispatch(paneId: string, event: TickEvent): void {
    for (const listener of [...(this.listeners.get(paneId) ?? [])]) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own business; the others still get their captures.
      }
    }
  }
}
