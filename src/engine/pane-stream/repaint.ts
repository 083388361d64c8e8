// The "current screen at once" a joining viewer gets: built from `capture-pane -p -e` (colours
// included) and the cursor as tmux reports it. Pure: lines in, terminal bytes out.

/** Format for `display -p` that describes what a repaint needs besides the screen text. */
export const CURSOR_FORMAT = '#{cursor_x} #{cursor_y} #{cursor_flag} #{pane_width} #{pane_height} #{alternate_on}';

export interface CursorState {
  readonly x: number;
  readonly y: number;
  readonly visible: boolean;
  readonly width: number;
  readonly height: number;
  readonly alternate: boolean;
}

export function parseCursorLine(line: string | undefined): CursorState | null {
  const parts = (line ?? '').trim().split(' ').map(Number);
  if (parts.length < 6 || parts.some((n) => !Number.isFinite(n))) return null;
  const [x, y, flag, width, height, alternate] = parts as [number, number, number, number, number, number];
  return { x, y, visible: flag === 1, width, height, alternate: alternate === 1 };
}

/**
 * Commands (one control-mode line) that capture the screen and the cursor at the same instant.
 * With `buffer`, the screen goes into that paste buffer instead of the reply: tmux 3.2 to 3.5
 * never free the text of a `capture-pane -p` run by a control client (fixed in 3.6), so on those
 * versions every capture would grow the user's tmux server by the size of the screen.
 */
export function repaintCommands(paneId: string, buffer: string | null = null): string[][] {
  return [
    buffer === null ? ['capture-pane', '-p', '-e', '-t', paneId] : ['capture-pane', '-e', '-b', buffer, '-t', paneId],
    ['display-message', '-p', '-t', paneId, CURSOR_FORMAT],
  ];
}

/** Whether `capture-pane -p` over a control client leaks its text in this tmux version. */
export function printedCapturesLeak(version: readonly [number, number] | null): boolean {
  return version === null || version[0] < 3 || (version[0] === 3 && version[1] < 6);
}

const ESC = '\x1b';

/**
 * Terminal bytes that reset the viewer's terminal, draw the captured rows and put the cursor where
 * tmux has it. Attribute state carries across rows in tmux's capture, so rows are joined as is.
 */
export function buildRepaint(lines: readonly string[], cursor: CursorState | null): Buffer {
  const rows = cursor ? lines.slice(0, cursor.height) : lines;
  let text = `${ESC}c${ESC}[H${ESC}[2J${rows.join('\r\n')}${ESC}[0m`;
  if (cursor) {
    text += `${ESC}[${cursor.y + 1};${cursor.x + 1}H`;
    if (!cursor.visible) text += `${ESC}[?25l`;
  }
  return Buffer.from(text, 'utf8');
}
