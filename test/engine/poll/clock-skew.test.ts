// The remote clock's offset from readings in whole seconds: never above the true offset (stamps
// moved by it err late: a capture too many, never one too few), and within a round trip and a small
// part of a second of it once one reading fell early in a remote second.

import { describe, expect, it } from 'vitest';
import { ClockSkew } from '../../../src/engine/poll/clock-skew.js';
import { SeededRandom, testSeeds } from '../../helpers/seeded-random.js';

describe.each(testSeeds(20261206))('the clock skew of a host far away, seed %i', (seed) => {
  it('stays at or below the true skew, and within the round trip and 400 ms of it once a reading fell early in a remote second', () => {
    const random = new SeededRandom(seed);
    let bounded = 0;
    for (let trial = 0; trial < 500; trial++) {
      const skew = random.int(-90_000, 90_000);
      const roundTrip = random.int(1, 200);
      const estimate = new ClockSkew();
      let local = 1_780_000_000_000 + random.int(0, 10_000);
      // Whether one reading was taken in the first 400 ms of a remote second: only then can a
      // reading in whole seconds tell the offset to within 400 ms (the polls' phases drift at random).
      let early = false;
      for (let reading = 0; reading < 16; reading++) {
        // A poll every 2 s or so, its phase against the remote second moving with each one.
        local += random.int(1_900, 2_300);
        const readAt = local + random.int(0, roundTrip);
        const serverTime = Math.floor((readAt + skew) / 1000) * 1000;
        if (readAt + skew - serverTime < 400) early = true;
        estimate.note(serverTime, local, local + roundTrip);
        const context = `trial ${trial}: skew ${skew}, round trip ${roundTrip}, reading ${reading}`;
        expect(estimate.value, context).toBeLessThanOrEqual(skew);
      }
      if (!early) continue;
      bounded++;
      expect(estimate.value, `trial ${trial}: skew ${skew}, round trip ${roundTrip}`).toBeGreaterThanOrEqual(skew - roundTrip - 400);
    }
    // The drift of the polls' phases puts a reading early in a second in nearly every trial.
    expect(bounded).toBeGreaterThan(450);
  });

  it('narrows the offset to the round trip and 300 ms when every poll keeps one phase, by bringing one forward now and then', () => {
    const random = new SeededRandom(seed);
    for (let trial = 0; trial < 300; trial++) {
      const skew = random.int(-90_000, 90_000);
      const roundTrip = random.int(1, 200);
      const estimate = new ClockSkew();
      // Polls every 2 s exactly, as when each follows tmux's word of a change: one phase throughout.
      let local = 1_780_000_000_000 + random.int(0, 10_000);
      let early = 0;
      for (let reading = 0; reading < 40; reading++) {
        const due = local + 2_000;
        const sent = estimate.aimedRequest(due);
        expect(sent, `trial ${trial}: brought forward by less than a second`).toBeGreaterThan(due - 1_000);
        expect(sent).toBeLessThanOrEqual(due);
        if (sent < due) early++;
        const readAt = sent + random.int(0, roundTrip);
        estimate.note(Math.floor((readAt + skew) / 1000) * 1000, sent, sent + roundTrip);
        local = sent;
        const context = `trial ${trial}: skew ${skew}, round trip ${roundTrip}, reading ${reading}`;
        expect(estimate.value, context).toBeLessThanOrEqual(skew);
        if (reading >= 6) expect(estimate.value, context).toBeGreaterThanOrEqual(skew - 2 * roundTrip - 300);
      }
      // Few polls come early: once narrow, the offset stays so while its reading is among the kept ones.
      expect(early, `trial ${trial}: polls brought forward`).toBeLessThanOrEqual(12);
    }
  });

  it('takes no reading from a poll that asked for none', () => {
    const estimate = new ClockSkew();
    estimate.note(null, 900, 1_000);
    estimate.note(undefined, 1_900, 2_000);
    expect(estimate.value).toBe(0);
    expect(estimate.aimedRequest(5_000)).toBe(5_000);
  });
});
