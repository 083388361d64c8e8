import { describe, expect, it } from 'vitest';
import { hashScreen, normaliseScreen } from '../../src/engine/screen-hash.js';

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
});
