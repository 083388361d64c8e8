// The remote clock's offset from readings in whole seconds: never above the true offset (stamps
// moved by it err late: a capture too many, never one too few), and within a round trip and a small
// part of a second of it once readings at different moments of the second came in.

import { describe, expect, it } from 'vitest';
import { ClockSkew } from '../../../src/engine/poll/clock-skew.js';
import { SeededRandom, testSeeds } from '../../helpers/seeded-random.js';

describe.each(testSeeds(20261206))('the clock skew of a host far away, seed %i', (seed) => {
  it('stays at or below the true skew, and within the round trip and 400 ms of it after 16 readings', () => {
    const random = new SeededRandom(seed);
    for (let trial = 0; trial < 500; trial++) {
      const skew = random.int(-90_000, 90_000);
      const roundTrip = random.int(1, 200);
      const estimate = new ClockSkew();
      let local = 1_780_000_000_000 + random.int(0, 10_000);
      for (let reading = 0; reading < 16; reading++) {
        // A poll every 2 s or so, its phase against the remote second moving with each one.
        local += random.int(1_900, 2_300);
        const readAt = local + random.int(0, roundTrip);
        const serverTime = Math.floor((readAt + skew) / 1000) * 1000;
        estimate.note(serverTime, local + roundTrip);
        const context = `trial ${trial}: skew ${skew}, round trip ${roundTrip}, reading ${reading}`;
        expect(estimate.value, context).toBeLessThanOrEqual(skew);
      }
      expect(estimate.value, `trial ${trial}: skew ${skew}, round trip ${roundTrip}`).toBeGreaterThanOrEqual(skew - roundTrip - 400);
    }
  });

  it('takes no reading from a poll that asked for none', () => {
    const estimate = new ClockSkew();
    estimate.note(null, 1_000);
    estimate.note(undefined, 2_000);
    expect(estimate.value).toBe(0);
  });
});
