// One exchange with a pane, without I/O: fed the baseline capture, then the lines of its output
// (from a line source: the pane's output stream, or the screen differ) and one capture per poll
// for what only the screen tells (the prompt is back, a busy line, the alternate screen), it
// returns the answer text to send (sanitized, filtered and fenced), says when the answer is
// complete, and then keeps watching until the pane is free again (its program back at its
// prompt), handing over what the pane printed after the answer ended. run-conversation.ts does
// the typing, the stream and the polling around it.
//
// Phases: answering -> finishing (the answer has ended, the command still runs: the pane stays
// reserved and its output is kept as late output; or the command asks a question, and the next
// message is typed as its answer) -> released.

import type { PromptVerdict } from '../types.js';
import { classifyScreen } from '../prompt/matcher.js';
import { isShell } from '../pane/shells.js';
import type { Capture } from './screen-diff.js';
import { createEchoState, removeEcho, type EchoState } from './echo.js';
import { isProgressLine } from './progress-filter.js';
import { FenceWriter } from './fence.js';
import { decide, startQuiescence, type QuiescenceConfig, type QuiescenceState } from './quiescence.js';
import { ScreenDiffSource, type LineSource } from './line-source.js';
import { AnswerCap, type OpenSpill } from './answer-cap.js';

export interface ConversationConfig extends QuiescenceConfig {
  /** Wrap the output in a fenced code block (default true). */
  readonly fence?: boolean;
  /** Lines an answer holds at most; the rest go to a spill file (default 200,000). */
  readonly maxLines?: number;
}

/** The answer of a command that printed nothing: chat UIs show an empty answer as an error. */
export const NO_OUTPUT = '(no output)';
/** Said when the answer ends on a question from the command. */
export const WAITS_FOR_INPUT = '(the program waits for input: your next message is typed as its answer)';
export const DEFAULT_MAX_LINES = 200_000;
/** Said under a full-screen program's screen. */
export const SCREEN_WAITS = '(a full-screen program waits for keys: your next message goes to it, such as q, :q!, Esc or PageDown)';

export interface ConversationExtras {
  /** Where the lines come from (default: the screen differ over the captures). */
  readonly source?: LineSource;
  /** Where lines past the cap are kept. */
  readonly openSpill?: OpenSpill;
  /**
   * The prompt alone, when the line the pane waits on holds output before it (the last answer
   * ended without a newline: `hello$ `), as that answer found it (see `promptLeft`).
   */
  readonly prompt?: { readonly text: string; readonly cells: number };
  /** The message goes in as keys to a program away from its prompt (a full-screen one: its next screen is the answer). */
  readonly keys?: boolean;
}

export interface PaneCapture extends Capture {
  /** Rows of the visible screen (the last `height` lines are on screen). */
  readonly height: number;
  /** The pane shows the alternate screen (vim, less, top, a full-screen TUI). */
  readonly alternate?: boolean;
  /** The pane's foreground command as tmux names it (`bash`, `sleep` ...). */
  readonly command?: string;
  /** Column of the cursor on its row. */
  readonly cursorX?: number;
  /** The foreground program waits for input (false: it is busy or asleep; absent: unknown). */
  readonly waitsForInput?: boolean;
}

export type FinishReason = 'stop' | 'length';

export type ConversationPhase = 'answering' | 'finishing' | 'released';

export interface ConversationStep {
  /** Answer text to send now ('' when nothing new). */
  readonly text: string;
  /** Set on the step where the answer ends; `text` then includes the closing fence. */
  readonly finish: FinishReason | null;
  /** Lines the pane printed after the answer ended (its late output), new in this step. */
  readonly late: readonly string[];
  /** The pane is free again: its program is back at its prompt (or, unrecognised, long quiet). */
  readonly released: boolean;
  /** The message opened a REPL block (Python `for ...:`): press Enter once more so that it runs. */
  readonly closeBlock?: boolean;
  /** The answer ended on a question from the command: the next message is its answer. */
  readonly question?: boolean;
  /** The question is a full-screen program's screen: the next message is keys for it. */
  readonly screen?: boolean;
}

