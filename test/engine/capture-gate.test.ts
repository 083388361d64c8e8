import { describe, expect, it } from 'vitest';
import { RECAPTURE_MS, followedUntil, needsCapture, paceEnd } from '../../src/engine/poll/capture-gate.js';
import { SeededRandom, testSeeds } from '../helpers/seeded-random.js';
import type { PaneInfo } from '../../src/engine/types.js';
import { paneInfo } from '../helpers/fake-engine.js';

// One pane, listed again with some fields changed.
const base = paneInfo({ windowActivity: 1_000_000_000_000 });
const pane = (overrides: Partial<PaneInfo> = {}): PaneInfo => ({ ...base, ...overrides });

describe('needsCapture', () => {
  const stamp = 1_000_000_000_000; // activity stamp: the start of a whole second
  const before = pane({ windowActivity: stamp });

  it('captures a pane never captured', () => {
    expect(needsCapture(before, before, null, stamp + 5_000)).toBe(true);
  });

  it('skips a pane whose window printed nothing since a capture taken a second or more later', () => {
    expect(needsCapture(before, before, stamp + 1_000, stamp + 3_000)).toBe(false);
    expect(needsCapture(before, before, stamp + 20_000, stamp + 25_000)).toBe(false);
  });

  it('captures when the last output falls in a second that ends after the capture', () => {
    // captured at .400 of the stamped second: output later in that second would have been missed
    expect(needsCapture(before, before, stamp + 400, stamp + 2_000)).toBe(true);
    expect(needsCapture(before, pane({ windowActivity: stamp + 3_000 }), stamp + 2_500, stamp + 4_000)).toBe(true);
  });

  it('captures after a resize, a respawn, a death or a switch of screen, though nothing printed', () => {
    const at = stamp + 5_000;
    for (const change of [{ width: 100 }, { height: 10 }, { pid: 101 }, { dead: true }, { alternateOn: true }]) {
      expect(needsCapture(before, pane({ windowActivity: stamp, ...change }), at, at + 2_000)).toBe(true);
    }
  });

  it('captures when tmux gives no activity stamp, and every RECAPTURE_MS regardless', () => {
    const unstamped = pane({ windowActivity: 0 });
    expect(needsCapture(unstamped, unstamped, stamp, stamp + 2_000)).toBe(true);
    expect(needsCapture(before, before, stamp + 1_000, stamp + 1_000 + RECAPTURE_MS)).toBe(true);
  });

  it('captures when the wall clock went back since the last capture', () => {
    expect(needsCapture(before, before, stamp + 5_000, stamp + 4_000)).toBe(true);
  });
});

describe.each(testSeeds(20261207))('the follow pace, seed %i', (seed) => {
  const random = new SeededRandom(seed);

  it('ends at most a pace after it starts, on a multiple of the pace, so panes captured apart end together', () => {
    for (let trial = 0; trial < 2_000; trial++) {
      const followMs = random.pick([2_000, 4_000, 10_000]);
      const from = 1_700_000_000_000 + random.int(0, 10 * followMs);
      const end = paceEnd(from, followMs);
      expect(end % followMs, `${from} +${followMs}`).toBe(0);
      expect(end).toBeGreaterThan(from);
      expect(end).toBeLessThanOrEqual(from + followMs);
      // Nothing later is a multiple within a pace: the latest one is taken.
      expect(end + followMs).toBeGreaterThan(from + followMs);
      // Two panes captured within one pace's multiples end their paces at the same moment.
      const other = Math.floor(from / followMs) * followMs + random.int(0, followMs - 1);
      expect(paceEnd(other, followMs)).toBe(end);
    }
  });

  it('holds a printing pane until its pace ends; a pane at a prompt or a busy program, or not printing, not at all', () => {
    const at = 1_700_000_001_234;
    expect(followedUntil({ at, changed: true, printing: true }, 4_000)).toBe(1_700_000_004_000);
    expect(followedUntil({ at: at + 500, changed: false, printing: true, changedAt: at }, 4_000)).toBe(1_700_000_004_000);
    expect(followedUntil({ at, changed: true, printing: true, mayWait: true }, 4_000)).toBe(-Infinity);
    expect(followedUntil({ at, changed: true, printing: false }, 4_000)).toBe(-Infinity);
  });
});
