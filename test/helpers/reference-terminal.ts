// The oracle for what a command's output looked like: a pane's raw output bytes (`pipe-pane -O`)
// rendered by a reference terminal (xterm.js, headless, of the pane's size, with scrollback enough
// for everything). The shell marks each command's output with the shell-integration sequences
// (`PS0` prints OSC 133;C before the command runs, `PS1` starts with OSC 133;A), so the span of
// one command is exactly the bytes between them. A span's lines are the rows from where its output
// started to the cursor's row, wrapped rows joined; an erased screen is kept as it was just before
// the erase (the terminal scrolls it up, as tmux's scroll-on-clear does). Output that moves the
// cursor up into the screen as it was before the command (a home without a clear) adds the rows it
// changed up there, in screen order; a row that shows the same text as before the command (the
// old screen, which the cursor only passed) is never the command's.

import xtermHeadless from '@xterm/headless';
import type { IBuffer } from '@xterm/headless';

const { Terminal } = xtermHeadless;

export const COMMAND_STARTS = '\x1b]133;C\x07';
export const PROMPT_STARTS = '\x1b]133;A\x07';

/**
 * The lines of every command's output in the log, in order. `promptCells`: the cells the next
 * prompt covers are shown blank (where output left the cursor inside a row, the prompt is drawn
 * over it, and no screen can tell what was under it).
 */
export async function renderCommands(log: Buffer, cols: number, rows: number, promptCells = 0): Promise<string[][]> {
  const term = new Terminal({ cols, rows, scrollback: 1_000_000, allowProposedApi: true, scrollOnEraseInDisplay: true, logLevel: 'off' });
  // Erasing the scrollback (the third part of `clear`) would take away what was shown: ignored.
  term.parser.registerCsiHandler({ final: 'J' }, (params) => params[0] === 3);
  const write = (bytes: Buffer) => new Promise<void>((resolve) => term.write(bytes, resolve));
  const buffer = () => term.buffer.normal;
  const commands: string[][] = [];
  let at = 0;
  for (;;) {
    const start = log.indexOf(COMMAND_STARTS, at);
    if (start < 0) break;
    await write(log.subarray(at, start + COMMAND_STARTS.length));
    const end = log.indexOf(PROMPT_STARTS, start);
    if (end < 0) break;
    const first = buffer().baseY + buffer().cursorY;
    const before = screenRows(buffer(), rows);
    // Erase below from the top-left corner (`clear` as `\e[H\e[J`) erases the whole screen:
    // it scrolls up as a full erase does.
    let from = start + COMMAND_STARTS.length;
    for (const erase of erasesBelow(log, from, end)) {
      await write(log.subarray(from, erase.at));
      const home = buffer().cursorX === 0 && buffer().cursorY === 0;
      await write(home ? Buffer.from('\x1b[2J') : log.subarray(erase.at, erase.at + erase.length));
      from = erase.at + erase.length;
    }
    await write(log.subarray(from, end));
    // Before the prompt blanks its cells: which rows the command left as they were.
    const old = (row: number) => before.has(row) && before.get(row) !== '' && before.get(row) === rowText(buffer(), row);
    const changedAbove = [...before.keys()].filter((row) => row < first && before.get(row) !== rowText(buffer(), row));
    const x = buffer().cursorX;
    if (promptCells > 0 && x < cols) await write(Buffer.from(`\x1b7${' '.repeat(Math.min(promptCells, cols - x))}\x1b8`));
    const b = buffer();
    const last = b.baseY + b.cursorY;
    const above = changedAbove.map((row) => rowText(b, row));
    const below = logicalLines(b, first, last + 1).filter((line) => !line.rows.every(old)).map((line) => line.text);
    commands.push([...above, ...below]);
    at = end;
  }
  term.dispose();
  return commands;
}

function rowText(buffer: IBuffer, row: number): string {
  return buffer.getLine(row)?.translateToString(true) ?? '';
}

/** The screen's rows by absolute row, with their text. */
function screenRows(buffer: IBuffer, rows: number): Map<number, string> {
  const texts = new Map<number, string>();
  for (let y = 0; y < rows; y++) texts.set(buffer.baseY + y, rowText(buffer, buffer.baseY + y));
  return texts;
}

function logicalLines(buffer: IBuffer, from: number, to: number): { text: string; rows: number[] }[] {
  const groups: number[][] = [];
  for (let row = from; row < to; row++) {
    const line = buffer.getLine(row);
    if (!line) break;
    if (line.isWrapped && groups.length > 0) groups[groups.length - 1]!.push(row);
    else groups.push([row]);
  }
  return groups.map((group) => ({
    rows: group,
    text: group
      .map((row, k) => {
        const line = buffer.getLine(row)!;
        if (k === group.length - 1) return line.translateToString(true);
        // A row that wrapped ran to the edge: its full width, less a cell left empty by a wide character.
        const last = line.getCell(line.length - 1);
        const unwritten = last !== undefined && last.getChars() === '' && last.getWidth() === 1;
        return line.translateToString(false, 0, unwritten ? line.length - 1 : line.length);
      })
      .join('')
      .trimEnd(),
  }));
}

/** Where `ESC [ J` and `ESC [ 0 J` are in log[from, to). */
function erasesBelow(log: Buffer, from: number, to: number): { at: number; length: number }[] {
  const found: { at: number; length: number }[] = [];
  for (let at = log.indexOf('\x1b[', from); at >= 0 && at < to; at = log.indexOf('\x1b[', at + 1)) {
    if (log[at + 2] === 0x4a) found.push({ at, length: 3 });
    else if (log[at + 2] === 0x30 && log[at + 3] === 0x4a) found.push({ at, length: 4 });
  }
  return found.filter((erase) => erase.at + erase.length <= to);
}
