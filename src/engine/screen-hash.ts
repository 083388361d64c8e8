// Screen normalisation and hashing. The whole visible screen counts: a change in any line is
// output; trailing spaces and trailing blank lines are not.

import { createHash } from 'node:crypto';

/** Splits captured text into lines without trailing spaces, dropping trailing blank lines. */
export function normaliseScreen(text: string): string[] {
  const lines = text.split('\n').map((line) => line.replace(/[ \t\r]+$/, ''));
  let end = lines.length;
  while (end > 0 && lines[end - 1] === '') end--;
  return lines.slice(0, end);
}

export function hashLines(lines: readonly string[]): string {
  return createHash('sha1').update(lines.join('\n')).digest('hex');
}

export function hashScreen(text: string): string {
  return hashLines(normaliseScreen(text));
}
