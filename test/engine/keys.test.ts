import { describe, expect, it } from 'vitest';
import { UnknownKeyError, parseKeyName, parseSendItems } from '../../src/engine/typing/keys.js';

describe('key names', () => {
  it.each([
    ['Enter', 'Enter'],
    ['Esc', 'Escape'],
    ['Escape', 'Escape'],
    ['Tab', 'Tab'],
    ['BTab', 'BTab'],
    ['Space', 'Space'],
    ['BSpace', 'BSpace'],
    ['Backspace', 'BSpace'],
    ['Up', 'Up'],
    ['PgUp', 'PPage'],
    ['PgDn', 'NPage'],
    ['Home', 'Home'],
    ['Delete', 'DC'],
    ['F1', 'F1'],
    ['F12', 'F12'],
    ['C-c', 'C-c'],
    ['C-C', 'C-c'],
    ['M-x', 'M-x'],
    ['S-a', 'A'],
    ['C-M-Delete', 'C-M-DC'],
    ['S-Up', 'S-Up'],
    ['S-F5', 'S-F5'],
    ['C-Up', 'C-Up'],
    ['M-Enter', 'M-Enter'],
    ['C-Space', 'C-Space'],
    ['C-]', 'C-]'],
  ])('%s -> %s', (name, tmuxName) => {
    expect(parseKeyName(name)).toBe(tmuxName);
  });

  it('treats non-key items as text', () => {
    expect(parseKeyName('hello')).toBeNull();
    expect(parseKeyName('y')).toBeNull();
    expect(parseKeyName('F13')).toBeNull();
  });

  it.each(['C-Enter', 'C-1', 'S-1', 'C-Tab', 'C-C-c', 'M-foo', 'S-Enter'])('rejects %s with a reason', (name) => {
    expect(() => parseKeyName(name)).toThrow(UnknownKeyError);
  });

  it('parses a batch all or nothing', () => {
    expect(parseSendItems(['git status', 'Enter'])).toEqual([
      { kind: 'text', text: 'git status' },
      { kind: 'key', key: 'Enter' },
    ]);
    expect(() => parseSendItems(['echo hi', 'C-Enter'])).toThrow(/C-Enter/);
    expect(parseSendItems(['Enter', 'C-c'], { literal: true })).toEqual([
      { kind: 'text', text: 'Enter' },
      { kind: 'text', text: 'C-c' },
    ]);
  });
});
