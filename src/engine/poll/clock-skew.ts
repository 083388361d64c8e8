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

  /**
   * A poll's reading: the host's clock (null: none was asked), read while the request was out, and
   * when the answer came back here (`answeredAt`, this machine's wall clock).
   */
  note(serverTime: number | null | undefined, answeredAt: number): void {
    if (serverTime === null || serverTime === undefined) return;
    // serverTime is the start of the remote second it was read in (at most the remote time then),
    // and the answer came back after the reading (at least the local time then): their difference
    // is at most the true skew. Readings at different moments of the second bring the largest of
    // them within a round trip and a small part of a second of it.
    this.samples.push(serverTime - answeredAt);
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
