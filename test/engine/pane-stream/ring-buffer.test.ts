import { describe, expect, it } from 'vitest';
import { RingBuffer } from '../../../src/engine/pane-stream/ring-buffer.js';

const b = (s: string) => Buffer.from(s, 'latin1');

describe('RingBuffer', () => {
  it('returns growing end offsets and slices half-open ranges', () => {
    const ring = new RingBuffer(100);
    expect(ring.append(b('hello'))).toBe(5);
    expect(ring.append(b(' world'))).toBe(11);
    expect(ring.slice(0, 11).toString()).toBe('hello world');
    expect(ring.slice(3, 8).toString()).toBe('lo wo');
    expect(ring.slice(5, 5).length).toBe(0);
    expect(ring.slice(6).toString()).toBe('world');
  });

  it('drops the oldest bytes beyond its capacity, keeping offsets', () => {
    const ring = new RingBuffer(8);
    ring.append(b('abcdef'));
    ring.append(b('ghij'));
    expect(ring.oldestOffset).toBe(2);
    expect(ring.endOffset).toBe(10);
    expect(ring.byteLength).toBe(8);
    expect(ring.slice(2).toString()).toBe('cdefghij');
    expect(ring.holds(1)).toBe(false);
    expect(() => ring.slice(1, 5)).toThrow(RangeError);
  });

  it('keeps the tail of a single chunk larger than the ring', () => {
    const ring = new RingBuffer(4);
    ring.append(b('0123456789'));
    expect(ring.oldestOffset).toBe(6);
    expect(ring.slice(6).toString()).toBe('6789');
  });

  it('fences a replay: [from, snapshot) then only what comes after snapshot', () => {
    const ring = new RingBuffer(1000);
    ring.append(b('line1\n'));
    const from = ring.endOffset;
    ring.append(b('line2\nline3\n'));
    const snapshot = ring.endOffset;
    const replay = ring.slice(from, snapshot).toString();
    ring.append(b('line4\n'));
    const live = ring.slice(snapshot).toString();
    expect(replay + live).toBe('line2\nline3\nline4\n');
  });

  it('refuses ranges beyond the end or reversed', () => {
    const ring = new RingBuffer(10);
    ring.append(b('abc'));
    expect(ring.holds(0, 4)).toBe(false);
    expect(ring.holds(2, 1)).toBe(false);
    expect(ring.holds(1.5, 2)).toBe(false);
    expect(() => ring.slice(0, 4)).toThrow(RangeError);
  });

  it('restarts after a gap so older offsets fall outside', () => {
    const ring = new RingBuffer(10, 40);
    ring.append(b('abc'));
    expect(ring.endOffset).toBe(43);
    ring.restartAt(44);
    expect(ring.holds(43)).toBe(false);
    expect(ring.holds(44)).toBe(true);
    expect(ring.append(b('x'))).toBe(45);
    expect(() => ring.restartAt(10)).toThrow(RangeError);
  });

  it('survives many small appends with bounded memory', () => {
    const ring = new RingBuffer(1024);
    let expected = '';
    for (let i = 0; i < 20_000; i++) {
      const s = `${i % 10}`;
      ring.append(b(s));
      expected += s;
    }
    expect(ring.byteLength).toBe(1024);
    expect(ring.slice(ring.oldestOffset).toString()).toBe(expected.slice(-1024));
  });
});
