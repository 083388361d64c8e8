// How long an answer may grow: past the cap, lines stop going to the chat; they are counted, the
// last few are kept for the end of the answer, and every line of the answer goes to a file whose
// path the answer gives, in one line, with how many lines were left out.

/** Where the lines of an answer past the cap are kept (a file; tests pass a list). */
export interface SpillTarget {
  /** Where a person finds them (a path). */
  readonly where: string;
  write(lines: readonly string[]): void;
  close(): void;
}

/** Opens a new spill for an answer; throws when it cannot (the note then says so). */
export type OpenSpill = () => SpillTarget;

/** Lines kept after the note: the end of the output is often what matters (an error, a summary). */
export const TAIL_LINES = 20;

export class AnswerCap {
  /** The lines given so far, until they are written to the spill. */
  private given: string[] = [];
  private givenCount = 0;
  private spill: SpillTarget | null = null;
  private spillError: string | null = null;
  private over = 0;
  private tail: string[] = [];

  constructor(
    private readonly maxLines: number,
    private readonly openSpill: OpenSpill | null,
  ) {}

  /** Whether the answer has passed the cap. */
  get capped(): boolean {
    return this.over > 0;
  }

  /** The lines that still go to the chat; the rest are counted, spilled and kept as the tail. */
  take(lines: readonly string[]): readonly string[] {
    if (lines.length === 0) return lines;
    const room = Math.max(0, this.maxLines - this.givenCount);
    const shown = room >= lines.length ? lines : lines.slice(0, room);
    this.givenCount += shown.length;
    for (const line of shown) this.given.push(line);
    if (shown.length === lines.length) return shown;
    const rest = lines.slice(shown.length);
    if (this.over === 0) this.startSpill();
    this.over += rest.length;
    this.spill?.write(rest);
    this.tail = this.tail.concat(rest.length > TAIL_LINES ? rest.slice(-TAIL_LINES) : rest);
    if (this.tail.length > TAIL_LINES * 4) this.tail = this.tail.slice(-TAIL_LINES);
    return shown;
  }

  /** The note and the last lines, once, at the end of a capped answer ([] otherwise). */
  finish(): string[] {
    if (this.over === 0) return [];
    const tail = this.tail.slice(-TAIL_LINES);
    const left = this.over - tail.length;
    const total = this.givenCount + this.over;
    const where = this.spill
      ? `all ${count(total)} lines are in ${this.spill.where}`
      : `they could not be saved (${this.spillError ?? 'no place to save them'})`;
    this.spill?.close();
    this.spill = null;
    this.over = 0;
    const note = `[corral: ${count(left)} lines left out here (an answer holds at most ${count(this.maxLines)} lines); ${where}]`;
    return left > 0 ? [note, ...tail] : tail;
  }

  private startSpill(): void {
    if (!this.openSpill) return;
    try {
      this.spill = this.openSpill();
      this.spill.write(this.given);
    } catch (error) {
      this.spill = null;
      this.spillError = (error as Error).message;
    }
    this.given = [];
  }
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