export type Classifier = (lines: readonly string[]) => PromptVerdict;

// A Python (or IPython) continuation prompt alone on the cursor line, under the block it continues.
const CONTINUATION = /^\.\.\.:?$/;
const BLOCK_LINE = /^(?:\.\.\.:?)(?:\s|$)/;
const BLOCK_START = /^(?:>>>|In \[\d+\]:)\s/;

/** Whether the cursor waits at `...` under a block opened at a `>>>` (or `In [n]:`) prompt. */
export function waitsInReplBlock(lines: readonly string[], cursorRow: number): boolean {
  if (!CONTINUATION.test((lines[cursorRow] ?? '').trim())) return false;
  for (let row = cursorRow - 1; row >= 0 && row >= cursorRow - 200; row--) {
    const line = (lines[row] ?? '').trim();
    if (BLOCK_START.test(line)) return true;
    if (!BLOCK_LINE.test(line)) return false;
  }
  return false;
}

const NOTHING: ConversationStep = { text: '', finish: null, late: [], released: false };

// A line that ends in a question and leaves the cursor right after it: the command waits for an answer.
const QUESTION_END = /[?:>\])]\s*$/;

/** Whether the cursor's line ends like a question (only then does it matter whether the program reads). */
export function endsLikeQuestion(capture: PaneCapture): boolean {
  return capture.alternate !== true && QUESTION_END.test(capture.lines[capture.cursorRow] ?? '');
}

export class Conversation {
  private readonly source: LineSource;
  private echo: EchoState;
  private quiet: QuiescenceState;
  private fence: FenceWriter | null;
  private cap: AnswerCap;
  private blankRun = 0;
  private answerText = '';
  private finished: FinishReason | null = null;
  private phaseNow: ConversationPhase = 'answering';
  private lastOpen: readonly string[] = [];
  /** What the cursor's row showed before the output moved the cursor back onto it (old screen). */
  private cursorBefore: string | null = null;
  /** The prompt came back over an old row: nothing on the cursor's row is output. */
  private promptOverOld = false;
  /** The rows below the cursor's line are an old screen (the output moved the cursor up over it). */
  private staleBelow = false;
  private lastPromptBack = false;
  /** The capture's cursor line when the prompt was last seen back ('' when it was not). */
  private backRow = '';
  /** The cursor row with the prompt drawn on output, and that output, when the prompt was last seen so. */
  private promptRow: { row: string; output: string } | null = null;
  /** The cursor's row and column in the line source's own terminal, when it has one. */
  private sourceCursor: { readonly text: string; readonly x: number } | null = null;
  /** The lines of the last piece of answer given (what a client that was cut off may have missed). */
  private lastGiven: string[] = [];
  /** Open lines flushed into the answer when it ended: not late output when they are committed later. */
  private flushedOpen: string[] = [];
  // Alternate screen: the answer is a snapshot of the settled screen, never a stream of redraws.
  private inAlternate: boolean;
  private enteredAlternate = false;
  private altScreen: readonly string[] | null = null;
  private readonly baselinePrompt: boolean;
  private readonly baselineCommand: string | undefined;
  private readonly baselineLine: string;
  /** Cells from the prompt's start to where the cursor waits after it. */
  private readonly promptCells: number | undefined;
  /** The answer ended on a question; the next message is typed as its answer. */
  private asking = false;
  /** The answer was a full-screen program's settled screen: it waits for keys. */
  private screenWaits = false;
  /** Enter was pressed once more to run a REPL block; its empty continuation line is not output. */
  private blockClosed = false;
  private continuationToDrop = 0;

