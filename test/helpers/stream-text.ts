// Turns "repaint + live output" as a viewer received it back into plain text, for assertions.
/* eslint-disable no-control-regex */

/** Text a viewer sees: the repaint's rows up to the cursor, then everything that followed. */
export function viewerText(repaint: string, live: string): string {
  const body = repaint.replace(/^\x1bc\x1b\[H\x1b\[2J/, '');
  const cursor = /\x1b\[0m\x1b\[(\d+);(\d+)H(?:\x1b\[\?25l)?$/.exec(body);
  if (!cursor) throw new Error(`not a repaint: ${JSON.stringify(repaint.slice(-40))}`);
  const rows = body.slice(0, cursor.index).split('\r\n').map(stripEscapes);
  const y = Number(cursor[1]) - 1;
  const x = Number(cursor[2]) - 1;
  const before = [...rows.slice(0, y), (rows[y] ?? '').slice(0, x)].join('\n');
  return before + stripEscapes(live).replaceAll('\r', '');
}

export function stripEscapes(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>c]/g, '');
}

/** Numbers of the complete "line N" rows, in order. */
export function numberedLines(text: string): number[] {
  return text
    .split('\n')
    .map((row) => /^line (\d+)$/.exec(row.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]));
}

/** Throws unless the numbers run n, n+1, n+2 ... with no gap and no repeat. */
export function expectContiguous(numbers: readonly number[], atLeast: number): void {
  if (numbers.length < atLeast) throw new Error(`only ${numbers.length} numbered lines (wanted ${atLeast})`);
  for (let i = 1; i < numbers.length; i++) {
    if (numbers[i] !== (numbers[i - 1] as number) + 1) {
      throw new Error(
        `line ${numbers[i - 1]} is followed by line ${numbers[i]} (index ${i}): ${numbers.slice(Math.max(0, i - 5), i + 5).join(',')}`,
      );
    }
  }
}

export const GENERATOR =
  'i=0; while :; do for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do i=$((i+1)); echo "line $i"; done; sleep 0.01; done';
