// What a pane printed after its answer ended (the client went away, the answer reached its end
// while the command ran on): it opens the pane's next answer under a note, fenced like an answer.

export interface LateOutput {
  lines: string[];
  /** Older lines left out to keep the block bounded. */
  dropped: number;
  /** The answer was cut off (the client went away): its last lines are given again. */
  cut: boolean;
  /** Where the left-out lines are (a file), or why they could not be kept. */
  where?: { readonly path: string } | { readonly error: string };
}

const LATE_NOTE = 'Printed after the previous answer ended:';
const CUT_NOTE = 'Printed after the previous answer was cut off (from its last lines, which may not have reached you):';

/** The late output that opens the next answer: a note, then the lines (fenced like an answer). */
export function formatLate(late: Pick<LateOutput, 'lines' | 'dropped' | 'where'> & { readonly cut?: boolean }, fence: boolean): string {
  const base = late.cut ? CUT_NOTE : LATE_NOTE;
  const where = late.where === undefined ? '' : 'path' in late.where ? `; they are in ${late.where.path}` : `; they could not be saved (${late.where.error})`;
  const note = late.dropped > 0 ? `${base} (${late.dropped} earlier lines left out${where})` : base;
  const { lines } = late;
  if (!fence) return `${note}\n${lines.map((line) => `${line}\n`).join('')}\n`;
  const longest = Math.max(2, ...lines.map((line) => /^ {0,3}(`+)\s*$/.exec(line)?.[1]?.length ?? 0));
  const marks = '`'.repeat(longest + 1);
  return `${note}\n${marks}\n${lines.map((line) => `${line}\n`).join('')}${marks}\n\n`;
}