  constructor(
    baseline: PaneCapture,
    message: string,
    now: number,
    private readonly config: ConversationConfig,
    private readonly classify: Classifier = (lines) => classifyScreen(lines),
    private readonly extras: ConversationExtras = {},
  ) {
    this.source = extras.source ?? new ScreenDiffSource(baseline);
    this.echo = createEchoState(message);
    this.quiet = startQuiescence(now);
    this.fence = config.fence === false ? null : new FenceWriter();
    this.cap = new AnswerCap(config.maxLines ?? DEFAULT_MAX_LINES, extras.openSpill ?? null);
    this.inAlternate = baseline.alternate === true;
    this.altScreen = this.inAlternate ? visibleScreen(baseline) : null;
    if (extras.keys && this.inAlternate) {
      // Keys for a full-screen program: its next settled screen is the answer.
      this.enteredAlternate = true;
      this.altScreen = null;
    }
    this.baselinePrompt = this.classify(visibleScreen(baseline)).prompt;
    // Keys to a program away from its prompt (C-c to a sleep): its shell's prompt coming back is the end, not a question.
    this.baselineCommand = extras.keys && !this.inAlternate ? undefined : baseline.command;
    this.baselineLine = extras.prompt?.text ?? (baseline.lines[baseline.cursorRow] ?? '').trim();
    this.promptCells = extras.prompt?.cells ?? baseline.cursorX;
  }

  /**
   * When the prompt came back glued to output (`hello$ `): the row as it shows and the prompt
   * alone, for the next message to this pane, whose baseline is that row (a wrapped line joined
   * from several rows, maybe: the prompt is not what that line reads).
   */
  promptLeft(): { row: string; prompt: { text: string; cells: number } } | null {
    if (!this.lastPromptBack || this.promptCells === undefined) return null;
    const prompt = { text: this.baselineLine, cells: this.promptCells };
    if (this.promptRow !== null) return { row: this.promptRow.row.trim(), prompt };
    // Glued as the stream's own row shows it, where the capture's joined line could not tell.
    const own = this.sourceCursor;
    if (this.promptOverOld || own === null || this.backRow === '' || this.outputUnderPrompt(own.text, own.x) === null) return null;
    return { row: this.backRow, prompt };
  }

  /** Everything sent so far. */
  get answer(): string {
    return this.answerText;
  }

  get finishReason(): FinishReason | null {
    return this.finished;
  }

  get phase(): ConversationPhase {
    return this.phaseNow;
  }

  /** The answer ended on a question from the command, and nothing moved since. */
  get waitsForInput(): boolean {
    return this.phaseNow === 'finishing' && this.asking;
  }

  observe(capture: PaneCapture, now: number): ConversationStep {
    if (this.phaseNow === 'released') return NOTHING;
    const screen = visibleScreen(capture);
    const { added, changed } = this.take(capture, screen);
    let judged = this.judge(screen, capture);
    if (!judged.promptBack && this.staleBelow && capture.alternate !== true) {
      // The output moved the cursor up over an old screen: a prompt on the cursor's row is at the
      // bottom of what is output, with old rows under it.
      const top = Math.max(0, capture.lines.length - capture.height);
      judged = this.judge(screen.slice(0, capture.cursorRow - top + 1), capture);
    }
    const { verdict, question, promptBack } = judged;
    this.lastPromptBack = promptBack;
    const row = capture.lines[capture.cursorRow] ?? '';
    // The row the stream's own terminal shows, where there is a stream: what it showed before came
    // from that terminal too (the capture's cursor line can be another, see promptBackOnOwnRow).
    const own = this.sourceCursor;
    this.promptOverOld = promptBack && capture.alternate !== true && (own !== null ? this.overOldRow(own.text, own.x) : this.overOldRow(row, capture.cursorX));
    const output = promptBack && capture.alternate !== true && !this.promptOverOld ? this.outputUnderPrompt(row, capture.cursorX) : null;
    this.promptRow = output === null ? null : { row: row.trimEnd(), output };
    this.backRow = promptBack && capture.alternate !== true ? row.trim() : '';
    if (this.phaseNow === 'finishing') return this.whileFinishing(added, { changed, busy: verdict.busy, promptBack }, capture, now);

    let text = this.give(added);
    let closeBlock = false;
    if (!this.blockClosed && this.answerText === '' && capture.alternate !== true && waitsInReplBlock(capture.lines, capture.cursorRow)) {
      this.blockClosed = true;
      this.continuationToDrop = 1;
      closeBlock = true;
    }
    const settledEnds = this.inAlternate && this.enteredAlternate;
    const result = decide(this.quiet, { changed, busy: verdict.busy, promptBack, settledEnds, question }, now, this.config);
    this.quiet = result.state;
    switch (result.decision) {
      case 'continue':
        return { text, finish: null, late: [], released: false, closeBlock };
      case 'prompt':
        text += this.end('stop');
        this.phaseNow = 'released';
        return { text, finish: 'stop', late: [], released: true };
      case 'question':
        text += this.end('stop', false, true);
        this.asking = true;
        return { text, finish: 'stop', late: [], released: false, question: true };
      case 'settled':
        // A full-screen program waits for keys: the next message is for it (see screen-keys.ts).
        text += this.end('stop', false, false, true);
        this.asking = true;
        this.screenWaits = true;
        return { text, finish: 'stop', late: [], released: false, question: true, screen: true };
      case 'long-quiet': {
        text += this.end('stop');
        const free = this.mayReleaseQuietly(capture);
        if (free) this.phaseNow = 'released';
        return { text, finish: 'stop', late: [], released: free };
      }
      case 'length':
        text += this.end('length');
        return { text, finish: 'length', late: [], released: false };
    }
  }

