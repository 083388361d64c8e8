import { describe, expect, it } from 'vitest';
import {
  Utf8Stream,
  incompleteUtf8Tail,
  leadingContinuationBytes,
} from '../../../src/engine/pane-stream/utf8-stream.js';

describe('incompleteUtf8Tail', () => {
  it('finds a character cut at the end', () => {
    const euro = Buffer.from('€'); // e2 82 ac
    expect(incompleteUtf8Tail(Buffer.from('ab'))).toBe(0);
    expect(incompleteUtf8Tail(euro)).toBe(0);
    expect(incompleteUtf8Tail(euro.subarray(0, 1))).toBe(1);
    expect(incompleteUtf8Tail(euro.subarray(0, 2))).toBe(2);
    const emoji = Buffer.from('a😀'); // 61 f0 9f 98 80
    expect(incompleteUtf8Tail(emoji.subarray(0, 4))).toBe(3);
    expect(incompleteUtf8Tail(emoji)).toBe(0);
    expect(incompleteUtf8Tail(Buffer.from([0xff]))).toBe(0);
  });

  it('counts continuation bytes at the start', () => {
    expect(leadingContinuationBytes(Buffer.from('€').subarray(1))).toBe(2);
    expect(leadingContinuationBytes(Buffer.from('x'))).toBe(0);
  });
});

describe('Utf8Stream', () => {
  it('never emits half a character and reports the text boundary', () => {
    const bytes = Buffer.from('añ€😀z');
    for (let cut = 0; cut <= bytes.length; cut++) {
      for (let cut2 = cut; cut2 <= bytes.length; cut2++) {
        const stream = new Utf8Stream(0);
        const parts = [bytes.subarray(0, cut), bytes.subarray(cut, cut2), bytes.subarray(cut2)];
        let text = '';
        let end = 0;
        for (const part of parts) {
          end += part.length;
          const piece = stream.push(part, end);
          expect(piece).not.toContain('\ufffd');
          expect(Buffer.from(text + piece).length).toBe(stream.boundary);
          text += piece;
        }
        expect(text).toBe('añ€😀z');
      }
    }
  });
});
