// Typing into a pane: what its command lines look like (src/engine/tmux/pane-io.ts, command-line.ts).
import { describe, expect, it } from 'vitest';
import { chain, escapeArg } from '../../../src/engine/tmux/command-line.js';
import { sendItemsCommands } from '../../../src/engine/tmux/pane-io.js';

describe('argument safety', () => {
  it("escapes a trailing ';' so tmux does not split the command there", () => {
    expect(escapeArg('ls;')).toBe('ls\\;');
    expect(escapeArg('a;b')).toBe('a;b');
    expect(escapeArg('plain')).toBe('plain');
  });

  it('builds send-keys with -l for text and bare names for keys', () => {
    const cmds = sendItemsCommands('%3', [
      { kind: 'text', text: '-rf;' },
      { kind: 'key', key: 'Enter' },
    ]);
    expect(chain(cmds)).toEqual(['send-keys', '-t', '%3', '-l', '--', '-rf\\;', ';', 'send-keys', '-t', '%3', 'Enter']);
  });
});