  /**
   * Between two polls: the lines the source has ready (the stream's), as answer text while the
   * answer runs, as late output after it.
   */
  pump(): { text: string; late: readonly string[] } {
    if (this.phaseNow === 'released' || this.inAlternate) return { text: '', late: [] };
    const { added } = this.source.step(null);
    if (added.length === 0) return { text: '', late: [] };
    if (this.phaseNow === 'finishing') return { text: '', late: this.filter(this.withoutFlushed(added)) };
    return { text: this.give(added), late: [] };
  }

  /**
   * The answer to the command's question was typed: a new answer starts on the same output, from
   * where the last one stopped.
   */
  reply(message: string, now: number): void {
    this.echo = createEchoState(message);
    this.quiet = startQuiescence(now);
    this.fence = this.config.fence === false ? null : new FenceWriter();
    this.cap = new AnswerCap(this.config.maxLines ?? DEFAULT_MAX_LINES, this.extras.openSpill ?? null);
    this.answerText = '';
    this.blankRun = 0;
    this.lastGiven = [];
    this.finished = null;
    this.asking = false;
    // Each message may open a block of its own (the REPL the chat started, block after block).
    this.blockClosed = false;
    this.screenWaits = false;
    // Keys for a full-screen program: its next settled screen is the answer.
    this.enteredAlternate = this.inAlternate;
    if (this.inAlternate) this.altScreen = null;
    this.continuationToDrop = 0;
    this.phaseNow = 'answering';
  }

  /** History lines the next capture needs (none when the stream gives the lines). */
  historyWanted(full: number): number {
    return this.source.historyWanted(full, this.lastHeight);
  }

  private lastHeight = 0;

  /** The tick's new lines and whether anything moved; follows the alternate screen. */
  private take(capture: PaneCapture, screen: readonly string[]): { added: readonly string[]; changed: boolean } {
    this.lastHeight = capture.height;
    if (capture.alternate === true) {
      if (!this.inAlternate) {
        this.inAlternate = true;
        this.enteredAlternate = this.phaseNow === 'answering';
        this.source.alternate(true, capture);
      }
      // What the source committed before the switch (the stream's); the screen is not diffed.
      const before = this.source.step(null);
      const changed = !sameLines(screen, this.altScreen ?? []);
      this.altScreen = screen;
      this.lastOpen = [];
      return { added: before.added, changed };
    }
    let left = false;
    if (this.inAlternate) {
      this.inAlternate = false;
      this.altScreen = null;
      this.source.alternate(false, capture);
      left = true;
    }
    const step = this.source.step(capture);
    this.lastOpen = step.open;
    this.cursorBefore = step.cursorBefore ?? null;
    this.staleBelow = step.staleBelow === true;
    this.sourceCursor = step.cursor ?? null;
    return { added: step.added, changed: step.changed || left };
  }

