// A pane's output stream turned into lines, as a terminal would show them: the bytes go through a
// headless terminal (xterm.js) of the pane's size, which does the wrapping, `\r` rewrites, cursor
// moves, erases and the alternate screen; out come the lines the cursor has left, each once, in
// order. Rows that scroll off the top are final and are collected after every piece of input, and
// rows about to be erased (a clear, a reset, the switch to the alternate screen) just before, so
// output of any length and speed comes out whole.

import xtermHeadless from '@xterm/headless';
import type { IBuffer, Terminal as HeadlessTerminal } from '@xterm/headless';

const { Terminal } = xtermHeadless;

/** What the stream shows now and what it committed since the last step. */
export interface StreamStep {
  /** Lines the cursor has left (or that scrolled off), new since the last step, in order. */
  readonly added: readonly string[];
  /** Lines from the cursor's row down to the last one with text (they may still change). */
  readonly open: readonly string[];
  /** The screen's text changed, or lines were committed, since the last step that consumed it. */
  readonly changed: boolean;
  /** The program shows the alternate screen (its lines are not collected: see Conversation). */
  readonly alternate: boolean;
  /**
   * What the cursor's row showed before this output reached it (the screen at the seam, or a row
   * already given), when the output moved the cursor back onto such a row: a prompt drawn there
   * covers old text, which is not output. Null for a row the output opened.
   */
  readonly cursorBefore: string | null;
  /** Every row with text below the cursor's line shows what it showed before: an old screen, not output. */
  readonly staleBelow: boolean;
  /** The cursor's row and column as this terminal shows them (null on the alternate screen). */
  readonly cursor: { readonly text: string; readonly x: number } | null;
}

export interface StreamLinesOptions {
  readonly cols: number;
  readonly rows: number;
  /** The screen at the seam (a repaint) and whether it was the alternate screen. */
  readonly screen?: Buffer;
  readonly alternate?: boolean;
}

// Input goes in pieces of at most this many bytes, and the terminal keeps more rows of scrollback
// than a piece can scroll: every row that leaves the screen is read before it is dropped.
const PIECE_BYTES = 2048;
const SCROLLBACK_ROWS = 2600;
// An input box drawn around the cursor line: its top border belongs to the chrome too.
const BOX_ONLY = /^[\s─━═╭╮╰╯┌┐└┘┏┓┗┛╔╗╚╝│┃║-]*$/;
/** A given row redrawn this many times is a live status row: only its last state counts. */
const LIVE_AFTER_REDRAWS = 2;

/** The part of xterm's buffer list that says how many rows it dropped off the top (not public API). */
interface TrimmingList {
  onTrim(listener: (amount: number) => void): { dispose(): void };
}

/** The parts of xterm's buffers that say where rows go when the screen scrolls (not public API). */
interface CoreBuffer {
  readonly lines?: TrimmingList;
  readonly ybase: number;
  readonly scrollTop: number;
  readonly scrollBottom: number;
}

interface CoreBufferService {
  readonly buffer?: CoreBuffer;
  readonly buffers?: { readonly normal?: CoreBuffer };
  scroll?: (...args: unknown[]) => void;
}

interface Seen {
  /** The text given for the row (or the row's text at the seam). */
  given: string;
  /** Its text now. */
  current: string;
  redraws: number;
}

export class StreamLines {
  private readonly term: HeadlessTerminal;
  /** Rows dropped off the top of the normal buffer so far: absolute row = trimmed + buffer row. */
  private trimmed = 0;
  private list: TrimmingList | null = null;
  private trimListener: { dispose(): void } | null = null;
  /** Absolute row of the first row not committed yet. */
  private next = 0;
  /** Committed lines waiting for the next step. */
  private committed: string[] = [];
  /** Committed rows still on screen (and the screen above the seam), by absolute row. */
  private readonly shown = new Map<number, Seen>();
  private lastScreen = '';
  /** The screen's top when shown rows above it were last let go. */
  private lowestShown = -Infinity;
  private dirty = false;
  private pending: Promise<void>;
  /** The screen's rows at the seam from the cursor down (a prompt, an input box): not output. */
  private chrome: string[] = [];
  /**
   * Rows below the cursor at the seam, by absolute row, with their text then: old screen (a
   * program once moved the cursor up over it). Still showing that text, they are not output.
   */
  private readonly below = new Map<number, string>();
  /** Absolute row the message was typed on: output starts there (with its echo). */
  private start = 0;
  private ready = false;

