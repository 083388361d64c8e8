// One exchange with a pane, without I/O: fed the baseline capture and then one capture per
// poll, it returns the answer text to send (already sanitized, filtered and fenced) and says
// when the answer is complete. run-conversation.ts does the typing and the polling around it.

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
}

export type FinishReason = 'stop' | 'length';

/** Lines kept above the anchor in later captures: the anchor block plus room for a fast scroll. */
const HISTORY_MARGIN = 300;

export interface ConversationStep {
  /** Answer text to send now ('' when nothing new). */
  readonly text: string;
  /** Set when the answer is complete; `text` then includes the closing fence. */
  readonly finish: FinishReason | null;
}

export type Classifier = (lines: readonly string[]) => PromptVerdict;

export class Conversation {
  private diff: DiffState;
  private echo: EchoState;
  private quiet: QuiescenceState;
  private readonly fence: FenceWriter | null;
  private blankRun = 0;
  private answerText = '';
  private finished: FinishReason | null = null;
  private lastOpen: readonly string[] = [];
  private lastPromptBack = false;
  private rowsFromAnchor: number | null = null;
  private height = 0;

  constructor(
    baseline: Capture,
    message: string,
    now: number,
    private readonly config: ConversationConfig,
    private readonly classify: Classifier = (lines) => classifyScreen(lines),
  ) {
    this.diff = createDiffState(baseline);
    this.echo = createEchoState(message);
    this.quiet = startQuiescence(now);
    this.fence = config.fence === false ? null : new FenceWriter();
  }

  /** Everything sent so far. */
  get answer(): string {
    return this.answerText;
  }

  get finishReason(): FinishReason | null {
    return this.finished;
  }

  observe(capture: PaneCapture, now: number): ConversationStep {
    if (this.finished) return { text: '', finish: this.finished };
    const step = diffCapture(this.diff, capture);
    this.diff = step.state;
    this.lastOpen = step.open;
    this.rowsFromAnchor = step.rowsFromAnchor;
    this.height = capture.height;
    let text = this.emit(step.added);

    const screen = capture.lines.slice(Math.max(0, capture.lines.length - capture.height));
    const verdict = this.classify(screen);
    const cursorLine = (capture.lines[capture.cursorRow] ?? '').trim();
    const promptBack = verdict.prompt && !verdict.busy && cursorLine !== '' && verdict.line.trim() === cursorLine;
    this.lastPromptBack = promptBack;
    // The fast end needs an answer first: an agent that has not started yet still shows its prompt.
    const answered = this.answerText !== '';
    const result = decide(this.quiet, { changed: step.changed, busy: verdict.busy, promptBack: promptBack && answered }, now, this.config);
    this.quiet = result.state;
    if (result.decision === 'continue') return { text, finish: null };
    text += this.end(result.decision);
    return { text, finish: result.decision };
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

  /** Ends the answer now (e.g. the pane closed): flushes what is on screen and closes the fence. */
  end(reason: FinishReason): string {
    if (this.finished) return '';
    this.finished = reason;
    // Lines the cursor never left: keep them (a question waiting for an answer), except the
    // prompt the program returned to and unfinished progress.
    let open = [...this.lastOpen];
    if (this.lastPromptBack && open.length > 0) open = open.slice(0, -1);
    const flushed = this.emit(open);
    const closing = this.fence ? this.fence.close() : '';
    this.answerText += closing;
    return flushed + closing;
  }

  private emit(raw: readonly string[]): string {
    if (raw.length === 0) return '';
    const echo = removeEcho(this.echo, raw);
    this.echo = echo.state;
    const lines: string[] = [];
    for (const line of echo.lines) {
      if (isProgressLine(line)) continue;
      if (line.trim() === '') {
        // Blank lines wait for the next text line, so the answer never ends in blanks.
        if (lines.length > 0 || this.answerText !== '') this.blankRun += 1;
        continue;
      }
      for (; this.blankRun > 0; this.blankRun--) lines.push('');
      lines.push(line);
    }
    if (lines.length === 0) return '';
    const text = this.fence ? this.fence.write(lines) : lines.map((line) => `${line}\n`).join('');
    this.answerText += text;
    return text;
  }
}