  /** After the answer ended: late output, and whether the pane is free again. */
  private whileFinishing(added: readonly string[], observation: { changed: boolean; busy: boolean; promptBack: boolean }, capture: PaneCapture, now: number): ConversationStep {
    const late = this.filter(this.withoutFlushed(added));
    // Something moved since the question: someone answered it in the pane. A full-screen program
    // waits for keys for as long as it shows its screen, moving or not.
    if (this.screenWaits) this.asking = capture.alternate === true;
    else if (observation.changed) this.asking = false;
    const result = decide(this.quiet, observation, now, this.config, true);
    this.quiet = result.state;
    const free = result.decision === 'prompt' || (result.decision === 'long-quiet' && !this.asking && this.mayReleaseQuietly(capture));
    if (!free) return { text: '', finish: null, late, released: false };
    this.phaseNow = 'released';
    return { text: '', finish: null, late: [...late, ...this.filter(this.openWithoutPrompt())], released: true };
  }

  /** What the screen says: the prompt matcher's verdict, a question from the command, the prompt back. */
  private judge(screen: readonly string[], capture: PaneCapture): { verdict: PromptVerdict; question: boolean; promptBack: boolean } {
    const verdict = this.classify(screen);
    const question = this.isQuestion(verdict, capture);
    // A full-screen program the chat started is not back at a prompt while it shows its screen
    // (less's `:` looks like one): it waits for keys, and the pane stays with this conversation.
    const fullScreen = capture.alternate === true && (this.enteredAlternate || this.screenWaits);
    const promptBack = !question && !verdict.busy && !fullScreen && ((verdict.prompt && this.promptAtBottom(verdict, screen, capture)) || this.baselinePromptAgain(capture, screen));
    return { verdict, question, promptBack };
  }

  /**
   * Whether the command itself waits for an answer: a permission or secret prompt, a prompt of a
   * program the message started (its own foreground command), or an unrecognised line that ends
   * in a question with the cursor right after it; never the prompt the pane showed before typing.
   */
  private isQuestion(verdict: PromptVerdict, capture: PaneCapture): boolean {
    if (capture.alternate === true || verdict.busy) return false;
    // Back from a full-screen program this conversation sent keys to: its shell's prompt is the end.
    if (this.enteredAlternate && isShell(capture.command ?? '')) return false;
    const line = (capture.lines[capture.cursorRow] ?? '').trimEnd();
    if (line.trim() === '') return false;
    if (verdict.prompt && (verdict.reason === 'permission' || verdict.answer?.kind === 'secret')) return true;
    const sameProgram = this.baselineCommand === undefined || capture.command === undefined || capture.command === this.baselineCommand;
    if (sameProgram && (line.trim() === this.baselineLine || this.outputUnderPrompt(line, capture.cursorX) !== null)) return false;
    if (verdict.prompt) return !sameProgram && verdict.line.trim() === line.trim();
    const cursorAtEnd = capture.cursorX === undefined || capture.cursorX >= line.length;
    // Output that pauses on a `:` (a sleep after it) is no question: the program must be reading.
    return cursorAtEnd && QUESTION_END.test(line) && capture.waitsForInput !== false;
  }

  /**
   * The line the pane waited on before typing is back on the cursor at the bottom, under the same
   * program: a prompt corral does not know (`deploy>` of a script) has come back all the same.
   */
  private baselinePromptAgain(capture: PaneCapture, screen: readonly string[]): boolean {
    if (capture.alternate === true || this.baselineLine === '') return false;
    if (this.baselineCommand !== undefined && capture.command !== undefined && capture.command !== this.baselineCommand) return false;
    if (this.promptBackOnOwnRow()) return true;
    const line = (capture.lines[capture.cursorRow] ?? '').trim();
    let last = screen.length - 1;
    while (last >= 0 && (screen[last] ?? '').trim() === '') last -= 1;
    if ((screen[last] ?? '').trim() !== line) return false;
    const row = capture.lines[capture.cursorRow] ?? '';
    return line === this.baselineLine || this.outputUnderPrompt(row, capture.cursorX) !== null;
  }

