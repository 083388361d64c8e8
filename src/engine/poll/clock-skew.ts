// How far a host's clock is from this machine's, from the server time each remote poll brings
// back; tmux's activity stamps are moved to this machine's clock with it. Each reading errs low, so
// stamps err late: a capture too many, never one too few.

import type { PaneInfo } from '../types.js';

/** How many cycles' clock readings the estimate keeps (a changed remote clock is picked up after that). */
const SKEW_SAMPLES = 16;

/** Readings that leave the offset less sure than this and two round trips (ms) bring a poll aimed to make it surer (see aimedRequest). */
const LOOSE_MS = 250;

export class ClockSkew {
  /** Per reading, the least and the most the true offset can be. */
  private readonly readings: { readonly low: number; readonly high: number }[] = [];
  /** The last reading's round trip (ms). */
  private roundTrip = 0;
  /** The host's clock minus this machine's, ms (0 until a reading comes, and always here). */
  value = 0;

  /**
   * A poll's reading: the host's clock (null: none was asked), read while the request was out, the
   * request leaving at `requestedAt` and its answer back at `answeredAt` (this machine's wall clock).
   */
  note(serverTime: number | null | undefined, requestedAt: number, answeredAt: number): void {
    if (serverTime === null || serverTime === undefined) return;
    // serverTime is the start of the remote second it was read in (at most the remote time then,
    // less than a second below it), and the reading came between the request and the answer: the
    // true offset lies between serverTime minus the answer's time and serverTime plus a second
    // minus the request's. Readings at different moments of the second narrow it to a round trip
    // and a small part of a second; the estimate is the low end.
    this.readings.push({ low: serverTime - answeredAt, high: serverTime + 1000 - requestedAt });
    this.roundTrip = Math.max(0, answeredAt - requestedAt);
    if (this.readings.length > SKEW_SAMPLES) this.readings.shift();
    this.value = spread(this.readings).low;
  }

  /**
   * When to send the poll due at `dueAt` (this machine's wall clock): then, or, while the readings
   * leave the offset unsure by more than LOOSE_MS and two round trips, up to a second earlier, so
   * that the remote clock is read at the moment one of its seconds begins if the offset is the
   * middle of what it can be. The reading then falls just after that moment or just before it, and
   * either way halves what the offset can be: a few such polls narrow it to about a round trip.
   * Polls that keep one phase against the remote second (each following tmux's once-a-second word
   * of a change) never narrow it on their own: their readings all err alike, by up to a second, and
   * every remote stamp with them, so a wait far away came up to a second late. With no readings
   * (this machine) the poll goes when due.
   */
  aimedRequest(dueAt: number): number {
    if (this.readings.length === 0) return dueAt;
    const { low, high } = spread(this.readings);
    let offset: number;
    if (high - low > LOOSE_MS + 2 * this.roundTrip) {
      // Where a remote second starts if the offset is the middle of what it can be.
      offset = (low + high) / 2 - this.roundTrip / 2;
    } else if (this.readings.length - this.readings.findLastIndex((reading) => reading.low === low) > SKEW_SAMPLES / 2) {
      // Narrow, but the reading that made the low end so is half the kept ones old: read at the
      // start of a remote second if the offset is its lowest, so the reading falls after that start
      // whatever the offset is and keeps the low end narrow before the old reading is let go.
      offset = low;
    } else return dueAt;
    return dueAt - ((((dueAt + offset) % 1000) + 1000) % 1000);
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

/** The least and the most the offset can be, by a set of readings. */
function spread(readings: readonly { readonly low: number; readonly high: number }[]): { low: number; high: number } {
  return { low: Math.max(...readings.map((reading) => reading.low)), high: Math.min(...readings.map((reading) => reading.high)) };
}
