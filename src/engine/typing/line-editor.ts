// The line-editor check: whether a pane waits at a line editor's prompt (a shell, a REPL), which
// takes a line's text and its Enter at once; anything else gets a pause between them.

import type { PromptVerdict } from '../types.js';

/** The part of a capture the check reads. */
export interface CursorScreen {
  readonly lines: readonly string[];
  /** Rows of the visible screen (the last `height` lines are on screen). */
  readonly height: number;
  readonly cursorRow: number;
  readonly alternate?: boolean;
}

/** A prompt that is the last line on screen and the cursor's line, outside the alternate screen. */
export function showsLineEditor(capture: CursorScreen, classify: (screen: readonly string[]) => PromptVerdict): boolean {
  if (capture.alternate === true) return false;
  const screen = capture.lines.slice(Math.max(0, capture.lines.length - capture.height));
  const verdict = classify(screen);
  if (!verdict.prompt || verdict.busy) return false;
  let last = screen.length - 1;
  while (last >= 0 && (screen[last] ?? '').trim() === '') last -= 1;
  const line = verdict.line.trim();
  return last >= 0 && (screen[last] ?? '').trim() === line && (capture.lines[capture.cursorRow] ?? '').trim() === line;
}
