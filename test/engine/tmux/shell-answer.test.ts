// The shell command of a poll's round trip: what is sent (no text but the caller's, through a
// buffer) and how its answer is cut from the rest.

import { describe, expect, it } from 'vitest';
import { makeFraming } from '../../../src/engine/tmux/command-line.js';
import { shellAnswerCommands, splitShellAnswer } from '../../../src/engine/tmux/shell-answer.js';

const framing = makeFraming('n0nce');

describe('a shell command in a poll', () => {
  it('runs through run-shell into a buffer, printed after a marker and deleted', () => {
    expect(shellAnswerCommands(framing, 'ps -A')).toEqual([
      ['display-message', '-p', '<~n0nce:shell~>'],
      ['run-shell', '{ echo; ps -A; } 2>/dev/null | tmux load-buffer -b corral-shell-n0nce - >/dev/null 2>&1'],
      ['show-buffer', '-b', 'corral-shell-n0nce'],
      ['delete-buffer', '-b', 'corral-shell-n0nce'],
    ]);
  });

  it('refuses text tmux would expand or split', () => {
    expect(() => shellAnswerCommands(framing, 'echo #{pane_id}')).toThrow(/#/);
    expect(() => shellAnswerCommands(framing, 'ps\nrm x')).toThrow(/line break/);
  });

  it('cuts the answer off after the first marker, without the leading blank line', () => {
    const out = 'list\n<~n0nce:shell~>\n\n  1 0 1 -1 5 S init\n<~n0nce:shell~>\n';
    expect(splitShellAnswer(out, framing, true)).toEqual({ before: 'list\n', answer: '  1 0 1 -1 5 S init\n<~n0nce:shell~>\n' });
  });

  it('has no answer when the marker is missing or the shell part failed', () => {
    expect(splitShellAnswer('list\n', framing, true)).toEqual({ before: 'list\n', answer: null });
    expect(splitShellAnswer('list\n<~n0nce:shell~>\n', framing, false)).toEqual({ before: 'list\n', answer: null });
    // A marker of another nonce, or one inside a line, is not this one.
    expect(splitShellAnswer('x <~n0nce:shell~>\n<~other:shell~>\n', framing, true).answer).toBeNull();
  });
});