  /**
   * The line source's own terminal shows the prompt back at its cursor (alone, or drawn after output
   * on the same row), on the last line of output: rows below it, if any, show an older screen. The
   * capture cannot always tell: its lines are wrapped rows joined, so its cursor column counts from
   * the last row of a joined line, and its cursor line, counted from the bottom, is off by the
   * joins below it (an old screen the output moved up over). The stream's row is one row, laid out
   * by the terminal that gave the answer's lines.
   */
  private promptBackOnOwnRow(): boolean {
    const own = this.sourceCursor;
    if (own === null) return false;
    const row = own.text.trimEnd();
    // The cursor's line: it ends on the cursor's row, or starts there when that row is one of an
    // old screen whose line went on below it.
    const last = (this.lastOpen.at(-1) ?? '').trimEnd();
    if (row === '' || !(last.endsWith(row) || last.startsWith(row))) return false;
    return (row === this.baselineLine && own.x >= row.length) || this.outputUnderPrompt(own.text, own.x) !== null;
  }

  /**
   * The cursor row as the output left it, when the prompt the pane waited on before typing has
   * been drawn on it, ending at the cursor: after output without a final newline (`hello$ `), or
   * over a row the output left the cursor in (`\r` at its end), whose cells under the prompt
   * show blank. Null when the row is not that (or is the bare prompt).
   */
  private outputUnderPrompt(row: string, cursorX?: number): string | null {
    const prompt = this.baselineLine;
    const width = this.promptCells;
    if (prompt === '') return null;
    if (cursorX === undefined || width === undefined) {
      // No cursor column: only output glued before a prompt at the row's end is known.
      const text = row.trimEnd();
      return text.length > prompt.length && text.endsWith(prompt) ? text.slice(0, -prompt.length).trimEnd() : null;
    }
    const start = indexOfCell(row, cursorX - width);
    const end = indexOfCell(row, cursorX);
    if (start === null || end === null || row.slice(start, end).trim() !== prompt) {
      // Cells this text cannot count (bytes that are not UTF-8, characters of disputed width): the
      // prompt at the row's end, with the cursor on that row, is still the prompt.
      const text = row.trimEnd();
      return cursorX > 0 && text.length > prompt.length && text.endsWith(prompt) ? text.slice(0, -prompt.length).trimEnd() : null;
    }
    const before = row.slice(0, start);
    const after = row.slice(end);
    if (before.trim() === '' && after.trim() === '') return null;
    return `${before}${after.trim() === '' ? '' : `${' '.repeat(width)}${after}`}`.trimEnd();
  }

  /**
   * Ends the answer now (the pane closed, the client left, the bridge stops): flushes what is on
   * screen and closes the fence. The conversation goes on watching for late output unless `release`.
   * `keepCursorLine` keeps the line the cursor waits on (a question) even where it looks like a prompt.
   */
  end(reason: FinishReason, release = false, keepCursorLine = false, screen = false): string {
    if (this.finished) {
      if (release) this.phaseNow = 'released';
      return '';
    }
    this.finished = reason;
    this.phaseNow = release ? 'released' : 'finishing';
    let text: string;
    if (this.inAlternate && this.altScreen) {
      // A full-screen program: its settled screen, once.
      const lines = trimBlankEdges(this.altScreen);
      text = this.write(this.answerText === '' ? lines : ['', ...lines]);
    } else {
      // Lines the cursor never left: keep them (a question waiting for an answer), except the
      // prompt the program returned to and unfinished progress.
      const open = this.filter(keepCursorLine ? [...this.lastOpen] : this.openWithoutPrompt());
      this.flushedOpen = this.source.commitOpen() ? [] : [...open];
      text = this.write(open);
    }
    text += this.writeRaw(this.cap.finish());
    const closing = this.fence ? this.fence.close() : '';
    let after = closing;
    if (keepCursorLine) after += `${this.answerText === '' && closing === '' ? '' : '\n'}${WAITS_FOR_INPUT}\n`;
    else if (screen) after += `${closing === '' ? '' : '\n'}${SCREEN_WAITS}\n`;
    else if (this.answerText === '' && closing === '') after = `${NO_OUTPUT}\n`;
    this.answerText += after;
    return text + after;
  }

