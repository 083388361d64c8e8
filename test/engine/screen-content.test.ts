// The content hash: a screen's hash with its animation masked.

import { describe, expect, it } from 'vitest';
import { contentHash, stillLine } from '../../src/engine/pane/screen-content.js';
import { readLines } from '../../src/engine/pane/screen-hash.js';

const content = (text: string) => {
  const { lines, hash } = readLines(text);
  return contentHash(lines, hash);
};

describe('content hash', () => {
  it("does not see Claude Code's bullet blink, and sees everything else", () => {
    const on = ['● I will run that command.', '● Running the command the user asked for', '  ⎿  $ touch /tmp/a.txt', ' Do you want to proceed?', ' ❯ 1. Yes', '   2. No'].join('\n');
    const off = on.replace('● Running', '  Running');
    expect(readLines(on).hash).not.toBe(readLines(off).hash);
    expect(content(on)).toBe(content(off));
    // The menu cursor moving is no animation; nor is another command.
    expect(content(on)).not.toBe(content(on.replace(' ❯ 1. Yes\n   2. No', '   1. Yes\n ❯ 2. No')));
    expect(content(on)).not.toBe(content(on.replace('/tmp/a.txt', '/tmp/b.txt')));
  });

  it('masks spinners, pulsing dots and running times', () => {
    expect(stillLine('│ ⠋ Waiting for user confirmation │')).toBe(stillLine('│ ⠼ Waiting for user confirmation │'));
    expect(stillLine('✻ Thinking… (12s · esc to interrupt)')).toBe(stillLine('✶ Thinking… (13s · esc to interrupt)'));
    expect(stillLine('Working (1m 5s • esc to interrupt)')).toBe(stillLine('Working (1m 6s • esc to interrupt)'));
    expect(stillLine('last sync 12:03:04')).toBe(stillLine('last sync 12:03:05'));
    // Numbers that are not times still count, and so does a glyph that is part of a word.
    expect(stillLine('build 41 of 50')).not.toBe(stillLine('build 42 of 50'));
    expect(stillLine('x●y')).toBe('x●y');
  });

  it('is the plain hash when nothing animates, and never a plain hash when something does', () => {
    const plain = 'make: Nothing to be done for `all`.\n$ ';
    expect(content(plain)).toBe(readLines(plain).hash);
    const animated = '⠋ Loading';
    expect(content(animated)).not.toBe(readLines(animated).hash);
    // A screen that shows the masked text literally is another screen.
    expect(content(animated)).not.toBe(readLines(stillLine(animated)).hash);
  });

  it('gives any bytes a hash without throwing', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let i = 0; i < 200; i++) {
      const text = Array.from({ length: 80 }, () => String.fromCodePoint(next() % 0x3000)).join('');
      expect(content(text)).toMatch(/^c?[0-9a-f]{40}$/);
    }
  });
});
