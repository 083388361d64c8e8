import { describe, expect, it } from 'vitest';
import { repeatEvery } from '../../src/engine/time/repeat-every.js';
import { ManualTime } from '../helpers/manual-time.js';

describe('repeatEvery', () => {
  it('ticks every interval until stopped, and arms nothing after', async () => {
    const time = new ManualTime(0);
    const ticks: number[] = [];
    const stop = repeatEvery(time, 1000, () => ticks.push(time.now()));
    await time.advance(3500);
    expect(ticks).toEqual([1000, 2000, 3000]);
    stop();
    await time.advance(5000);
    expect(ticks).toEqual([1000, 2000, 3000]);
    expect(time.timerCount).toBe(0);
  });

  it('stops from within its own tick', async () => {
    const time = new ManualTime(0);
    let ticks = 0;
    const stop = repeatEvery(time, 10, () => {
      ticks += 1;
      if (ticks === 2) stop();
    });
    await time.advance(100);
    expect(ticks).toBe(2);
    expect(time.timerCount).toBe(0);
  });
});