  /**
   * The client is gone: the answer ends unsent, the pane stays watched until it is free. Returns
   * the lines of the last piece given, which the client may not have received.
   */
  abandon(): string[] {
    if (this.finished) return [];
    this.finished = 'stop';
    this.phaseNow = 'finishing';
    this.flushedOpen = [];
    return this.lastGiven;
  }

  /** The open lines less the prompt the program returned to (and only the prompt, when output is glued to it). */
  private openWithoutPrompt(): string[] {
    const open = [...this.lastOpen];
    if (!this.lastPromptBack) return open;
    // The stream leaves out a cursor row that looks as it did before typing (chrome): when that
    // row is output with the prompt glued on, the output is still the answer's.
    if (open.length === 0) return this.promptRow === null ? [] : [this.promptRow.output];
    const last = (open.pop() ?? '').trimEnd();
    if (this.promptOverOld) return open;
    // The open line may be wrapped over several rows: the cursor row is its end.
    const before = this.promptRowAtEnd(last) ?? this.outputUnderPrompt(last) ?? this.promptOverRow(last);
    if (before !== null && before.trim() !== '') open.push(before);
    return open;
  }

  /**
   * The open line less the prompt, where its end is the cursor row the prompt was seen on: in the
   * capture, or else in the line source's own terminal, which may lay out bytes that are not
   * UTF-8 otherwise than tmux did (then only the source's row matches the line it gave).
   */
  private promptRowAtEnd(last: string): string | null {
    const under = this.promptRow;
    if (under !== null && under.row !== '' && last.endsWith(under.row)) return `${last.slice(0, last.length - under.row.length)}${under.output}`.trimEnd();
    const own = this.sourceCursor;
    const row = own?.text.trimEnd() ?? '';
    if (own === null || row === '' || !last.endsWith(row)) return null;
    const output = this.outputUnderPrompt(row, own.x);
    return output === null ? null : `${last.slice(0, last.length - row.length)}${output}`.trimEnd();
  }

  /**
   * Whether the cursor's row is a row of the screen before the message (the output moved the
   * cursor back up onto it) that differs from what it showed then only in the prompt's cells: the
   * prompt was drawn over old text, none of which is output.
   */
  private overOldRow(row: string, cursorX?: number): boolean {
    const before = this.cursorBefore;
    if (before === null) return false;
    const width = this.promptCells;
    if (cursorX === undefined || width === undefined) return row.trimEnd() === before.trimEnd();
    const cut = (text: string) => {
      const start = indexOfCell(text, cursorX - width);
      const end = indexOfCell(text, cursorX);
      return start === null || end === null ? null : { left: text.slice(0, start), right: text.slice(end).trimEnd() };
    };
    const now = cut(row);
    const then = cut(before);
    if (now === null || then === null) return row.trimEnd() === before.trimEnd();
    return now.left === then.left && now.right === then.right;
  }

  /**
   * The open row with the prompt drawn over it after a `\r`, where the screen's cells could not be
   * counted (bytes that are not UTF-8): its last appearance, its cells blank, output on both sides.
   */
  private promptOverRow(row: string): string | null {
    const prompt = this.baselineLine;
    const at = prompt === '' ? -1 : row.lastIndexOf(prompt);
    if (at <= 0) return null;
    // The prompt's cells, its trailing space included, come back blank.
    const cells = Math.max(prompt.length, this.promptCells ?? prompt.length);
    const after = row.slice(at + cells);
    return `${row.slice(0, at)}${after.trim() === '' ? '' : `${' '.repeat(cells)}${after}`}`.trimEnd();
  }

  /** A prompt the program waits at: on the cursor line when it is the screen's last line, or an input box drawn above a footer. */
  private promptAtBottom(verdict: PromptVerdict, screen: readonly string[], capture: PaneCapture): boolean {
    if (capture.alternate === true) return true;
    let last = screen.length - 1;
    while (last >= 0 && (screen[last] ?? '').trim() === '') last -= 1;
    const promptLine = verdict.line.trim();
    if (last >= 0 && (screen[last] ?? '').trim() === promptLine) {
      return (capture.lines[capture.cursorRow] ?? '').trim() === promptLine;
    }
    // An agent's input box under its transcript: it shows before the agent has started too, so it
    // counts once the answer has begun.
    return this.answerText !== '';
  }

