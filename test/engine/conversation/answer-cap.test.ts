// An answer's bound: lines up to the cap go to the chat, the rest are counted and kept in a spill,
// and the end says in one line how many were left out and where all of them are.

import { describe, expect, it } from 'vitest';
import { AnswerCap, TAIL_LINES } from '../../../src/engine/conversation/answer-cap.js';

function spillList() {
  const lines: string[] = [];
  let closed = false;
  return { lines, closed: () => closed, open: () => ({ where: '/tmp/answer.txt', write: (more: readonly string[]) => lines.push(...more), close: () => (closed = true) }) };
}

describe('AnswerCap', () => {
  it('passes everything under the cap and adds nothing at the end', () => {
    const cap = new AnswerCap(10, null);
    expect(cap.take(['a', 'b'])).toEqual(['a', 'b']);
    expect(cap.finish()).toEqual([]);
  });

  it('past the cap: counts, keeps every line in the spill, and ends with one note and the last lines', () => {
    const spill = spillList();
    const cap = new AnswerCap(100, spill.open);
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`);
    const shown = [...cap.take(lines.slice(0, 70)), ...cap.take(lines.slice(70, 400)), ...cap.take(lines.slice(400))];
    expect(shown).toEqual(lines.slice(0, 100));
    const end = cap.finish();
    expect(end[0]).toBe(`[corral: ${(900 - TAIL_LINES).toLocaleString('en-US')} lines left out here (an answer holds at most 100 lines); all 1,000 lines are in /tmp/answer.txt]`);
    expect(end.slice(1)).toEqual(lines.slice(-TAIL_LINES));
    expect(spill.lines).toEqual(lines);
    expect(spill.closed()).toBe(true);
  });

  it('says so when the spill cannot be opened', () => {
    const cap = new AnswerCap(1, () => {
      throw new Error('read-only file system');
    });
    cap.take(Array.from({ length: 50 }, (_, i) => String(i)));
    expect(cap.finish()[0]).toMatch(/lines left out here .*they could not be saved \(read-only file system\)\]$/);
  });
});
