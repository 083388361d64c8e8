// The attention record's encoding: any record round-trips in characters a listing keeps, and a
// value somebody else wrote never decodes into one (nor throws).

import { describe, expect, it } from 'vitest';
import {
  ATTENTION_RECORD_FORMAT,
  decodeAttention,
  encodeAttention,
  MAX_ANSWER,
  MAX_ASK,
  type AttentionRecord,
} from '../../../src/engine/attention/record.js';
import { SeededRandom, testSeeds } from '../../helpers/seeded-random.js';

function record(next: () => number): AttentionRecord {
  const int = (max: number) => Math.floor(next() * max);
  const text = (len: number) =>
    String.fromCodePoint(...Array.from({ length: int(len) }, () => (next() < 0.2 ? int(0x20) : 0x20 + int(0x3000))));
  const hex = () => Array.from({ length: 1 + int(16) }, () => '0123456789abcdef'.charAt(int(16))).join('');
  const ask = text(MAX_ASK);
  return {
    wait:
      next() < 0.2
        ? null
        : { id: hex(), kind: next() < 0.5 ? 'permission' : 'stopped', since: int(2 ** 42), worked: next() < 0.5 },
    ask,
    seenAt: next() < 0.3 ? 0 : int(2 ** 42),
    snoozed: next() < 0.5 ? null : { id: hex(), since: int(2 ** 42) },
    answered:
      next() < 0.5
        ? null
        : {
            at: int(2 ** 42),
            surface: ['dashboard', 'page', 'next', 'mcp', 'link'][int(5)]!,
            what: text(MAX_ANSWER),
            on: hex(),
          },
  };
}

describe('attention records', () => {
  it('round-trip any record, in the characters a listing keeps', () => {
    for (const seed of testSeeds(38)) {
      const random = new SeededRandom(seed);
      const next = () => random.next();
      for (let i = 0; i < 2_000; i++) {
        const r = record(next);
        const value = encodeAttention(r);
        expect(value, `seed ${seed}, case ${i}`).toMatch(/^[A-Za-z0-9._-]+$/);
        const back = decodeAttention(value);
        expect(back, `seed ${seed}, case ${i}`).toEqual(r);
        expect([...back!.ask].length).toBeLessThanOrEqual(MAX_ASK);
      }
    }
  });

  it('refuse what somebody else wrote: foreign, cut, mangled, oversized', () => {
    const good = encodeAttention({
      wait: { id: 'abc', kind: 'permission', since: 5, worked: true },
      ask: 'rm -rf build',
      seenAt: 9,
      snoozed: null,
      answered: null,
    });
    for (const value of [
      '',
      'a1',
      'a2' + good.slice(2),
      good.slice(0, -20),
      `${good}.x`,
      good.replace('.p.', '.q.'),
      good.replace('abc', 'xyz!'),
      `a1.${'9'.repeat(16)}.p.abc.1.........`,
      'a1.' + 'x'.repeat(3000),
    ]) {
      expect(decodeAttention(value), value.slice(0, 40)).toBeNull();
    }
    for (const seed of testSeeds(7)) {
      const random = new SeededRandom(seed);
      for (let i = 0; i < 5_000; i++) {
        const chars = Array.from({ length: random.int(0, 80) }, () =>
          random.pick([...'a1.ps0123456789abcdefXYZ_-']),
        ).join('');
        expect(() => decodeAttention(chars), `seed ${seed}`).not.toThrow();
      }
    }
  });

  it('are listed with every other character removed by tmux', () => {
    expect(ATTENTION_RECORD_FORMAT).toBe('#{s/[^A-Za-z0-9._-]//:@corral_attention}');
  });
});
