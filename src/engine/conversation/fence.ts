// Terminal output goes to the chat inside a fenced code block. The fence must survive output that
// contains fences itself: when the whole text is known, the fence is longer than any backtick run
// that starts a line; while streaming, lines that would close the open fence are defused.

const BACKTICK_RUN = /^ {0,3}(`{3,})/;

/** A fence longer than every backtick fence the lines contain (at least three backticks). */
export function chooseFence(lines: readonly string[]): string {
  let longest = 0;
  for (const line of lines) {
    const m = BACKTICK_RUN.exec(line);
    if (m) longest = Math.max(longest, (m[1] ?? '').length);
  }
  return '`'.repeat(Math.max(3, longest + 1));
}

/** Wraps known text in a fence that its content cannot close. */
export function fenceBlock(lines: readonly string[], info = ''): string {
  if (lines.length === 0) return '';
  const fence = chooseFence(lines);
  return `${fence}${info}\n${lines.join('\n')}\n${fence}\n`;
}

/**
 * Streaming fence: the fence opens before the rest of the output is known. A content line that
 * could close it (only backticks, as many as the fence or more, at most three spaces before) ends
 * the block there and opens a longer one for it and what follows: every line stays as printed,
 * with nothing invisible added.
 */
export class FenceWriter {
  private open = false;
  private fence: string;

  constructor(
    fence = '```',
    private readonly info = '',
  ) {
    this.fence = fence;
  }

  /** Text for the next lines: opens the fence before the first line. */
  write(lines: readonly string[]): string {
    if (lines.length === 0) return '';
    let out = '';
    for (const line of lines) {
      const closer = /^ {0,3}(`+)\s*$/.exec(line)?.[1]?.length ?? 0;
      if (this.open && closer >= this.fence.length) {
        out += `${this.fence}\n`;
        this.open = false;
      }
      if (closer >= this.fence.length) this.fence = '`'.repeat(closer + 1);
      if (!this.open) {
        out += `${this.fence}${this.info}\n`;
        this.open = true;
      }
      out += `${line}\n`;
    }
    return out;
  }

  /** Closing fence, or '' when nothing was written. */
  close(): string {
    if (!this.open) return '';
    this.open = false;
    return `${this.fence}\n`;
  }

  get isOpen(): boolean {
    return this.open;
  }
}