  constructor(options: StreamLinesOptions) {
    // An erased screen scrolls up into the scrollback (as tmux's scroll-on-clear does) instead of
    // being blanked in place: what is drawn after a clear lands on rows never given before, so it
    // is output even when it repeats the old screen.
    this.term = new Terminal({
      cols: Math.max(2, options.cols),
      rows: Math.max(1, options.rows),
      scrollback: SCROLLBACK_ROWS,
      allowProposedApi: true,
      scrollOnEraseInDisplay: true,
      // A pane's bytes are anything: a malformed sequence is the program's, not an error of corral's.
      logLevel: 'off',
    });
    this.watchList();
    this.hookRegionScrolls();
    let seam = options.screen ?? Buffer.alloc(0);
    if (options.alternate) {
      // The seam is the alternate screen: it is drawn there (its own reset would switch back to
      // the normal screen first), and the normal screen under it is unknown, so blank.
      this.term.write('\x1bc\x1b[?1049h');
      if (seam.subarray(0, 2).toString('latin1') === '\x1bc') seam = seam.subarray(2);
    }
    this.pending = new Promise<void>((resolve) => this.term.write(seam, resolve)).then(() => this.seam());
    this.hookErases();
  }

  /** Resolves once every byte written so far has been taken in. */
  settled(): Promise<void> {
    return this.pending;
  }

  /** The program's output, as it arrives; resolves once it is parsed. */
  write(bytes: Buffer): Promise<void> {
    for (let at = 0; at < bytes.length; at += PIECE_BYTES) {
      const piece = bytes.subarray(at, Math.min(bytes.length, at + PIECE_BYTES));
      this.pending = new Promise<void>((resolve) =>
        this.term.write(piece, () => {
          this.dirty = true;
          this.collectScrolled();
          resolve();
        }),
      );
    }
    return this.pending;
  }

