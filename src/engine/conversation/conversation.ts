// One exchange with a pane, without I/O: fed the baseline capture and then one capture per
// poll, it returns the answer text to send (sanitized, filtered and fenced), says when the answer
// is complete, and then keeps watching until the pane is free again (its program back at its
// prompt), handing over what the pane printed after the answer ended. run-conversation.ts does
// the typing and the polling around it.
//
// Phases: answering -> finishing (the answer has ended, the command still runs: the pane stays
// reserved and its output is kept as late output) -> released.

import type { PromptVerdict } from '../types.js';
import { classifyScreen } from '../prompt/matcher.js';
import { createDiffState, diffCapture, type Capture, type DiffState } from './screen-diff.js';
import { createEchoState, removeEcho, type EchoState } from './echo.js';
import { isProgressLine } from './progress-filter.js';
import { FenceWriter } from './fence.js';
import { decide, startQuiescence, type QuiescenceConfig, type QuiescenceState } from './quiescence.js';

export interface ConversationConfig extends QuiescenceConfig {
  /** Wrap the output in a fenced code block (default true). */
  readonly fence?: boolean;
}

export interface PaneCapture extends Capture {
  /** Rows of the visible screen (the last `height` lines are on screen). */
  readonly height: number;
  /** The pane shows the alternate screen (vim, less, top, a full-screen TUI). */
  readonly alternate?: boolean;
  /** The pane's foreground command as tmux names it (`bash`, `sleep` ...). */
  readonly command?: string;
}

export type FinishReason = 'stop' | 'length';

export type ConversationPhase = 'answering' | 'finishing' | 'released';

/** Lines kept above the anchor in later captures: the anchor block plus room for a fast scroll. */
const HISTORY_MARGIN = 300;

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

export class Conversation {
  private diff: DiffState;
  private echo: EchoState;
  private quiet: QuiescenceState;
  private readonly fence: FenceWriter | null;
  private blankRun = 0;
  private answerText = '';
  private finished: FinishReason | null = null;
  private phaseNow: ConversationPhase = 'answering';
  private lastOpen: readonly string[] = [];
  private lastPromptBack = false;
  private rowsFromAnchor: number | null = null;
  private height = 0;
  /** Open lines flushed into the answer when it ended: not late output when they are committed later. */
  private flushedOpen: string[] = [];
  // Alternate screen: the answer is a snapshot of the settled screen, never a stream of redraws.
  private inAlternate: boolean;
  private enteredAlternate = false;
  private savedDiff: DiffState | null = null;
  private altScreen: readonly string[] | null = null;
  private readonly baselinePrompt: boolean;
  private readonly baselineCommand: string | undefined;
  /** Enter was pressed once more to run a REPL block; its empty continuation line is not output. */
  private blockClosed = false;
  private continuationToDrop = 0;

