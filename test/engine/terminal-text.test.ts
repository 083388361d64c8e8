// terminalSafe and friends: no generated string, however hostile, keeps a character a terminal
// acts on; plain text passes unchanged; JSON keeps its meaning.

import { describe, expect, it } from 'vitest';
import { terminalSafe, terminalSafeJson, terminalSafeLines } from '../../src/engine/text/terminal-text.js';
import { Rng, TERMINAL_ATTACKS, hostileName, screenLine, testSeed } from '../helpers/hostile-text.js';

// eslint-disable-next-line no-control-regex
const ACTS_ON_TERMINAL = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

describe('terminal-safe text', () => {
  it('shows controls, C1 controls, DEL and bidi marks visibly', () => {
    expect(terminalSafe('w\x1b]2;PWNED\x07x')).toBe('w^[]2;PWNED^Gx');
    expect(terminalSafe('a\x9b2Jb\x7f')).toBe('a\\x9b2Jb^?');
    expect(terminalSafe('abc\u202edcba\u2066')).toBe('abc<U+202E>dcba<U+2066>');
    expect(terminalSafe('tab\there\nnext')).toBe('tab^Ihere^Jnext');
    expect(terminalSafeLines('tab\there\nnext\r\x1b[2J')).toBe('tab\there\nnext^M^[[2J');
  });

  it('leaves printable text alone: wide, combining, emoji, right-to-left letters', () => {
    for (const text of ['~/src/app main* ❯', '漢字 e\u0301 👩‍💻 שלום مرحبا', '$HOME \\033 #{pane_id}']) {
      expect(terminalSafe(text)).toBe(text);
    }
  });

  it('keeps no character a terminal acts on, for generated hostile strings (seeded)', () => {
    const seed = testSeed();
    const rng = new Rng(seed);
    for (let i = 0; i < 5000; i++) {
      const text = rng.int(2) === 0 ? hostileName(rng) : `${screenLine(rng)}${rng.pick(TERMINAL_ATTACKS)}`;
      const safe = terminalSafe(text);
      expect(ACTS_ON_TERMINAL.test(safe), `seed ${seed}: ${JSON.stringify(text)}`).toBe(false);
      // Made safe once, it stays as it is.
      expect(terminalSafe(safe)).toBe(safe);
      const json = terminalSafeJson({ text });
      expect(/[\u007f-\u009f\u202e]/.test(json)).toBe(false);
      expect(JSON.parse(json)).toEqual({ text });
    }
  });
});