  /** The visible screen's rows (trailing spaces dropped). */
  screen(): string[] {
    const buffer = this.term.buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < this.term.rows; y++) rows.push(buffer.getLine(buffer.baseY + y)?.translateToString(true) ?? '');
    return rows;
  }

  get alternate(): boolean {
    return this.term.buffer.active.type === 'alternate';
  }

  /**
   * Lines committed since the last step: rows that scrolled off or were about to be erased, given
   * rows redrawn with new text, rows above the cursor; then the open rows. `consume` resets
   * `changed`.
   */
  step(consume = true): StreamStep {
    let added: string[] = [];
    let open: string[] = [];
    let cursorBefore: string | null = null;
    let staleBelow = false;
    let cursorRow: { text: string; x: number } | null = null;
    if (!this.alternate) {
      this.commitLeft(false);
      const buffer = this.term.buffer.normal;
      const cursor = buffer.baseY + buffer.cursorY;
      const end = this.regionEnd(buffer, cursor);
      // A row of the old screen the cursor came back to is a line of its own: the wrap that joined
      // it to the row above was the old screen's, not this output's.
      const known = this.before(this.abs(cursor)) !== null;
      const first = known ? cursor : this.completeBefore(buffer, cursor);
      // From the first row of the cursor's line: the cursor may sit on a row wrapped from above.
      // Below it, rows that still show what they showed before (given, or the old screen the
      // cursor moved up over) are not open output.
      const lines = this.logicalLines(buffer, Math.max(this.row(this.next), first), end).filter((line) => line.first <= cursor || !this.unchanged(buffer, line.first, line.last));
      open = [...this.unsettled(this.abs(buffer.baseY), Infinity), ...lines.map((line) => line.text)];
      if (known || buffer.getLine(cursor + 1)?.isWrapped !== true) cursorBefore = this.before(this.abs(cursor));
      staleBelow = this.staleBelow(buffer, cursor);
      cursorRow = { text: rowText(buffer, cursor), x: buffer.cursorX };
    }
    added = this.committed;
    this.committed = [];
    const screen = this.screen().join('\n');
    const changed = this.dirty || added.length > 0 || screen !== this.lastScreen;
    if (consume) {
      this.dirty = false;
      this.lastScreen = screen;
    }
    return { added, open, changed, alternate: this.alternate, cursorBefore, staleBelow, cursor: cursorRow };
  }

  /**
   * Marks the open rows as given (the answer ended with them): they come again only if they are
   * redrawn with other text.
   */
  commitOpen(): void {
    if (this.alternate) return;
    const buffer = this.term.buffer.normal;
    const end = this.regionEnd(buffer, buffer.baseY + buffer.cursorY);
    for (const seen of this.shown.values()) seen.given = seen.current;
    for (let row = this.row(this.next); row < end; row++) {
      this.below.delete(this.abs(row));
      this.remember(this.abs(row), rowText(buffer, row));
    }
    this.next = Math.max(this.next, this.abs(end));
  }

  dispose(): void {
    this.trimListener?.dispose();
    this.term.dispose();
  }

  // --- internals -------------------------------------------------------------------------------

  private abs(row: number): number {
    return this.trimmed + row;
  }

  private row(abs: number): number {
    return abs - this.trimmed;
  }

  private bufferService(): CoreBufferService | undefined {
    return (this.term as unknown as { _core?: { _bufferService?: CoreBufferService } })._core?._bufferService;
  }

  /** Counts the rows the normal buffer drops; a reset gives it a new list, so look again each time. */
  private watchList(): void {
    const list = this.bufferService()?.buffers?.normal?.lines;
    if (!list || typeof list.onTrim !== 'function') {
      throw new Error('@xterm/headless changed: its buffer no longer reports trimmed rows (pin the version corral was built with)');
    }
    if (list === this.list) return;
    if (this.list !== null && this.ready) {
      // A reset: the old rows are gone (committed just before it); the new screen starts below them.
      this.trimmed = this.next;
      this.shown.clear();
    }
    this.trimListener?.dispose();
    this.list = list;
    this.trimListener = list.onTrim((amount) => (this.trimmed += amount));
  }

  /**
   * A scrolling region that does not start at the screen's top (`\e[T;Br`) scrolls inside the
   * screen: its rows move up one, its top row is gone, and nothing goes to the scrollback, so no
   * row number changes. What is known of each row must move up with its text, or every row of the
   * region reads as redrawn with the text of the row below it (a line wrapped at the region's
   * bottom would come out as two lines, cut at the pane's edge).
   */
  private hookRegionScrolls(): void {
    const service = this.bufferService();
    const scroll = service?.scroll;
    if (!service || typeof scroll !== 'function') {
      throw new Error('@xterm/headless changed: its buffer service no longer scrolls the screen (pin the version corral was built with)');
    }
    service.scroll = (...args: unknown[]) => {
      const buffer = service.buffer;
      // Read before the scroll: the region is the one it scrolls.
      const region = buffer && buffer === service.buffers?.normal && buffer.scrollTop > 0 ? { top: buffer.ybase + buffer.scrollTop, bottom: buffer.ybase + buffer.scrollBottom } : null;
      scroll.apply(service, args);
      if (region) this.regionScrolled(this.abs(region.top), this.abs(region.bottom));
    };
  }

  /** The region between two absolute rows scrolled up one row: what is known of its rows moves with them. */
  private regionScrolled(top: number, bottom: number): void {
    if (!this.ready) return;
    const up = (abs: number) => (abs > top && abs <= bottom ? abs - 1 : abs);
    scrollUp(this.shown, top, bottom);
    scrollUp(this.below, top, bottom);
    // The region's new bottom row is blank. Above the first open row it is one the cursor has
    // passed: what is drawn there later is output in place, as on any given row.
    if (bottom < this.next) this.remember(bottom, '');
    // The first open row moves up with its text; at the region's top it stays there (its text is
    // gone: the region dropped it), and so does the row the message was typed on.
    this.next = up(this.next);
    this.start = up(this.start);
  }

  /** Rows about to be erased are final as they are: commit them first. */
  private hookErases(): void {
    const parser = this.term.parser;
    parser.registerCsiHandler({ final: 'J' }, (params) => {
      const buffer = this.term.buffer.active;
      // `clear` is often home, then erase below (`\e[H\e[J`): the whole screen too.
      const wholeScreen = (params[0] ?? 0) === 0 && buffer.cursorX === 0 && buffer.cursorY === 0;
      if (params[0] === 2 || params[0] === 3 || wholeScreen) this.commitLeft(true);
      if (wholeScreen) this.forgetScreen();
      return false;
    });
    parser.registerEscHandler({ final: 'c' }, () => {
      this.commitLeft(true);
      return false;
    });
    parser.registerCsiHandler({ prefix: '?', final: 'h' }, (params) => {
      if (params.some((p) => p === 1049 || p === 1047 || p === 47)) this.commitLeft(false);
      return false;
    });
  }

  /**
   * The screen is about to be blanked in place (erase below from the top-left corner): whatever
   * is drawn on it next is output, even where it repeats what the rows showed before.
   */
  private forgetScreen(): void {
    if (!this.ready || this.alternate) return;
    const top = this.abs(this.term.buffer.normal.baseY);
    for (const key of [...this.shown.keys()]) if (key >= top) this.shown.delete(key);
    for (const key of [...this.below.keys()]) if (key >= top) this.below.delete(key);
    this.next = top;
    // Nothing of the screen before the message is left on it.
    this.start = top;
  }

  /** After the seam's screen is drawn: nothing above the cursor is output; the rest is chrome. */
  private seam(): void {
    // The seam's repaint starts with a reset, which gave the terminal new buffers.
    this.watchList();
    const buffer = this.term.buffer.normal;
    const rows = this.screen();
    let last = rows.length - 1;
    while (last > buffer.cursorY && (rows[last] ?? '') === '') last -= 1;
    let first = buffer.cursorY;
    while (first > 0 && first > buffer.cursorY - 3 && (rows[first - 1] ?? '') !== '' && BOX_ONLY.test(rows[first - 1] ?? '')) first -= 1;
    this.chrome = this.alternate ? [] : rows.slice(first, last + 1);
    this.next = this.abs(buffer.baseY + buffer.cursorY);
    this.lastScreen = rows.join('\n');
    // What the screen held before: if the program moves up over it, only new text is output.
    for (let y = 0; y < buffer.cursorY; y++) this.remember(this.abs(buffer.baseY + y), rows[y] ?? '');
    // Rows below the cursor show an older screen (a prompt a program moved up over it): the same.
    this.below.clear();
    for (let y = buffer.cursorY + 1; y <= last; y++) if ((rows[y] ?? '') !== '') this.below.set(this.abs(buffer.baseY + y), rows[y] ?? '');
    this.start = this.abs(buffer.baseY + buffer.cursorY);
    this.ready = true;
  }

  /** Rows that scrolled off the screen since the last look: final, so committed at once. */
  private collectScrolled(): void {
    this.watchList();
    if (!this.ready || this.alternate) return;
    const buffer = this.term.buffer.normal;
    if (this.row(this.next) < 0) {
      // Rows left the buffer unread (a piece scrolled more than the scrollback): say so once.
      this.committed.push(`[corral: ${-this.row(this.next)} lines were lost here]`);
      this.next = this.trimmed;
    }
    const upTo = this.completeBefore(buffer, buffer.baseY);
    const from = this.row(this.next);
    if (upTo > from) {
      // Rows above the screen are final: a row nobody saw before is output as it is (the common,
      // fast case); one given while on screen is compared as any committed row.
      for (const line of this.logicalLines(buffer, from, upTo)) {
        if (!this.shown.has(this.abs(line.first)) && !this.below.has(this.abs(line.first))) this.committed.push(line.text);
        else {
          const text = this.commitLine(buffer, line.first, line.last, line.text);
          if (text !== null) this.committed.push(text);
        }
      }
      this.next = Math.max(this.next, this.abs(upTo));
    }
    this.settleScrolledOff(buffer);
  }

  /**
   * Commits what the cursor has left (`everything`: every row with text, the cursor's too, as
   * before an erase). Rows the cursor went back up over are open again.
   */
  private commitLeft(everything: boolean): void {
    if (!this.ready || this.alternate) return;
    this.collectScrolled();
    const buffer = this.term.buffer.normal;
    const top = buffer.baseY;
    const cursor = buffer.baseY + buffer.cursorY;
    const end = everything ? lastTextRow(buffer, top, this.term.rows) : this.regionEnd(buffer, cursor);
    const stop = everything ? end : this.completeBefore(buffer, Math.min(cursor, end));
    // The cursor went back up: rows of this output it went over are open again.
    const back = this.completeBefore(buffer, cursor);
    const opened = this.row(this.next);
    if (!everything && back < opened) this.next = this.abs(back);
    const redrawn = this.redrawn(buffer, top, Math.min(this.row(this.next), end));
    // Up into the screen that was there before the message (above the row it was typed on), the
    // rows the output left below (the echo, what it printed first) are final: they come first,
    // then what it wrote up there.
    if (!everything && back <= opened && (back < this.row(this.start) || redrawn.above)) this.leaveBelow(buffer, back, opened, end);
    for (const line of redrawn.lines) this.committed.push(line);
    // A line that crosses the top of the screen starts above it: it is committed whole.
    const from = this.row(this.next);
    if (stop > from) this.commitRows(buffer, from, stop);
  }

  private commitRows(buffer: IBuffer, from: number, to: number): void {
    for (const line of this.logicalLines(buffer, from, to)) {
      const text = this.commitLine(buffer, line.first, line.last, line.text);
      if (text !== null) this.committed.push(text);
    }
    this.next = Math.max(this.next, this.abs(to));
  }

  /**
   * A line the cursor has left: its text when it is new output, null when it shows what was given
   * for its rows before (the cursor only passed by), or a status row redrawn again and again.
   */
  private commitLine(buffer: IBuffer, first: number, last: number, text: string): string | null {
    const rows: string[] = [];
    for (let row = first; row <= last; row++) rows.push(rowText(buffer, row));
    const old = this.below.get(this.abs(first));
    if (old !== undefined) {
      // The old screen, untouched (the cursor only passed by): not output.
      if (first === last && rows[0] === old) return null;
      this.below.delete(this.abs(first));
    }
    const seen = this.shown.get(this.abs(first));
    if (seen && rows.every((row, k) => this.shown.get(this.abs(first + k))?.given === row)) return null;
    const redraws = seen ? seen.redraws + 1 : 0;
    if (seen && (redraws >= LIVE_AFTER_REDRAWS || text.trim() === '')) {
      seen.redraws = redraws;
      seen.current = rows[0] ?? '';
      return null;
    }
    rows.forEach((row, k) => this.remember(this.abs(first + k), row, redraws));
    return text;
  }

  /** What a row showed before this output reached it: given, or the old screen below the seam's cursor. */
  private before(abs: number): string | null {
    return this.shown.get(abs)?.given ?? this.below.get(abs) ?? null;
  }

  /** Whether rows [first, last] still show what they showed before (each row known and the same). */
  private unchanged(buffer: IBuffer, first: number, last: number): boolean {
    for (let row = first; row <= last; row++) if (this.before(this.abs(row)) !== rowText(buffer, row)) return false;
    return true;
  }

  /** Whether there are rows with text below the cursor's line, and each shows what it showed before. */
  private staleBelow(buffer: IBuffer, cursor: number): boolean {
    let line = cursor;
    while (buffer.getLine(line + 1)?.isWrapped === true) line += 1;
    const end = lastTextRow(buffer, buffer.baseY, this.term.rows);
    if (end <= line + 1) return false;
    for (let row = line + 1; row < end; row++) {
      const text = rowText(buffer, row);
      if (text !== '' && this.before(this.abs(row)) !== text) return false;
    }
    return true;
  }

  /**
   * The output moved the cursor up into the old screen: the rows it had opened below are final
   * (committed), and the cursor's own row, when it is the one the message was typed on, is the
   * echo with the prompt drawn over it again: given, never output.
   */
  private leaveBelow(buffer: IBuffer, back: number, opened: number, end: number): void {
    for (const line of this.logicalLines(buffer, back, end)) {
      if (line.first === back) {
        if (back >= opened && this.abs(back) === this.start) for (let row = line.first; row <= line.last; row++) this.remember(this.abs(row), rowText(buffer, row));
        continue;
      }
      if (line.first < opened) continue;
      const text = this.commitLine(buffer, line.first, line.last, line.text);
      if (text !== null) this.committed.push(text);
    }
  }

  /** Given rows above the first open row whose text changed: new output in place. */
  private redrawn(buffer: IBuffer, top: number, end: number): { lines: string[]; above: boolean } {
    const lines: string[] = [];
    let above = false;
    for (let row = top; row < end; row++) {
      const seen = this.shown.get(this.abs(row));
      if (!seen) continue;
      const text = rowText(buffer, row);
      if (text === seen.current) continue;
      if (this.abs(row) < this.start) above = true;
      seen.redraws += 1;
      seen.current = text;
      // Erased is not new output; a row redrawn again and again is a status row, given once it settles.
      if (text.trim() !== '' && seen.redraws < LIVE_AFTER_REDRAWS) {
        lines.push(text);
        seen.given = text;
      }
    }
    return { lines, above };
  }

  /** Rows that left the screen cannot change any more: a status row's last state is final there. */
  private settleScrolledOff(buffer: IBuffer): void {
    const top = this.abs(buffer.baseY);
    if (this.shown.size === 0 || top <= this.lowestShown) return;
    this.lowestShown = top;
    for (const line of this.unsettled(-Infinity, top)) this.committed.push(line);
    for (const key of this.shown.keys()) if (key < top) this.shown.delete(key);
  }

  /** Status rows whose last state was not given yet, between two absolute rows. */
  private unsettled(fromAbs: number, toAbs: number): string[] {
    const lines: string[] = [];
    for (const [abs, seen] of this.shown) {
      if (abs < fromAbs || abs >= toAbs) continue;
      if (seen.current !== seen.given && seen.current.trim() !== '') lines.push(seen.current);
    }
    return lines;
  }

  /** Where committing must stop so that a wrapped line is never cut: before its first row. */
  private completeBefore(buffer: IBuffer, row: number): number {
    let end = row;
    while (end > 0 && buffer.getLine(end)?.isWrapped === true) end -= 1;
    return end;
  }

  /** The end of the output region: the last row with text, less the seam's chrome when it is there again. */
  private regionEnd(buffer: IBuffer, cursor: number): number {
    const end = Math.max(cursor + 1, lastTextRow(buffer, buffer.baseY, this.term.rows));
    const size = this.chrome.length;
    if (size === 0 || end - size < buffer.baseY) return end;
    for (let k = 0; k < size; k++) if (rowText(buffer, end - size + k) !== this.chrome[k]) return end;
    return end - size;
  }

  /** Rows [from, to) as logical lines: a row and the rows wrapped from it are one line. */
  private logicalLines(buffer: IBuffer, from: number, to: number): { text: string; first: number; last: number }[] {
    const lines: { text: string; first: number; last: number }[] = [];
    let previous: { text: string; first: number; last: number } | null = null;
    for (let row = from; row < to; row++) {
      const line = buffer.getLine(row);
      if (!line) break;
      if (line.isWrapped && previous) previous.last = row;
      else {
        previous = { text: '', first: row, last: row };
        lines.push(previous);
      }
    }
    for (const line of lines) line.text = joinRows(buffer, line.first, line.last);
    return lines;
  }

  private remember(abs: number, text: string, redraws = 0): void {
    this.shown.set(abs, { given: text, current: text, redraws });
  }
}

