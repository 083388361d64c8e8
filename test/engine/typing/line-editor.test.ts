import { describe, expect, it } from 'vitest';
import { classifyScreen } from '../../../src/engine/prompt/matcher.js';
import { showsLineEditor } from '../../../src/engine/typing/line-editor.js';

const classify = (screen: readonly string[]) => classifyScreen(screen);

describe('showsLineEditor', () => {
  it('is true for a shell prompt on the last line, with the cursor on it', () => {
    expect(showsLineEditor({ lines: ['earlier', '$'], cursorRow: 1, height: 10 }, classify)).toBe(true);
  });

  it('is false when the cursor is not on the prompt line', () => {
    expect(showsLineEditor({ lines: ['earlier', '$', ''], cursorRow: 2, height: 10 }, classify)).toBe(false);
  });

  it('is false for an agent input box with a footer under it', () => {
    const lines = ['Agent v1', '', '╭────────────────────╮', '│ > Type your message │', '╰────────────────────╯', '  ? for shortcuts'];
    expect(showsLineEditor({ lines, cursorRow: 3, height: 10 }, classify)).toBe(false);
  });

  it('is false on the alternate screen', () => {
    expect(showsLineEditor({ lines: ['earlier', '$'], cursorRow: 1, height: 10, alternate: true }, classify)).toBe(false);
  });

  it('reads only the visible screen', () => {
    const lines = ['$', ...Array.from({ length: 5 }, (_, i) => `output ${i}`)];
    expect(showsLineEditor({ lines, cursorRow: 0, height: 5 }, classify)).toBe(false);
  });
});
