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

const ZERO_WIDTH_SPACE = '\u200b';

/**
 * Streaming fence: the fence opens before the rest of the output is known, so a content line that
 * could close it (only backticks, as many as the fence or more, at most three spaces before) gets
 * a zero-width space in front. That keeps it inside the block and looks the same.
 */
export class FenceWriter {
  private open = false;

  constructor(
    private readonly fence = '```',
    private readonly info = '',
  ) {}

  /** Text for the next lines: opens the fence before the first line. */
  write(lines: readonly string[]): string {
    if (lines.length === 0) return '';
    let out = '';
    if (!this.open) {
      out += `${this.fence}${this.info}\n`;
      this.open = true;
    }
    for (const line of lines) out += `${this.defuse(line)}\n`;
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

  private defuse(line: string): string {
    const m = /^( {0,3})(`+)\s*$/.exec(line);
    if (m && (m[2] ?? '').length >= this.fence.length) return `${m[1] ?? ''}${ZERO_WIDTH_SPACE}${line.slice((m[1] ?? '').length)}`;
    return line;
  }
}