  constructor(
    baseline: PaneCapture,
    message: string,
    now: number,
    private readonly config: ConversationConfig,
    private readonly classify: Classifier = (lines) => classifyScreen(lines),
  ) {
    this.diff = createDiffState(baseline);
    this.echo = createEchoState(message);
    this.quiet = startQuiescence(now);
    this.fence = config.fence === false ? null : new FenceWriter();
    this.inAlternate = baseline.alternate === true;
    this.altScreen = this.inAlternate ? visibleScreen(baseline) : null;
    this.baselinePrompt = this.classify(visibleScreen(baseline)).prompt;
    this.baselineCommand = baseline.command;
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

  observe(capture: PaneCapture, now: number): ConversationStep {
    if (this.phaseNow === 'released') return NOTHING;
    const screen = visibleScreen(capture);
    let changed: boolean;
    let added: readonly string[] = [];
    if (capture.alternate === true) {
      if (!this.inAlternate) {
        this.inAlternate = true;
        this.enteredAlternate = this.phaseNow === 'answering';
        this.savedDiff = this.diff;
      }
      changed = !sameLines(screen, this.altScreen ?? []);
      this.altScreen = screen;
      this.lastOpen = [];
    } else {
      let left = false;
      if (this.inAlternate) {
        // Back from a full-screen program: the normal screen is as it was, so the differ goes on
        // from where it stood; nothing of the program's screen is kept.
        this.inAlternate = false;
        this.altScreen = null;
        this.diff = this.savedDiff ?? createDiffState(capture);
        this.savedDiff = null;
        left = true;
      }
      const step = diffCapture(this.diff, capture);
      this.diff = step.state;
      this.lastOpen = step.open;
      this.rowsFromAnchor = step.rowsFromAnchor;
      changed = step.changed || left;
      added = step.added;
    }
    this.height = capture.height;

    const verdict = this.classify(screen);
    const promptBack = verdict.prompt && !verdict.busy && this.promptAtBottom(verdict, screen, capture);
    this.lastPromptBack = promptBack;

    if (this.phaseNow === 'finishing') {
      const late = this.filter(this.withoutFlushed(added));
      const result = decide(this.quiet, { changed, busy: verdict.busy, promptBack }, now, this.config, true);
      this.quiet = result.state;
      const free = result.decision === 'prompt' || (result.decision === 'long-quiet' && this.mayReleaseQuietly(capture));
      if (!free) return { text: '', finish: null, late, released: false };
      this.phaseNow = 'released';
      return { text: '', finish: null, late: [...late, ...this.filter(this.openWithoutPrompt())], released: true };
    }

    let text = this.write(this.filter(added));
    let closeBlock = false;
    if (!this.blockClosed && this.answerText === '' && capture.alternate !== true && waitsInReplBlock(capture.lines, capture.cursorRow)) {
      this.blockClosed = true;
      this.continuationToDrop = 1;
      closeBlock = true;
    }
    const settledEnds = this.inAlternate && this.enteredAlternate;
    const result = decide(this.quiet, { changed, busy: verdict.busy, promptBack, settledEnds }, now, this.config);
    this.quiet = result.state;
    switch (result.decision) {
      case 'continue':
        return { text, finish: null, late: [], released: false, closeBlock };
      case 'prompt':
        text += this.end('stop');
        this.phaseNow = 'released';
        return { text, finish: 'stop', late: [], released: true };
      case 'settled':
        text += this.end('stop');
        return { text, finish: 'stop', late: [], released: false };
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
   * History lines the next capture needs: enough to show the anchor above the new output with a
   * margin, rather than the whole history every poll. Everything until the first capture, or
   * when the anchor is lost.
   */
  historyWanted(full: number): number {
    if (this.rowsFromAnchor === null) return full;
    return Math.min(full, Math.max(0, this.rowsFromAnchor + HISTORY_MARGIN - this.height));
  }

  /**
   * Ends the answer now (the pane closed, the client left, the bridge stops): flushes what is on
   * screen and closes the fence. The conversation goes on watching for late output unless `release`.
   */
  end(reason: FinishReason, release = false): string {
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
      const open = this.filter(this.openWithoutPrompt());
      this.flushedOpen = [...open];
      text = this.write(open);
    }
    const closing = this.fence ? this.fence.close() : '';
    this.answerText += closing;
    return text + closing;
  }

  /** The client is gone: the answer ends unsent, the pane stays watched until it is free. */
  abandon(): void {
    if (this.finished) return;
    this.finished = 'stop';
    this.phaseNow = 'finishing';
    this.flushedOpen = [];
  }

  private openWithoutPrompt(): string[] {
    const open = [...this.lastOpen];
    if (this.lastPromptBack && open.length > 0) open.pop();
    return open;
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

  private write(lines: readonly string[]): string {
    if (lines.length === 0) return '';
    const text = this.fence ? this.fence.write(lines) : lines.map((line) => `${line}\n`).join('');
    this.answerText += text;
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
