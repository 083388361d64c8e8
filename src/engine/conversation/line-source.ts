// Where an answer's lines come from: the pane's own output stream through a terminal emulator
// (stream-lines.ts), or, where corral has no stream of the pane, its screen captures through the
// differ (screen-diff.ts). Both say the same thing: lines the cursor has left (new, in order),
// the lines still open, and whether anything moved.

import { createDiffState, diffCapture, type Capture, type DiffState } from './screen-diff.js';
import type { StreamLines } from './stream-lines.js';

export interface SourceStep {
  /** Lines committed since the last step, in order. */
  readonly added: readonly string[];
  /** Lines the cursor has not left yet (they may still change). */
  readonly open: readonly string[];
  /** Whether the output moved since the last step that was given a capture. */
  readonly changed: boolean;
  /** What the cursor's row showed before the output moved the cursor back onto it (see StreamStep); null when unknown. */
  readonly cursorBefore?: string | null;
  /** Every row with text below the cursor's line is the screen from before the message (not output). */
  readonly staleBelow?: boolean;
  /** The cursor's row as the source's own terminal shows it, and its column there (a stream only). */
  readonly cursor?: { readonly text: string; readonly x: number } | null;
}

export interface LineSource {
  /**
   * New lines. `capture` is the tick's screen (the differ needs it); without one (a flush between
   * ticks) only what is known already comes out.
   */
  step(capture: Capture | null): SourceStep;
  /** History lines the next capture needs (0 when the stream supplies the lines). */
  historyWanted(full: number, height: number): number;
  /** The program switched to the alternate screen (true) or back (false). */
  alternate(entering: boolean, capture: Capture): void;
  /**
   * The answer ended with the open lines in it: do not give them again unless they change. False
   * when the source cannot tell (then Conversation skips them when they come).
   */
  commitOpen(): boolean;
}

/** Lines above the anchor kept in later captures: the anchor block plus room for a fast scroll. */
const HISTORY_MARGIN = 300;

/** Lines from screen captures (with history), found by the screen differ. */
export class ScreenDiffSource implements LineSource {
  private diff: DiffState;
  private saved: DiffState | null = null;
  private lastOpen: readonly string[] = [];
  private rowsFromAnchor: number | null = null;
  private pendingChange = false;

  constructor(baseline: Capture) {
    this.diff = createDiffState(baseline);
  }

  step(capture: Capture | null): SourceStep {
    if (capture === null) return { added: [], open: this.lastOpen, changed: false };
    const step = diffCapture(this.diff, capture);
    this.diff = step.state;
    this.lastOpen = step.open;
    this.rowsFromAnchor = step.rowsFromAnchor;
    const changed = step.changed || this.pendingChange;
    this.pendingChange = false;
    return { added: step.added, open: step.open, changed };
  }

  historyWanted(full: number, height: number): number {
    if (this.rowsFromAnchor === null) return full;
    return Math.min(full, Math.max(0, this.rowsFromAnchor + HISTORY_MARGIN - height));
  }

  alternate(entering: boolean, capture: Capture): void {
    if (entering) {
      this.saved = this.diff;
      this.lastOpen = [];
      return;
    }
    // Back from a full-screen program: the normal screen is as it was, so the differ goes on from
    // where it stood; nothing of the program's screen is kept.
    this.diff = this.saved ?? createDiffState(capture);
    this.saved = null;
    this.pendingChange = true;
  }

  commitOpen(): boolean {
    return false;
  }
}

/** Lines from the pane's output stream: every line, however long or fast the output. */
export class StreamSource implements LineSource {
  /** Lines of a stream replaced after a gap, and the note that says so, waiting for the next step. */
  private carried: string[] = [];
  private gapChanged = false;

  constructor(private lines: StreamLines) {}

  write(bytes: Buffer): Promise<void> {
    return this.lines.write(bytes);
  }

  settled(): Promise<void> {
    return this.lines.settled();
  }

  /**
   * The stream had a gap (tmux paused the pane): what the old one had goes out, then a line that
   * says so, then the new stream from the screen at the gap.
   */
  restart(next: StreamLines, why: string): void {
    const rest = this.lines.step(false).added;
    this.carried = this.carried.concat(rest, [`[corral: some output is missing here: ${why}]`]);
    this.gapChanged = true;
    this.lines.dispose();
    this.lines = next;
  }

  /** The stream ended while the pane lives on (its tmux connection was lost): say so once. */
  ended(why: string | null): void {
    if (why !== null) this.carried.push(`[corral: the output stops being read here: ${why}]`);
  }

  dispose(): void {
    this.lines.dispose();
  }

  step(capture: Capture | null): SourceStep {
    const step = this.lines.step(capture !== null);
    const changed = step.changed || this.gapChanged;
    if (capture !== null) this.gapChanged = false;
    const cursor = { cursorBefore: step.cursorBefore, staleBelow: step.staleBelow, cursor: step.cursor };
    if (this.carried.length === 0) return { added: step.added, open: step.open, changed, ...cursor };
    const added = [...this.carried, ...step.added];
    this.carried = [];
    return { added, open: step.open, changed, ...cursor };
  }

  historyWanted(): number {
    return 0;
  }

  alternate(): void {
    // The emulator follows the alternate screen itself.
  }

  commitOpen(): boolean {
    this.lines.commitOpen();
    return true;
  }
}
