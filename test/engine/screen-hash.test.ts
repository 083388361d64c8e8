import { describe, expect, it } from 'vitest';
import { hashScreen, normaliseScreen, readLines } from '../../src/engine/pane/screen-hash.js';

describe('screen hash', () => {
  it('ignores trailing spaces and trailing blank lines', () => {
    expect(hashScreen('a  \nb\t\n\n\n')).toBe(hashScreen('a\nb'));
    expect(normaliseScreen('one   \n  two  \n   \n')).toEqual(['one', '  two']);
  });

  it('counts a change in a middle line, which first/last-line sampling would miss', () => {
    const before = ['header', 'progress 10', 'footer $'].join('\n');
    const after = ['header', 'progress 11', 'footer $'].join('\n');
    expect(hashScreen(before)).not.toBe(hashScreen(after));
  });

  it('counts leading whitespace and same-length edits', () => {
    expect(hashScreen('abc')).not.toBe(hashScreen(' abc'));
    expect(hashScreen('x1y')).not.toBe(hashScreen('x2y'));
  });

  it('treats an empty screen as empty', () => {
    expect(normaliseScreen('\n\n')).toEqual([]);
    expect(hashScreen('')).toBe(hashScreen('   \n  \n'));
  });

  it('reads lines and hash in one go, the same as normalising and hashing apart', () => {
    const texts = ['', '\n', 'a', 'a\n', 'a\nb\n\n\n', 'a  \nb', 'x\n\ny\n', '  lead\n\ttab\t\n', 'é ✓\r\nz', 'one\n   \n', 'end\n \n\n'];
    for (const text of texts) {
      expect(readLines(text), JSON.stringify(text)).toEqual({ lines: normaliseScreen(text), hash: hashScreen(text) });
    }
    expect(readLines('a\nb\n\n').hash).not.toBe(readLines('a\nc\n').hash);
  });
});
