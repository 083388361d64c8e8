// The times `corral link` prints (--list, a link's end): the 24-hour clock, whatever the locale.

import { describe, expect, it } from 'vitest';
import { clock } from '../../src/cli/commands/link.js';
import { SeededRandom, testSeeds } from '../helpers/seeded-random.js';

describe('link times', () => {
  for (const seed of testSeeds(41_009)) {
    it(`are HH:MM:SS today, with the date otherwise (seed ${seed}, 200 times)`, () => {
      const rng = new SeededRandom(seed);
      for (let i = 0; i < 200; i++) {
        const ms = rng.int(0, 2_000_000_000) * 1000;
        const date = new Date(ms);
        const time = [date.getHours(), date.getMinutes(), date.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
        expect(clock(ms, ms)).toBe(time);
        const other = clock(ms, ms + 3 * 86_400_000);
        expect(other).toBe(`${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')} ${time}`);
        expect(other).not.toMatch(/AM|PM/);
      }
    });
  }
});