/**
 * A region's rows [top, bottom] by absolute row, scrolled up one: the top one is dropped, the others
 * move up a row. In row order, as they are read.
 */
function scrollUp<T>(rows: Map<number, T>, top: number, bottom: number): void {
  if (![...rows.keys()].some((abs) => abs >= top && abs <= bottom)) return;
  const moved: [number, T][] = [];
  for (const [abs, value] of rows) {
    if (abs === top) continue;
    moved.push([abs > top && abs <= bottom ? abs - 1 : abs, value]);
  }
  moved.sort((a, b) => a[0] - b[0]);
  rows.clear();
  for (const [abs, value] of moved) rows.set(abs, value);
}

function rowText(buffer: IBuffer, row: number): string {
  return buffer.getLine(row)?.translateToString(true) ?? '';
}

/** One past the last row with text on the screen (the screen's top when it is empty). */
function lastTextRow(buffer: IBuffer, top: number, rows: number): number {
  let end = top + rows;
  while (end > top && rowText(buffer, end - 1) === '') end -= 1;
  return end;
}

/**
 * The rows of one wrapped line joined: every row but the last at its full width, less a last cell
 * that was never written (a wide character that did not fit went to the next row).
 */
function joinRows(buffer: IBuffer, first: number, last: number): string {
  if (first === last) return (buffer.getLine(first)?.translateToString(true) ?? '').trimEnd();
  let text = '';
  for (let row = first; row <= last; row++) {
    const line = buffer.getLine(row);
    if (!line) break;
    if (row === last) {
      text += line.translateToString(true);
      continue;
    }
    const cell = line.getCell(line.length - 1);
    const unwritten = cell !== undefined && cell.getChars() === '' && cell.getWidth() === 1;
    text += line.translateToString(false, 0, unwritten ? line.length - 1 : line.length);
  }
  return text.trimEnd();
}
