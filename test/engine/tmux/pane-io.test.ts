// Typing into a pane: what its command lines look like (src/engine/tmux/pane-io.ts, command-line.ts).
import { describe, expect, it } from 'vitest';
import { chain, escapeArg } from '../../../src/engine/tmux/command-line.js';
import { sendItemCommands } from '../../../src/engine/tmux/pane-io.js';

describe('argument safety', () => {
  it("escapes a trailing ';' so tmux does not split the command there", () => {
    expect(escapeArg('ls;')).toBe('ls\\;');
    expect(escapeArg('a;b')).toBe('a;b');
    expect(escapeArg('plain')).toBe('plain');
  });

  it('builds send-keys with text as hex bytes (no parser can split or read it) and bare names for keys', () => {
    const cmds = sendItemCommands('%3', [
      { kind: 'text', text: '-rf;\t' },
      { kind: 'key', key: 'Enter' },
    ]);
    expect(chain(cmds)).toEqual(['send-keys', '-t', '%3', '-H', '2d', '72', '66', '3b', '09', ';', 'send-keys', '-t', '%3', 'Enter']);
  });
});
