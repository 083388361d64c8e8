// How far a host's clock is from this machine's, from the server time each remote poll brings
// back; tmux's activity stamps are moved to this machine's clock with it. Each reading errs low, so
// stamps err late: a capture too many, never one too few.

import type { PaneInfo } from '../types.js';

/** How many cycles' clock readings the estimate keeps (a changed remote clock is picked up after that). */
const SKEW_SAMPLES = 16;

export class ClockSkew {
  private readonly samples: number[] = [];
  /** The host's clock minus this machine's, ms (0 until a reading comes, and always here). */
  value = 0;

  /** A poll's reading: the host's clock (null: none was asked) for a request that left at `requestedAt`. */
  note(serverTime: number | null | undefined, requestedAt: number): void {
    if (serverTime === null || serverTime === undefined) return;
    // serverTime is the start of the remote second, read after the request left: minus a second,
    // the reading is at most the true skew (for round trips under a second).
    this.samples.push(serverTime - requestedAt - 1000);
    if (this.samples.length > SKEW_SAMPLES) this.samples.shift();
    this.value = Math.max(...this.samples);
  }

  /** The pane with its activity stamp in this machine's clock. */
  toLocal(pane: PaneInfo): PaneInfo {
    return paneHere(pane, this.value);
  }
}

/** The pane with its activity stamp moved by `skew` (the host's clock minus this machine's) to this machine's clock. */
export function paneHere(pane: PaneInfo, skew: number): PaneInfo {
  return skew === 0 || pane.windowActivity <= 0 ? pane : { ...pane, windowActivity: pane.windowActivity - skew };
}