  /**
   * After the long quiet with no prompt in sight: free the pane unless a command started from a
   * prompt corral knows is still in the foreground (`sleep 300` under bash).
   */
  private mayReleaseQuietly(capture: PaneCapture): boolean {
    if (!this.baselinePrompt) return true;
    if (capture.alternate === true) return false;
    return this.baselineCommand === undefined || capture.command === undefined || capture.command === this.baselineCommand;
  }

  private withoutFlushed(lines: readonly string[]): readonly string[] {
    if (this.flushedOpen.length === 0 || lines.length === 0) return lines;
    let skip = 0;
    while (skip < lines.length && this.flushedOpen.length > 0 && lines[skip] === this.flushedOpen[0]) {
      this.flushedOpen.shift();
      skip += 1;
    }
    this.flushedOpen = [];
    return lines.slice(skip);
  }

  /** Drops the echo of the message, progress lines and blank lines at the edges of the answer. */
  private filter(raw: readonly string[]): string[] {
    if (raw.length === 0) return [];
    const echo = removeEcho(this.echo, raw);
    this.echo = echo.state;
    const lines: string[] = [];
    for (const line of echo.lines) {
      if (isProgressLine(line)) continue;
      if (this.continuationToDrop > 0 && lines.length === 0 && this.answerText === '' && CONTINUATION.test(line.trim())) {
        this.continuationToDrop -= 1;
        continue;
      }
      if (line.trim() === '') {
        // Blank lines wait for the next text line, so the answer never ends in blanks.
        if (lines.length > 0 || this.answerText !== '') this.blankRun += 1;
        continue;
      }
      for (; this.blankRun > 0; this.blankRun--) lines.push('');
      lines.push(line);
    }
    return lines;
  }

  /** New output for the answer: filtered, except past the cap, where every line is only kept. */
  private give(raw: readonly string[]): string {
    return this.cap.capped ? this.write(raw) : this.write(this.filter(raw));
  }

  /** Answer lines up to the cap; past it they are counted and spilled (see AnswerCap). */
  private write(lines: readonly string[]): string {
    return this.writeRaw(this.cap.take(lines));
  }

  private writeRaw(lines: readonly string[]): string {
    if (lines.length === 0) return '';
    const text = this.fence ? this.fence.write(lines) : lines.map((line) => `${line}\n`).join('');
    this.answerText += text;
    this.lastGiven = [...lines];
    return text;
  }
}

function visibleScreen(capture: PaneCapture): string[] {
  return capture.lines.slice(Math.max(0, capture.lines.length - capture.height));
}

function trimBlankEdges(lines: readonly string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start] ?? '').trim() === '') start += 1;
  while (end > start && (lines[end - 1] ?? '').trim() === '') end -= 1;
  return lines.slice(start, end);
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// Characters two cells wide (East Asian wide and fullwidth, emoji) and characters of no width
// (combining marks, joiners, variation selectors): enough to find a cursor column in a row's text.
const WIDE_CHAR = /\p{Extended_Pictographic}|[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;
const ZERO_WIDTH = /^(?:\p{Mn}|\p{Me}|[\u200b-\u200f]|[\ufe00-\ufe0f])$/u;

/** The index in `row` where cell `column` starts (the row's end past its text); null inside a wide character or before 0. */
function indexOfCell(row: string, column: number): number | null {
  if (column < 0) return null;
  let cells = 0;
  let index = 0;
  for (const char of row) {
    if (cells === column && !ZERO_WIDTH.test(char)) return index;
    if (cells > column) return null;
    cells += ZERO_WIDTH.test(char) ? 0 : WIDE_CHAR.test(char) ? 2 : 1;
    index += char.length;
  }
  if (cells > column) return null;
  return index + (column - cells);
}
