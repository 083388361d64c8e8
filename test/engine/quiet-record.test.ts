// A pane's quiet time as other corral processes find it: the record in its `@corral_quiet` option
// (taken over only for the very screen it was made on) and its terminal's own stamps.

import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { quietRecordValue, quietSinceFromRecord } from '../../src/engine/records/quiet-record.js';
import { register } from '../../src/engine/pane/pane-machine.js';
import { ttyUsedBy, usedByFromStamps } from '../../src/engine/poll/tty-output.js';
import { paneInfo } from '../helpers/fake-engine.js';
import { seededRandom, testSeeds } from '../helpers/seeded-random.js';

const HASH = 'c0123456789abcdef0123456789abcdef01234567';

describe('quiet record', () => {
  it('is taken over for the screen it was made on, and no other', () => {
    const record = quietRecordValue(1_000_500.7, HASH);
    expect(record).toBe(`1000500.${HASH.slice(-16)}`);
    expect(quietSinceFromRecord(record, HASH, 2_000_000)).toBe(1_000_500);
    expect(quietSinceFromRecord(record, `${HASH.slice(0, -1)}8`, 2_000_000)).toBeNull();
    expect(quietSinceFromRecord(record, '', 2_000_000)).toBeNull();
    // Never later than now: a record from a clock ahead of this one is not believed.
    expect(quietSinceFromRecord(record, HASH, 1_000_000)).toBeNull();
  });

  it('is not believed when it is anything but a record, whatever a program wrote into the option', () => {
    const alphabet = '0123456789abcdefz.-%$\\ \n';
    const valid = `1234567.${HASH.slice(-16)}`;
    for (const seed of testSeeds(20261203)) {
      const random = seededRandom(seed);
      let believed = 0;
      for (let i = 0; i < 4_000; i++) {
        // Any text, or a real record with one character changed, added or removed.
        const chars = i % 2 === 0 ? Array.from({ length: random.int(41) }, () => random.pick([...alphabet])) : [...valid];
        if (i % 2 === 1) chars.splice(random.int(chars.length + 1), random.int(2), ...(random.int(2) === 0 ? [random.pick([...alphabet])] : []));
        const text = chars.join('');
        const since = quietSinceFromRecord(text, HASH, 9e15);
        // Only `<digits>.<the screen's hash tail>` gives a time, and then exactly its digits.
        if (since !== null) {
          believed += 1;
          expect(text.replace(/^0+/, '')).toBe(`${since}.${HASH.slice(-16)}`);
        }
      }
      // The generator reaches real records too (a digit changed keeps one), so the check above runs.
      expect(believed, `seed ${seed}`).toBeGreaterThan(0);
    }
    expect(quietSinceFromRecord(`0.${HASH.slice(-16)}`, HASH, 9e15)).toBeNull();
    expect(quietSinceFromRecord(`${'9'.repeat(16)}.${HASH.slice(-16)}`, HASH, 9e15)).toBeNull();
  });
});

describe('terminal stamps', () => {
  it('bound the last use by the end of the 8-second step of the later stamp', () => {
    expect(usedByFromStamps(1_000, 990)).toBe(1_008_000);
    expect(usedByFromStamps(1_007, 1_001)).toBe(1_008_000);
    expect(usedByFromStamps(990, 1_008)).toBe(1_016_000);
  });

  it('start a new pane quiet no later than its terminal was used, even when its window printed since', () => {
    const pane = paneInfo({ windowActivity: 5_000_000 });
    expect(register(pane, 5_000_500, 'local', null).track.quietSince).toBe(5_000_500);
    expect(register(pane, 5_000_500, 'local', 4_000_000).track.quietSince).toBe(4_000_000);
    // The window's stamp when it is the earlier.
    expect(register(paneInfo({ windowActivity: 3_000_000 }), 5_000_500, 'local', 4_000_000).track.quietSince).toBe(3_000_999);
  });

  it('are read from a real terminal, and not from a process whose output goes elsewhere', async () => {
    // This test's own stdin is no terminal under vitest; a process with /dev/null on every fd has none either.
    const child = spawn('sleep', ['30'], { stdio: ['ignore', 'ignore', 'ignore'] });
    try {
      expect(ttyUsedBy(child.pid!)).toBeNull();
    } finally {
      child.kill();
    }
    expect(ttyUsedBy(0)).toBeNull();
    expect(ttyUsedBy(2 ** 31)).toBeNull();
  });
});
