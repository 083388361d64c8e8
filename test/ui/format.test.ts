import { describe, expect, it } from 'vitest';
import { clip, fit, formatQuiet, previewLines, shortCwd } from '../../src/ui/format.js';

describe('formatQuiet', () => {
  it.each([
    [0, '0s'],
    [999, '0s'],
    [8_000, '8s'],
    [59_999, '59s'],
    [60_000, '1m'],
    [65_000, '1m'],
    [119_999, '1m'],
    [120_000, '2m'],
    [3_599_000, '59m'],
    [3_600_000, '1h00m'],
    [2 * 3_600_000 + 3 * 60_000 + 59_000, '2h03m'],
    [26 * 3_600_000, '1d02h'],
    [-5_000, '0s'],
  ])('%i ms -> %s', (ms, text) => {
    expect(formatQuiet(ms)).toBe(text);
  });
});

describe('shortCwd', () => {
  it('puts ~ for the home directory', () => {
    expect(shortCwd('/home/me/src/app', '/home/me')).toBe('~/src/app');
    expect(shortCwd('/home/me', '/home/me')).toBe('~');
    expect(shortCwd('/home/meadow/x', '/home/me')).toBe('/home/meadow/x');
  });
  it('keeps the last parts of a long path', () => {
    expect(shortCwd('/srv/projects/customer/backend/services/api', null, 20)).toBe('…/services/api');
    expect(shortCwd('/x/averyveryveryverylongdirectoryname', null, 12)).toBe('…/averyvery…');
  });

  it('measures folders as drawn, so a control in the last one does not push it out of view', () => {
    // U+202E is drawn as <U+202E> (8 columns): the last folder alone is kept, not its parent.
    expect(shortCwd('/tmp/wp2L4x/14-\u202e', null, 14)).toBe('…/14-<U+202E>');
  });
});

describe('clip and fit', () => {
  it('cuts with an ellipsis and pads', () => {
    expect(clip('abcdef', 4)).toBe('abc…');
    expect(clip('abc', 4)).toBe('abc');
    expect(clip('abc', 0)).toBe('');
    expect(fit('ab', 4)).toBe('ab  ');
    expect(fit('abcdef', 4)).toBe('abc…');
  });
});

describe('previewLines', () => {
  it('strips escapes, drops trailing blank lines and keeps the last lines', () => {
    const lines = ['one', '\u001b[31mtwo\u001b[0m', 'three\tx', 'a very long line here', '', ''];
    expect(previewLines(lines, 10, 3)).toEqual(['two', 'three    x', 'a very lo…']);
    expect(previewLines(lines, 10, 0)).toEqual([]);
  });
});
